"""The Judge's powers beyond the core's (Wheel of Time today): ``tourney forfeit``
(Declaration of Forfeiture, WOTOLD-FORF-1) and ``tourney tbp-override`` (WOTOLD-FORF-2).

Owns: the two commands and their one-line reports.  They call the event's format's own
verbs (``declare_forfeit``, ``override_tbp``, ``forfeit_todo``); a format without them
refuses by name.  Nothing here knows a format (issue 17).

May import: ``typer``, ``cli.common``, ``ledger.*`` (no format package).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from cli.common import (
    JsonOpt,
    KeyOpt,
    Session,
    events_brief,
    seq_span,
    write_result,
)
from ledger.errors import UsageError

if TYPE_CHECKING:
    from ledger.core.aggregate import Tournament
    from ledger.core.format_plugin import FormatPlugin
    from ledger.core.state import TournamentState
    from ledger.wire.events import SignedEvent

_Opt = typer.Option


def plugin_of_state(state: TournamentState) -> FormatPlugin:
    from ledger.core.format_socket import require_plugin

    return require_plugin(state.format.id if state.format else "")


def _label(state: TournamentState, n: int) -> str:
    p = state.players.get(n)
    text = f"#{n} {p.name}" if p is not None else f"#{n}"
    return text if len(text) <= 24 else text[:23] + "…"


def _judge_write(s: Session, verb: str, **kw: Any) -> tuple[str, list[SignedEvent], Any]:
    signer = s.signer()
    with s.ledger() as led:
        log = s.tournament(led)

        def command(t: Tournament, time: str) -> tuple[list[SignedEvent], Any]:
            powers = t.plugin.judge_powers
            if powers is None:
                raise UsageError(f"'{verb}' is not a power of {t.plugin.title}",
                                 hint="a Judge power of the Wheel of Time formats; see "
                                      "'tourney --help' for this event's commands")
            if verb == "forfeit":
                return powers.declare_forfeit(t, signer, time, **kw), t
            return powers.override_tbp(t, signer, time, **kw), t

        events, agg = led.write(log, command)
    return log, events, agg.state


def forfeit(
    ctx: typer.Context,
    number: Annotated[int, typer.Argument(metavar="NUMBER", min=1, help="Player number.")],
    reason: Annotated[str, _Opt("--reason", metavar="TEXT",
                                help="Why (required; kept in the event).")],
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Declaration of Forfeiture (WoT Judge = head judge; WOTOLD-FORF-1, AMB-W10).

    The player is removed from the standings and future pairings and loses all points;
    opponents keep their earlier results.  A table of theirs still open in the Game in
    progress is not closed by this: the scorekeeper records it as their concession
    (the revision's concession code, with --conceded-by), and the command prints that
    line.

    Example: tourney forfeit 7 --reason "illegal deck size (WOTOLD-DECK-6)" --key judge.pem
    """
    s = Session(ctx, key=key, json=json)
    if not reason.strip():
        raise UsageError("--reason is empty", hint="say why the player is declared forfeit")
    log, events, st = _judge_write(s, "forfeit", number=number, reason=reason)
    powers = plugin_of_state(st).judge_powers         # present: the forfeit was written
    open_table, todo = powers.forfeit_todo(st, number) if powers else (None, "")
    s.emit(write_result(events[0], number=number, events=events_brief(events),
                        open_table=open_table),
           [f"{seq_span(events)}: {_label(st, number)} declared forfeit: removed, all "
            "points lost", todo])


def tbp_override(
    ctx: typer.Context,
    round_no: Annotated[int, _Opt("--round", metavar="N", min=1, help="Game number.")],
    number: Annotated[int, _Opt("--number", metavar="NUMBER", min=1,
                                help="The opponent of the conceding/forfeiting player.")],
    new: Annotated[str, _Opt("--new", metavar="TBP",
                             help="The TBP the Judge awards: an integer or num/den.")],
    method: Annotated[str, _Opt("--method", metavar="TEXT",
                                help="How the value was reached (required).")],
    reason: Annotated[str, _Opt("--reason", metavar="TEXT", help="Why (required).")],
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """The Judge's TBP adjustment after a concession or forfeit (WOTOLD-FORF-2).

    Replaces NUMBER's TBP for that Game; the event cites the value it replaces and is
    listed by 'tourney audit verify'.  Other players' averages keep the derived values
    unless the event announced wot_override_in_averages (AMB-W15).

    Example: tourney tbp-override --round 3 --number 4 --new 5 --method "replayed final turn" --reason "concession to move the pile" --key judge.pem
    """
    s = Session(ctx, key=key, json=json)
    if not method.strip() or not reason.strip():
        raise UsageError("--method and --reason must say something",
                         hint="the override is noted and submitted with the verification")
    log, events, st = _judge_write(s, "tbp-override", round_no=round_no, number=number,
                                   new=new.strip(), method=method, reason=reason)
    b = events[0].body
    s.emit(write_result(events[0], round=round_no, number=number,
                        old=b.old, new=b.new, events=events_brief(events)),  # type: ignore[attr-defined]
           [f"{seq_span(events)}: Game {round_no}: TBP of {_label(st, number)} "
            f"{b.old} -> {b.new}"])  # type: ignore[attr-defined]
