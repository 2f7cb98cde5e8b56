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

from tests.helpers.pg_ops import HOST, SQL, _psql, _rows, _tourney
from tests.helpers.pg_ops import scratch as scratch  # noqa: F401 - the fixture
from tests.helpers.station_pg import _head, _insert, _log_id


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


# -- 10. the station write function, checkpoint rows, and the recovery for a bad row -------







def _leaf(tmp_path: Path, log: str, seq: int, prev: bytes, key: str, name: str) -> bytes:
    import hashlib

    from ledger.wire.events import PlayerRegistered, seal
    from ledger.wire.keys import load_signer
    return seal(log=log, seq=seq, prev=hashlib.sha256(prev).hexdigest(),
                time="2026-03-01T10:00:00.000000Z", body=PlayerRegistered(number=90, name=name),
                signer=load_signer(tmp_path / key)).leaf


def test_item10_station_garbage_rows_are_refused_by_the_database(
        event: tuple[str, str, str, str, dict[str, object]], tmp_path: Path) -> None:
    db, owner, hj_url, st_url, table = event
    log = _log_id(hj_url)
    seq, head = _head(hj_url, log)
    good = _leaf(tmp_path, log, seq + 1, head, "sk.pem", "Late")
    _tourney(tmp_path, hj_url, "keys", "new", "--name", "Mallory", "--out", "outsider.pem")
    outsider = _leaf(tmp_path, log, seq + 1, head, "outsider.pem", "Late")
    spaced = good.replace(b'{"event":', b'{ "event":')
    before = _rows(db)
    cases = {
        "garbage": (seq + 1, "player_registered", b"garbage"),
        "not canonical": (seq + 1, "player_registered", spaced),
        "wrong topic": (seq + 1, "result_recorded", good),
        "gap": (seq + 2, "player_registered", good),
        "undeclared key": (seq + 1, "player_registered", outsider),
        "wrong link": (seq + 1, "player_registered",
                       _leaf(tmp_path, log, seq + 1, b"not the head", "sk.pem", "Late")),
        "stripped signature": (seq + 1, "player_registered",
                               good[:good.index(b'"sig":')] + b'"sig":""}'),
    }
    for what, (version, topic, state) in cases.items():
        refusal = _insert(st_url, log, version, topic, state)
        assert refusal is not None and "tourney: refused row" in refusal, (what, refusal)
    assert _rows(db) == before
    # every command keeps working: the station's genuine leaves go in through tourney
    _tourney(tmp_path, hj_url, "info")
    slip = ("result", "record", "--round", "1", "--table", str(table["table"]), "--winner",
            str(table["players"][0]), "--key", "sk.pem")  # type: ignore[index]
    _tourney(tmp_path, st_url, *slip)
    assert json.loads(_tourney(tmp_path, hj_url, "audit", "verify", "--json").stdout)["ok"]


def test_item10_station_cannot_plant_a_checkpoint_row(
        event: tuple[str, str, str, str, dict[str, object]], tmp_path: Path) -> None:
    import psycopg

    from ledger.proofs.checkpoint import Checkpoint, sign_checkpoint
    from ledger.wire.keys import load_signer
    db, owner, hj_url, st_url, table = event
    log = _log_id(hj_url)
    _tourney(tmp_path, st_url, "result", "record", "--round", "1", "--table",
             str(table["table"]), "--winner", str(table["players"][0]),  # type: ignore[index]
             "--key", "sk.pem")
    size, _head_leaf = _head(hj_url, log)  # no checkpoint at this size yet
    _tourney(tmp_path, hj_url, "keys", "new", "--name", "Mallory", "--out", "outsider.pem")
    root = bytes(32)
    forged = {who: sign_checkpoint(Checkpoint(origin=f"tourney/{log}", size=size, root=root),
                                   f"tourney/{log}", load_signer(tmp_path / who).private_key)
              for who in ("sk.pem", "outsider.pem")}
    for url in (st_url, hj_url):  # the station may not; nobody may with a non-HJ note
        for note in forged.values():
            with pytest.raises(psycopg.Error), psycopg.connect(url) as con:
                con.execute("INSERT INTO tourney_checkpoints (log, size, root, note) VALUES "
                            "(%s, %s, %s, %s)", (log, size, root, note))
    # the head judge's checkpoint at that size goes in, and audits clean
    _tourney(tmp_path, hj_url, "checkpoint", "--key", "hj.pem")
    with psycopg.connect(hj_url) as con:
        assert con.execute("SELECT count(*) FROM tourney_checkpoints WHERE log = %s AND "
                           "size = %s", (log, size)).fetchone() == (1,)
    assert json.loads(_tourney(tmp_path, hj_url, "audit", "verify", "--json").stdout)["ok"]


def test_item10_bad_row_recovery_withdraws_it_and_keeps_it_on_record(
        event: tuple[str, str, str, str, dict[str, object]], tmp_path: Path) -> None:
    import base64

    import psycopg
    db, owner, hj_url, st_url, table = event
    log = _log_id(hj_url)
    seq, head = _head(hj_url, log)
    good = _leaf(tmp_path, log, seq + 1, head, "sk.pem", "Late")
    sig = good[good.index(b'"sig":"') + 7:-2]
    bad_sig = base64.b64encode(bytes(64)).decode().encode()
    bad = good.replace(sig, bad_sig)  # well-formed, declared key, signature does not verify
    assert _insert(st_url, log, seq + 1, "player_registered", bad) is None
    # the ledger now refuses to sign on top of the bad row: the command names the recovery
    slip = ("result", "record", "--round", "1", "--table", str(table["table"]), "--winner",
            str(table["players"][0]), "--key", "sk.pem")  # type: ignore[index]
    run = _tourney(tmp_path, st_url, *slip, code=4)
    assert f"tourney_withdraw('{log}', {seq + 1}" in run.stderr, run.stderr
    doc = json.loads(_tourney(tmp_path, hj_url, "audit", "verify", "--json", code=4).stdout)
    assert "bad_signature" in {f["code"] for f in doc["findings"]}
    # the station may not withdraw anything; nobody may withdraw checkpointed history
    refused = _psql(db, st_url.split("@")[0].split("//")[1], "-c",
                    f"SELECT tourney_withdraw('{log}', {seq + 1}, 'mine')", ok=False)
    assert refused.returncode != 0 and "permission denied" in refused.stderr
    covered = _psql(db, owner, "-c", f"SELECT tourney_withdraw('{log}', 2, 'oops')", ok=False)
    assert covered.returncode != 0 and "covers seq 2" in covered.stderr
    # the recovery: the owner withdraws the bad row, with the reason
    out = _psql(db, owner, "-Atc", f"SELECT tourney_withdraw('{log}', {seq + 1}, "
                "'bad_signature at the head, station Sam')")
    assert out.stdout.strip() == "1"
    with psycopg.connect(hj_url) as con:
        kept = con.execute("SELECT what, version, data, reason, withdrawn_by FROM "
                           "tourney_withdrawn").fetchall()
    assert [(w, v, bytes(d)) for w, v, d, _r, _b in kept] == [("event", seq + 1, bad)]
    _tourney(tmp_path, st_url, *slip)
    assert json.loads(_tourney(tmp_path, hj_url, "audit", "verify", "--json").stdout)["ok"]


def test_item10_planted_checkpoint_row_from_before_the_upgrade_is_withdrawn(
        event: tuple[str, str, str, str, dict[str, object]], tmp_path: Path) -> None:
    import psycopg

    from ledger.proofs.checkpoint import Checkpoint, sign_checkpoint
    from ledger.wire.keys import load_signer
    db, owner, hj_url, st_url, table = event
    log = _log_id(hj_url)
    _tourney(tmp_path, st_url, "result", "record", "--round", "1", "--table",
             str(table["table"]), "--winner", str(table["players"][0]),  # type: ignore[index]
             "--key", "sk.pem")
    size, _leaf_bytes = _head(hj_url, log)
    planted = sign_checkpoint(Checkpoint(origin=f"tourney/{log}", size=size, root=bytes(32)),
                              f"tourney/{log}", load_signer(tmp_path / "sk.pem").private_key)
    # a row a station planted before station-role.sql was run (the old grants allowed it)
    _psql(db, owner, "-c", "ALTER TABLE tourney_checkpoints DISABLE TRIGGER "
          "tourney_checkpoints_admit")
    with psycopg.connect(st_url.replace(st_url.split("@")[0].split("//")[1], owner)) as con:
        con.execute("INSERT INTO tourney_checkpoints (log, size, root, note) VALUES "
                    "(%s, %s, %s, %s)", (log, size, bytes(32), planted))
    _psql(db, owner, "-c", "ALTER TABLE tourney_checkpoints ENABLE TRIGGER "
          "tourney_checkpoints_admit")
    _tourney(tmp_path, hj_url, "checkpoint", "--key", "hj.pem", code=4)  # blocked
    out = _psql(db, owner, "-Atc", f"SELECT tourney_withdraw_checkpoint('{log}', {size}, "
                "'planted by a station before the upgrade')")
    assert out.stdout.strip() == "1"
    _tourney(tmp_path, hj_url, "checkpoint", "--key", "hj.pem")
    assert json.loads(_tourney(tmp_path, hj_url, "audit", "verify", "--json").stdout)["ok"]
    with psycopg.connect(hj_url) as con:
        kept = con.execute("SELECT what, version, data FROM tourney_withdrawn").fetchall()
    assert [(w, v, bytes(d)) for w, v, d in kept] == [("checkpoint", size, planted)]
