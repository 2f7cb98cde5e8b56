"""The floor on the command line (issue 9 §4–§6, §8): ``tourney ruling``, ``tourney appeal
raise|decide``, ``tourney round start|time|extend``, ``tourney result eom`` and ``tourney
deck register|check``.

Owns: option shapes and output; every rule is the ledger's
(``ledger.formats.officiating.floor_rules``).  Any event can be cited by seq and ``tourney
proof SEQ`` gives its inclusion proof to attach to an appeal.

May import: ``typer``, ``cli.common``, ``ledger.*``, ``usecases.calls``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from cli.common import JsonOpt, KeyOpt, Session, read_file_bytes, write_result
from ledger.errors import UsageError

_Opt = typer.Option
appeal_app = typer.Typer(no_args_is_help=True, help=(
    "Appeals of a floor ruling to the head judge, with the challenge count (BR-APPEAL-3).\n\n"
    "Example: tourney appeal raise 41 --player 7 --key judge.pem"))
deck_app = typer.Typer(no_args_is_help=True, help=(
    "Deck registration (immutable once received) and deck checks (BR-DECK-1..3).\n\n"
    "Example: tourney deck register 7 --file deck7.txt --key sk.pem"))
RoundOpt = Annotated[int, _Opt("--round", metavar="N", min=1, help="Round number.")]
TableOpt = Annotated[int, _Opt("--table", metavar="T", min=1, help="Table number.")]


def _one(s: Session, command: Any) -> Any:
    signer = s.signer()
    with s.ledger() as led:
        log = s.tournament(led)
        ev, agg = led.write(log, lambda t, time: (command(t, time, signer), t))
    return ev, agg.state


def ruling(
    ctx: typer.Context, round_no: RoundOpt, table: TableOpt,
    question: Annotated[str, _Opt("--question", metavar="TEXT", help="What was asked.")],
    text: Annotated[str, _Opt("--ruling", metavar="TEXT", help="The ruling given.")],
    minutes: Annotated[int, _Opt("--minutes", min=0, help=(
        "How long it took (over 1: an extension may be given, BR-EXT-1)."))] = 0,
    key: KeyOpt = None, json: JsonOpt = False,
) -> None:
    """Record a judge's ruling at a table; an appeal cites its seq.

    Example: tourney ruling --round 2 --table 4 --question "timing of X" --ruling "X resolves first" --key judge.pem
    """
    from ledger.formats.officiating.floor_commands import make_ruling

    s = Session(ctx, key=key, json=json)
    ev, _st = _one(s, lambda t, time, signer: make_ruling(
        t, signer, time, round_no=round_no, table=table, question=question.strip(),
        ruling=text.strip(), minutes=minutes))
    s.emit(write_result(ev), f"seq {ev.seq}: ruling at round {round_no} table {table}")


@appeal_app.command("raise")
def appeal_raise(
    ctx: typer.Context,
    ruling_seq: Annotated[int, typer.Argument(metavar="RULING_SEQ", min=1,
                                              help="Seq of the ruling appealed.")],
    players: Annotated[list[int], _Opt("--player", metavar="NUMBER", min=1, help=(
        "A fighter of that match who appeals (repeat for a joint challenge)."))],
    key: KeyOpt = None, json: JsonOpt = False,
) -> None:
    """Record an appeal to the head judge; a fighter with no challenge left is recorded
    and refused (the ruling stands, AMB-B26).

    Example: tourney appeal raise 41 --player 7 --key judge.pem
    """
    from ledger.formats.officiating.floor_commands import raise_challenge
    from ledger.formats.officiating.floor_rules import remaining

    s = Session(ctx, key=key, json=json)
    ev, st = _one(s, lambda t, time, signer: raise_challenge(
        t, signer, time, ruling_seq=ruling_seq, players=sorted(set(players))))
    b = ev.body
    left = {p: remaining(st, p) for p in b.players}
    lines = [f"seq {ev.seq}: appeal of ruling seq {ruling_seq} by "
             + ", ".join(f"#{p}" for p in b.players)]
    lines += [f"#{p}: no challenge left: recorded and refused; the ruling stands"
              for p in b.refused]
    lines += [f"#{p}: {'unlimited' if n is None else n} challenge(s) left"
              for p, n in left.items() if p not in b.refused]
    s.emit(write_result(ev, refused=list(b.refused), remaining=left), lines)


@appeal_app.command("decide")
def appeal_decide(
    ctx: typer.Context,
    challenge_seq: Annotated[int, typer.Argument(metavar="APPEAL_SEQ", min=1,
                                                 help="Seq of the appeal.")],
    text: Annotated[str, _Opt("--ruling", metavar="TEXT", help="The final ruling.")],
    same: Annotated[bool, _Opt("--same/--overturned", help=(
        "The ruling is the same as the floor judge's (counts drop) or differs."))],
    keep: Annotated[list[int] | None, _Opt("--keep", metavar="NUMBER", help=(
        "With --same: a challenger whose count the head judge does not reduce."))] = None,
    key: KeyOpt = None, json: JsonOpt = False,
) -> None:
    """The head judge's final ruling on an appeal (LEDGER-RES-3).

    Example: tourney appeal decide 42 --ruling "upheld" --same --key hj.pem
    """
    from ledger.formats.officiating.floor_commands import decide_challenge
    from ledger.formats.officiating.floor_rules import remaining

    s = Session(ctx, key=key, json=json)
    ev, st = _one(s, lambda t, time, signer: decide_challenge(
        t, signer, time, challenge_seq=challenge_seq, ruling=text.strip(),
        same_as_first=same, keep=keep))
    ch = st.fmt.officiating.challenges[challenge_seq]
    left = {p: remaining(st, p) for p in ch.players}
    s.emit(write_result(ev, remaining=left),
           [f"seq {ev.seq}: appeal seq {challenge_seq} decided "
            f"({'same as the floor ruling' if same else 'overturned'})"]
           + [f"#{p}: {'unlimited' if n is None else n} challenge(s) left"
              for p, n in left.items()])


def round_start(ctx: typer.Context,
                minutes: Annotated[int | None, _Opt("--minutes", min=1, show_default=False,
                                                    help="Round time (default: match_minutes).")
                                   ] = None,
                key: KeyOpt = None, json: JsonOpt = False) -> None:
    """Start the round's clock (time-keeper, or a judge acting as one; BR-TIME-5).

    Example: tourney round start --key tk.pem
    """
    from ledger.formats.officiating.floor_commands import start_round

    s = Session(ctx, key=key, json=json)
    ev, _st = _one(s, lambda t, time, signer: start_round(t, signer, time, minutes))
    s.emit(write_result(ev), f"seq {ev.seq}: round {ev.body.round} started at {ev.time} "
           f"({ev.body.minutes} minutes)")


def round_time(ctx: typer.Context, key: KeyOpt = None, json: JsonOpt = False) -> None:
    """Call time for the round in progress (time-keeper; BR-TIME-5, BR-XTURN-1).

    Example: tourney round time --key tk.pem
    """
    from ledger.formats.officiating.floor_commands import call_time

    s = Session(ctx, key=key, json=json)
    ev, _st = _one(s, lambda t, time, signer: call_time(t, signer, time))
    s.emit(write_result(ev), f"seq {ev.seq}: time in round {ev.body.round} at {ev.time}; "
           f"{ev.body.extra_turns} extra turn(s)")


def round_extend(
    ctx: typer.Context,
    round_no: Annotated[int | None, _Opt("--round", metavar="N", min=1, show_default=False,
                                         help="Round number.")] = None,
    table: Annotated[int | None, _Opt("--table", metavar="T", min=1, show_default=False,
                                      help="Table number.")] = None,
    reason: Annotated[str | None, _Opt("--reason", metavar="TEXT", show_default=False,
                                       help="Why (required without --call).")] = None,
    minutes: Annotated[int | None, _Opt("--minutes", min=0, show_default=False,
                                        help="Extra minutes (default 0; with --call: the "
                                             "proposal).")] = None,
    turns: Annotated[int | None, _Opt("--turns", min=0, show_default=False, help=(
        "Extra turns (default 0; with --call: the proposal where the format counts "
        "turns)."))] = None,
    ruling_seq: Annotated[int | None, _Opt("--ruling", metavar="SEQ", show_default=False,
                                           help="The ruling that took the time.")] = None,
    call: Annotated[int | None, _Opt("--call", metavar="SEQ", show_default=False, help=(
        "The judge call whose ruling took the time: --minutes defaults to what the record "
        "proposes (claim → close), --round/--table/--reason to the call's."))] = None,
    deck_check: Annotated[int | None, _Opt("--deck-check", metavar="SEQ", min=1,
                                           show_default=False, help=(
        "The ended deck check (its start's seq) whose time the table gets back as "
        "preparation time (BR-EXT-3): --minutes defaults to start → end, capped."))] = None,
    key: KeyOpt = None, json: JsonOpt = False,
) -> None:
    """Give one match extra time or turns (judge; cap per match, AMB-B27 / AMB-E6).

    Example: tourney round extend --round 2 --table 4 --minutes 3 --reason "ruling took 3 min" --key judge.pem
    """
    from ledger.formats.officiating.floor_commands import extend

    s = Session(ctx, key=key, json=json)
    if call is not None and deck_check is not None:
        raise UsageError("--call and --deck-check together",
                         hint="one extension cites one call or one deck check")
    if call is not None or deck_check is not None:
        _extend_cited(s, call, deck_check, minutes, turns, reason, (round_no, table))
        return
    if round_no is None or table is None or reason is None:
        raise UsageError("--round, --table and --reason are needed without --call",
                         hint="or cite the judge call: --call SEQ")
    if not reason.strip():
        raise UsageError("--reason is empty", hint="say why the match gets more time")
    ev, st = _one(s, lambda t, time, signer: extend(
        t, signer, time, round_no=round_no, table=table, minutes=minutes or 0,
        turns=turns or 0, reason=reason.strip(), ruling_seq=ruling_seq))
    total = st.fmt.officiating.extensions.get(f"{round_no}/{table}", 0)
    s.emit(write_result(ev, total_minutes=total),
           f"seq {ev.seq}: round {round_no} table {table} +{minutes or 0} min +{turns or 0} "
           f"turn(s) (this match: {total} min)")


def _extend_cited(s: Session, call: int | None, check: int | None, minutes: int | None,
                  turns: int | None, reason: str | None,
                  where: tuple[int | None, int | None]) -> None:
    """``round extend --call SEQ`` / ``--deck-check SEQ``: the judge confirms (or changes)
    the proposal the record gives (``call_extension``: one implementation)."""
    from usecases.calls import call_of, check_of, confirm_check_extension, confirm_extension

    with s.ledger(readonly=True) as led:
        st0 = led.load(s.tournament(led)).state
        c = call_of(st0, call) if call is not None else check_of(st0, check or 0)
    what = f"judge call {call}" if call is not None else f"deck check {check}"
    if where[0] not in (None, c.round) or where[1] not in (None, c.table):
        raise UsageError(f"{what} is at round {c.round} table {c.table}",
                         hint="drop --round/--table, or cite that table's call or check")
    (ev, p), st = _one(s, lambda t, time, signer: confirm_extension(
        t, signer, time, call, minutes=minutes, turns=turns, reason=reason)
        if call is not None else confirm_check_extension(
        t, signer, time, check or 0, minutes=minutes, turns=turns, reason=reason))
    b = ev.body
    total = st.fmt.officiating.extensions.get(f"{b.round}/{b.table}", 0)
    changed = "" if (b.minutes, b.turns) == (p.minutes, p.turns) else \
        f" (proposed {p.amount})"
    extra = {"proposed_turns": p.turns} if p.turns else {}
    s.emit(write_result(ev, total_minutes=total, proposed=p.minutes, **extra),
           f"seq {ev.seq}: round {b.round} table {b.table} +{b.minutes} min{changed} "
           f"+{b.turns} turn(s) for {what} (this match: {total} min)")


def _board(text: str | None) -> list[int] | None:
    if text is None:
        return None
    try:
        v = [int(x) for x in text.split(",")]
        if len(v) != 5:
            raise ValueError
        return v
    except ValueError:
        raise UsageError(f"--board {text!r} is not LIFE,DAMAGE,INFLUENCE,DECK,FINAL",
                         hint="e.g. 30,10,7,12,1 (FINAL 1 = took the final turn)") from None


def result_eom(
    ctx: typer.Context, round_no: RoundOpt, table: TableOpt,
    games: Annotated[str, _Opt("--games", metavar="A-B", help=(
        "Game wins of the first and second player when overtime ended."))],
    board_a: Annotated[str | None, _Opt("--board-a", metavar="L,D,I,M,F",
                                        show_default=False, help=(
        "Single elimination, equal games: first player's life, damage, influence, main "
        "deck, final turn (0/1)."))] = None,
    board_b: Annotated[str | None, _Opt("--board-b", metavar="L,D,I,M,F",
                                        show_default=False,
                                        help="The same for the second player.")] = None,
    key: KeyOpt = None, json: JsonOpt = False,
) -> None:
    """Apply the 001 end-of-match procedure at a table (TC-25): records the deciding step
    and the values compared; the result must then name that winner.

    Example: tourney result eom --round 5 --table 1 --games 0-0 --board-a 30,10,7,12,0 --board-b 25,4,5,15,1 --key judge.pem
    """
    from cli.result_options import parse_games
    from ledger.formats.officiating.floor_commands import decide_eom

    s = Session(ctx, key=key, json=json)
    g = parse_games(games)
    assert g is not None
    boards = [b for b in (_board(board_a), _board(board_b)) if b is not None]
    ev, _st = _one(s, lambda t, time, signer: decide_eom(
        t, signer, time, round_no=round_no, table=table, games=g[:2], boards=boards))
    b = ev.body
    who = "a draw" if b.winner is None else f"#{b.winner} wins"
    s.emit(write_result(ev), f"seq {ev.seq}: {who} ({b.decided_by.value}, compared "
           f"{b.compared[0]} v {b.compared[1]})")


@deck_app.command("register")
def deck_register(
    ctx: typer.Context,
    number: Annotated[int, typer.Argument(metavar="NUMBER", min=1, help="Player number.")],
    file: Annotated[Path | None, _Opt("--file", metavar="PATH", show_default=False,
                                      help="The deck list as handed in.")] = None,
    sha256: Annotated[str | None, _Opt("--sha256", metavar="HEX", show_default=False,
                                       help="Only the list's hash (the list kept off the "
                                            "log).")] = None,
    hash_only: Annotated[bool, _Opt("--hash-only", help=(
        "With --file: record only the hash of the file."))] = False,
    key: KeyOpt = None, json: JsonOpt = False,
) -> None:
    """Register a player's deck list (immutable once received, BR-DECK-1).

    Example: tourney deck register 7 --file deck7.txt --key sk.pem
    """
    from ledger.formats.officiating.floor_commands import register_deck
    from ledger.formats.officiating.floor_rules import deck_hash

    s = Session(ctx, key=key, json=json)
    if (file is None) == (sha256 is None):
        raise UsageError("give exactly one of --file and --sha256")
    text = read_file_bytes(file, "deck list").decode("utf-8", "replace") if file else None
    h = sha256.lower() if sha256 else None
    if hash_only and text is not None:
        h, text = deck_hash(text), None
    ev, _st = _one(s, lambda t, time, signer: register_deck(
        t, signer, time, number=number, text=text, sha256=h))
    s.emit(write_result(ev), f"seq {ev.seq}: deck of #{number} registered "
           f"(sha256 {ev.body.sha256})")


@deck_app.command("check")
def deck_check(
    ctx: typer.Context,
    number: Annotated[int, typer.Argument(metavar="NUMBER", min=1, help="Player number.")],
    matches: Annotated[bool, _Opt("--matches/--mismatch", help=(
        "The deck matches its registration, or not (penalise with 3.1.1.3)."))],
    note: Annotated[str, _Opt("--note", metavar="TEXT", help="What was found.")] = "",
    minutes: Annotated[int, _Opt("--minutes", min=0, help=(
        "How long the check took (BR-EXT-3)."))] = 0,
    key: KeyOpt = None, json: JsonOpt = False,
) -> None:
    """Record a deck check (organizer or head judge, BR-DECK-3).

    Example: tourney deck check 7 --matches --key hj.pem
    """
    from ledger.formats.officiating.floor_commands import check_deck

    s = Session(ctx, key=key, json=json)
    ev, _st = _one(s, lambda t, time, signer: check_deck(
        t, signer, time, number=number, matches=matches, note=note.strip(),
        minutes=minutes))
    s.emit(write_result(ev), f"seq {ev.seq}: deck check of #{number}: "
           f"{'matches' if matches else 'does not match'} its registration")
