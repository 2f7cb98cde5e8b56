"""Full-disk exit codes on the CLI (issue 27 item 8, the turn-4 report's D18), on a real
full disk (a small tmpfs, ``tests/helpers/small_disk.py``): docs/DESIGN.md §8 gives a storage
failure exit 5 and a failed command writes nothing.

The commands that write the ledger, notes and bundles are covered by
``tests/test_storage_defects.py`` (``test_item13_*``, ``test_item14_*``: result import and
record, audit, checkpoint note, export).  Here: the files written before any ledger
exists.  ``keys new`` on a full disk was an internal error (exit 1) that left an empty
private key file behind."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.cli_runner import Cli
from tests.helpers.small_disk import disk_skip_reason, fill, small_disk


def test_keys_new_on_a_full_disk_exits_5_and_keeps_no_empty_key_file(tmp_path: Path) -> None:
    if disk_skip_reason():
        pytest.skip(disk_skip_reason() or "")
    with small_disk(tmp_path / "disk", "64k") as disk:
        fill(disk)
        cli = Cli(tmp_path, disk / "t.db")
        run = cli("keys", "new", "--name", "Ada", "--out", str(disk / "hj.pem"), code=5)
        assert "cannot write key file" in run.err and "No space left" in run.err, run.err
        assert not (disk / "hj.pem").exists() and not (disk / "hj.pem.pub").exists()
        # the same command once there is room
        for p in disk.glob("filler-*"):
            p.unlink()
        cli("keys", "new", "--name", "Ada", "--out", str(disk / "hj.pem"))
        assert (disk / "hj.pem").stat().st_size > 0 and (disk / "hj.pem.pub").exists()


def test_init_on_a_full_disk_exits_5_and_creates_no_ledger(tmp_path: Path) -> None:
    if disk_skip_reason():
        pytest.skip(disk_skip_reason() or "")
    cli = Cli(tmp_path, tmp_path / "unused.db")
    cli("keys", "new", "--name", "Ada", "--out", "hj.pem")
    with small_disk(tmp_path / "disk", "64k") as disk:
        fill(disk)
        on = Cli(tmp_path, disk / "t.db")
        run = on("init", "--name", "Full", "--format", "hotc-swiss-de", "--key", "hj.pem",
                 code=5)
        assert "is full" in run.err, run.err
        assert not [p for p in disk.iterdir() if not p.name.startswith("filler-")]
