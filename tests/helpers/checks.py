"""Shared checks of the storage tests: PostgreSQL probe, chain/signature walk, full fold.

Used by tests/test_concurrency.py, tests/test_crash_safety.py and
tests/test_storage_contract.py (the outside-auditor test deliberately uses none of this).
"""

from __future__ import annotations

import base64
import functools
import hashlib
import os
import uuid
from pathlib import Path
from typing import Any

from eventsourcing.application import project_aggregate

from ledger.storage.store import Ledger
from ledger.wire.events import SIG_DOMAIN, ZERO_HASH, ParsedLeaf, parse_leaf
from ledger.wire.keys import verify_signature

PG_DEFAULT = "postgresql://postgres@127.0.0.1:5432/test"


def note_dir(base: Path, log: str) -> Path:
    """The one note directory of tournament ``log`` under ``base``: ``<log>-<16 hex of
    its genesis leaf hash>`` (issue 17, defect 8)."""
    found = [p for p in base.glob(f"{log}-*") if p.is_dir() and len(p.name) == len(log) + 17]
    assert len(found) == 1, found
    return found[0]


def pg_url() -> str:
    return os.environ.get("TOURNEY_TEST_PG") or PG_DEFAULT


@functools.cache
def pg_skip_reason() -> str | None:
    """None if PostgreSQL answers at ``pg_url()`` within 2 s, else why not."""
    try:
        import psycopg
    except ImportError:  # pragma: no cover - psycopg is a dependency
        return "psycopg is not installed"
    try:
        psycopg.connect(pg_url(), connect_timeout=2).close()
    except Exception as exc:  # noqa: BLE001 - any failure means "not available"
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return f"PostgreSQL at {pg_url()} did not answer within 2 s ({first}); " \
               "set TOURNEY_TEST_PG to a reachable server to run these tests"
    return None


def unique_log(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


def table_names(led: Ledger) -> tuple[str, str]:
    """(events table, snapshots table) of this ledger's recorders (they differ by backend:
    SQLite stored_events/stored_snapshots, PostgreSQL <app name>_events/_snapshots)."""
    events = led.app.recorder.events_table_name  # type: ignore[attr-defined]
    snaps = led.app.snapshots.recorder.events_table_name  # type: ignore[union-attr]
    return events, snaps


def delete_pg_tournament(led: Ledger, log: str) -> None:
    """Remove every row of one tournament from a PostgreSQL ledger (test clean-up)."""
    import psycopg

    events, snaps = table_names(led)
    with psycopg.connect(pg_url(), connect_timeout=5) as con:
        for table in (events, snaps):
            con.execute(f'DELETE FROM "{table}" WHERE originator_id = %s', (log,))
        con.execute("DELETE FROM tourney_checkpoints WHERE log = %s", (log,)) \
            if _has_table(con, "tourney_checkpoints") else None


def _has_table(con: Any, name: str) -> bool:
    return con.execute("SELECT to_regclass(%s)", (name,)).fetchone()[0] is not None


def walk_chain(log: str, leaves: list[tuple[int, bytes]],
               known_keys: dict[str, bytes] | None = None) -> list[ParsedLeaf]:
    """Assert: versions 1..n contiguous, every leaf canonical and bound to ``log`` at its
    version, ``prev`` = sha256 of the previous stored leaf, and every signature verifies
    with a key learned from the log (genesis head_judge, official_added) or ``known_keys``.
    """
    keys: dict[str, bytes] = dict(known_keys or {})
    prev = ZERO_HASH
    out: list[ParsedLeaf] = []
    for expected, (version, leaf) in enumerate(leaves, start=1):
        assert version == expected, f"stored versions not contiguous: {version} at {expected}"
        parsed = parse_leaf(leaf)
        ev = parsed.event
        assert parsed.noncanonical is None, (version, parsed.noncanonical)
        assert ev.seq == version and ev.log == log, (version, ev.seq, ev.log)
        assert ev.prev == prev, f"fork/break at seq {version}: prev {ev.prev} != {prev}"
        body: Any = ev.body
        if ev.kind == "tournament_created":
            keys[body.head_judge.key_id] = base64.b64decode(body.head_judge.public_key)
        pub = keys.get(ev.actor)
        assert pub is not None, f"seq {version}: unknown actor {ev.actor}"
        assert verify_signature(pub, ev.sig, SIG_DOMAIN + parsed.signed_bytes), \
            f"seq {version}: signature does not verify"
        if ev.kind == "official_added":
            keys[body.key_id] = base64.b64decode(body.public_key)
        prev = hashlib.sha256(leaf).hexdigest()
        out.append(parsed)
    return out


def full_fold(led: Ledger, log: str) -> Any:
    """The aggregate folded from every stored event, ignoring snapshots."""
    return project_aggregate(None, led.app.events.get(log))
