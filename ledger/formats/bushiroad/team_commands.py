"""Team commands (issue 20): register a team, record a seat, drop a team.

Owns: ``register_team`` (BR-TEAM-1…4: members in order, the representative — the last
position unless stated — and an optional name), ``record_seat`` (one seat's match with
the Bushiroad result rules; when the table's last seat is in, the team result derived by
``team_results.derive`` is recorded in the same command, BR-TEAM-7/AMB-B30),
``correct_seat`` (a judge's seat correction, the team result derived again),
``team_of_drop`` (a member's drop is the team's, BR-DROP-4), ``member_gone`` (a member's
disqualification drops the team, BR-DROP-4) and ``seat_decision`` (what a seat entry
decides, recording nothing).

May import: ``ledger.core.aggregate`` (type hints), ``ledger.errors``, ``ledger.wire.*``,
``ledger.formats.match.*``, ``ledger.formats.bushiroad.*``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ledger.errors import RuleError
from ledger.formats.bushiroad.commands import _after_result, _no_hotc_options, result_body
from ledger.formats.bushiroad.plan import make_annex
from ledger.formats.bushiroad.team_book import amended_seat, corrected_seat, seat_table
from ledger.formats.bushiroad.team_results import complete, derive, seats_at
from ledger.formats.bushiroad.teams import (
    SeatResultAmended,
    SeatResultCorrected,
    SeatResultRecorded,
    TeamRegistered,
    seat_fighters,
    team_mode,
    team_of,
    team_size,
)
from ledger.formats.match.events import ResultCorrected, ResultRecorded
from ledger.formats.match.model import Outcome
from ledger.formats.match.plan import open_table
from ledger.formats.match.vocab import seat as table_seat

if TYPE_CHECKING:
    from ledger.core.aggregate import Tournament
    from ledger.core.plugin import DecidedResult
    from ledger.wire.events import SignedEvent
    from ledger.wire.keys import Signer


def register_team(t: Tournament, signer: Signer, time: str, *, members: list[int],
                  name: str | None = None,
                  representative: int | None = None) -> list[SignedEvent]:
    rep = representative if representative is not None else (members[-1] if members
                                                              else 0)
    body = TeamRegistered(number=rep, members=list(members),
                          **({} if name is None else {"name": name}))
    return [t.record(body, signer, time)]


def _seat_body(t: Tournament, *, round_no: int, table: int, seat: int, outcome: Outcome,
               winner: int | None, loser: int | None, games: list[int] | None,
               annex_values: list[list[list[int]]] | None) -> dict[str, object]:
    tab, fighters = seat_table(t.state, round_no, table, seat)
    rnd, _ = open_table(t.state, round_no, table)
    annex = make_annex(t.state, fighters, annex_values) if annex_values else None
    body = result_body(t, round_no, fighters, rnd.phase, outcome=outcome, winner=winner,
                       loser=loser, games=games, annex=annex)
    return {k: v for k, v in body.items() if not (k == "annex_a" and v is None)}


def record_seat(t: Tournament, signer: Signer, time: str, *, round_no: int, table: int,
                seat: int, outcome: Outcome, winner: int | None = None,
                loser: int | None = None, games: list[int] | None = None,
                annex_values: list[list[list[int]]] | None = None,
                turn_player: int | None = None, slow_play: list[int] | None = None,
                note: str = "", penalty_seq: int | None = None,
                **_: Any) -> list[SignedEvent]:
    _no_hotc_options(turn_player, slow_play)
    body = _seat_body(t, round_no=round_no, table=table, seat=seat, outcome=outcome,
                      winner=winner, loser=loser, games=games, annex_values=annex_values)
    cite: dict[str, object] = {} if penalty_seq is None else {"penalty_seq": penalty_seq}
    out = [t.record(SeatResultRecorded(round=round_no, table=table, seat=seat, note=note,
                                       **cite, **body),  # type: ignore[arg-type]
                    signer, time)]
    if complete(t.state, round_no, table):
        rnd, tab = open_table(t.state, round_no, table)
        fields = derive(t.state, rnd.phase, tab.players, seats_at(t.state, round_no, table))
        out.append(t.record(ResultRecorded(round=round_no, table=table,
                                           **fields),  # type: ignore[arg-type]
                            signer, time))
        out += _after_result(t, round_no, signer, time)
    return out


def refuse_typed(round_no: int, table: int, size: int) -> RuleError:
    return RuleError("BR-TEAM-7", f"round {round_no} table {table} is a team match: its "
                     "result is derived from its seats, never typed",
                     hint=f"record each seat 1..{size}: tourney result record --round "
                          f"{round_no} --table {table} --seat K --winner N …")


def seat_decision(t: Tournament, *, round_no: int, table: int, seat: int,
                  outcome: Outcome, winner: int | None = None, loser: int | None = None,
                  games: list[int] | None = None,
                  annex_values: list[list[list[int]]] | None = None,
                  **_: Any) -> DecidedResult:
    """What a seat entry decides (recording nothing), for an idempotent re-entry."""
    found = table_seat(t.state, round_no, table)
    if found is None:
        raise RuleError("LEDGER-RES-1", f"round {round_no} has no table {table}",
                        hint="see 'tourney round show'")
    phase, players = found
    fighters = seat_fighters(t.state, players, seat)
    annex = make_annex(t.state, fighters, annex_values) if annex_values else None
    body = result_body(t, round_no, fighters, phase, outcome=outcome, winner=winner,
                       loser=loser, games=games, annex=annex)
    g = body["games"]
    return (body["winner"], list(body["losers"]), list(body["loss_reasons"]),  # type: ignore[call-overload]
            body["outcome"], None if g is None else list(g))  # type: ignore[call-overload]


def seat_recorded(t: Tournament, round_no: int, table: int, seat: int) -> object | None:
    return next((r for r in seats_at(t.state, round_no, table) if r.seat == seat), None)


def team_of_drop(t: Tournament, number: int) -> int:
    """BR-DROP-4: a member who cannot continue drops the team; a team drops by its number
    or any member's."""
    if not team_mode(t.state):
        return number
    team = team_of(t.state, number)
    if team is None:
        raise RuleError("BR-DROP-4", f"#{number} is on no team of this {team_size(t.state)}"
                        "-fighter team event", hint="drop a team by any member's number")
    return team



def correct_seat(t: Tournament, signer: Signer, time: str, *, round_no: int, table: int,
                 seat: int, outcome: Outcome, reason: str, winner: int | None = None,
                 loser: int | None = None, games: list[int] | None = None,
                 annex_values: list[list[list[int]]] | None = None,
                 turn_player: int | None = None, slow_play: list[int] | None = None,
                 **_: Any) -> list[SignedEvent]:
    """A judge corrects one seat; when the team result derived from the seats changes,
    the team result is corrected with it (BR-TEAM-7) and a closed round closes again."""
    _no_hotc_options(turn_player, slow_play)
    rnd, tab, fighters, current = corrected_seat(t.state, round_no, table, seat)
    annex = make_annex(t.state, fighters, annex_values) if annex_values else None
    body = result_body(t, round_no, fighters, rnd.phase, outcome=outcome, winner=winner,
                       loser=loser, games=games, annex=annex)
    body = {k: v for k, v in body.items() if not (k == "annex_a" and v is None)}
    out = [t.record(SeatResultCorrected(round=round_no, table=table, seat=seat,
                                        corrects_seq=current, reason=reason,
                                        **body),  # type: ignore[arg-type]
                    signer, time)]
    if tab.result is None:                 # seats still missing: no team result yet
        return out
    fields = derive(t.state, rnd.phase, tab.players, seats_at(t.state, round_no, table))
    now = (tab.result.winner, list(tab.result.losers), tab.result.outcome,
           None if tab.result.games is None else list(tab.result.games))
    if now == (fields["winner"], fields["losers"], fields["outcome"], fields["games"]):
        return out
    out.append(t.record(ResultCorrected(round=round_no, table=table,
                                        corrects_seq=tab.result.seq, reason=reason,
                                        **fields),  # type: ignore[arg-type]
                        signer, time))
    if rnd.closed_seq is not None:
        out += _after_result(t, round_no, signer, time)
    return out


def member_gone(t: Tournament, signer: Signer, time: str, number: int,
                member: bool = False) -> list[SignedEvent]:
    """A member (not the team's own number, or the representative with ``member``) was
    disqualified: the team drops (BR-DROP-4), losing its match in progress by the drop
    (BR-DROP-2)."""
    from ledger.formats.bushiroad.commands import drop_player
    from ledger.formats.bushiroad.teams import teams_of
    from ledger.formats.match.model import Status

    if not team_mode(t.state) or number in teams_of(t.state).teams and not member:
        return []
    team = team_of(t.state, number)
    rec = None if team is None else t.state.fmt.records.get(team)
    if team is None or rec is None or rec.status not in (Status.ACTIVE, Status.CUT):
        return []
    return drop_player(t, signer, time, team, f"member #{number} disqualified (BR-DROP-4)")


def amend_seat(t: Tournament, signer: Signer, time: str, *, round_no: int, table: int,
               seat: int, reason: str, outcome: Outcome, winner: int | None = None,
               loser: int | None = None, games: list[int] | None = None,
               annex_values: list[list[list[int]]] | None = None,
               turn_player: int | None = None, slow_play: list[int] | None = None,
               **_: Any) -> list[SignedEvent]:
    """The head judge amends one seat of an earlier qualifying round (as 'result amend'
    does a table, BR-PEN-3.10.2-AMEND-3); when the team result derived from the seats
    changes, it is amended with it (BR-TEAM-7).  Pairings made since stand."""
    from ledger.formats.match import history
    from ledger.formats.match.model import Phase
    from ledger.formats.officiating.events import ResultAmended

    _no_hotc_options(turn_player, slow_play)
    rnd, fighters, done = amended_seat(t.state, round_no, table, seat)
    annex = make_annex(t.state, fighters, annex_values) if annex_values else None
    body = result_body(t, round_no, fighters, rnd.phase, outcome=outcome, winner=winner,
                       loser=loser, games=games, annex=annex)
    body = {k: v for k, v in body.items() if not (k == "annex_a" and v is None)}
    out = [t.record(SeatResultAmended(round=round_no, table=table, seat=seat,
                                      corrects_seq=done.seq, reason=reason,
                                      **body),  # type: ignore[arg-type]
                    signer, time)]
    row = history.get(t.state.fmt.officiating, round_no, table)
    assert row is not None and row.seq is not None
    f = derive(t.state, Phase.SWISS, list(row.players), seats_at(t.state, round_no, table))
    if (f["winner"], f["losers"], f["outcome"].value, f["games"]) != (  # type: ignore[attr-defined]
            row.winner, list(row.losers), row.outcome, row.games):
        out.append(t.record(ResultAmended(
            round=round_no, table=table, corrects_seq=row.seq, reason=reason,
            **{k: f[k] for k in ("winner", "losers", "outcome", "loss_reasons",
                                 "games")}), signer, time))  # type: ignore[arg-type]
    return out
