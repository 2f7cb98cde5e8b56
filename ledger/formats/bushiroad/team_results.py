"""A team match's result, derived from its seats (BR-TEAM-7, AMB-B30; issue 20).

Owns: ``TeamRule`` (the closed set of ``team_result_rule`` values), ``derive`` (the one
implementation of the team result over the seat results: the command records it, the
audit re-derives it, the projections read what it gave), ``check_team_result`` (a
recorded team result equals the derivation; a typed one is refused) and
``check_team_spec`` (genesis: the team parameters belong together, and single
elimination needs the organizer's rule, AMB-B30).

Rules: AMB-B30 (§11 revision): a team wins with more individual match wins than the
opposing team; equal individual wins is a draw in Swiss and round robin and a double loss
in double elimination; organizers MUST specify the rule for single elimination
(``more_wins_then_last_seat``: equal wins are decided by the last position's match, the
representative's by default, BR-TEAM-3; if that match has no winner both teams lose, as
an SE time-up does, BR-SE-3).  A team that drops or is disqualified after pairing loses
the team match as a fighter would (BR-DROP-2, BR-DROP-4): that result is the match
layer's own and is checked as such.

May import: ``ledger.core.state``, ``ledger.errors``, ``ledger.wire.events``,
``ledger.formats.match.*``, ``ledger.formats.bushiroad.{params,plan,results,teams}``.
"""

from __future__ import annotations

from enum import Enum
from typing import TypedDict

import msgspec

from ledger.core.state import TournamentState
from ledger.errors import RuleError
from ledger.formats.bushiroad.plan import _stage
from ledger.formats.bushiroad.results import Stage
from ledger.formats.bushiroad.teams import SIZES, teams_of
from ledger.formats.match.events import MatchResult
from ledger.formats.match.model import DecidedBy, LossReason, Outcome, Phase
from ledger.formats.match.team_model import SeatResult, seat_key
from ledger.wire.events import FormatSpec


#: the decided fields of a team result, as ``result_recorded`` carries them
class TeamFields(TypedDict):
    """A team table's result as derived from its seats (AMB-B30): the fields of its
    ``result_recorded`` / ``result_corrected`` body."""

    winner: int | None
    losers: list[int]
    outcome: Outcome
    loss_reasons: list[LossReason]
    games: list[int]
    decided_by: DecidedBy


class TeamRule(str, Enum):
    """``team_result_rule`` (AMB-B30)."""

    MORE_WINS = "more_wins"
    MORE_WINS_THEN_LAST_SEAT = "more_wins_then_last_seat"


def team_rule(state: TournamentState) -> TeamRule:
    fmt = state.format
    return TeamRule(str(fmt.params.get("team_result_rule", "more_wins")) if fmt
                    else "more_wins")


def _won(teams: dict[int, list[int]], number: int, r: SeatResult) -> bool:
    return r.winner is not None and r.winner in teams[number]


def derive(state: TournamentState, phase: Phase, players: list[int],
           seats: list[SeatResult]) -> TeamFields:
    """The team result of a table whose every seat has a result (AMB-B30)."""
    a, b = players
    members = {n: teams_of(state).teams[n].members for n in players}
    wins_a = sum(_won(members, a, r) for r in seats)
    wins_b = sum(_won(members, b, r) for r in seats)
    games = [wins_a, wins_b, len(seats) - wins_a - wins_b]
    winner: int | None = a if wins_a > wins_b else b if wins_b > wins_a else None
    stage = _stage(state, phase)
    if winner is None and stage is Stage.SINGLE_ELIM:
        if team_rule(state) is not TeamRule.MORE_WINS_THEN_LAST_SEAT:
            raise RuleError("AMB-B30", "equal individual wins in single elimination and "
                            "no organizer's rule to decide them",
                            hint="the event must record --param team_result_rule="
                                 "more_wins_then_last_seat at init")
        last = max(seats, key=lambda r: r.seat)
        winner = a if _won(members, a, last) else b if _won(members, b, last) else None
    if winner is not None:
        return {"winner": winner, "losers": [b if winner == a else a],
                "outcome": Outcome.WIN, "loss_reasons": [LossReason.PLAY],
                "games": games, "decided_by": DecidedBy.PLAYED}
    if stage in (Stage.SWISS, Stage.ROUND_ROBIN):
        return {"winner": None, "losers": [], "outcome": Outcome.DRAW, "loss_reasons": [],
                "games": games, "decided_by": DecidedBy.PLAYED}
    return {"winner": None, "losers": sorted(players), "outcome": Outcome.DOUBLE_LOSS,
            "loss_reasons": [LossReason.DOUBLE_LOSS] * 2, "games": games,
            "decided_by": DecidedBy.DOUBLE_LOSS}


def seats_at(state: TournamentState, round_no: int, table: int) -> list[SeatResult]:
    return list(teams_of(state).seats.get(seat_key(round_no, table), []))


def complete(state: TournamentState, round_no: int, table: int) -> bool:
    return len(seats_at(state, round_no, table)) == teams_of(state).size


def _fields(body: MatchResult) -> dict[str, object]:
    return {"winner": body.winner, "losers": list(body.losers), "outcome": body.outcome,
            "loss_reasons": list(body.loss_reasons),
            "games": None if isinstance(body.games, msgspec.UnsetType) else list(body.games),
            "decided_by": None if isinstance(body.decided_by, msgspec.UnsetType)
            else body.decided_by}


def check_team_result(state: TournamentState, body: MatchResult, phase: Phase,
                      players: list[int]) -> None:
    """A team table's result is the derivation over its seats, never typed (BR-TEAM-7)."""
    if not complete(state, body.round, body.table):
        have = len(seats_at(state, body.round, body.table))
        raise RuleError("BR-TEAM-7", f"round {body.round} table {body.table} is a team "
                        f"match: its result is derived from its seats ({have} of "
                        f"{teams_of(state).size} recorded), never typed",
                        hint=f"record each seat: tourney result record --round {body.round}"
                             f" --table {body.table} --seat K …", finding="result_mismatch")
    expected = derive(state, phase, players, seats_at(state, body.round, body.table))
    if not isinstance(body.annex_a, msgspec.UnsetType) or _fields(body) != expected:
        raise RuleError("AMB-B30", f"team result: expected {expected!r}, recorded "
                        f"{_fields(body)!r}", finding="result_mismatch")


def check_team_spec(spec: FormatSpec) -> None:
    """Genesis: team parameters only with a team mode; single elimination (a single-elim
    event, or any top cut) needs the organizer's rule (AMB-B30)."""
    mode = str(spec.params.get("team_mode", "none"))
    others = sorted(k for k in ("team_communication", "team_result_rule") if k in spec.params)
    if mode not in SIZES:
        if others:
            raise RuleError("BR-TEAM-1", f"{', '.join(others)} needs a team event",
                            hint="add --param team_mode=tag|trio, or leave them out")
        return
    se = spec.id == "single-elim" or spec.cut > 0
    if se and spec.params.get("team_result_rule", "more_wins") == TeamRule.MORE_WINS.value:
        raise RuleError("AMB-B30", "a team single elimination (a single-elim event or a "
                        "top cut) needs the organizer's rule for equal individual wins",
                        hint="add --param team_result_rule=more_wins_then_last_seat")
