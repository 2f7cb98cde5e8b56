"""The audit and a whole HotC event on the real PostgreSQL server (docs/DESIGN.md §3): the same
signed bytes, the same findings as on SQLite. Skipped with a reason when no server answers."""

from __future__ import annotations

from pathlib import Path

import pytest

from audit.verify import verify_ledger
from ledger.formats.simulation import simulate
from ledger.proofs.checkpoint_store import checkpoint_dir
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.clock import FixedClock
from tests.helpers.checks import delete_pg_tournament, pg_skip_reason, pg_url, unique_log

pytestmark = pytest.mark.skipif(pg_skip_reason() is not None,
                                reason=pg_skip_reason() or "")


def test_simulated_event_on_postgres_audits_like_sqlite(tmp_path: Path) -> None:
    log = unique_log("pg-sim")
    pg, lite = Location(pg_url()), Location(str(tmp_path / "same.db"))
    reports = []
    try:
        for loc in (pg, lite):
            with Ledger(loc, create=True, clock=FixedClock()) as led:
                cp = tmp_path / "cp" / loc.text[:4]
                simulate(led, log=log, players=12, seed_text="pg", cut=4,
                         checkpoints=lambda: checkpoint_dir(loc, cp, log))  # noqa: B023
            reports.append(verify_ledger(loc, log, tmp_path / "cp" / loc.text[:4]))
        assert reports[0].ok and reports[1].ok
        assert reports[0].root == reports[1].root          # identical signed leaves
        assert reports[0].events == reports[1].events
    finally:
        with Ledger(pg) as led:
            delete_pg_tournament(led, log)
