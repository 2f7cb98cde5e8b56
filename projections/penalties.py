"""Penalty history read model (``tourney penalty list``): every penalty and
disqualification of a tournament, from the signed events, with the prior offences and
upgrade the judge recorded (BR-PEN-RANK-4..6) and where each LoG / LoM took effect.

In a team event (issue 20, ADR 0026) each row says whose the penalty is: ``whose`` is
``member`` for a member's own (another member's number, or the representative's with
``member: true``) and ``team`` for the team's (given to the team's number without it,
applying to each member, BR-TEAM-6), with ``team`` the team's number; one member's history
lists their own penalties and their team's.  The teams are read from the same leaves
(``team_registered`` / ``team_added_late``), or given (``teams``: fighter → team) when the
leaves are read from a later point.  Individual events' rows are as they always were.

Owns: ``penalty_rows`` (leaves → rows, optionally for one player) and ``row_text``.

May import: ``msgspec``, ``ledger.*``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import Enum
from typing import Any

import msgspec

from ledger.formats.officiating.catalogue import CATALOGUE
from ledger.formats.officiating.events import PenaltyIssued, PlayerDisqualified
from ledger.wire.events import open_leaf


def penalty_rows(leaves: Iterable[tuple[int, bytes]], number: int | None = None,
                 teams: Mapping[int, int] | None = None) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    member_of: dict[int, int] = dict(teams or {})
    for _ver, leaf in leaves:
        if b'"kind":"team_registered"' in leaf or b'"kind":"team_added_late"' in leaf:
            _team_members(open_leaf(leaf).body, member_of)
            continue
        if b'"kind":"penalty_issued"' not in leaf and \
                b'"kind":"player_disqualified"' not in leaf:
            continue
        ev = open_leaf(leaf)
        b = ev.body
        if not isinstance(b, (PenaltyIssued, PlayerDisqualified)):
            continue
        whose = _whose(member_of, b.number, b.member)
        if number is not None and b.number != number and not (
                whose is not None and whose[1] == "team" and member_of.get(number) == b.number):
            continue
        inf = CATALOGUE.get(b.infraction)
        if isinstance(b, PenaltyIssued):
            row = {"seq": ev.seq, "time": ev.time, "number": b.number,
                   "round": b.round, "infraction": b.infraction,
                   "name": inf.name if inf else "", "penalty": b.penalty.value,
                   "level": b.level, "applies_to": b.applies_to.value,
                   "prior": list(b.prior), "upgrade": b.upgrade,
                   "description": b.description, "justification": b.justification,
                   "report_to": b.report_to, "signed_by": ev.actor,
                   "reissued_seq": _opt(b.reissued_seq),
                   "raised_from": _opt(b.raised_from)}
        else:
            row = {"seq": ev.seq, "time": ev.time, "number": b.number,
                   "round": b.round, "infraction": b.infraction,
                   "name": inf.name if inf else "", "penalty": "disqualification",
                   "reason": b.reason, "standing_revoked": b.standing_revoked,
                   "prize_policy": b.prize_policy.value, "after_event": b.after_event,
                   "signed_by": ev.actor}
        if whose is not None:
            row["team"], row["whose"] = whose
        rows.append(row)
    return rows


def _team_members(body: object, member_of: dict[int, int]) -> None:
    """A team's fighters (``team_registered`` members, ``team_added_late`` fighters)."""
    members = getattr(body, "members", None)
    if members is None:
        members = [f.number for f in getattr(body, "fighters", [])]
    for m in members:
        member_of[int(m)] = int(getattr(body, "number", 0))


def _whose(member_of: Mapping[int, int], number: int,
           member: object) -> tuple[int, str] | None:
    """(team, "member" | "team") in a team event; None for a fighter on no team."""
    team = member_of.get(number)
    if team is None:
        return None
    return team, "member" if number != team or member is True else "team"


def _opt(v: object) -> Any:
    if isinstance(v, msgspec.UnsetType):
        return None
    return v.value if isinstance(v, Enum) else v


def row_text(r: dict[str, Any]) -> str:
    extra = ""
    if r["penalty"] == "disqualification":
        extra = (f"; standing {'revoked' if r['standing_revoked'] else 'kept'}, prizes "
                 f"{r['prize_policy']}" + (" (after the event)" if r["after_event"] else ""))
    else:
        if r["applies_to"] != "none":
            extra += f"; applies to {r['applies_to']}"
        if r["prior"]:
            extra += f"; prior in group: seq {', '.join(map(str, r['prior']))}"
        if r["upgrade"]:
            extra += "; upgraded"
        if r.get("raised_from"):
            extra += (f"; raised from {r['raised_from']} (sheet re-issued at seq "
                      f"{r['reissued_seq']}, BR-PEN-3.18.3)")
        elif r.get("reissued_seq"):
            extra += f"; after the sheet re-issued at seq {r['reissued_seq']}"
        if r["justification"]:
            extra += f"; justification: {r['justification']}"
    who = f"#{r['number']}"
    if r.get("whose") == "member":
        who += f" (own penalty; member of team #{r['team']})"
    elif r.get("whose") == "team":
        who = f"team #{r['number']} (applies to each member, BR-TEAM-6)"
    return (f"seq {r['seq']} round {r['round']} {who}: {r['penalty']} for "
            f"{r['infraction']} {r['name']}{extra}")
