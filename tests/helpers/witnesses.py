"""Witnesses of a finished event: their keys, a checkpoint to cosign, the cosignature.

May import: ``ledger.*``, ``audit.*``, ``tests.helpers.*``, the standard library.
"""

from __future__ import annotations

from pathlib import Path

from audit.findings import Report
from ledger.formats.simulation import demo_key, simulate
from ledger.proofs.checkpoint_store import checkpoint_dir, leaf_hashes, write_checkpoint
from ledger.proofs.witness import (
    WitnessState,
    cosign,
)
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.clock import FixedClock
from ledger.wire.events import LedgerPolicy, Role
from ledger.wire.keys import Signer
from tests.conftest import HJ, public

W1 = Signer.from_seed(bytes([5]) * 32, "Wendy Witness")


W2 = Signer.from_seed(bytes([6]) * 32, "Walt Witness")


LOG = "t1"


def add_witnesses(loc: Location, *signers: Signer, log: str = LOG,
                  by: Signer = HJ) -> None:
    with Ledger(loc, clock=FixedClock("2013-06-01T09:30:00.000000Z")) as led:
        for w in signers:
            led.write(log, lambda t, now, w=w: t.add_official(public(w), Role.WITNESS,
                                                              w.name, by, now))


def new_checkpoint(loc: Location, log: str = LOG, signer: Signer = HJ) -> Path:
    with Ledger(loc) as led:
        path, _cp = write_checkpoint(led, log, signer, checkpoint_dir(loc, None, log))
    return path


def do_cosign(loc: Location, note: Path, w: Signer, ws: WitnessState, *, ts: int,
              log: str = LOG) -> bytes:
    with Ledger(loc, readonly=True) as led:
        st = led.load(log).state
        hashes = leaf_hashes(led, log, st.size)
    out, _cp = cosign(note.read_bytes(), state=st, leaf_hashes=hashes, signer=w,
                      wstate=ws, timestamp=ts)
    note.write_bytes(out)
    return out


def codes(report: Report) -> set[str]:
    return {f.code for f in report.findings}


def _finished_event(tmp_path: Path, policy: LedgerPolicy) -> tuple[Location, str, Signer]:
    loc = Location(str(tmp_path / "sim.db"))
    with Ledger(loc, create=True, clock=FixedClock()) as led:
        simulate(led, log="w", players=8, seed_text="w", cut=2,
                 checkpoints=lambda: checkpoint_dir(loc, None, "w"), policy=policy)
    hj = demo_key("w", "head-judge")
    add_witnesses(loc, W1, W2, log="w", by=hj)
    return loc, "w", hj
