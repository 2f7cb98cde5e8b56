"""Issue 21, items 12–15 (stations and storage), one test or a few named after each defect,
as real ``tourney`` subprocesses on real files: rollback-journal SQLite files, storage
failures on a real full disk (a small tmpfs), exports through a staging directory, and the
auditor's ``--checkpoints DIR``.  Items 10 and 11 (PostgreSQL) are in
``tests/test_station_pg.py``."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import time
from contextlib import closing
from pathlib import Path

import pytest

from ledger.storage.location import Location, sqlite_lock_timeout
from tests.helpers.checks import note_dir
from tests.helpers.cli_runner import Cli, raw_bytes, snapshot
from tests.helpers.small_disk import disk_skip_reason, fill, small_disk


def _tree(d: Path) -> dict[str, bytes]:
    return {str(p.relative_to(d)): p.read_bytes() for p in sorted(d.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> tuple[Cli, Path, str]:
    """A 12-player event with checkpoints, written through the CLI, and a second event
    (another tournament, its own ledger) whose notes an auditor may keep beside it."""
    d = tmp_path_factory.mktemp("storage")
    cli = Cli(d, d / "t.db")
    cli("keys", "new", "--name", "hj", "--out", "hj.pem")
    log = cli("init", "--name", "Storage Open", "--format", "hotc-swiss-de", "--cut", "4",
              "--key", "hj.pem", "--json").doc["tournament"]
    for i in range(1, 13):
        cli("player", "add", f"Player {i}", "--key", "hj.pem")
    cli("registration", "close", "--key", "hj.pem")
    other = Cli(d, d / "other.db")
    other_log = other("init", "--name", "Other Night", "--format", "hotc-swiss-de",
                      "--key", "hj.pem", "--json").doc["tournament"]
    other("player", "add", "Someone", "--key", "hj.pem")
    other("checkpoint", "--key", "hj.pem")
    (d / "other-notes").mkdir()
    for p in note_dir(d / "other.db.checkpoints", other_log).glob("*.note"):
        shutil.copy(p, d / "other-notes" / f"other-{p.name}")
    snapshot(d / "t.db")
    return cli, d, log


def fresh(event: tuple[Cli, Path, str], tmp_path: Path) -> tuple[Cli, Path, str]:
    _cli, d, log = event
    for name in ("t.db", "hj.pem", "hj.pem.pub"):
        shutil.copy(d / name, tmp_path / name)
    shutil.copytree(d / "t.db.checkpoints", tmp_path / "t.db.checkpoints")
    shutil.copytree(d / "other-notes", tmp_path / "other-notes")
    return Cli(tmp_path, tmp_path / "t.db"), tmp_path, log


# -- 14. export writes through a staging directory --------------------------------------

def test_item14_export_on_a_full_disk_leaves_no_partial_bundle_and_exits_5(
        event: tuple[Cli, Path, str], tmp_path: Path) -> None:
    if disk_skip_reason():
        pytest.skip(disk_skip_reason() or "")
    cli, d, log = fresh(event, tmp_path)
    with small_disk(tmp_path / "disk", "64k") as disk:
        fill(disk, leave=6000)  # room for the notes, not for the whole log
        before = sorted(p.name for p in disk.iterdir())
        run = cli("export", str(disk / "bundle"), code=5)
        assert "No space left on device" in run.err and "nothing was exported" in run.err
        assert sorted(p.name for p in disk.iterdir()) == before  # no bundle, no staging


def test_item14_failed_forced_export_keeps_the_earlier_bundle(
        event: tuple[Cli, Path, str], tmp_path: Path) -> None:
    if disk_skip_reason():
        pytest.skip(disk_skip_reason() or "")
    cli, d, log = fresh(event, tmp_path)
    with small_disk(tmp_path / "disk", "256k") as disk:
        cli("export", str(disk / "bundle"))
        earlier = _tree(disk / "bundle")
        fill(disk, leave=0)
        cli("export", str(disk / "bundle"), "--force", code=5)
        assert _tree(disk / "bundle") == earlier
        assert sorted(p.name for p in disk.iterdir() if not p.name.startswith("filler")) \
            == ["bundle"]
    assert cli("audit", "verify", "--json").doc["ok"]


def test_item14_bundle_whose_log_is_shorter_than_its_newest_note_is_an_error(
        event: tuple[Cli, Path, str], tmp_path: Path) -> None:
    cli, d, log = fresh(event, tmp_path)
    cli("export", "bundle")
    lines = (d / "bundle" / "log.jsonl").read_bytes().split(b"\n")[:-1]
    (d / "bundle" / "log.jsonl").write_bytes(b"".join(x + b"\n" for x in lines[:-1]))
    doc = cli("audit", "verify", "bundle", "--json", code=4).doc
    assert "checkpoint_beyond_log" in {f["code"] for f in doc["findings"]}


# -- 15. audit verify --checkpoints DIR --------------------------------------------------

def test_item15_checkpoints_dir_with_another_events_note_passes_a_genuine_log(
        event: tuple[Cli, Path, str], tmp_path: Path) -> None:
    cli, d, log = fresh(event, tmp_path)
    published = d / "published"
    published.mkdir()
    for p in note_dir(d / "t.db.checkpoints", log).glob("*.note"):
        shutil.copy(p, published / p.name)
    for p in (d / "other-notes").glob("*.note"):
        shutil.copy(p, published / p.name)
    cli("export", "bundle")
    for target in ([], ["bundle"]):
        doc = cli("audit", "verify", *target, "--checkpoints", str(published), "--json").doc
        assert doc["ok"], doc["findings"]
    # a foreign note in the bundle's own checkpoints/ is still a splice (T29)
    for p in (d / "other-notes").glob("*.note"):
        shutil.copy(p, d / "bundle" / "checkpoints" / p.name)
    doc = cli("audit", "verify", "bundle", "--json", code=4).doc
    assert "checkpoint_origin_mismatch" in {f["code"] for f in doc["findings"]}


def test_item15_checkpoints_dir_without_a_note_of_this_log_is_a_usage_error(
        event: tuple[Cli, Path, str], tmp_path: Path) -> None:
    cli, d, log = fresh(event, tmp_path)
    (d / "empty").mkdir()
    cli("export", "bundle")
    for target in ([], ["bundle"]):
        run = cli("audit", "verify", *target, "--checkpoints", "empty", code=2)
        assert f"holds no checkpoint note of tournament {log}" in run.err
        run = cli("audit", "verify", *target, "--checkpoints", "other-notes", code=2)
        assert "only notes of tourney/" in run.err
    with closing(sqlite3.connect(d / "t.db")) as con:  # the audit wrote nothing
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


# -- 12. SQLite files in rollback-journal mode ------------------------------------------

def _journal_copy(d: Path, how: str = "vacuum") -> Path:
    """A rollback-journal (``delete``) copy of the ledger: ``VACUUM INTO``, or the
    ``sqlite3`` shell's ``.dump`` loaded into a new file by the shell."""
    if how == "vacuum":
        with closing(sqlite3.connect(d / "t.db")) as con:
            con.execute(f"VACUUM INTO '{d / 'copy.db'}'")
    else:
        dump = subprocess.run(["sqlite3", str(d / "t.db"), ".dump"], capture_output=True,
                              check=True).stdout
        subprocess.run(["sqlite3", str(d / "copy.db")], input=dump, check=True)
    return d / "copy.db"


def _journal_mode(db: Path) -> str:
    with closing(sqlite3.connect(db)) as con:
        return str(con.execute("PRAGMA journal_mode").fetchone()[0])


@pytest.mark.parametrize("how", ["vacuum", "shell"])
def test_item12_rollback_journal_ledger_is_readable_by_every_read_command(
        event: tuple[Cli, Path, str], tmp_path: Path, how: str) -> None:
    if how == "shell" and shutil.which("sqlite3") is None:
        pytest.skip("the sqlite3 shell is not installed (apt-get install sqlite3)")
    _cli, d, log = fresh(event, tmp_path)
    copy = _journal_copy(d, how)
    assert _journal_mode(copy) == "delete"
    before = copy.read_bytes()
    cli = Cli(d, copy)
    assert cli("info", "--json").doc["tournament"] == log
    cli("log")
    cli("standings")
    assert cli("audit", "verify", "--json").doc["ok"]
    cli("export", "bundle")
    assert cli("audit", "verify", "bundle", "--json").doc["ok"]
    assert copy.read_bytes() == before and not Path(f"{copy}-wal").exists()
    assert _journal_mode(copy) == "delete"


def test_item12_refused_write_does_not_switch_a_rollback_journal_file_to_wal(
        event: tuple[Cli, Path, str], tmp_path: Path) -> None:
    _cli, d, log = fresh(event, tmp_path)
    copy = _journal_copy(d)
    before = copy.read_bytes()
    cli = Cli(d, copy)
    cli("player", "add", "Late Entry", "--key", "hj.pem", code=3)  # registration closed
    assert copy.read_bytes() == before and not Path(f"{copy}-wal").exists()
    assert _journal_mode(copy) == "delete"
    # an accepted write makes it an ordinary WAL ledger, and it audits clean
    cli("round", "pair", "--seed-material", "journal test seed", "--seed-source", "test dice",
        "--key", "hj.pem")
    assert _journal_mode(copy) == "wal"
    assert cli("audit", "verify", "--json").doc["ok"]


# -- 13. storage failures exit 5, name the cause, write nothing partial ------------------

def _on_disk(cli: Cli, d: Path, disk: Path) -> Cli:
    """The event moved onto ``disk`` with round 1 paired; returns its CLI."""
    shutil.copy(d / "t.db", disk / "t.db")
    shutil.copytree(d / "t.db.checkpoints", disk / "t.db.checkpoints")
    on = Cli(d, disk / "t.db")
    on("round", "pair", "--seed-material", "full disk", "--seed-source", "test dice",
       "--key", "hj.pem")
    tables = on("round", "show", "--json").doc
    rows = ["round,table,winner"] + [
        f"1,{t['table']},{t['players'][0]}" for t in tables["tables"]]
    (d / "r.csv").write_text("\n".join(rows) + "\n")
    return on


def test_item13_result_import_on_a_full_disk_exits_5_naming_the_cause(
        event: tuple[Cli, Path, str], tmp_path: Path) -> None:
    if disk_skip_reason():
        pytest.skip(disk_skip_reason() or "")
    cli, d, log = fresh(event, tmp_path)
    with small_disk(tmp_path / "disk", "2m") as disk:
        on = _on_disk(cli, d, disk)
        fill(disk)
        before = raw_bytes(disk / "t.db")
        run = on("result", "import", "r.csv", "--key", "hj.pem", code=5)
        assert "is full" in run.err and "line 2" in run.err and "refused" not in run.out
        first = (d / "r.csv").read_text().splitlines()[1].split(",")
        on("result", "record", "--round", "1", "--table", first[1], "--winner", first[2],
           "--key", "hj.pem", code=5)
        assert raw_bytes(disk / "t.db") == before
        for p in disk.glob("filler-*"):
            p.unlink()
        on("result", "import", "r.csv", "--key", "hj.pem")  # the same file, once there is room
        assert on("audit", "verify", "--json").doc["ok"]


def test_item13_audit_on_a_full_disk_exits_5_naming_the_full_disk(
        event: tuple[Cli, Path, str], tmp_path: Path) -> None:
    if disk_skip_reason():
        pytest.skip(disk_skip_reason() or "")
    cli, d, log = fresh(event, tmp_path)
    with small_disk(tmp_path / "disk", "2m") as disk:
        shutil.copy(d / "t.db", disk / "t.db")  # closed cleanly: no -shm index yet
        on = Cli(d, disk / "t.db")
        fill(disk)
        before = raw_bytes(disk / "t.db")
        run = on("audit", "verify", code=5)
        assert "is full" in run.err and "disk I/O error" in run.err
        assert raw_bytes(disk / "t.db") == before


def test_item13_checkpoint_note_on_a_full_disk_exits_5_and_leaves_no_temp_file(
        event: tuple[Cli, Path, str], tmp_path: Path) -> None:
    if disk_skip_reason():
        pytest.skip(disk_skip_reason() or "")
    cli, d, log = fresh(event, tmp_path)
    cli("round", "pair", "--seed-material", "notes", "--seed-source", "test dice",
        "--key", "hj.pem")
    with small_disk(tmp_path / "disk", "64k") as disk:
        fill(disk)
        run = cli("--checkpoints", str(disk / "notes"), "checkpoint", "--key", "hj.pem",
                  code=5)
        assert "No space left on device" in run.err, run.err
        assert not list(disk.rglob("*.tmp"))
        for p in disk.glob("filler-*"):
            p.unlink()
        cli("--checkpoints", str(disk / "notes"), "checkpoint", "--key", "hj.pem")
        assert list((disk / "notes").rglob("*.note"))
    assert cli("audit", "verify", "--json").doc["ok"]


# -- a ledger another process holds: the wait is bounded, and configurable ---------------

def test_a_locked_sqlite_ledger_exits_5_after_the_configured_wait(
        event: tuple[Cli, Path, str], tmp_path: Path) -> None:
    """``TOURNEY_SQLITE_LOCK_TIMEOUT`` sets how long a command waits for another
    process's lock (docs/OPERATIONS.md); past it the command exits 5 in one line and
    writes nothing."""
    _cli, d, _log = fresh(event, tmp_path)
    cli = Cli(d, d / "t.db").as_process()   # the lock is this process's: the command another's
    before = snapshot(d / "t.db")
    lock = sqlite3.connect(d / "t.db", timeout=1)
    try:
        lock.execute("BEGIN EXCLUSIVE")
        t0 = time.monotonic()
        run = cli("round", "pair", "--seed-material", "lock test seed", "--seed-source",
                  "dice", "--key", "hj.pem", code=5, env={"TOURNEY_SQLITE_LOCK_TIMEOUT": "2"})
        waited = time.monotonic() - t0
    finally:
        lock.rollback()
        lock.close()
    assert "locked" in run.err, run.err
    assert 2 <= waited < 25, waited   # the setting's 2 s, not the default 30 s
    assert snapshot(d / "t.db") == before
    cli("round", "pair", "--seed-material", "lock test seed", "--seed-source", "dice",
        "--key", "hj.pem", env={"TOURNEY_SQLITE_LOCK_TIMEOUT": "2"})


@pytest.mark.parametrize("text, seconds", [("", 30), ("7", 7), (" 3 ", 3), ("0", 30),
                                           ("1.5", 30), ("-2", 30), ("soon", 30)])
def test_the_sqlite_lock_timeout_setting(monkeypatch: pytest.MonkeyPatch, text: str,
                                         seconds: int) -> None:
    monkeypatch.setenv("TOURNEY_SQLITE_LOCK_TIMEOUT", text)
    assert sqlite_lock_timeout() == seconds
    assert Location("x.db").env()["SQLITE_LOCK_TIMEOUT"] == str(seconds)
