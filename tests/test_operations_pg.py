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

import subprocess
from pathlib import Path

from tests.helpers.pg_ops import HOST, SQL, _psql, _rows, _tourney
from tests.helpers.pg_ops import scratch as scratch  # noqa: F401 - the fixture


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
