"""Team fights (RULES.md §3.16, issue 20): team registration and who sits where.

Owns: the wire kinds ``TeamRegistered`` (a team: its members by position, its
representative as its entrant number, its optional name), ``SeatResultRecorded`` (one
seat's match of a team table, BR-TEAM-2), ``SeatResultCorrected`` and
``SeatResultAmended``, ``TEAM_BODIES``, the readers
``team_mode`` / ``team_size`` / ``teams_of`` / ``team_of`` / ``seat_fighters`` /
``team_label``, the rule check and the transition of ``team_registered`` (BR-TEAM-1…4;
``check_team_order`` / ``check_team_name`` / ``put_team`` are shared with a late team,
``team_late``),
and ``open_team_records`` (registration closes over teams, not fighters).

Interpretations (docs/adr/0026-team-fights.md): a team's entrant number is its
representative's fighter number (BR-TEAM-3), so the match layer pairs, seats byes, draws
and ranks teams unchanged; a team is registered before registration closes and its order
is fixed from then on (BR-TEAM-2): there is no event that changes it.

May import: ``msgspec``, ``ledger.core.state``, ``ledger.errors``, ``ledger.wire.events``,
``ledger.formats.match.*``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from enum import Enum
from typing import Any

import msgspec

from ledger.core.state import TournamentState
from ledger.errors import RuleError
from ledger.formats.match.events import MatchResult
from ledger.formats.match.model import MatchState, PlayerRecord
from ledger.formats.match.team_model import Team, TeamState
from ledger.formats.match.unbeaten import is_unbeaten
from ledger.wire.events import Body, SignedEvent

SIZES = {"tag": 2, "trio": 3}                       # BR-TEAM-1
POSITIONS = ("first", "second", "third")            # BR-TEAM-2
#: words a team name may not contain (BR-TEAM-4: offensive names are not allowed); the
#: organizer's signature on ``team_registered`` is the approval the rule asks for
OFFENSIVE = frozenset({"fuck", "fucking", "shit", "cunt", "nigger", "faggot", "retard",
                       "whore", "slut", "nazi"})


class TeamKind(str, Enum):
    TEAM_REGISTERED = "team_registered"
    SEAT_RESULT_RECORDED = "seat_result_recorded"
    SEAT_RESULT_CORRECTED = "seat_result_corrected"
    SEAT_RESULT_AMENDED = "seat_result_amended"
    TEAM_ADDED_LATE = "team_added_late"


class TeamRegistered(Body, frozen=True, kw_only=True):
    """BR-TEAM-1…4: ``number`` is the representative (a member; the last position unless
    stated), ``members`` the fixed order, ``name`` the approved team name (optional)."""

    KIND = TeamKind.TEAM_REGISTERED
    number: int
    members: list[int]
    name: str | msgspec.UnsetType = msgspec.UNSET


class SeatResultRecorded(MatchResult, frozen=True, kw_only=True):
    """One seat of a team table: position ``seat`` of each team (BR-TEAM-2), decided by
    the format's own result rules; the team's result is derived from its seats."""

    KIND = TeamKind.SEAT_RESULT_RECORDED
    seat: int
    note: str = ""
    #: issue 32 (REPORT-21): the seqs of the two members' ``result_reported`` of this
    #: seat it settles; on the wire only when given
    reports: list[int] | msgspec.UnsetType = msgspec.UNSET


class SeatResultCorrected(MatchResult, frozen=True, kw_only=True):
    """A judge's correction of one seat (LEDGER-RES-1 timing, as a table's): the team
    result is derived again from the seats and corrected with it when it changes."""

    KIND = TeamKind.SEAT_RESULT_CORRECTED
    seat: int
    corrects_seq: int
    reason: str


class SeatResultAmended(MatchResult, frozen=True, kw_only=True):
    """The head judge amends one seat of an earlier qualifying round (as ``result_amended``
    for a table, BR-PEN-3.10.2-AMEND-3): the team result is derived again and amended with
    it when it changes (BR-TEAM-7)."""

    KIND = TeamKind.SEAT_RESULT_AMENDED
    seat: int
    corrects_seq: int
    reason: str


TEAM_BODIES: tuple[type[Body], ...] = (TeamRegistered, SeatResultRecorded,
                                       SeatResultCorrected, SeatResultAmended)


# -- readers --------------------------------------------------------------------------
def team_size(state: TournamentState) -> int:
    """Members per team (2 tag, 3 trio); 0 in an individual event."""
    fmt = state.format
    return SIZES.get(str(fmt.params.get("team_mode", "none")), 0) if fmt else 0


def team_mode(state: TournamentState) -> bool:
    return team_size(state) > 0


def teams_of(state: TournamentState) -> TeamState:
    """The event's teams (read only: an event with none yet reads an empty one)."""
    h: MatchState = state.fmt
    return h.teams if h.teams is not None else TeamState(size=team_size(state))


def team_of(state: TournamentState, fighter: int) -> int | None:
    """The team (its number) a fighter is on, or None."""
    h: MatchState = state.fmt
    return None if h.teams is None else h.teams.member_of.get(fighter)


def seat_fighters(state: TournamentState, players: list[int], seat: int) -> list[int]:
    """Position ``seat`` of each team of a table (BR-TEAM-2), refused when out of range."""
    size = team_size(state)
    if not size:
        raise RuleError("BR-TEAM-2", "seats are for team events (team_mode=tag|trio)",
                        hint="record the table's result without a seat")
    if not 1 <= seat <= size:
        raise RuleError("BR-TEAM-2", f"a {'tag' if size == 2 else 'trio'} table has seats "
                        f"1..{size}, not {seat}", hint=f"--seat 1..{size} (position k plays "
                        "position k)")
    teams = teams_of(state).teams
    out = []
    for number in players:
        team = teams.get(number)
        if team is None:
            raise RuleError("BR-TEAM-2", f"#{number} at this table is not a team",
                            finding="result_mismatch")
        out.append(team.members[seat - 1])
    return out


def team_label(state: TournamentState, number: int) -> str:
    """``Team name (#4 Ann, #5 Bo, #6 Cy)`` — the members by position."""
    team = teams_of(state).teams.get(number)
    if team is None:
        return f"#{number}"
    names = ", ".join(f"#{m} {state.players[m].name}" if m in state.players else f"#{m}"
                      for m in team.members)
    return f"{team.name or 'team #' + str(number)} ({names})"


def seat_slip(state: TournamentState, row: Mapping[str, str], read: Callable[..., Any]
              ) -> tuple[dict[str, object], str]:
    """A team slip row (``seat`` column): read as the seat's own match, the seat's two
    fighters standing for the table's (the match layer reads the table's players)."""
    from ledger.formats.match.apply import find_table

    text = (row.get("seat") or "").strip()
    if not (text.isascii() and text.isdigit()):
        raise RuleError("BR-TEAM-2", f"seat {text!r} is not a seat number",
                        hint=f"seat 1..{team_size(state) or 1}")
    rnd, tab = (row.get("round") or "").strip(), (row.get("table") or "").strip()
    found = find_table(state.fmt, int(rnd), int(tab)) if (rnd + tab).isdigit() else None
    if found is None:
        raise RuleError("LEDGER-RES-1", f"round {rnd} has no table {tab}",
                        hint="see 'tourney round show'")
    fighters = seat_fighters(state, list(found.players), int(text))
    saved = found.players
    found.players = fighters          # read over the seat, then the table is as it was
    try:
        given, note = read(state, row, games_recorded=True, turn_player_timeout=False)
    finally:
        found.players = saved
    return {**given, "seat": int(text)}, note


# -- the rule -------------------------------------------------------------------------
def _offensive(name: str) -> str | None:
    words = re.findall(r"[a-z]+", name.casefold())
    return next((w for w in words if w in OFFENSIVE), None)


def check_team(state: TournamentState, body: TeamRegistered) -> None:
    size = team_size(state)
    if not size:
        raise RuleError("BR-TEAM-1", "this event is not a team event",
                        hint="team fights need --param team_mode=tag|trio at init")
    if state.registration_closed_seq is not None:
        raise RuleError("LEDGER-REG-2", f"registration closed at seq "
                        f"{state.registration_closed_seq}", hint="no team can be added now")
    check_team_order(state, body.members)
    ts = teams_of(state)
    for m in body.members:
        if m not in state.players:
            raise RuleError("BR-TEAM-1", f"#{m} is not a registered fighter",
                            hint="register the fighter first ('tourney player add')")
        held = ts.member_of.get(m)
        if held is not None:
            same = sorted(ts.teams[held].members) == sorted(body.members)
            if same:
                raise RuleError("BR-TEAM-2", f"team #{held} has the fixed order "
                                f"{ts.teams[held].members}; a team's order is not changed",
                                hint="the order is fixed for the event")
            raise RuleError("BR-TEAM-1", f"#{m} is already on team #{held}; a fighter "
                            "may belong to only one team", hint="choose another fighter")
    check_team_name(state, body.number, body.members, body.name)


def check_team_order(state: TournamentState, members: list[int]) -> None:
    """A team has exactly 2 (tag) or 3 (trio) members (BR-TEAM-1), each position a
    different fighter (BR-TEAM-2)."""
    size = team_size(state)
    if len(members) != size:
        raise RuleError("BR-TEAM-1", f"a {'tag' if size == 2 else 'trio'} team has {size} "
                        f"members, not {len(members)}",
                        hint=f"name {size} fighters in order")
    if len(set(members)) != len(members):
        raise RuleError("BR-TEAM-2", f"a fighter holds two positions of the order "
                        f"{members}", hint="each position is a different fighter")


def check_team_name(state: TournamentState, number: int, members: list[int],
                    name: str | msgspec.UnsetType) -> None:
    """The representative is a member (BR-TEAM-3); the optional name is shown as given,
    not offensive and unique (BR-TEAM-4) — a team registered on time or late alike."""
    ts = teams_of(state)
    if number not in members:
        raise RuleError("BR-TEAM-3", f"the representative #{number} is not a member",
                        hint="the representative is one of the members (default: the "
                             "last position)")
    if not isinstance(name, msgspec.UnsetType):
        if not name.strip() or name != name.strip():
            raise RuleError("BR-TEAM-4", "the team name is empty or has surrounding spaces",
                            hint="give the name as it should be shown, or no name")
        bad = _offensive(name)
        if bad is not None:
            raise RuleError("BR-TEAM-4", f"the team name {name!r} is offensive "
                            f"({bad!r})", hint="offensive names are not allowed: choose "
                                               "another name")
        taken = [t.number for t in ts.teams.values() if t.name.casefold()
                 == name.casefold()]
        if taken:
            raise RuleError("BR-TEAM-4", f"team #{taken[0]} is already named {name!r}",
                            hint="team names tell teams apart: choose another name")


def apply_team(state: TournamentState, ev: SignedEvent, body: TeamRegistered) -> None:
    put_team(state, ev.seq, body.number, list(body.members), body.name)


def put_team(state: TournamentState, seq: int, number: int, members: list[int],
             name: str | msgspec.UnsetType) -> None:
    """The team on the roster: its members by position, each fighter's team."""
    h: MatchState = state.fmt
    if h.teams is None:
        h.teams = TeamState(size=team_size(state))
    ts = h.teams
    ts.teams[number] = Team(number=number, members=list(members),
                            name="" if isinstance(name, msgspec.UnsetType) else name, seq=seq)
    for m in members:
        ts.member_of[m] = number


def open_team_records(state: TournamentState) -> None:
    """Registration closed in a team event: the entrants are the teams (BR-TEAM-1), so
    the match layer's records are the teams' (its own transition opened one per fighter)."""
    h: MatchState = state.fmt
    teams = teams_of(state).teams
    h.records = {n: h.records.get(n) or PlayerRecord(number=n) for n in sorted(teams)}
    h.unbeaten = sum(is_unbeaten(r) for r in h.records.values())


def unteamed(state: TournamentState) -> list[int]:
    """Registered fighters on no team (a team event closes registration without them)."""
    ts = teams_of(state)
    return sorted(n for n in state.players if n not in ts.member_of)
