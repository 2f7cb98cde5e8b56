"""Command side of verifiable seeds: decide the ``seed_recorded`` / ``seed_committed``
bodies from foreign bytes and record them on the aggregate.

Owns: ``import_random_org``, ``import_drand``, ``commit_seed`` and ``reveal_seed``.  Every
body still passes ``ledger.core.rules.check`` (``ledger.randomness.rules``) when recorded, so
the command refuses exactly what the audit would flag.

May import: ``ledger.core.aggregate`` (typing only), ``ledger.wire.events``, ``ledger.errors``,
``ledger.core.draw``, ``ledger.wire.keys``, ``ledger.randomness.*``.
"""

from __future__ import annotations

import base64
from typing import TYPE_CHECKING

from ledger.core.draw import seed_from_material
from ledger.errors import RuleError, UsageError
from ledger.randomness import drand, random_org
from ledger.randomness.commit import SecretFile, commitment, reveal_material
from ledger.wire.events import SeedCommitted, SeedRecorded, SignedEvent
from ledger.wire.keys import Signer

if TYPE_CHECKING:
    from ledger.core.aggregate import Tournament


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def import_random_org(t: Tournament, data: bytes, *, reason: str, signer: Signer, time: str,
                      ctx: str | None = None, gap_reason: str | None = None,
                      evidence: str | None = None) -> SignedEvent:
    """Record a RANDOM.ORG signed response exactly as received (verified first)."""
    try:
        signed = random_org.verify_signed(data)
    except random_org.RandomOrgError as exc:
        raise RuleError("DESIGN-6", exc.message, hint="import the response file exactly as "
                        "RANDOM.ORG sent it", finding=exc.code) from None
    material = signed.random_raw.decode("utf-8")
    return t.record(SeedRecorded(
        provenance="random_org", material=material,
        source=f"RANDOM.ORG Signed API {signed.method}".strip(), reason=reason,
        seed=seed_from_material(material).hex(), serial=str(signed.serial),
        source_time=signed.completion_time or None, ctx=ctx, evidence=evidence,
        attestation=_b64(data), hashed_api_key=signed.hashed_api_key,
        gap_reason=gap_reason), signer, time)


def beacon_bytes(*, chain: str, round_no: int | None, signature_hex: str | None,
                 beacon_file: bytes | None,
                 previous_signature_hex: str | None = None) -> tuple[drand.Beacon, bytes]:
    """The beacon and the bytes stored as its attestation (a saved JSON verbatim, or the
    canonical document built from --round/--signature)."""
    try:
        if beacon_file is not None:
            beacon = drand.parse_beacon(beacon_file, chain)
            if round_no is not None and beacon.round != round_no:
                raise UsageError(f"the beacon file is round {beacon.round}, not {round_no}")
            return beacon, beacon_file
        if round_no is None or signature_hex is None:
            raise UsageError("give --round and --signature, or --beacon FILE",
                             hint="e.g. --round 1000 --signature b44679b9…")
        sig = bytes.fromhex(signature_hex.strip())
        prev = None if previous_signature_hex is None else bytes.fromhex(
            previous_signature_hex.strip())
    except ValueError:
        raise UsageError("--signature is not hex", hint="paste the beacon's signature") \
            from None
    except drand.BeaconError as exc:
        raise UsageError(exc.message, hint="pass the beacon JSON as saved") from None
    beacon = drand.Beacon(chain=chain, round=round_no, signature=sig,
                          previous_signature=prev)
    return beacon, drand.beacon_json(beacon)


def _verified(beacon: drand.Beacon) -> bytes:
    try:
        return drand.verify_beacon(beacon)
    except drand.BeaconError as exc:
        raise RuleError("DESIGN-6", exc.message, hint="check --chain, --round and the "
                        "signature", finding=exc.code) from None


def import_drand(t: Tournament, beacon: drand.Beacon, attestation: bytes, *, reason: str,
                 signer: Signer, time: str, ctx: str | None = None) -> SignedEvent:
    rand = _verified(beacon)
    material = rand.hex()
    return t.record(SeedRecorded(
        provenance="drand", material=material, source=f"drand {beacon.chain}",
        reason=reason, seed=seed_from_material(material).hex(), serial=str(beacon.round),
        ctx=ctx, attestation=_b64(attestation), chain=beacon.chain, round=beacon.round),
        signer, time)


def commit_seed(t: Tournament, *, salt: bytes, secret: bytes, chain: str, round_no: int,
                reason: str, signer: Signer, time: str, ctx: str | None = None,
                min_lead_s: int = 0) -> SignedEvent:
    """Commit to (salt, secret) for a beacon round at least ``min_lead_s`` after ``time``."""
    from ledger.wire.clock import parse_time

    try:
        due = drand.round_time(chain, round_no)
    except drand.BeaconError as exc:
        raise UsageError(exc.message) from None
    if due - parse_time(time).timestamp() < min_lead_s:
        raise RuleError("DESIGN-6", f"{chain} round {round_no} is published at unix {due}, "
                        f"less than {min_lead_s}s from now: a commitment must precede its "
                        "beacon round", hint="pick a later round (or omit --round)",
                        finding="commitment_not_sealed")
    return t.record(SeedCommitted(commitment=commitment(salt, secret).hex(), chain=chain,
                                  round=round_no, reason=reason, ctx=ctx), signer, time)


def reveal_seed(t: Tournament, secret: SecretFile, beacon: drand.Beacon,
                attestation: bytes, checkpoint_note: bytes, *, signer: Signer,
                time: str) -> SignedEvent:
    com = t.state.commitments.get(secret.commit_seq)
    if com is None:
        raise RuleError("DESIGN-6", f"seq {secret.commit_seq} is not a seed commitment",
                        finding="commit_unknown")
    if (beacon.chain, beacon.round) != (com.chain, com.round):
        raise RuleError("DESIGN-6", f"the commitment is for {com.chain} round {com.round}, "
                        f"not {beacon.chain} round {beacon.round}",
                        hint="pass that round's beacon", finding="drand_round_mismatch")
    rand = _verified(beacon)
    salt, sec = bytes.fromhex(secret.salt), bytes.fromhex(secret.secret)
    material = reveal_material(salt, sec, rand)
    return t.record(SeedRecorded(
        provenance="commit_reveal", material=material,
        source=f"commit-reveal with drand {com.chain} round {com.round}",
        reason=f"reveal of commitment seq {com.seq}",
        seed=seed_from_material(material).hex(), ctx=com.ctx,
        attestation=_b64(attestation), chain=com.chain, round=com.round,
        commit_seq=com.seq, salt=secret.salt, secret=secret.secret,
        checkpoint=checkpoint_note.decode("utf-8")), signer, time)
