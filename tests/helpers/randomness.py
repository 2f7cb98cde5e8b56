"""Verifiable randomness for the tests: drand rounds, random.org signed answers, commit-reveal.

Owns: the recorded drand beacons (``BEFORE_ROUND_1000``, ``AFTER_ROUND_1000``, ``QUICK``),
``response`` (a random.org signed response), ``_event`` (a small ledger to seed),
``refused``/``db_bytes`` (a refusal that writes nothing) and ``_forge_commit_reveal`` (a
commit-reveal seed forged with a valid head-judge signature).

May import: ``ledger.*``, ``audit.*``, ``tests.conftest``, ``tests.helpers.*``, the
standard library.
"""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path

from ledger.core.draw import seed_from_material
from ledger.randomness.commit import commitment, reveal_material
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.events import SeedCommitted, SeedRecorded
from tests.conftest import HJ, build_small
from tests.helpers.cli_runner import Cli
from tests.helpers.tamper import forge_next, rows

VEC = Path(__file__).resolve().parents[1] / "vectors" / "randomness"


RORG = json.loads((VEC / "random_org.json").read_text())


DRAND = json.loads((VEC / "drand.json").read_text())


QUICK = next(b for b in DRAND["beacons"] if b["net"] == "quicknet")


# quicknet round 1000 is published at genesis + 999·3 s = 2023-08-23T15:59:24Z
BEFORE_ROUND_1000 = "2023-08-23T15:00:00.000000Z"


AFTER_ROUND_1000 = "2023-08-23T16:30:00.000000Z"


def response(raw: str | None = None, sig: str | None = None) -> bytes:
    """A Signed API ``result`` as RANDOM.ORG sends it (random object verbatim)."""
    return ('{"random":' + (raw or RORG["random_raw"]) + ',"signature":"'
            + (sig or RORG["signature_b64"]) + '","cost":0,"bitsUsed":16}').encode()


def _event(tmp_path: Path, clock: str | None = None) -> Cli:
    c = Cli(tmp_path, tmp_path / "t.db")
    if clock is not None:
        c.env["TOURNEY_FIXED_CLOCK"] = clock
    c("keys", "new", "--name", "HJ", "--out", "hj.pem")
    c("keys", "new", "--name", "SK", "--out", "sk.pem")
    c("init", "--name", "Rand Open", "--format", "hotc-swiss-de", "--key", "hj.pem")
    c("official", "add", "--role", "scorekeeper", "--name", "S", "--public-key", "sk.pem.pub",
      "--key", "hj.pem")
    for name in ("Ann", "Bob", "Cy", "Di"):
        c("player", "add", name, "--key", "sk.pem")
    return c


def db_bytes(c: Cli) -> bytes:
    return c.ledger.read_bytes() + (c.ledger.with_name("t.db-wal").read_bytes()
                                    if c.ledger.with_name("t.db-wal").exists() else b"")


def refused(c: Cli, *args: str, finding: str, env: dict[str, str] | None = None) -> None:
    before = db_bytes(c)
    run = c(*args, "--json", code=3, env=env)
    assert run.doc["error"]["finding"] == finding, run.doc
    assert len(run.err.strip().splitlines()) == 1
    assert db_bytes(c) == before, "a refused command wrote something"


def _forge_commit_reveal(loc: Location, *, commit_time_ok: bool, opens: bool,
                         with_note: bool) -> int:
    """Forge commitment + reveal straight into the log (valid head-judge signatures)."""
    from ledger.proofs.checkpoint_store import (
        checkpoint_dir,
        list_checkpoint_files,
        write_checkpoint,
    )
    from ledger.wire.events import seal

    salt, secret = b"s" * 16, b"k" * 32
    last_v, last = rows(loc)[-1]
    ev = seal(log="t1", seq=last_v + 1, prev=hashlib.sha256(last).hexdigest(),
              time=BEFORE_ROUND_1000 if commit_time_ok else AFTER_ROUND_1000,
              body=SeedCommitted(commitment=commitment(salt, secret).hex(), chain="quicknet",
                                 round=1000, reason="r"), signer=HJ)
    from tests.helpers.tamper import append_raw
    append_raw(loc, last_v + 1, ev.kind, ev.leaf)
    with Ledger(loc) as led:
        write_checkpoint(led, "t1", HJ, checkpoint_dir(loc, None, "t1"))
    note = list_checkpoint_files(checkpoint_dir(loc, None, "t1"))[-1].read_text()
    shown = secret if opens else b"x" * 32
    material = reveal_material(salt, shown, bytes.fromhex(QUICK["randomness"]))
    att = json.dumps({"round": 1000, "signature": QUICK["sig"]}).encode()
    forge_next(loc, SeedRecorded(
        provenance="commit_reveal", material=material, source="cr", reason="r",
        seed=seed_from_material(material).hex(), chain="quicknet", round=1000,
        commit_seq=last_v + 1, salt=salt.hex(), secret=shown.hex(),
        checkpoint=note if with_note else None,
        attestation=base64.b64encode(att).decode()), HJ)
    return len(rows(loc))


def forge_random_org_swap(db: Path) -> Location:
    """A small ledger whose last seed claims a RANDOM.ORG answer with a changed number
    (validly signed by the head judge): the audit must say ``random_org_mismatch``."""
    loc = build_small(db)
    fake = RORG["random_raw"].replace("79924", "79925")
    forge_next(loc, SeedRecorded(
        provenance="random_org", material=fake, source="RANDOM.ORG", reason="r",
        seed=seed_from_material(fake).hex(), serial="79924",
        attestation=base64.b64encode(response()).decode(),
        hashed_api_key=json.loads(RORG["random_raw"])["hashedApiKey"]), HJ)
    return loc


def forge_drand_material(db: Path) -> Location:
    """A small ledger whose last seed's material is not the hash of the drand signature it
    cites: the audit must say ``drand_randomness_mismatch``."""
    loc = build_small(db)
    att = json.dumps({"round": 1000, "signature": QUICK["sig"]}).encode()
    material = "11" * 32
    forge_next(loc, SeedRecorded(
        provenance="drand", material=material, source="drand", reason="r",
        seed=seed_from_material(material).hex(), chain="quicknet", round=1000,
        attestation=base64.b64encode(att).decode()), HJ)
    return loc
