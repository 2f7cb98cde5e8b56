"""A small finished event published through the CLI, for the tests of published sites.

Owns: ``make_event`` (a simulated event's ledger with its head judge's key file) and
``_pem`` (a demo signer's key written as a PEM file).

May import: ``ledger.*``, ``tests.helpers.*``, the standard library.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization

from ledger.formats.simulation import demo_key, simulate
from ledger.proofs.checkpoint_store import checkpoint_dir
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.clock import FixedClock
from tests.helpers.cli_runner import Cli

SEED = "publish test"


def _pem(signer: Any, path: Path) -> None:
    path.write_bytes(signer.private_key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption()))


def make_event(d: Path, log: str = "pub-12") -> Cli:
    db = d / "t.db"
    with Ledger(Location(str(db)), create=True, clock=FixedClock()) as led:
        simulate(led, log=log, players=12, seed_text=SEED, cut=4,
                 checkpoints=lambda: checkpoint_dir(Location(str(db)), None, log))
    _pem(demo_key(SEED, "head-judge"), d / "hj.pem")
    _pem(demo_key(SEED, "scorekeeper"), d / "sk.pem")
    return Cli(d, db)
