"""Deck checks on the floor at the command line (issue 30 item 3): ``tourney deck draw``
(the head judge draws the tables of a round verifiably), ``tourney deck start`` and
``tourney deck end`` (a check's start, end, outcome and the penalty it led to), next to
``deck register|check`` (``cli.floor_cmd``, whose ``deck_app`` this module extends).

Owns: option shapes and output; every rule is the ledger's
(``ledger.formats.officiating.deck_rules``).

May import: ``typer``, ``cli.common``, ``cli.floor_cmd``, ``ledger.*``.
"""

from __future__ import annotations

from typing import Annotated

import typer

from cli.common import JsonOpt, KeyOpt, Session, write_result
from cli.floor_cmd import RoundOpt, TableOpt, _one, deck_app
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
    from ledger.formats.officiating.deck_commands import check_minutes, end_deck_check

    s = Session(ctx, key=key, json=json)
    ev, st = _one(s, lambda t, time, signer: end_deck_check(
        t, signer, time, start_seq=start_seq, outcome=outcome, penalty_seq=penalty_seq,
        note=note.strip()))
    rec = st.fmt.officiating.deck_checks[start_seq]
    minutes = check_minutes(rec.started, rec.ended)
    s.emit(write_result(ev, round=rec.round, table=rec.table, minutes=minutes,
                        outcome=outcome.value),
           f"seq {ev.seq}: deck check of round {rec.round} table {rec.table} ended: "
           f"{outcome.value}; took {minutes} min (the table's extra preparation time)")
