"""Corrections a real event needs (issue 9 §7), each a new signed event citing what it
changes: ``tourney result amend`` (an earlier round, head judge, with the report of its
effect on later rounds), ``tourney result wrong-table`` (BR-PEN-3.10.2), ``tourney round
override`` (the head judge's pairing beside the engine's), ``tourney round void`` (ADR
0012), ``tourney undrop`` and ``tourney player late``.

Owns: the command-line shapes (``--pairs 1-2,3-4``, ``--played T:A-B:W,…``) and output.
What is allowed is the ledger's (``ledger.formats.officiating.corrections``).

May import: ``typer``, ``cli.common``, ``ledger.*``.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
import typer

from cli.common import JsonOpt, KeyOpt, Session, auto_checkpoint, events_brief, seq_span
from ledger.errors import UsageError

_Opt = typer.Option
ReasonOpt = Annotated[str, _Opt("--reason", metavar="TEXT", help="Why (required).")]


def _reason(text: str) -> str:
    if not text.strip():
        raise UsageError("--reason is empty", hint="say why, it is kept in the event")
    return text.strip()


def _write(s: Session, command: Any) -> tuple[str, list[Any], Any, Any]:
    signer = s.signer()
    with s.ledger() as led:
        log = s.tournament(led)
        (events, extra), agg = led.write(log, lambda t, time: (command(t, time, signer), t))
        cp = auto_checkpoint(s, led, log, signer, f"{seq_span(events)} written")
    return log, events, extra, cp


def _doc(log: str, events: list[Any], cp: Any, **extra: Any) -> dict[str, Any]:
    return {"ok": True, "tournament": log, "seq": events[0].seq, "kind": events[0].kind,
            **extra, "events": events_brief(events), "checkpoint": cp.json() if cp else None}


def result_amend(
    ctx: typer.Context,
    round_no: Annotated[int, _Opt("--round", metavar="N", min=1, help="Round number.")],
    table: Annotated[int, _Opt("--table", metavar="T", min=1, help="Table number.")],
    reason: ReasonOpt,
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Amend the result of an earlier round (head judge): pairings made since stand,
    standings recompute, and the effect on later rounds is reported.

    The result is named with the event's format's outcome options, as for 'result
    record' (listed below; e.g. a game score, a time-up decided by games, a draw).

    Example: tourney result amend --round 1 --table 2 --winner 7 --reason "slip swapped" --key hj.pem
    """
    from cli.result_options import entry_kwargs
    from ledger.formats.officiating.correction_commands import amend_result

    s = Session(ctx, key=key, json=json)
    why = _reason(reason)
    args = list(ctx.args)

    def amend(t: Any, time: str, signer: Any) -> Any:
        kw = entry_kwargs(t, args, round_no, table)
        return amend_result(t, signer, time, round_no=round_no, table=table, reason=why,
                            entry={k: v for k, v in kw.items()
                                   if k not in ("round_no", "table")})

    log, events, report, cp = _write(s, amend)
    b = events[0].body
    games = None if isinstance(b.games, msgspec.UnsetType) else list(b.games)
    s.emit(_doc(log, events, cp, round=round_no, table=table, corrects_seq=b.corrects_seq,
                winner=b.winner, losers=list(b.losers), outcome=b.outcome.value,
                games=games, effect=report),
           [f"{seq_span(events)}: round {round_no} table {table} amended (seq "
            f"{b.corrects_seq})", *report])


def _amend_options() -> None:
    from cli.result_options import OUTCOME_SETTINGS, ResultCommand

    result_amend.command_options = {  # type: ignore[attr-defined]
        "cls": ResultCommand, "context_settings": OUTCOME_SETTINGS}


_amend_options()


def _played(text: str) -> list[Any]:
    from ledger.formats.officiating.amend import Played
    out = []
    for part in text.split(","):
        try:
            table, pair, win = part.strip().split(":")
            a, b = pair.split("-")
            out.append(Played(int(table), (int(a), int(b)),
                              None if win in ("", "-") else int(win)))
        except ValueError:
            raise UsageError(f"--played {part!r} is not TABLE:A-B:WINNER",
                             hint="e.g. --played 1:1-6:1,2:5-2:2 (WINNER - for none)") from None
    return out


def result_wrong_table(
    ctx: typer.Context,
    round_no: Annotated[int, _Opt("--round", metavar="N", min=1, help="Round number.")],
    played: Annotated[str, _Opt("--played", metavar="T:A-B:W,…", help=(
        "What was actually played: table, the two players, the winner."))],
    reason: ReasonOpt,
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Failure to play the proper match (BR-PEN-3.10.2): amend the assigned tables' results
    (AMB-B25) and penalise every fighter involved.

    Example: tourney result wrong-table --round 2 --played 1:1-4:1,2:3-2:2 --reason "swapped seats" --key hj.pem
    """
    from ledger.formats.officiating.correction_commands import wrong_table

    s = Session(ctx, key=key, json=json)
    tables, why = _played(played), _reason(reason)
    log, events, _x, cp = _write(s, lambda t, time, signer: (wrong_table(
        t, signer, time, round_no=round_no, played=tables, reason=why), None))
    s.emit(_doc(log, events, cp, round=round_no),
           [f"{seq_span(events)}: wrong-table amendment of round {round_no}: "
            f"{', '.join(e.kind for e in events)}"])


def round_override(
    ctx: typer.Context,
    pairs: Annotated[str, _Opt("--pairs", metavar="A-B,C-D,…", help=(
        "The head judge's pairing, table by table (the bye stays the drawn one)."))],
    reason: ReasonOpt,
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Replace the engine's pairing of the open round (head judge, before any result); the
    engine's round_paired stays on the log and the audit reports the difference.

    Example: tourney round override --pairs 1-4,2-3 --reason "siblings not paired" --key hj.pem
    """
    from ledger.formats.officiating.correction_commands import override_pairing

    s = Session(ctx, key=key, json=json)
    try:
        parsed = [[int(x) for x in p.strip().split("-")] for p in pairs.split(",")]
        if any(len(p) != 2 for p in parsed):
            raise ValueError
    except ValueError:
        raise UsageError(f"--pairs {pairs!r} is not A-B,C-D,…",
                         hint="player numbers, table 1 first") from None
    why = _reason(reason)
    log, events, _x, cp = _write(s, lambda t, time, signer: (override_pairing(
        t, signer, time, pairs=parsed, reason=why), None))
    b = events[0].body
    s.emit(_doc(log, events, cp, round=b.round, paired_seq=b.paired_seq,
                tables=[list(x.players) for x in b.tables]),
           [f"seq {events[0].seq}: round {b.round} paired by the head judge (engine's "
            f"pairing at seq {b.paired_seq}): "
            + ", ".join(f"T{x.table} #{x.players[0]} v #{x.players[1]}" for x in b.tables)])


def round_void(
    ctx: typer.Context,
    reason: ReasonOpt,
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Void the open round's pairing before any result (head judge); its round_paired stays
    on the log and the round is paired again with 'tourney round pair', whose draws use
    the contexts <tournament>/R<n>/v<k>/… and a seed recorded after the void (ADR 0012).

    Example: tourney round void --reason "posted before the drops were entered" --key hj.pem
    """
    from ledger.formats.match.plan import round_what
    from ledger.formats.officiating.correction_commands import void_pairing

    s = Session(ctx, key=key, json=json)
    why = _reason(reason)
    log, events, agg, cp = _write(s, lambda t, time, signer: (void_pairing(
        t, signer, time, reason=why), t))
    b = events[0].body
    nxt = f"{log}/{round_what(agg.state, b.round, '')}"
    s.emit(_doc(log, events, cp, round=b.round, paired_seq=b.paired_seq,
                seed_ctx=nxt, reason=b.reason),
           [f"seq {events[0].seq}: round {b.round} pairing (seq {b.paired_seq}) voided",
            f"pair it again with 'tourney round pair' and a seed recorded now (its draws: "
            f"{nxt}/…)"])


def undrop(
    ctx: typer.Context,
    number: Annotated[int, typer.Argument(metavar="NUMBER", min=1, help="Player number.")],
    reason: ReasonOpt,
    keep_forfeit: Annotated[bool, _Opt("--keep-forfeit", help=(
        "A drop after the pairing: keep its forfeit loss (default: take it back, the "
        "match is played)."))] = False,
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Undo a drop recorded by mistake, before the next pairing (head judge). A drop
    made after the pairing also takes back its forfeit loss, unless --keep-forfeit.

    Example: tourney undrop 7 --reason "wrong player marked" --key hj.pem
    """
    from ledger.formats.officiating.correction_commands import undrop as act

    s = Session(ctx, key=key, json=json)
    why = _reason(reason)
    log, events, lines, cp = _write(s, lambda t, time, signer: act(
        t, signer, time, number=number, reason=why, keep_forfeit=keep_forfeit))
    fs = events[0].body.forfeit_seq
    s.emit(_doc(log, events, cp, number=number, effect=lines,
                forfeit_taken_back=fs if isinstance(fs, int) else None),
           [f"seq {events[0].seq}: {lines[0]}", *lines[1:]])


def player_late(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(metavar="NAME", help="The player's name.")],
    reason: ReasonOpt,
    byes: Annotated[int, _Opt("--byes", min=0, help="Rounds missed counted as byes.")] = 0,
    losses: Annotated[int, _Opt("--losses", min=0,
                                help="Rounds missed counted as losses.")] = 0,
    number: Annotated[int | None, _Opt("--number", min=1, show_default=False,
                                       help="Player number (default: next free).")] = None,
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Register a player after round 1 (head judge) with the byes and losses the
    organizer announced for the rounds already played.

    Example: tourney player late "Kim Late" --losses 1 --reason "train delay" --key hj.pem
    """
    from ledger.formats.officiating.correction_commands import add_late

    s = Session(ctx, key=key, json=json)
    if not name.strip():
        raise UsageError("NAME is empty", hint="give the player's name")
    why = _reason(reason)
    log, events, _x, cp = _write(s, lambda t, time, signer: (add_late(
        t, signer, time, name=name.strip(), byes=byes, losses=losses, reason=why,
        number=number), None))
    b = events[0].body
    s.emit(_doc(log, events, cp, number=b.number),
           [f"seq {events[0].seq}: #{b.number} {b.name} joins after round {b.rounds} "
            f"({b.byes} bye(s), {b.losses} loss(es))"])


def level_amend(
    ctx: typer.Context,
    new_level: Annotated[int, typer.Argument(metavar="LEVEL", min=1, max=3,
                                             help="The new tournament level (1-3).")],
    reason: ReasonOpt,
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Change the tournament level by a signed amendment (organizer, BR-LEVEL-2); penalties
    already given keep their level.

    Example: tourney level 2 --reason "announced as a qualifier" --key hj.pem
    """
    from ledger.formats.officiating.correction_commands import amend_level

    s = Session(ctx, key=key, json=json)
    why = _reason(reason)
    log, events, _x, cp = _write(s, lambda t, time, signer: (amend_level(
        t, signer, time, new_level=new_level, reason=why), None))
    s.emit(_doc(log, events, cp, level=new_level),
           [f"seq {events[0].seq}: tournament level is now {new_level}"])
