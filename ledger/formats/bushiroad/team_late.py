"""Late entry of a team (issue 20; ADR 0026 decision 15): ``team_added_late``.

Owns: the wire kind ``TeamAddedLate`` — a team entering after registration closed with
its fighters registered in the same event (numbers and names by position, BR-TEAM-2),
its representative (BR-TEAM-3), an optional name (BR-TEAM-4), the byes and losses the
organizer announced for the rounds already played and a reason — its rule check and
transition in the Bushiroad rulebook, and ``add_late_team`` (the command side).

One event, so a late team is written whole or not at all, and the audit checks it as the
command did.  The late-entry rule is the individual one (``officiating.corrections.
check_late_window`` / ``late_record``: between qualifying rounds, byes + losses fit in
the rounds played, not eliminated on entry); the team rules are ``teams.
check_team_order`` / ``check_team_name`` — no second implementation of either.  The team
is the entrant (ADR 0026 decision 1): the record opened is the team's, under its
representative's number; its fighters are registered players with no record of their own.

May import: ``msgspec``, ``ledger.core.*``, ``ledger.errors``, ``ledger.wire.events``,
``ledger.formats.match.*``, ``ledger.formats.bushiroad.{book,teams}``,
``ledger.formats.officiating.{corrections,rules}``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from ledger.core.rules import MAX_PLAYER_NUMBER
from ledger.core.state import Player, TournamentState
from ledger.errors import RuleError
from ledger.formats.bushiroad.book import BR_BOOK as BOOK
from ledger.formats.bushiroad.teams import (
    TeamKind,
    check_team_name,
    check_team_order,
    put_team,
    team_mode,
    team_size,
)
from ledger.formats.match.unbeaten import put_record
from ledger.formats.officiating.corrections import check_late_window, late_record
from ledger.formats.officiating.rules import refusing_match_state
from ledger.wire.events import Body, Role, SignedEvent

if TYPE_CHECKING:
    from ledger.core.aggregate import Tournament
    from ledger.wire.keys import Signer


class LateFighter(msgspec.Struct, frozen=True, kw_only=True):
    """A fighter registered late with their team (as ``player_added_late`` names one)."""

    number: int
    name: str


class TeamAddedLate(Body, frozen=True, kw_only=True):
    """A team registered after registration closed (head judge, as a late fighter):
    ``fighters`` by position, ``number`` the representative, the ``byes`` and ``losses``
    announced for the ``rounds`` already played; the team's record gets them."""

    KIND = TeamKind.TEAM_ADDED_LATE
    number: int
    fighters: list[LateFighter]
    rounds: int
    byes: int
    losses: int
    reason: str
    name: str | msgspec.UnsetType = msgspec.UNSET


LATE_BODIES: tuple[type[Body], ...] = (TeamAddedLate,)

BOOK.permit(TeamKind.TEAM_ADDED_LATE.value, frozenset({Role.HEAD_JUDGE}))  # as a fighter's


@BOOK.checks(TeamAddedLate)
def check_late_team(state: TournamentState, body: TeamAddedLate, actor: str) -> None:
    if not team_mode(state):
        raise RuleError("BR-TEAM-1", "this event is not a team event",
                        hint="a late fighter enters with 'tourney player late'")
    check_late_window(state, rounds=body.rounds, byes=body.byes, losses=body.losses)
    if not body.reason.strip():
        raise RuleError("LEDGER-REG-1", "a late entry needs a reason", hint="pass --reason")
    members = [f.number for f in body.fighters]
    check_team_order(state, members)
    for f in body.fighters:
        if not 1 <= f.number <= MAX_PLAYER_NUMBER or f.number in state.players:
            raise RuleError("LEDGER-REG-1", f"player number {f.number} is taken or invalid"
                            + (" (a registered fighter is on a team already, BR-TEAM-1)"
                               if f.number in state.players else ""),
                            hint="a late team's fighters are registered with it: give new "
                                 "numbers, or omit --number")
        if f.number in state.withdrawn:
            raise RuleError("LEDGER-REG-1", f"player number {f.number} was withdrawn at seq "
                            f"{state.withdrawn[f.number]}; numbers are not reused",
                            hint="omit --number to take the next free ones")
        if not f.name.strip() or f.name != f.name.strip():
            raise RuleError("LEDGER-REG-1", f"fighter #{f.number}'s name is empty or has "
                            "surrounding spaces", hint="give each fighter's name")
    check_team_name(state, body.number, members, body.name)


@BOOK.applies(TeamAddedLate)
def _apply_late_team(state: TournamentState, ev: SignedEvent, body: TeamAddedLate) -> None:
    for f in body.fighters:
        state.players[f.number] = Player(number=f.number, name=f.name, registered_seq=ev.seq)
    put_team(state, ev.seq, body.number, [f.number for f in body.fighters], body.name)
    put_record(state.fmt, late_record(body.number, rounds=body.rounds, byes=body.byes,
                                      losses=body.losses))


def add_late_team(t: Tournament, signer: Signer, time: str, *, names: list[str],
                  byes: int, losses: int, reason: str, numbers: list[int] | None = None,
                  name: str | None = None,
                  representative: int | None = None) -> list[SignedEvent]:
    """Register a team and its fighters after registration closed, in one event.
    ``numbers`` default to the next free ones (after every registered or withdrawn
    number); the representative defaults to the last position (BR-TEAM-3)."""
    st = t.state
    if numbers is None:
        first = max([*st.players, *st.withdrawn], default=0) + 1
        numbers = list(range(first, first + len(names)))
    elif len(numbers) != len(names):
        raise RuleError("BR-TEAM-1", f"{len(names)} names but {len(numbers)} numbers",
                        hint=f"give one --number per fighter ({team_size(st)} each), or none")
    rep = representative if representative is not None else (numbers[-1] if numbers else 0)
    body = TeamAddedLate(number=rep, rounds=refusing_match_state(st).swiss_rounds, byes=byes,
                         losses=losses,
                         reason=reason,
                         fighters=[LateFighter(number=n, name=x) for n, x in
                                   zip(numbers, names, strict=True)],
                         **({} if name is None else {"name": name}))
    return [t.record(body, signer, time)]
