"""PostgreSQL as the operations runbook runs it: psql, a scratch database and roles.

Owns: ``HOST``, ``SQL`` (docs/operations/station-role.sql), ``_psql``, ``_rows``, ``_tourney`` (a
command against a postgresql:// ledger) and the ``scratch`` fixture (a database of its own
with an owner and a station role, dropped afterwards; the names are random, so parallel
workers never share one).

May import: ``tests.helpers.*``, ``pytest``, the standard library.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.checks import pg_skip_reason
from tests.helpers.cli_runner import tourney

ROOT = Path(__file__).resolve().parents[2]


SQL = ROOT / "docs" / "operations" / "station-role.sql"


HOST = "127.0.0.1"


def _psql(db: str, user: str, *args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(["psql", "-h", HOST, "-U", user, "-d", db, "-v", "ON_ERROR_STOP=1",
                           "-q", *args], capture_output=True, text=True, timeout=60)
    if ok:
        assert proc.returncode == 0, proc.stderr
    return proc


@pytest.fixture()
def scratch() -> Iterator[tuple[str, str, str]]:
    reason = pg_skip_reason()
    if reason:
        pytest.skip(reason)
    if shutil.which("psql") is None or shutil.which("pg_dump") is None:
        pytest.skip("psql/pg_dump are not installed (apt-get install postgresql-client)")
    tag = uuid.uuid4().hex[:8]
    db, owner, station = f"ops_{tag}", f"ops_hj_{tag}", f"ops_station_{tag}"
    _psql("postgres", "postgres", "-c", f"CREATE ROLE {owner} LOGIN",
          "-c", f"CREATE ROLE {station} LOGIN", "-c", f"CREATE DATABASE {db} OWNER {owner}")
    try:
        yield db, owner, station
    finally:
        for d in (db, f"{db}_restored"):
            _psql("postgres", "postgres", "-c", f"DROP DATABASE IF EXISTS {d} WITH (FORCE)",
                  ok=False)
        _psql("postgres", "postgres", "-c", f"DROP ROLE IF EXISTS {station}",
              "-c", f"DROP ROLE IF EXISTS {owner}", ok=False)


def _tourney(cwd: Path, url: str, *args: str, code: int = 0,
             env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("TOURNEY_")}
    env = {**base, "TOURNEY_LEDGER": url, "PYTHONPATH": str(ROOT), **(env or {})}
    run = tourney(*args, cwd=cwd, env=env)
    assert run.code == code, (args, run.out, run.err)
    return subprocess.CompletedProcess(list(args), run.code, run.out, run.err)


def _rows(db: str) -> str:
    return _psql(db, "postgres", "-Atc", "SELECT count(*) FROM tourney_events").stdout.strip()
