"""Issue 21, items 10 and 11, against the real PostgreSQL server (skipped with the reason
when none answers): the station write path of ``docs/operations/station-role.sql`` with a
low-privilege station role, the recovery for a bad row, and bounded lock waits that name
the station holding the lock.  Every step is a real ``tourney`` process or ``psql``."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.test_operations_pg import HOST, SQL, _psql, _rows, _tourney
from tests.test_operations_pg import scratch as scratch  # noqa: F401 - the fixture


@pytest.fixture()
def event(scratch: tuple[str, str, str], tmp_path: Path  # noqa: F811
          ) -> Iterator[tuple[str, str, str, str, dict[str, object]]]:
    """A ledger on the scratch database: the head judge (owner role) created it, added a
    scorekeeper, ran station-role.sql, registered 6 players and paired round 1."""
    db, owner, station = scratch
    hj_url = f"postgresql://{owner}@{HOST}:5432/{db}"
    st_url = f"postgresql://{station}@{HOST}:5432/{db}"
    _tourney(tmp_path, hj_url, "keys", "new", "--name", "HJ", "--out", "hj.pem")
    _tourney(tmp_path, hj_url, "keys", "new", "--name", "Sam", "--out", "sk.pem")
    _tourney(tmp_path, hj_url, "init", "--name", "Station Cup", "--format", "hotc-swiss-de",
             "--cut", "4", "--key", "hj.pem")
    _tourney(tmp_path, hj_url, "official", "add", "--role", "scorekeeper", "--name", "Sam",
             "--public-key", "sk.pem.pub", "--key", "hj.pem")
    _psql(db, owner, "-v", f"station={station}", "-f", str(SQL))
    for name in ("Ada", "Bea", "Cy", "Dee", "Eve", "Fay"):
        _tourney(tmp_path, hj_url, "player", "add", name, "--key", "hj.pem")
    _tourney(tmp_path, hj_url, "registration", "close", "--key", "hj.pem")
    pair = _tourney(tmp_path, hj_url, "round", "pair", "--seed-material", "station 1 2 3",
                    "--seed-source", "dice", "--key", "hj.pem", "--json")
    table = json.loads(pair.stdout)["tables"][0]
    yield db, owner, hj_url, st_url, table


# -- 11. bounded lock waits naming the blocking station ----------------------------------

def test_item11_frozen_station_holding_the_lock_is_named_and_waits_are_bounded(
        event: tuple[str, str, str, str, dict[str, object]], tmp_path: Path) -> None:
    import psycopg
    db, owner, hj_url, st_url, table = event
    slip = ("result", "record", "--round", "1", "--table", str(table["table"]), "--winner",
            str(table["players"][0]), "--key", "sk.pem")  # type: ignore[index]
    # a station frozen inside its commit: it took the event table's write lock (the lock
    # the event store takes to number events) and stopped answering
    frozen = psycopg.connect(st_url + "?application_name=tourney%40station-7")
    try:
        frozen.execute("LOCK TABLE tourney_events IN EXCLUSIVE MODE")
        before = _rows(db)
        start = time.monotonic()
        run = _tourney(tmp_path, st_url, *slip, code=5)
        took = time.monotonic() - start
        line = run.stderr.strip()
        assert len(line.splitlines()) == 1, line
        assert "tourney@station-7" in line and "s for the ledger's write lock" in line
        assert "nothing was written" in line and _rows(db) == before
        assert took < 40, took  # 10 attempts of 1 s + start-up on a loaded machine, not forever
    finally:
        frozen.rollback()
        frozen.close()
    _tourney(tmp_path, st_url, *slip)  # the lock is free: the same slip goes in
    assert json.loads(_tourney(tmp_path, hj_url, "audit", "verify", "--json").stdout)["ok"]
