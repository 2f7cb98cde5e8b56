"""Hypothesis fuzz of the randomness and witness checks (issue 21, Proof), beside the audit
fuzz of tests/test_audit_fuzz.py: real signed logs built in memory from the real drand
quicknet round 1000 beacon and real Ed25519 keys, audited with ``audit_leaves``.

* random past and future beacons: whatever the log's claimed times, a drand seed is an
  error exactly when the beacon was published at or before the log's latest event, and a
  second seed of the same beacon is always one;
* backdated and duplicated commitments: a commitment is an error exactly when the log's
  latest time before it already passed the beacon, and every further commitment of one
  draw context is an error whatever times it claims;
* witnesses: any subset cosigning (some revoked, some cosignatures corrupted) meets the
  genesis quorum exactly when enough valid, unrevoked witnesses cosigned.
"""

from __future__ import annotations

import base64
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.findings import Report, Severity
from audit.verify import audit_leaves
from ledger.core.draw import seed_from_material
from ledger.formats.registry import make_format
from ledger.formats.simulation import demo_key, simulate
from ledger.proofs.checkpoint_store import checkpoint_dir, write_checkpoint
from ledger.proofs.witness import cosignature_line
from ledger.randomness import drand
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.clock import FixedClock, format_time
from ledger.wire.events import (
    ZERO_HASH,
    Body,
    KeyRef,
    LedgerPolicy,
    Role,
    SeedCommitted,
    SeedRecorded,
    TournamentCreated,
    seal,
)
from ledger.wire.keys import Signer
from ledger.wire.text import normalize_body
from tests.conftest import HJ, public

VEC = Path(__file__).parent / "vectors" / "randomness"
QUICK = next(b for b in json.loads((VEC / "drand.json").read_text())["beacons"]
             if b["net"] == "quicknet")
PUBLISHED = drand.round_time("quicknet", 1000)
LOG = "fz21"
# claimed times anywhere from 2000 to 2099 (the beacon is from 2023)
OFFSETS = st.integers(min_value=946_684_800 - PUBLISHED, max_value=4_070_908_799 - PUBLISHED)


def at(offset: int) -> str:
    return format_time(datetime.fromtimestamp(PUBLISHED, UTC) + timedelta(seconds=offset))


class Log:
    """Signed leaves appended in memory (the audit reads nothing else)."""

    def __init__(self, genesis_time: str) -> None:
        body = normalize_body(TournamentCreated(
            name="Fuzz Open", format=make_format("hotc-swiss-de", 4),
            head_judge=KeyRef(key_id=HJ.key_id, public_key=HJ.public_key_b64, name="HJ")))
        ev = seal(log=LOG, seq=1, prev=ZERO_HASH, time=genesis_time, body=body, signer=HJ)
        self.leaves = [ev.leaf]
        self.head = ev.leaf_hash_hex

    def add(self, body: Body, time: str, signer: Signer = HJ) -> int:
        seq = len(self.leaves) + 1
        ev = seal(log=LOG, seq=seq, prev=self.head, time=time, body=body, signer=signer)
        self.leaves.append(ev.leaf)
        self.head = ev.leaf_hash_hex
        return seq

    def audit(self) -> Report:
        return audit_leaves(list(enumerate(self.leaves, start=1)), [])


def errors(report: Report) -> set[tuple[str, int | None]]:
    return {(f.code, f.seq) for f in report.findings if f.severity is Severity.ERROR}


def beacon_seed(ctx: str) -> SeedRecorded:
    att = json.dumps({"round": 1000, "signature": QUICK["sig"]}).encode()
    return SeedRecorded(provenance="drand", material=QUICK["randomness"], source="drand",
                        reason="r", seed=seed_from_material(QUICK["randomness"]).hex(),
                        chain="quicknet", round=1000, ctx=ctx,
                        attestation=base64.b64encode(att).decode())


@settings(max_examples=40, deadline=None)
@given(genesis=OFFSETS, later=st.integers(min_value=0, max_value=10**8),
       seed_at=OFFSETS, twice=st.booleans())
def test_random_past_and_future_beacons(genesis: int, later: int, seed_at: int,
                                        twice: bool) -> None:
    log = Log(at(genesis))
    log.add(SeedRecorded(provenance="entered", material="dice", source="d", reason="r",
                         seed=seed_from_material("dice").hex()), at(genesis + later))
    latest = genesis + later
    seq = log.add(beacon_seed(f"{LOG}/a"), at(seed_at))
    found = errors(log.audit())
    assert (("seed_predates_need", seq) in found) == (latest >= 0), (latest, found)
    if twice:
        again = log.add(beacon_seed(f"{LOG}/b"), at(max(seed_at, latest) + 1))
        found = errors(log.audit())
        assert ("drand_beacon_reused", again) in found


@settings(max_examples=40, deadline=None)
@given(genesis=st.integers(min_value=-10**8, max_value=-1), event=OFFSETS,
       claims=st.lists(OFFSETS, min_size=1, max_size=3))
def test_backdated_and_duplicated_commitments(genesis: int, event: int,
                                              claims: list[int]) -> None:
    log = Log(at(genesis))
    log.add(SeedRecorded(provenance="entered", material="dice", source="d", reason="r",
                         seed=seed_from_material("dice").hex()), at(event))
    latest = max(genesis, event)
    seqs = [log.add(SeedCommitted(commitment=f"{i:02x}" * 32, chain="quicknet", round=1000,
                                  reason="r", ctx=f"{LOG}/R1"), at(c))
            for i, c in enumerate(claims)]
    found = errors(log.audit())
    for i, seq in enumerate(seqs):
        if i > 0:  # a further commitment of one draw is grinding, whatever time it claims
            assert ("commitment_duplicate", seq) in found, (i, found)
        else:      # judged by the log's latest time before it, never its own claim
            assert (("commitment_not_sealed", seq) in found) == (latest >= 0), found


W = [Signer.from_seed(bytes([40 + i]) * 32, f"Witness {i}") for i in range(3)]


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[bytes], bytes]:
    """A finished simulated event, quorum 2, witnesses W0, W1, W2 with W2 revoked, and the
    head judge's end-of-event checkpoint."""
    d = tmp_path_factory.mktemp("fz21")
    loc = Location(str(d / "sim.db"))
    with Ledger(loc, create=True, clock=FixedClock()) as led:
        simulate(led, log="w", players=6, seed_text="fz21", cut=2, checkpoints=None,
                 policy=LedgerPolicy(witness_quorum=2))
        hj = demo_key("fz21", "head-judge")
        for w in W:
            led.write("w", lambda t, now, w=w: t.add_official(public(w), Role.WITNESS,
                                                              w.name, hj, now))
        led.write("w", lambda t, now: t.revoke_official(W[2].key_id, "left", hj, now))
        path, _cp = write_checkpoint(led, "w", hj, checkpoint_dir(loc, None, "w"))
        leaves = [leaf for _v, leaf in led.raw_leaves("w")]
    return leaves, path.read_bytes()


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(signers=st.sets(st.integers(min_value=0, max_value=2)),
       corrupt=st.sets(st.integers(min_value=0, max_value=2)),
       stamp=st.integers(min_value=0, max_value=2**40))
def test_witness_quorum_with_revoked_and_corrupted_cosignatures(
        finished: tuple[list[bytes], bytes], signers: set[int], corrupt: set[int],
        stamp: int) -> None:
    leaves, note = finished
    text = note[:note.rfind(b"\n\n") + 1]
    cosigned = note
    for i in sorted(signers):
        line = cosignature_line(text, W[i], stamp)
        if i in corrupt:  # flip a bit of the Ed25519 signature
            name, blob = line.rstrip(b"\n").split(b" ")[1:3]
            raw = bytearray(base64.b64decode(blob))
            raw[-1] ^= 1
            line = "\u2014 ".encode() + name + b" " + base64.b64encode(bytes(raw)) + b"\n"
        cosigned += line
    report = audit_leaves(list(enumerate(leaves, start=1)), [("end.note", cosigned)])
    codes = {f.code for f in report.findings}
    counted = {i for i in signers if i != 2 and i not in corrupt}
    assert ("witness_quorum_missing" in codes) == (len(counted) < 2), (signers, corrupt)
    assert ("cosignature_revoked" in codes) == (2 in signers and 2 not in corrupt)
    assert ("cosignature_bad" in codes) == bool(signers & corrupt)
