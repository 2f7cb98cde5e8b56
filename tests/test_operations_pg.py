"""docs/OPERATIONS.md, step by step, against the real PostgreSQL server (skipped with the
reason when none answers at 127.0.0.1:5432).

In a scratch database with its own two roles (dropped afterwards): the head judge's role
owns the ledger and creates it with ``tourney init``; ``docs/operations/station-role.sql``
makes the tables append-only and lets a station role read and append; a station enters
players and a result as real ``tourney`` processes but cannot UPDATE, DELETE or TRUNCATE;
a station that cannot reach the server gets exit 5 and writes nothing, and entering the
same slip again after the network is back is an idempotent success; ``pg_dump`` backs the
ledger up, ``pg_restore`` into a fresh database audits clean with its checkpoints.
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
from tests.helpers.cli import tourney

ROOT = Path(__file__).resolve().parents[1]
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


def test_operations_runbook(scratch: tuple[str, str, str], tmp_path: Path) -> None:
    db, owner, station = scratch
    hj_url = f"postgresql://{owner}@{HOST}:5432/{db}"
    st_url = f"postgresql://{station}@{HOST}:5432/{db}"
    # 1. the head judge creates the ledger with the owner role
    _tourney(tmp_path, hj_url, "keys", "new", "--name", "HJ", "--out", "hj.pem")
    _tourney(tmp_path, hj_url, "keys", "new", "--name", "Sam", "--out", "sk.pem")
    _tourney(tmp_path, hj_url, "init", "--name", "Ops Cup", "--format", "hotc-swiss-de",
             "--cut", "4", "--key", "hj.pem")
    _tourney(tmp_path, hj_url, "official", "add", "--role", "scorekeeper", "--name", "Sam",
             "--public-key", "sk.pem.pub", "--key", "hj.pem")
    # 2. append-only tables and the station role (twice: the script is idempotent)
    for _ in range(2):
        _psql(db, owner, "-v", f"station={station}", "-f", str(SQL))
    # 3. a station registers players; the head judge closes and pairs
    for name in ("Ada", "Bea", "Cy", "Dee", "Eve", "Fay"):
        _tourney(tmp_path, st_url, "player", "add", name, "--key", "sk.pem")
    _tourney(tmp_path, hj_url, "registration", "close", "--key", "hj.pem")
    pair = _tourney(tmp_path, hj_url, "round", "pair", "--seed-material", "ops 12 40 7",
                    "--seed-source", "dice", "--key", "hj.pem", "--json")
    import json
    table = json.loads(pair.stdout)["tables"][0]
    slip = ("result", "record", "--round", "1", "--table", str(table["table"]), "--winner",
            str(table["players"][0]), "--key", "sk.pem")
    # 4. a station without the network: exit 5, one line, nothing written
    before = _rows(db)
    lost = _tourney(tmp_path, f"postgresql://{station}@{HOST}:1/{db}", *slip, code=5)
    assert len(lost.stderr.strip().splitlines()) == 1 and _rows(db) == before
    # ... back on the network the slip is entered; entering it again changes nothing
    _tourney(tmp_path, st_url, *slip)
    again = _tourney(tmp_path, st_url, *slip, "--json")
    assert json.loads(again.stdout)["written"] is False
    # 5. no role rewrites history
    for sql in ("DELETE FROM tourney_events", "UPDATE tourney_events SET state = state",
                "TRUNCATE tourney_events", "DELETE FROM tourney_checkpoints"):
        for user in (station, owner):
            proc = _psql(db, user, "-c", sql, ok=False)
            assert proc.returncode != 0, (user, sql)
    # 6. backup with pg_dump, restore into a fresh database, audit it there
    dump = tmp_path / "ops.dump"
    subprocess.run(["pg_dump", "-h", HOST, "-U", owner, "-Fc", "-f", str(dump), db],
                   check=True, timeout=120)
    _psql("postgres", "postgres", "-c", f"CREATE DATABASE {db}_restored OWNER {owner}")
    subprocess.run(["pg_restore", "-h", HOST, "-U", owner, "-d", f"{db}_restored",
                    "--no-owner", str(dump)], check=True, timeout=120)
    report = _tourney(tmp_path, f"postgresql://{owner}@{HOST}:5432/{db}_restored",
                      "audit", "verify", "--json")
    doc = json.loads(report.stdout)
    assert doc["ok"] and doc["checkpoints"] >= 2, doc
