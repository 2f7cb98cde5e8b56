"""What a team event refuses of the officiating layer's kinds (issue 20), before their own
checks run, with the team rule cited.

Owns: ``team_guard`` — in a team event (team_mode=tag|trio) it refuses: a re-issued
score sheet or an undrop naming a member instead of the team (the team is the entrant,
numbered by its representative; a member's own penalty is allowed, BR-TEAM-6,
ADR 0026); a fighter's late entry alone (the fighter would be on no team, BR-TEAM-1; a
late team enters whole with ``team_added_late``, ``team_late``); registration closing
with a fighter on no team or fewer than 2 teams (BR-TEAM-1); withdrawing a member (the
order is fixed, BR-TEAM-2); a pairing while the team of a disqualified member is still
in (it drops, BR-DROP-4); overriding a pairing once a seat has a result (LEDGER-RES-1:
before any result; a void is judged seat by seat by ``officiating.void.blockers``, as for
fighters); an earlier round's team result amended other than as derived from its seats
(``check_team_amendment``, BR-TEAM-7: a seat is amended, ``seat_result_amended``, and
the team result follows).
A command side and audit check alike (no such event is valid in a team event).

May import: ``msgspec``, ``ledger.core.state``, ``ledger.errors``, ``ledger.wire.events``,
``ledger.formats.officiating.events``, ``ledger.formats.match.events``,
``ledger.formats.match.history``, ``ledger.formats.bushiroad.{teams,team_results}``.
"""

from __future__ import annotations

import msgspec

from ledger.core.state import TournamentState
from ledger.errors import RuleError
from ledger.formats.bushiroad.teams import team_mode, team_of, teams_of, unteamed
from ledger.formats.match.events import RoundPaired
from ledger.formats.match.model import Phase
from ledger.formats.officiating.events import (
    PairingOverridden,
    PlayerAddedLate,
    PlayerUndropped,
    ResultAmended,
    ScoreSheetReissued,
)
from ledger.wire.events import Body, PlayerWithdrawn, RegistrationClosed

_BY_NUMBER = (PlayerUndropped, ScoreSheetReissued)


def team_guard(state: TournamentState, body: Body) -> None:
    if not team_mode(state):
        return
    if isinstance(body, _BY_NUMBER):
        number = body.number
        team = team_of(state, number)
        if team is not None and number not in teams_of(state).teams:
            raise RuleError("BR-TEAM-6", f"#{number} is a member of team #{team}: in a team "
                            "event a re-issued score sheet or an undrop is the team's",
                            hint=f"name the team: #{team}")
    elif isinstance(body, RegistrationClosed):
        left = unteamed(state)
        if left or len(teams_of(state).teams) < 2:
            raise RuleError("BR-TEAM-1", f"registration closes over teams: fighters {left} "
                            "are on no team" if left else "a team event needs at least 2 "
                            "teams", hint="register their teams ('tourney team add') or "
                                          "withdraw them")
    elif isinstance(body, PlayerWithdrawn) and team_of(state, body.number) is not None:
        raise RuleError("BR-TEAM-2", f"#{body.number} is on team #{team_of(state, body.number)}"
                        ", whose members and order are fixed once registered",
                        hint="the team plays as registered, or drops once the event starts "
                             "(BR-DROP-4)")
    elif isinstance(body, RoundPaired):
        dq, own = state.fmt.officiating.dq, teams_of(state).own_dq
        kept = sorted(n for n, team in teams_of(state).member_of.items()
                      if (n in dq and n != team or n in own)
                      and state.fmt.records.get(team) is not None
                      and state.fmt.records[team].status.value in ("active", "cut"))
        if kept:
            raise RuleError("BR-DROP-4", f"the teams of disqualified members {kept} are "
                            "still in the event", hint="a team whose member cannot "
                            "continue drops: tourney drop N")
    elif isinstance(body, PairingOverridden):
        prefix = f"{body.round}/"
        if any(k.startswith(prefix) and rows for k, rows in teams_of(state).seats.items()):
            raise RuleError("LEDGER-RES-1", f"seats of round {body.round} already have "
                            "results: a pairing is overridden before any result",
                            hint="a judge corrects a seat: tourney result correct … --seat K")
    elif isinstance(body, PlayerAddedLate):
        raise RuleError("BR-TEAM-1", "a fighter entering late alone would be on no team",
                        hint="a late fighter enters with their team: tourney team late "
                             "NAME NAME … --reason TEXT")
    elif isinstance(body, ResultAmended):
        check_team_amendment(state, body)


def check_team_amendment(state: TournamentState, body: ResultAmended) -> None:
    """An earlier round's team result is amended only as derived from its (amended)
    seats (BR-TEAM-7, AMB-B30): never typed."""
    from ledger.formats.bushiroad.team_results import derive, seats_at
    from ledger.formats.match import history

    row = history.get(state.fmt.officiating, body.round, body.table)
    seats = seats_at(state, body.round, body.table)
    if row is None or len(seats) != teams_of(state).size:
        raise RuleError("BR-TEAM-7", f"round {body.round} table {body.table} has no seats "
                        "to derive a team result from", finding="result_mismatch")
    want = derive(state, Phase.SWISS, list(row.players), seats)
    got = {"winner": body.winner, "losers": list(body.losers), "outcome": body.outcome,
           "loss_reasons": list(body.loss_reasons),
           "games": None if isinstance(body.games, msgspec.UnsetType) else list(body.games)}
    if got != {k: want[k] for k in got}:
        raise RuleError("BR-TEAM-7", f"a team table's result is derived from its seats: "
                        f"expected {want!r}, amended {got!r}",
                        hint=f"amend a seat: tourney result amend --round {body.round} "
                             f"--table {body.table} --seat K …", finding="result_mismatch")
