"""Forging a ledger behind the API, as an attacker with write access to the file would.

Owns: ``rows``/``append_raw``/``forge_next`` (raw rows of a SQLite ledger, a forged next
leaf signed with a real key), ``audit`` and ``codes_at`` (the audit's findings by seq).

May import: ``ledger.*``, ``audit.*``, ``tests.conftest``, the standard library.
"""

from __future__ import annotations

import hashlib
import sqlite3

from audit.findings import Report
from audit.verify import verify_ledger
from ledger.storage.location import Location
from ledger.wire.events import seal
from ledger.wire.keys import Signer

LOG = "t1"


def rows(loc: Location, log: str = LOG) -> list[tuple[int, bytes]]:
    with sqlite3.connect(loc.text) as db:
        return [(v, bytes(s)) for v, s in db.execute(
            "SELECT originator_version, state FROM stored_events WHERE originator_id=? "
            "ORDER BY originator_version", (log,))]


def append_raw(loc: Location, version: int, kind: str, state: bytes, log: str = LOG) -> None:
    with sqlite3.connect(loc.text) as db:
        db.execute("INSERT INTO stored_events VALUES (?,?,?,?)", (log, version, kind, state))


def forge_next(loc: Location, body: object, signer: Signer, *, log: str = LOG) -> bytes:
    """A correctly chained, correctly signed next event that the rules would refuse."""
    last_v, last = rows(loc, log)[-1]
    ev = seal(log=log, seq=last_v + 1, prev=hashlib.sha256(last).hexdigest(),
              time="2013-06-01T10:00:00.000000Z", body=body, signer=signer)  # type: ignore[arg-type]
    append_raw(loc, last_v + 1, ev.kind, ev.leaf, log)
    return ev.leaf


def audit(loc: Location) -> Report:
    return verify_ledger(loc, LOG, None)


def codes_at(report: Report) -> set[tuple[str, int | None]]:
    return {(f.code, f.seq) for f in report.findings}
