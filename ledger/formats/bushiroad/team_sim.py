"""Team events in ``tourney simulate`` (issue 20): the simulated teams and seats.

Owns: ``team_steps`` (after the fighters are registered: teams of consecutive fighter
numbers, the last position the representative, BR-TEAM-1…3) and ``seat_count`` /
``seat_players`` (a team table's seats, position k against position k, BR-TEAM-2), read
by ``ledger.formats.simulation``, which draws each seat's outcome from its own simulation
stream (never from a pairing seed); ``BushiroadSimulation``, the formats' ``simulation``
facet.

May import: ``ledger.core.*``, ``ledger.wire.keys``, ``ledger.formats.bushiroad.teams``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from ledger.core.aggregate import Tournament
from ledger.core.params import Param
from ledger.core.state import TournamentState
from ledger.errors import RuleError
from ledger.formats.bushiroad.teams import SIZES, seat_fighters, team_size
from ledger.formats.match.sim import MatchSimulation

__all__ = ["SIZES", "BushiroadSimulation", "seat_count", "seat_players", "team_steps"]
from ledger.wire.keys import Signer


def _team(sk: Signer, members: list[int], t: Tournament, now: str) -> object:
    teams = t.plugin.teams
    if teams is None:
        raise RuleError("BR-TEAM-1", f"format {t.plugin.id} has no teams")
    return teams.register_team(t, sk, now, members=members, name=f"Team {members[-1]:04d}")


def team_steps(params: dict[str, Param] | None, players: int,
               sk: Signer) -> list[Callable[[Tournament, str], object]]:
    """The team registrations of a simulated team event (none for an individual one)."""
    size = SIZES.get(str((params or {}).get("team_mode", "none")), 0)
    if not size:
        return []
    return [partial(_team, sk, list(range(first, first + size)))
            for first in range(1, players - size + 2, size)]


def seat_count(state: TournamentState) -> int:
    return team_size(state)


def seat_players(state: TournamentState, players: list[int], seat: int) -> list[int]:
    return seat_fighters(state, players, seat)


class BushiroadSimulation(MatchSimulation):
    """The Bushiroad formats' ``simulation`` facet: the match layer's simulated event
    (``MatchSimulation``'s policy is Bushiroad's) with teams and their seats; single
    elimination seeds its bracket first (RULES.md §3.8)."""

    def __init__(self, title: str, *, seeds_first: bool = False) -> None:
        super().__init__(title)
        self.seeds_first = seeds_first

    def team_size(self, params: dict[str, Param] | None) -> int:
        return SIZES.get(str((params or {}).get("team_mode", "none")), 0)

    def team_steps(self, params: dict[str, Param] | None, players: int,
                   scorekeeper: Signer) -> list[Callable[[Tournament, str], object]]:
        return team_steps(params, players, scorekeeper)

    def seat_count(self, state: TournamentState) -> int:
        return seat_count(state)

    def seat_players(self, state: TournamentState, players: list[int], seat: int) -> list[int]:
        return seat_players(state, players, seat)
