"""Teams as entrants (RULES.md §3.16, issue 20): pure data kept in ``MatchState.teams``.

Owns: ``Team`` (a registered team: its entrant number, its members by position, its
optional name), ``SeatResult`` (one seat's match of a team table: position k against
position k, BR-TEAM-2) and ``TeamState`` (every team of the event, who is on which team,
and every recorded seat result).  No behaviour: the Bushiroad team modules fold and read
it (``ledger.formats.bushiroad.team_*``).  A team's entrant number is its representative's
fighter number (BR-TEAM-3), so the match layer's records, pairings, byes, draws and
standings run over teams unchanged, and every draw item is a registered player.

May import: ``msgspec``.
"""

from __future__ import annotations

import msgspec


class Team(msgspec.Struct, kw_only=True, array_like=True, gc=False):
    number: int                 # the representative's fighter number (BR-TEAM-3)
    members: list[int]          # by position: first, second[, third] (BR-TEAM-2)
    name: str = ""              # optional, approved by the organizer (BR-TEAM-4)
    seq: int = 0                # the team_registered event


class SeatResult(msgspec.Struct, kw_only=True, array_like=True, gc=False):
    """One seat's match: the fighters' result as the Bushiroad rules decide it."""

    seat: int
    seq: int
    winner: int | None
    losers: list[int]
    games: list[int] | None = None
    decided_by: str = ""


class TeamState(msgspec.Struct, kw_only=True, array_like=True, gc=False):
    #: members per team: 2 (tag) or 3 (trio); 0 = an individual event
    size: int = 0
    teams: dict[int, Team] = {}
    #: fighter number → team number (BR-TEAM-1: one team each)
    member_of: dict[int, int] = {}
    #: "round/table" → the seat results recorded there, by seat
    seats: dict[str, list[SeatResult]] = {}
    #: representative → seq of their own disqualification as a member (``member`` on
    #: ``player_disqualified``, ADR 0026): the team dropped, it is not disqualified
    own_dq: dict[int, int] = {}


def seat_key(round_no: int, table: int) -> str:
    return f"{round_no}/{table}"
