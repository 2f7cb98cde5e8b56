"""Team events in ``tourney simulate`` (issue 20): the simulated teams and seats.

Owns: ``team_steps`` (after the fighters are registered: teams of consecutive fighter
numbers, the last position the representative, BR-TEAM-1…3) and ``seat_count`` /
``seat_players`` (a team table's seats, position k against position k, BR-TEAM-2), read
by ``ledger.formats.simulation``, which draws each seat's outcome from its own simulation
stream (never from a pairing seed).

May import: ``ledger.core.*``, ``ledger.wire.keys``, ``ledger.formats.bushiroad.teams``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from ledger.core.aggregate import Tournament
from ledger.core.params import Param
from ledger.core.state import TournamentState
from ledger.formats.bushiroad.teams import SIZES, seat_fighters, team_size

__all__ = ["SIZES", "seat_count", "seat_players", "team_steps"]
from ledger.wire.keys import Signer


def _team(sk: Signer, members: list[int], t: Tournament, now: str) -> object:
    return t.plugin.register_team(t, sk, now, members=members,  # type: ignore[attr-defined]
                                  name=f"Team {members[-1]:04d}")


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
