"""``tourney slowplay``: slow-play calls and the judge's rulings as they happen (HotC,
HOTC_2013_R2: HOTC-SLOW-1/2).

Owns: the ``call`` and ``rule`` commands and their one-line reports.  What a call or a
ruling may say is the format's (its plug-in verbs ``call_slow_play`` /
``rule_slow_play``; a format without them refuses), never decided here.

May import: ``typer``, ``cli.common``, ``ledger.*``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from cli.common import JsonOpt, KeyOpt, Session, write_result

if TYPE_CHECKING:
    from ledger.core.aggregate import Tournament
    from ledger.core.command_facets import SlowPlay

app = typer.Typer(no_args_is_help=True, help=(
    "Slow-play calls and the judge's rulings, recorded when they happen (HotC "
    "HOTC_2013_R2, HOTC-SLOW-1/2).\n\n"
    "Example: tourney slowplay call --round 2 --table 1 --caller 1 --called 2 --key judge.pem"))


@app.command("call")
def call(
    ctx: typer.Context,
    round_no: Annotated[int, typer.Option("--round", metavar="N", min=1,
                                          help="Round of the match in progress.")],
    table: Annotated[int, typer.Option("--table", metavar="N", min=1, help="Table.")],
    caller: Annotated[int, typer.Option("--caller", metavar="NUMBER", min=1,
                                        help="The player who calls slow play.")],
    called: Annotated[int, typer.Option("--called", metavar="NUMBER", min=1,
                                        help="The opponent called for slow play.")],
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Record a slow-play call made during a match (judge or head judge).

    A call cannot be made after the result; the judge watches the match, then records
    the ruling with 'tourney slowplay rule'.

    Example: tourney slowplay call --round 2 --table 1 --caller 1 --called 2 --key judge.pem
    """
    s = Session(ctx, key=key, json=json)
    signer = s.signer()
    with s.ledger() as led:
        log = s.tournament(led)
        ev = led.write(log, lambda t, time: _slow_play(t, "slowplay call").call_slow_play(
            t, signer, time, round_no=round_no, table=table, caller=caller, called=called))
    s.emit(write_result(ev, call_seq=ev.seq),
           f"seq {ev.seq}: round {round_no} table {table}: #{caller} calls slow play on "
           f"#{called}; next: the judge rules with 'tourney slowplay rule {ev.seq}'")


@app.command("rule")
def rule(
    ctx: typer.Context,
    call_seq: Annotated[int, typer.Argument(metavar="CALL_SEQ", min=1,
                                            help="Seq of the slow_play_called event.")],
    upheld: Annotated[bool, typer.Option(
        "--upheld/--not-upheld", help="Upheld: the called player is under the slow-play "
        "timeout condition.  Not upheld: the match goes on with time added.")],
    minutes_added: Annotated[int, typer.Option(
        "--minutes-added", metavar="M", min=0,
        help="Not upheld: minutes added so that earlier slow play has no effect.")] = 0,
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Record the judge's ruling on a slow-play call (judge or head judge).

    An upheld call decides a timeout of that match against the called player: record it
    with 'tourney result record --slow-play NUMBER', which cites the call.

    Example: tourney slowplay rule 41 --not-upheld --minutes-added 3 --key judge.pem
    """
    s = Session(ctx, key=key, json=json)
    signer = s.signer()
    with s.ledger() as led:
        log = s.tournament(led)
        ev = led.write(log, lambda t, time: _slow_play(t, "slowplay rule").rule_slow_play(
            t, signer, time, call_seq=call_seq, upheld=upheld, minutes_added=minutes_added))
    what = "upheld" if upheld else f"not upheld, {minutes_added} minute(s) added"
    s.emit(write_result(ev, call_seq=call_seq, upheld=upheld, minutes_added=minutes_added),
           f"seq {ev.seq}: call {call_seq} {what}")


def _slow_play(t: Tournament, verb: str) -> SlowPlay:
    """The format's slow-play facet (HotC R2); a format without one refuses (RULES-8)."""
    facet = t.plugin.slow_play
    if facet is None:
        raise t.plugin.commands.no_verb(verb)
    return facet
