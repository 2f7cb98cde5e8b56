"""Team member penalties through the aggregate: Loss of Match, forged events, the audit.

May import: ``ledger.*``, ``audit.*``, ``tests.helpers.*``.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import ledger.formats.registry  # noqa: F401
from audit.verify import audit_leaves, verify_ledger
from ledger.formats.officiating.catalogue import Penalty
from ledger.formats.officiating.commands import issue_penalty
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.events import open_leaf, seal
from tests.helpers.team_event import HJ, SK


def _lom(led: Ledger, number: int, **kw: Any) -> Any:
    return led.write("e", lambda t, now: issue_penalty(
        t, HJ, now, number=number, section="4.5", penalty=Penalty.LOSS_OF_MATCH,
        description="asked a spectator for advice", justification="by the Guide", **kw))


def _audit_ok(led: Ledger, d: Path) -> None:
    led.close()
    assert verify_ledger(Location(str(d / "t.db")), "e", None).ok


def _forged(led: Ledger, at: int, forged: Any) -> set[str]:
    """Re-sign the log with ``forged`` at seq ``at``: the audit's error codes there."""
    events = [open_leaf(leaf) for _, leaf in led.raw_leaves("e")]
    keys = {k.key_id: k for k in (HJ, SK)}
    leaves, prev = [], "0" * 64
    for ev in events:
        leaf = ev.leaf if ev.seq < at else seal(
            log=ev.log, seq=ev.seq, prev=prev, time=ev.time,
            body=forged if ev.seq == at else ev.body, signer=keys[ev.actor]).leaf
        leaves.append((ev.seq, leaf))
        prev = hashlib.sha256(leaf).hexdigest()
    report = audit_leaves(leaves, [], log="e")
    return {f.code for f in report.findings if f.seq == at and f.severity == "error"}
