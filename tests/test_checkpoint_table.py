"""Checkpoints live in the ledger (issue 7): the ``tourney_checkpoints`` table on SQLite and
PostgreSQL.

* a checkpoint is signed from the state's Merkle frontier and equals the root recomputed
  from every stored leaf (so no command re-reads the log to sign one);
* writing is idempotent per size; a different root for a stored size is refused (fork);
* a copied ``.db`` file alone (no side directory) audits with its checkpoints, and a
  tampered stored note is a finding;
* the same on PostgreSQL (skipped with the reason when no server answers);
* export writes the ledger's notes as ``checkpoints/<size>.note``.
"""

from __future__ import annotations

import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from audit.bundle import export_bundle
from audit.verify import verify_bundle, verify_ledger
from ledger.errors import VerificationError
from ledger.proofs.checkpoint import Checkpoint, parse_checkpoint_note, sign_checkpoint
from ledger.proofs.checkpoint_store import origin_of, write_checkpoint
from ledger.proofs.merkle import leaf_hash, root_from_hashes
from ledger.storage.checkpoint_table import TABLE
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.clock import FixedClock
from tests.conftest import HJ, JUDGE, build_small
from tests.helpers.checks import delete_pg_tournament, pg_skip_reason, pg_url, unique_log


def _root_of_stored(led: Ledger, log: str) -> bytes:
    return root_from_hashes([leaf_hash(leaf) for _v, leaf in led.raw_leaves(log)])


def test_frontier_root_equals_recomputed_root(tmp_path: Path) -> None:
    loc = build_small(tmp_path / "t.db", players=7)
    with Ledger(loc, clock=FixedClock()) as led:
        for k in range(5):  # sizes 12..16 cross a power of two
            led.write("t1", lambda t, now, k=k: t.record_seed(
                material=f"more {k}", source="dice", reason="test", signer=HJ, time=now))
            _path, cp = write_checkpoint(led, "t1", HJ)
            assert cp.root == _root_of_stored(led, "t1"), cp.size
        sizes = [size for size, _note in led.checkpoints.notes("t1")]
    assert sizes == sorted(sizes) and len(sizes) == 6


def test_idempotent_and_fork_refused(tmp_path: Path) -> None:
    loc = build_small(tmp_path / "t.db")
    with Ledger(loc, clock=FixedClock()) as led:
        size, note = led.checkpoints.latest("t1") or (0, b"")
        _path, again = write_checkpoint(led, "t1", HJ)
        assert again.size == size and led.checkpoints.notes("t1") == [(size, note)]
        forged = Checkpoint(origin=origin_of("t1"), size=size, root=b"\x11" * 32)
        with pytest.raises(VerificationError, match="another root"):
            led.checkpoints.put("t1", size, forged.root,
                                sign_checkpoint(forged, forged.origin, HJ.private_key))
        assert led.checkpoints.notes("t1") == [(size, note)]


def test_only_a_head_judge_signs(tmp_path: Path) -> None:
    from ledger.errors import RuleError

    loc = build_small(tmp_path / "t.db")
    with Ledger(loc, clock=FixedClock()) as led:
        before = led.checkpoints.notes("t1")
        with pytest.raises(RuleError):
            write_checkpoint(led, "t1", JUDGE)
        assert led.checkpoints.notes("t1") == before


def test_copied_db_alone_audits_with_its_checkpoints(tmp_path: Path) -> None:
    loc = build_small(tmp_path / "t.db")
    copy = tmp_path / "elsewhere" / "copy.db"
    copy.parent.mkdir()
    with closing(sqlite3.connect(loc.text)) as db:  # fold the WAL into the main file
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    shutil.copyfile(loc.text, copy)  # the .db file only: no -wal, no .checkpoints dir
    report = verify_ledger(Location(str(copy)), "t1", None)
    assert report.ok and report.checkpoints == 1, report.findings
    assert not [f for f in report.findings if f.code == "no_checkpoint"]
    # a stored note edited in place is caught
    with closing(sqlite3.connect(copy)) as db:
        (note,) = db.execute(f"SELECT note FROM {TABLE}").fetchone()
        bad = bytearray(note)
        bad[-20] = ord("B") if bad[-20] != ord("B") else ord("C")
        db.execute(f"UPDATE {TABLE} SET note = ?", (bytes(bad),))
        db.commit()
    codes = {f.code for f in verify_ledger(Location(str(copy)), "t1", None).findings}
    assert "checkpoint_bad_signature" in codes


def test_a_ledger_without_the_table_reads_as_no_checkpoints(tmp_path: Path) -> None:
    loc = build_small(tmp_path / "t.db")
    with closing(sqlite3.connect(loc.text)) as db:
        db.execute(f"DROP TABLE {TABLE}")
        db.commit()
    with Ledger(loc) as led:
        assert led.checkpoints.notes("t1") == [] and led.checkpoints.latest("t1") is None


def test_export_writes_the_ledgers_notes(tmp_path: Path) -> None:
    loc = build_small(tmp_path / "t.db")
    with Ledger(loc) as led:
        (size, note), = led.checkpoints.notes("t1")
        info = export_bundle(led, "t1", tmp_path / "bundle", None)
    assert info.checkpoints == 1
    assert (tmp_path / "bundle" / "checkpoints" / f"{size}.note").read_bytes() == note
    assert verify_bundle(tmp_path / "bundle").ok


@pytest.fixture()
def pg() -> Location:
    reason = pg_skip_reason()
    if reason:
        pytest.skip(reason)
    return Location(pg_url())


def test_postgres_checkpoints_in_the_ledger(pg: Location, tmp_path: Path) -> None:
    from ledger.core.aggregate import Tournament
    from ledger.formats.registry import make_format

    log = unique_log("cptable")
    with Ledger(pg, create=True, clock=FixedClock()) as led:
        try:
            led.create(log, lambda now: Tournament.create(
                log=log, name="PG checkpoints", fmt=make_format("hotc-swiss-de", 4),
                signer=HJ, time=now))
            for k in range(3):
                led.write(log, lambda t, now, k=k: t.register_player(f"P{k}", HJ, now))
                _p, cp = write_checkpoint(led, log, HJ)
                assert cp.root == _root_of_stored(led, log)
            notes = led.checkpoints.notes(log)
            assert [s for s, _n in notes] == [2, 3, 4]
            assert parse_checkpoint_note(notes[-1][1])[0].size == 4
            report = verify_ledger(pg, log, tmp_path / "no-such-dir")
            assert report.ok and report.checkpoints == 3, report.findings
            forged = Checkpoint(origin=origin_of(log), size=4, root=b"\x22" * 32)
            with pytest.raises(VerificationError):
                led.checkpoints.put(log, 4, forged.root,
                                    sign_checkpoint(forged, forged.origin, HJ.private_key))
        finally:
            delete_pg_tournament(led, log)
