"""A long-lived writer (the live server's station) keeps its SQLite locks while the same
process opens and closes other ledgers on the file (the server's readers, receipts).

Defect found with issue 19: closing *any* descriptor of a file drops every POSIX lock the
process holds on it.  The ledger's own header probe and fsync opened and closed the file,
so after a receipt was read the station's connection held no lock; another process closing
the ledger then removed the write-ahead log under it, and the station's next commit went
to an unlinked file: lost, and a second event with the same seq written by the desk.
``sqlite_probe.held_fd`` keeps one descriptor per file open instead.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.clock import FixedClock
from tests.conftest import SCOREKEEPER
from tests.helpers.reporting import LOG, Event


def _other_process_count(db: Path) -> int:
    """Rows another process sees, after it opened and closed the file (as a CLI does)."""
    code = ("import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
            "print(c.execute('select count(*) from stored_events').fetchone()[0]); c.close()")
    return int(subprocess.run([sys.executable, "-c", code, str(db)], check=True,
                              capture_output=True, text=True).stdout)


def test_a_writer_beside_readers_of_the_same_process_loses_nothing(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    Event(db)
    loc = Location(str(db))
    with Ledger(loc, clock=FixedClock()) as led:
        session = led.session(LOG)
        for i in range(3):
            ev = session.write(lambda t, now, i=i: t.rename_player(1, f"Name {i}", "typo",
                                                                   SCOREKEEPER, now))
            with Ledger(loc, readonly=True) as reader:       # a receipt, a page
                assert reader.raw_leaf(LOG, ev.seq) is not None
            # another process opens and closes the file: it must not remove the WAL
            assert _other_process_count(db) == ev.seq
            assert Path(f"{db}-wal").exists()
    with sqlite3.connect(db) as con:
        seqs = [r[0] for r in con.execute("select originator_version from stored_events")]
    assert seqs == list(range(1, len(seqs) + 1))
