"""The receipt of an event the live server wrote (issue 28 item 2; docs/LIVE.md
"Receipts"): which events get one, and the document (``ledger.wire.receipt.Receipt``,
``tourney-receipt/v1``).

Owns: ``receipted`` — whether event ``leaf`` gets a receipt: what players and staff do
through the server, told by fields so that no format's kind is named: the core kinds of a
report, a report set aside and a phone's key, a player's own act (a body naming its
``credential``: a drop) and a decision citing reports (``reports``).  Nothing else: the
public pages may hide penalties or full names (ADR 0023), and a receipt shows the whole
event.  ``receipt_of`` — the document for seq ``seq`` of ``log`` (None: no receipt).

May import: ``ledger.wire.*``, ``json``.
"""

from __future__ import annotations

import json

from ledger.wire.events import Kind
from ledger.wire.receipt import Receipt

#: core kinds that answer a request on the live server
RECEIPT_KINDS = frozenset({Kind.RESULT_REPORTED.value, Kind.REPORT_REJECTED.value,
                           Kind.DEVICE_KEY_BOUND.value})


def receipted(leaf: bytes) -> bool:
    """Whether event ``leaf`` gets a receipt (see the module docstring)."""
    try:
        ev = json.loads(leaf)["event"]
        kind, body = ev["kind"], ev["body"]
    except (ValueError, KeyError, TypeError):
        return False
    if kind in RECEIPT_KINDS:
        return True
    return kind not in (Kind.CREDENTIAL_ISSUED.value, Kind.CREDENTIAL_REVOKED.value) and \
        isinstance(body, dict) and ("credential" in body or "reports" in body)


def receipt_of(log: str, seq: int, leaf: bytes | None) -> Receipt | None:
    """The receipt of event ``seq`` (its stored ``leaf``; None: no such event), or None
    when it gets none."""
    if leaf is None or not receipted(leaf):
        return None
    return Receipt.of(log, seq, leaf)
