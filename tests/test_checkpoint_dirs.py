"""Issue 17, defect 8: note files are keyed by the log itself (its genesis hash).

Two events of the same name — a practice ledger deleted and started again, or two
ledgers sharing one ``--checkpoints`` directory as PostgreSQL databases share
``./tourney-checkpoints/`` — never read or write each other's notes; the old
name-keyed directory is still read, but only for notes that are this log's.
``tourney`` commands on real SQLite files.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from ledger.proofs.checkpoint_store import legacy_note_files
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from tests.helpers.checks import note_dir
from tests.helpers.cli_runner import Cli, remember_secret


def _event(cli: Cli, *players: str, extra: tuple[str, ...] = (), day: int = 1) -> None:
    """An event named Cup (a genesis differs by its time: ``day`` of March 2026)."""
    env = {"TOURNEY_FIXED_CLOCK": f"2026-03-{day:02d}T09:00:00.000000Z"}
    cli("init", "--name", "Cup", "--format", "hotc-swiss-de", "--key", "hj.pem", env=env)
    for p in players:
        cli("player", "add", p, "--key", "hj.pem", env=env)
    cli(*extra, "registration", "close", "--key", "hj.pem", env=env)


def _keys(cli: Cli, d: Path) -> None:
    cli("keys", "new", "--name", "hj", "--out", "hj.pem")
    remember_secret(d / "hj.pem")


def test_defect_08_second_event_same_name_no_fork(tmp_path: Path) -> None:
    db = tmp_path / "tournament.db"
    cli = Cli(tmp_path, db)
    _keys(cli, tmp_path)
    _event(cli, "Ana", "Ben")                       # the practice event
    practice = note_dir(tmp_path / "tournament.db.checkpoints", "cup")
    db.unlink()
    _event(cli, "Cal", "Dee", "Eve", day=2)         # the real one: same name, same key
    # registration close wrote its note and exited 0 (old: exit 4, "a different root")
    dirs = sorted(p.name for p in (tmp_path / "tournament.db.checkpoints").iterdir())
    assert len(dirs) == 2 and practice.name in dirs
    assert cli("audit", "verify", "--json").doc["ok"]


def test_defect_08_shared_checkpoint_directory_keeps_both_audits_clean(
        tmp_path: Path) -> None:
    shared = ("--checkpoints", str(tmp_path / "shared"))
    first = Cli(tmp_path, tmp_path / "first.db")
    _keys(first, tmp_path)
    _event(first, "Ana", "Ben", extra=shared)
    second = Cli(tmp_path, tmp_path / "second.db")
    _event(second, "Cal", "Dee", extra=shared, day=2)  # old: exit 4 after writing
    for cli in (first, second):
        doc = cli("audit", "verify", *shared, "--json").doc
        assert doc["ok"], doc["findings"]
        assert cli("audit", "verify", "--json").doc["ok"]


def test_defect_08_old_name_keyed_directory_is_read_for_this_logs_notes_only(
        tmp_path: Path) -> None:
    db = tmp_path / "tournament.db"
    cli = Cli(tmp_path, db)
    _keys(cli, tmp_path)
    _event(cli, "Ana", "Ben")
    base = tmp_path / "tournament.db.checkpoints"
    ours = note_dir(base, "cup")
    legacy = base / "cup"                            # the layout of earlier releases
    shutil.move(ours, legacy)
    # a note of another event of the same name, at another size, in the same old directory
    other = Cli(tmp_path / "other", tmp_path / "other" / "t.db")
    (tmp_path / "other").mkdir()
    shutil.copy(tmp_path / "hj.pem", tmp_path / "other" / "hj.pem")
    _event(other, "Cal", "Dee", "Eve", "Fay", day=2)
    foreign = next(note_dir(tmp_path / "other" / "t.db.checkpoints", "cup").glob("*.note"))
    shutil.copy(foreign, legacy / foreign.name)
    loc = Location(str(db))
    with Ledger(loc, readonly=True) as led:
        found = legacy_note_files(led, loc, None, "cup")
    assert [p.name for p in found] == ["4.note"] and (legacy / foreign.name).exists()
    assert cli("audit", "verify", "--json").doc["ok"]
    cli("export", "bundle")
    assert cli("audit", "verify", "bundle", "--json").doc["ok"]
