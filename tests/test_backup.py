"""``tourney backup FILE`` (issue 32 item 7): a consistent copy of a live SQLite ledger.

A real writer process (``tests/helpers/ledger_writer.py``) appends signed events while
real ``tourney backup`` processes copy the ledger: every copy audits clean on its own and
after ``export``, is a prefix of the ledger, and the copies saw the log grow.  The
refusals (an existing FILE, a PostgreSQL ledger, a missing ledger …) are one line with the
documented exit code and write nothing.  And why the docs say ``cp`` is not a copy: the
``.db`` file of a ledger in WAL mode lacks the events still in ``-wal``.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

from ledger.core.aggregate import Tournament
from ledger.formats.registry import make_format
from ledger.proofs.checkpoint_store import write_checkpoint
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.events import Role
from ledger.wire.keys import PublicKey, Signer
from tests.helpers.cli_runner import Cli, raw_bytes
from tests.helpers.live import GENEROUS_S, wait_until

ROOT = Path(__file__).resolve().parents[1]
WRITER = ROOT / "tests" / "helpers" / "ledger_writer.py"
HJ = Signer.from_seed(b"\x01" * 32, "Head Judge")
SK_SEED = b"\x02" * 32
SK = Signer.from_seed(SK_SEED, "Scorekeeper")
PREFILL = 3000      # players before the race: a copy takes long enough to overlap writes


def _ledger(path: Path) -> str:
    """A ledger with genesis, a scorekeeper, PREFILL players and a checkpoint stored in
    it; its tournament id."""
    log = "backup-race"
    led = Ledger(Location(str(path)), create=True)
    try:
        led.create(log, lambda now: Tournament.create(
            log=log, name="Backup race", fmt=make_format("hotc-swiss-de", None), signer=HJ,
            time=now))
        led.write(log, lambda agg, now: agg.add_official(
            PublicKey(SK.public_key_raw), Role.SCOREKEEPER, "Scorekeeper", HJ, now))
        agg = led.load(log)
        for n in range(1, PREFILL + 1):
            agg.register_player(f"pre-{n}", SK, led.clock.now(), number=n)
        led.app.save(agg)
        write_checkpoint(led, log, HJ)      # in the ledger only: no note file beside it
    finally:
        led.close()
    return log


def _leaves(db: Path, log: str) -> list[bytes]:
    """The stored event rows of ``log`` in order, read through SQLite (the WAL too)."""
    uri = f"file:{db}?mode=ro"
    with closing(sqlite3.connect(uri, uri=True)) as con:
        return [bytes(r[0]) for r in con.execute(
            "SELECT state FROM stored_events WHERE originator_id = ? "
            "ORDER BY originator_version", (log,))]


def _writer(db: Path, log: str, out: Path, count: int = 0) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, str(WRITER), str(db), log, SK_SEED.hex(), "w", "--count",
         str(count)], stdout=out.open("wb"), stderr=out.with_suffix(".err").open("wb"),
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    deadline = time.monotonic() + 60
    while not out.read_bytes().startswith(b"READY\n"):
        assert proc.poll() is None, out.with_suffix(".err").read_text()
        assert time.monotonic() < deadline, "the writer did not start"
        time.sleep(0.01)
    return proc


def _acks(out: Path) -> int:
    return out.read_bytes().count(b"\nACK ")


def test_backup_of_a_ledger_being_written_is_consistent(tmp_path: Path) -> None:
    db = tmp_path / "live.db"
    log = _ledger(db)
    cli = Cli(tmp_path, db)
    out = tmp_path / "writer.out"
    proc = _writer(db, log, out)
    sizes = []
    try:
        for i in range(4):
            doc = cli("backup", f"copy-{i}.db", "--json").doc
            assert doc["ok"] and doc["file"] == f"copy-{i}.db"
            sizes.append(doc["events"][log])
            # the writer goes on between the copies: the next copy starts once the log has
            # grown past this one (the condition, not a fixed sleep)
            wait_until(lambda: len(_leaves(db, log)) > sizes[-1], GENEROUS_S)
        written = _acks(out)
    finally:
        proc.kill()
        proc.wait(10)
    assert proc.returncode is not None and written > 0, out.with_suffix(".err").read_text()
    assert sizes == sorted(sizes) and sizes[-1] > sizes[0], sizes   # the log grew meanwhile
    final = _leaves(db, log)
    for i, size in enumerate(sizes):
        copy = tmp_path / f"copy-{i}.db"
        assert not copy.with_name(copy.name + "-wal").exists()      # one file
        assert _leaves(copy, log) == final[:size]                   # a prefix, whole
        cli("--ledger", str(copy), "audit", "verify")
    cli("--ledger", str(tmp_path / "copy-3.db"), "export", "bundle")
    doc = cli("audit", "verify", "bundle", "--json").doc
    assert doc["ok"] and doc["events"] == sizes[-1]
    assert [f["code"] for f in doc["findings"]] == ["unsealed_tail"]   # the writer's tail
    assert doc["checkpoints"] == 1          # the stored checkpoint came with the copy
    assert not [p for p in tmp_path.iterdir() if "backup-tmp" in p.name]


def test_cp_of_a_ledger_in_wal_mode_is_not_a_copy(tmp_path: Path) -> None:
    """What docs/OPERATIONS.md warns of: while any process has the ledger open, its newest
    committed events are in ``-wal``; a copy of the ``.db`` file alone misses them, and
    ``tourney backup`` does not."""
    db = tmp_path / "live.db"
    log = _ledger(db)
    with closing(sqlite3.connect(db)) as held:     # another process's open ledger
        held.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        held.execute("SELECT count(*) FROM stored_events").fetchone()
        out = tmp_path / "writer.out"
        proc = _writer(db, log, out, count=5)
        assert proc.wait(60) == 0 and _acks(out) == 5
        shutil.copyfile(db, tmp_path / "cp.db")
        cli = Cli(tmp_path, db)
        cli("backup", "backup.db")
        whole = _leaves(db, log)
    assert len(_leaves(tmp_path / "cp.db", log)) == len(whole) - 5
    assert _leaves(tmp_path / "backup.db", log) == whole


def test_backup_refusals_write_nothing(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    _ledger(db)
    cli = Cli(tmp_path, db)
    before = raw_bytes(db)
    (tmp_path / "old.db").write_bytes(b"an earlier backup\n")
    run = cli("backup", "old.db", code=2)
    assert "old.db already exists" in run.err and "--force" in run.err
    assert (tmp_path / "old.db").read_bytes() == b"an earlier backup\n"
    run = cli("--ledger", "postgresql://postgres@127.0.0.1:5432/test", "backup", "pg.db",
              code=2)
    assert "PostgreSQL" in run.err and "pg_dump" in run.err
    run = cli("--ledger", str(tmp_path / "missing.db"), "backup", "m.db", code=5)
    assert "missing.db does not exist" in run.err
    run = cli("backup", "no-such-folder/b.db", code=2)
    assert "no-such-folder does not exist" in run.err
    run = cli("backup", "t.db", code=2)
    assert "the ledger itself" in run.err
    run = cli("backup", str(tmp_path), code=2)
    assert "is a directory" in run.err
    (tmp_path / "foreign.db").write_text("not a ledger\n" * 40)
    run = cli("--ledger", str(tmp_path / "foreign.db"), "backup", "f.db", code=5)
    assert "foreign.db" in run.err
    assert raw_bytes(db) == before
    assert {p.name for p in tmp_path.iterdir()} - {"t.db-wal", "t.db-shm"} == \
        {"foreign.db", "old.db", "t.db"}
    cli("backup", "old.db", "--force")
    assert (tmp_path / "old.db").read_bytes()[:16] == b"SQLite format 3\x00"
    cli("--ledger", str(tmp_path / "old.db"), "audit", "verify")
