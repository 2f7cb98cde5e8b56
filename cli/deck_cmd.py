"""Deck checks and decklists at the command line (issue 30 items 3–4): ``tourney deck
draw`` (the head judge draws the tables of a round verifiably), ``deck start`` / ``deck
end`` (a check's start, end, outcome and the penalty it led to), ``deck correct`` (a fixed
list citing the old one and the penalty), ``deck publish`` (lists made public, each checked
against its registration; ``--top K`` the first K of the final standings at once), ``deck
deadline`` (the organizer's deadline for players' own lists) and ``deck verify`` (anyone
checks a copy against the log), next
to ``deck register|check`` (``cli.floor_cmd``, whose ``deck_app`` this module extends).

Owns: option shapes and output; every rule is the ledger's
(``ledger.formats.officiating.deck_rules``).

May import: ``typer``, ``cli.common``, ``cli.floor_cmd``, ``ledger.*``, ``usecases.decklists``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cli.common import JsonOpt, KeyOpt, Session, events_brief, read_file_bytes, write_result
from cli.floor_cmd import RoundOpt, TableOpt, _one, deck_app
from ledger.errors import UsageError
from ledger.formats.officiating.deck_floor import DeckCheckOutcome

_Opt = typer.Option
__all__ = ["deck_app"]


@deck_app.command("draw")
def deck_draw(
    ctx: typer.Context, round_no: RoundOpt,
    count: Annotated[int, _Opt("--count", metavar="K", min=1, help=(
        "How many tables to check: the first K of the drawn order."))],
    seed_seq: Annotated[int | None, _Opt("--seed-seq", metavar="SEQ", min=1,
                                         show_default=False, help=(
        "The seed to use (default: the one recorded for the draw, else the newest "
        "fresh one); it must be recorded after the round's pairing."))] = None,
    key: KeyOpt = None, json: JsonOpt = False,
) -> None:
    """Draw the tables of a round to deck-check, verifiably (head judge, DRAW-v1 context
    <log>/R<n>/deck-checks).

    Record a seed after the pairing is posted first (tourney seed record --ctx
    <log>/R<n>/deck-checks, or reveal a commitment made for that context); the audit
    re-derives the draw from it.

    Example: tourney deck draw --round 2 --count 3 --key hj.pem
    """
    from ledger.formats.officiating.deck_commands import draw_deck_checks

    s = Session(ctx, key=key, json=json)
    ev, _st = _one(s, lambda t, time, signer: draw_deck_checks(
        t, signer, time, round_no=round_no, count=count, seed_seq=seed_seq))
    b = ev.body
    picked = list(b.result[:count])
    s.emit(write_result(ev, ctx=b.ctx, seed_seq=b.seed_seq, tables=picked,
                        order=list(b.result)),
           [f"seq {ev.seq}: deck checks of round {round_no} drawn (seed seq {b.seed_seq})",
            "tables: " + ", ".join(str(x) for x in picked),
            "then (spares): " + (", ".join(str(x) for x in b.result[count:]) or "none")])


@deck_app.command("start")
def deck_start(
    ctx: typer.Context, round_no: RoundOpt, table: TableOpt,
    draw_seq: Annotated[int | None, _Opt("--draw", metavar="SEQ", min=1, show_default=False,
                                         help="The deck-check draw that chose the table.")
                        ] = None,
    key: KeyOpt = None, json: JsonOpt = False,
) -> None:
    """Start a deck check at a table of the round in progress (judge; its time is the
    start).

    Example: tourney deck start --round 2 --table 4 --draw 57 --key judge.pem
    """
    from ledger.formats.officiating.deck_commands import start_deck_check

    s = Session(ctx, key=key, json=json)
    ev, _st = _one(s, lambda t, time, signer: start_deck_check(
        t, signer, time, round_no=round_no, table=table, draw_seq=draw_seq))
    s.emit(write_result(ev), f"seq {ev.seq}: deck check of round {round_no} table {table} "
           f"started at {ev.time}")


@deck_app.command("end")
def deck_end(
    ctx: typer.Context,
    start_seq: Annotated[int, typer.Argument(metavar="START_SEQ", min=1,
                                             help="Seq of the check's start.")],
    outcome: Annotated[DeckCheckOutcome, _Opt("--outcome", help=(
        "matches, mismatch (a deck differs from its registration) or illegal."))],
    penalty_seq: Annotated[int | None, _Opt("--penalty", metavar="SEQ", min=1,
                                            show_default=False, help=(
        "The penalty the check led to (issued during the check)."))] = None,
    note: Annotated[str, _Opt("--note", metavar="TEXT", help="What was found.")] = "",
    key: KeyOpt = None, json: JsonOpt = False,
) -> None:
    """End a deck check with its outcome (judge); start to end is the table's extra
    preparation time (BR-EXT-3).

    Example: tourney deck end 58 --outcome mismatch --penalty 60 --key judge.pem
    """
    import msgspec

    from ledger.formats.officiating.call_extension import propose_check
    from ledger.formats.officiating.deck_commands import check_minutes, end_deck_check

    s = Session(ctx, key=key, json=json)
    ev, st = _one(s, lambda t, time, signer: end_deck_check(
        t, signer, time, start_seq=start_seq, outcome=outcome, penalty_seq=penalty_seq,
        note=note.strip()))
    rec = st.fmt.officiating.deck_checks[start_seq]
    minutes = check_minutes(rec.started, rec.ended)
    p = propose_check(st, start_seq, rec)
    offer = f"proposed extension: {p.amount} ({p.words}; {p.rule}); confirm: tourney " \
        f"round extend --deck-check {start_seq}" if p.minutes else \
        f"no extension proposed ({p.words}; {p.rule})"
    s.emit(write_result(ev, round=rec.round, table=rec.table, minutes=minutes,
                        outcome=outcome.value, proposal=msgspec.to_builtins(p)),
           [f"seq {ev.seq}: deck check of round {rec.round} table {rec.table} ended: "
            f"{outcome.value}; took {minutes} min (the table's extra preparation time)",
            offer])


def _list_text(path: Path) -> str:
    data = read_file_bytes(path, "deck list")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"{path} is not UTF-8 text",
                         hint="save the list as UTF-8 (its bytes are what is hashed)") from None


@deck_app.command("correct")
def deck_correct(
    ctx: typer.Context,
    number: Annotated[int, typer.Argument(metavar="NUMBER", min=1, help="Player number.")],
    replaces: Annotated[int, _Opt("--replaces", metavar="SEQ", min=1, help=(
        "Seq of the registration (or correction) it replaces."))],
    penalty: Annotated[int, _Opt("--penalty", metavar="SEQ", min=1, help=(
        "The penalty given for it (002 PG 3.1.1.2-3.1.1.4)."))],
    file: Annotated[Path, _Opt("--file", metavar="PATH", help="The corrected list.")],
    hash_only: Annotated[bool, _Opt("--hash-only", help=(
        "Record only the hash of the file (the list stays off the log)."))] = False,
    key: KeyOpt = None, json: JsonOpt = False,
) -> None:
    """Record a corrected deck list (judge; BR-DECK-1: the registration never changes, the
    correction cites it and the penalty).

    Example: tourney deck correct 7 --replaces 12 --penalty 40 --file deck7-fixed.txt --key judge.pem
    """
    from ledger.formats.officiating.deck_commands import correct_deck
    from ledger.formats.officiating.decklist_rules import list_hash

    s = Session(ctx, key=key, json=json)
    text: str | None = _list_text(file)
    h = list_hash(text) if text is not None else None
    if hash_only:
        text = None
    ev, _st = _one(s, lambda t, time, signer: correct_deck(
        t, signer, time, number=number, replaces_seq=replaces, penalty_seq=penalty,
        text=text, sha256=h))
    s.emit(write_result(ev), f"seq {ev.seq}: deck of #{number} corrected (replaces seq "
           f"{replaces}, penalty seq {penalty}; sha256 {ev.body.sha256})")


@deck_app.command("deadline")
def deck_deadline(
    ctx: typer.Context,
    at: Annotated[str, _Opt("--at", metavar="TIME", help=(
        "The deadline, ISO 8601 with a zone (2026-06-01T09:30:00Z or +02:00): a player's "
        "list is taken from their card when its event's time is before it."))],
    key: KeyOpt = None, json: JsonOpt = False,
) -> None:
    """Set the deadline for players' own decklists (organizer or head judge,
    DECK-LIST-1): until then a player hands in their list from their card (/deck); a later
    deadline replaces this one.  Compared with the log's own event times, never a clock.

    Example: tourney deck deadline --at 2026-06-01T09:30:00Z --key hj.pem
    """
    from usecases.decklists import set_deadline

    s = Session(ctx, key=key, json=json)
    ev, _st = _one(s, lambda t, time, signer: set_deadline(t, signer, time, at))
    s.emit(write_result(ev, at=ev.body.at),
           f"seq {ev.seq}: players hand in their decklists from their cards until "
           f"{ev.body.at}")


def _dir_texts(folder: Path | None) -> dict[str, str]:
    """The UTF-8 files of ``folder`` (not below it) by their SHA-256 (``--dir``)."""
    from ledger.formats.officiating.decklist_rules import list_hash

    if folder is None:
        return {}
    if not folder.is_dir():
        raise UsageError(f"--dir {folder} is not a folder",
                         hint="name the folder that holds the lists as handed in")
    out: dict[str, str] = {}
    for path in sorted(folder.iterdir()):
        if path.is_file():
            try:
                text = path.read_bytes().decode("utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            out[list_hash(text)] = text
    return out


def _top_texts(s: Session, k: int, folder: Path | None) -> dict[str, str]:
    """Every text the top ``k``'s current lists may have, by hash: the log's (a
    registration or correction that kept it), the station's store, ``--dir``."""
    from ledger.wire.events import open_leaf
    from usecases.decklists import deck_dir, kept_text, logged_text, top_numbers

    texts = _dir_texts(folder)
    store = deck_dir(s.location)
    with s.ledger(readonly=True) as led:
        log = s.tournament(led)
        st = led.load(log).state
        o = getattr(st.fmt, "officiating", None)
        if o is None:
            raise UsageError("this format keeps no decklists")
        for n in top_numbers(st, k):
            want, seq = o.decks.get(n), o.deck_seqs.get(n)
            if want is None or seq is None or want in texts:
                continue
            leaf = led.raw_leaf(log, seq)
            text = logged_text(open_leaf(leaf).body) if leaf else None
            text = text if text is not None else kept_text(store, want)
            if text is not None:
                texts[want] = text
    return texts


@deck_app.command("publish")
def deck_publish(
    ctx: typer.Context,
    number: Annotated[int | None, typer.Argument(metavar="[NUMBER]", min=1,
                                                 show_default=False,
                                                 help="Player number.")] = None,
    file: Annotated[Path | None, _Opt("--file", metavar="PATH", show_default=False, help=(
        "The list exactly as registered (the same bytes)."))] = None,
    top: Annotated[int | None, _Opt("--top", metavar="K", min=1, show_default=False, help=(
        "Publish the lists of the first K of the final standings instead, all or none."))
                   ] = None,
    folder: Annotated[Path | None, _Opt("--dir", metavar="DIR", show_default=False, help=(
        "With --top: a folder of lists as handed in (any names; matched by SHA-256), for "
        "lists neither the log nor this station's store keeps."))] = None,
    key: KeyOpt = None, json: JsonOpt = False,
) -> None:
    """Publish a player's deck list, e.g. the top cut's after the event (head judge): it
    must hash to the registration (or its correction), or nothing is written.  With --top K
    the first K of the final standings are published in one step, each list found by its
    hash on the log, in this station's store of lists handed in from players' cards, or in
    --dir; when one is missing nothing is published.

    Example: tourney deck publish 7 --file deck7.txt --key hj.pem
    Example: tourney deck publish --top 8 --dir lists/ --key hj.pem
    """
    from ledger.formats.officiating.deck_commands import publish_deck
    from usecases.decklists import publish_top

    s = Session(ctx, key=key, json=json)
    if (top is None) == (number is None):
        raise UsageError("give a player NUMBER with --file, or --top K",
                         hint="tourney deck publish 7 --file deck7.txt, or --top 8")
    if top is not None:
        if file is not None:
            raise UsageError("--file names one player's list; with --top use --dir",
                             hint="tourney deck publish --top 8 --dir lists/")
        texts = _top_texts(s, top, folder)
        events, _st = _one(s, lambda t, time, signer: publish_top(t, signer, time, top, texts))
        s.emit({"ok": True, "tournament": events[0].log, "events": events_brief(events),
                "numbers": [e.body.number for e in events]},
               [f"seq {e.seq}: deck list of #{e.body.number} published" for e in events])
        return
    if number is None or file is None or folder is not None:
        raise UsageError("publish one player's list with --file (the list as registered)",
                         hint="tourney deck publish 7 --file deck7.txt")
    text = _list_text(file)
    one = number
    ev, _st = _one(s, lambda t, time, signer: publish_deck(t, signer, time, number=one,
                                                          text=text))
    s.emit(write_result(ev), f"seq {ev.seq}: deck list of #{number} published")


@deck_app.command("verify")
def deck_verify(
    ctx: typer.Context,
    number: Annotated[int, typer.Argument(metavar="NUMBER", min=1, help="Player number.")],
    file: Annotated[Path, _Opt("--file", metavar="PATH", help="A copy of the list.")],
    json: JsonOpt = False,
) -> None:
    """Check a copy of a player's deck list against the hash the log registered (anyone;
    exit 4 when it differs).

    Example: tourney deck verify 7 --file deck7.txt
    """
    from ledger.errors import VerificationError
    from ledger.formats.officiating.decklist_rules import list_hash

    s = Session(ctx, json=json)
    got = list_hash(_list_text(file))
    with s.ledger(readonly=True) as led:
        st = led.load(s.tournament(led)).state
    o = getattr(st.fmt, "officiating", None)
    want = o.decks.get(number) if o is not None else None
    if o is None or want is None:
        raise UsageError(f"player {number} has no registered deck in this log",
                         hint="see 'tourney log' for deck_registered events")
    if got != want:
        raise VerificationError(f"{file} hashes to {got}, player {number}'s registered list "
                                f"(seq {o.deck_seqs.get(number)}) to {want}")
    s.emit({"ok": True, "number": number, "sha256": got, "seq": o.deck_seqs.get(number)},
           f"#{number}: the list matches its registration (seq {o.deck_seqs.get(number)}, "
           f"sha256 {got})")
