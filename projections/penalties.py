"""Penalty history read model (``tourney penalty list``): every penalty and
disqualification of a tournament, from the signed events, with the prior offences and
upgrade the judge recorded (BR-PEN-RANK-4..6) and where each LoG / LoM took effect.

Owns: ``penalty_rows`` (leaves → rows, optionally for one player) and ``row_text``.

May import: ``msgspec``, ``ledger.*``.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from typing import Any

import msgspec

from ledger.formats.officiating.catalogue import CATALOGUE
from ledger.formats.officiating.events import PenaltyIssued, PlayerDisqualified
from ledger.wire.events import open_leaf


def penalty_rows(leaves: Iterable[tuple[int, bytes]],
                 number: int | None = None) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for _ver, leaf in leaves:
        if b'"kind":"penalty_issued"' not in leaf and \
                b'"kind":"player_disqualified"' not in leaf:
            continue
        ev = open_leaf(leaf)
        b = ev.body
        if isinstance(b, PenaltyIssued) and (number is None or b.number == number):
            inf = CATALOGUE.get(b.infraction)
            rows.append({"seq": ev.seq, "time": ev.time, "number": b.number,
                         "round": b.round, "infraction": b.infraction,
                         "name": inf.name if inf else "", "penalty": b.penalty.value,
                         "level": b.level, "applies_to": b.applies_to.value,
                         "prior": list(b.prior), "upgrade": b.upgrade,
                         "description": b.description, "justification": b.justification,
                         "report_to": b.report_to, "signed_by": ev.actor,
                         "reissued_seq": _opt(b.reissued_seq),
                         "raised_from": _opt(b.raised_from)})
        elif isinstance(b, PlayerDisqualified) and (number is None or b.number == number):
            inf = CATALOGUE.get(b.infraction)
            rows.append({"seq": ev.seq, "time": ev.time, "number": b.number,
                         "round": b.round, "infraction": b.infraction,
                         "name": inf.name if inf else "", "penalty": "disqualification",
                         "reason": b.reason, "standing_revoked": b.standing_revoked,
                         "prize_policy": b.prize_policy.value, "after_event": b.after_event,
                         "signed_by": ev.actor})
    return rows


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
    return (f"seq {r['seq']} round {r['round']} #{r['number']}: {r['penalty']} for "
            f"{r['infraction']} {r['name']}{extra}")
