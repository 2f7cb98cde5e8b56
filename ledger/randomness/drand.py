"""drand beacons, verified offline (docs/DESIGN.md §6, THREATS T21).

Owns: ``Beacon`` (chain, round, signature), ``parse_beacon`` (a saved beacon JSON as served
by a drand relay: ``{"round":…,"signature":"…","randomness":"…"[,"previous_signature"]}``),
``verify_beacon`` (BLS12-381 against the pinned chain key), ``randomness`` (SHA-256 of the
signature) and ``round_time`` (when a round is published: genesis + (round−1)·period).

Schemes: ``bls-unchained-g1-rfc9380`` (quicknet): message = SHA-256(u64be(round)),
signature in G1, public key in G2, hash-to-curve per RFC 9380 with DST
``BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_``.  ``pedersen-bls-chained`` (default mainnet):
message = SHA-256(previous_signature ‖ u64be(round)), signature in G2, key in G1, DST
``BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_NUL_``.  The curve arithmetic is
``py_arkworks_bls12381`` (ADR 0008): a pairing check e(σ, g2) = e(H(m), pk) (or the G1/G2
mirror for the chained scheme), with subgroup checks in point decompression.

May import: ``hashlib``, ``msgspec``, ``py_arkworks_bls12381``, ``ledger.randomness.pins``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import msgspec

from ledger.randomness.pins import DRAND_CHAINS, DrandChain

DST_G1 = b"BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_"
DST_G2 = b"BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_NUL_"
MAX_ROUND = 2**53 - 1


class BeaconError(Exception):
    """A beacon that does not verify; ``code`` is the audit finding."""

    def __init__(self, message: str, code: str = "drand_bad_signature") -> None:
        super().__init__(message)
        self.message = message
        self.code = code


@dataclass(frozen=True)
class Beacon:
    chain: str
    round: int
    signature: bytes
    previous_signature: bytes | None = None
    claimed_randomness: bytes | None = None


class _BeaconJson(msgspec.Struct):
    round: int
    signature: str
    randomness: str | None = None
    previous_signature: str | None = None


def chain_of(name: str) -> DrandChain:
    chain = DRAND_CHAINS.get(name)
    if chain is None:
        raise BeaconError(f"unknown drand chain {name!r} (pinned: "
                          f"{', '.join(sorted(DRAND_CHAINS))})", code="drand_unknown_chain")
    return chain


def _hex(text: str, what: str) -> bytes:
    try:
        return bytes.fromhex(text)
    except ValueError:
        raise BeaconError(f"drand {what} is not hex", code="drand_malformed") from None


def parse_beacon(data: bytes, chain: str) -> Beacon:
    """A saved beacon JSON (as a relay serves ``/<chain hash>/public/<round>``)."""
    try:
        b = msgspec.json.decode(data, type=_BeaconJson)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise BeaconError(f"not a drand beacon: {exc}", code="drand_malformed") from None
    return Beacon(chain=chain, round=b.round, signature=_hex(b.signature, "signature"),
                  previous_signature=None if b.previous_signature is None
                  else _hex(b.previous_signature, "previous_signature"),
                  claimed_randomness=None if b.randomness is None
                  else _hex(b.randomness, "randomness"))


def beacon_json(beacon: Beacon) -> bytes:
    """The canonical beacon document the ledger stores when given round + signature."""
    doc: dict[str, object] = {"round": beacon.round, "signature": beacon.signature.hex()}
    if beacon.previous_signature is not None:
        doc["previous_signature"] = beacon.previous_signature.hex()
    doc["randomness"] = randomness(beacon).hex()
    return msgspec.json.encode(doc, order="sorted")


def randomness(beacon: Beacon) -> bytes:
    """drand randomness = SHA-256(signature)."""
    return hashlib.sha256(beacon.signature).digest()


def round_time(chain: str, rnd: int) -> int:
    """Unix time at which ``rnd`` is published (genesis is round 1)."""
    c = chain_of(chain)
    return c.genesis_time + (rnd - 1) * c.period


def round_at(chain: str, unix_time: int) -> int:
    """The latest round published at ``unix_time`` (0 before genesis)."""
    c = chain_of(chain)
    if unix_time < c.genesis_time:
        return 0
    return (unix_time - c.genesis_time) // c.period + 1


def verify_beacon(beacon: Beacon) -> bytes:
    """Verify ``beacon`` against its pinned chain key; returns its randomness."""
    from py_arkworks_bls12381 import GT, G1Point, G2Point

    chain = chain_of(beacon.chain)
    if not 1 <= beacon.round <= MAX_ROUND:
        raise BeaconError(f"drand round {beacon.round} is out of range",
                          code="drand_malformed")
    if beacon.claimed_randomness is not None and \
            beacon.claimed_randomness != randomness(beacon):
        raise BeaconError("drand randomness is not SHA-256(signature)",
                          code="drand_randomness_mismatch")
    pub = bytes.fromhex(chain.public_key_hex)
    rnd = beacon.round.to_bytes(8, "big")
    try:
        if chain.scheme == "bls-unchained-g1-rfc9380":
            sig1 = G1Point.from_compressed_bytes(beacon.signature)
            pk2 = G2Point.from_compressed_bytes(pub)
            h1 = G1Point.hash_to_curve(hashlib.sha256(rnd).digest(), DST_G1)
            ok = GT.pairing_check([sig1, -h1], [G2Point(), pk2])
        else:
            if beacon.previous_signature is None:
                raise BeaconError(f"a {chain.name} beacon is chained: it needs "
                                  "previous_signature", code="drand_malformed")
            sig2 = G2Point.from_compressed_bytes(beacon.signature)
            pk1 = G1Point.from_compressed_bytes(pub)
            h2 = G2Point.hash_to_curve(
                hashlib.sha256(beacon.previous_signature + rnd).digest(), DST_G2)
            ok = GT.pairing_check([G1Point(), -pk1], [sig2, h2])
    except BeaconError:
        raise
    except Exception as exc:  # noqa: BLE001 - bad point encodings raise library errors
        raise BeaconError(f"drand signature is not a valid {chain.scheme} point: {exc}"
                          ) from None
    if not ok:
        raise BeaconError(f"drand {chain.name} round {beacon.round}: BLS signature does not "
                          "verify against the pinned chain key (wrong round, chain or "
                          "signature)")
    return randomness(beacon)
