"""SIGKILL a writer at random moments; no acknowledged event is ever lost (docs/DESIGN.md §3).

A writer subprocess (tests/helpers/ledger_writer.py) appends signed events in a loop and
prints + flushes ``ACK <seq> <name> <leaf>`` only after ``Ledger.write`` returned.  It is
killed with SIGKILL after a random delay (a seeded ``random.Random`` in this test picks the
delays; nothing it decides is recorded in the ledger), 15 times on the same SQLite file.
After every kill: the ledger opens, every acknowledged event is stored with the same bytes,
seqs are contiguous, the chain is intact, every signature verifies, at most one event per
kill was stored without an acknowledgement, the snapshot path agrees with a full fold, and
``PRAGMA integrity_check`` is ok.  The log starts just below 250 events so kills also land
around snapshot writes.
"""

from __future__ import annotations

import base64
import hashlib
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ledger.core.aggregate import Tournament
from ledger.formats.registry import make_format
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.keys import Signer
from tests.helpers.checks import full_fold, walk_chain

ROOT = Path(__file__).resolve().parent.parent
WRITER = ROOT / "tests" / "helpers" / "ledger_writer.py"
HJ_SEED = b"\x01" * 32
HJ = Signer.from_seed(HJ_SEED, "Head Judge")
KILLS = 15
PREFILL = 240
LOG = "crash"


def _start_writer(db: Path, tag: str, out: Path, err: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, str(WRITER), str(db), LOG, HJ_SEED.hex(), tag, "--count", "0"],
        stdout=out.open("wb"), stderr=err.open("wb"), cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)})


def _acks(out: Path) -> list[tuple[int, bytes]]:
    """ACK lines that were completely written (a line cut by the kill is not an ack)."""
    data = out.read_bytes()
    complete = data[:data.rfind(b"\n") + 1].decode().splitlines()
    assert complete and complete[0] == "READY", complete[:1]
    acks = []
    for line in complete[1:]:
        kind, seq, _name, leaf = line.split(" ")
        assert kind == "ACK", line
        acks.append((int(seq), base64.b64decode(leaf)))
    return acks


@pytest.mark.slow
def test_sigkill_never_loses_an_acknowledged_event(tmp_path: Path) -> None:
    db = tmp_path / "crash.db"
    with Ledger(Location(str(db)), create=True) as led:
        led.create(LOG, lambda now: Tournament.create(
            log=LOG, name="Crash", fmt=make_format("hotc-swiss-de", None), signer=HJ,
            time=now))
        agg = led.load(LOG)
        for n in range(1, PREFILL):
            agg.register_player(f"pre-{n}", HJ, led.clock.now(), number=n)
        led.app.save(agg)

    rng = random.Random(20130601)  # chooses kill delays only
    acked: dict[int, bytes] = {}
    stored = PREFILL
    unacked_total = 0
    started = time.monotonic()
    for k in range(KILLS):
        out, err = tmp_path / f"w{k}.out", tmp_path / f"w{k}.err"
        proc = _start_writer(db, f"k{k}", out, err)
        try:
            deadline = time.monotonic() + 60
            while not (out.exists() and out.read_bytes().startswith(b"READY\n")):
                assert proc.poll() is None, f"writer {k} died before READY:\n{err.read_text()}"
                assert time.monotonic() < deadline, "writer never became ready"
                time.sleep(0.005)
            time.sleep(rng.uniform(0.02, 0.9))
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        assert proc.returncode == -signal.SIGKILL, (proc.returncode, err.read_text())
        assert "Traceback" not in err.read_text(), err.read_text()
        new = _acks(out)
        for seq, leaf in new:
            assert seq not in acked, f"kill {k}: seq {seq} acknowledged twice"
            acked[seq] = leaf

        # -- after every kill ------------------------------------------------------------
        with Ledger(Location(str(db))) as led:  # it opens
            leaves = list(led.raw_leaves(LOG))
            walk_chain(LOG, leaves)  # contiguous 1..n, canonical, chained, signed
            for seq, leaf in acked.items():
                assert seq <= len(leaves), f"kill {k}: acknowledged seq {seq} is gone"
                assert leaves[seq - 1][1] == leaf, f"kill {k}: seq {seq} bytes changed"
            # everything this writer stored was acknowledged, except at most the one
            # write the kill interrupted between COMMIT and the printed ACK
            unacked = len(leaves) - stored - len(new)
            assert unacked in (0, 1), f"kill {k}: {unacked} unacknowledged events stored"
            unacked_total += unacked
            stored = len(leaves)
            agg = led.load(LOG)
            assert agg.version == len(leaves)
            assert agg.state.head == hashlib.sha256(leaves[-1][1]).hexdigest()
            assert full_fold(led, LOG).state == agg.state
        con = sqlite3.connect(db)
        try:
            assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        finally:
            con.close()

    elapsed = time.monotonic() - started
    assert len(acked) >= KILLS, f"only {len(acked)} acknowledged writes in {KILLS} runs"
    assert stored > 250, "the kills never reached the first snapshot"
    print(f"{KILLS} kills, {len(acked)} acknowledged, {unacked_total} stored-unacknowledged, "
          f"{stored} events, {elapsed:.1f}s")
