"""Witness cosignatures, the pure part (issue 17: the import graph without a circle): the
cosignature line format (C2SP tlog-cosignature/v1 style), the witness keys a log
declares, and the verification of the cosignature lines of a note.

Owns: ``witness_key_name``, ``cosign_key_hash``, ``cosigned_message``,
``cosignature_line``, ``signature_line`` (a note signature as its exact line), ``Witness``,
``Cosignature``, ``witnesses_of``, ``cosignatures``.
It reads nothing from storage, so the randomness rules, the audit, proof files and the
cosignature store (``ledger.proofs.cosignature_store``) use it without importing the
witness's own state machine (``ledger.proofs.witness``).

May import: ``ledger.proofs.checkpoint``, ``ledger.wire.events``, ``ledger.wire.keys``,
``ledger.core.state``.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from ledger.core.state import TournamentState
from ledger.proofs.checkpoint import SIG_PREFIX, NoteSignature
from ledger.wire.events import Role
from ledger.wire.keys import Signer, verify_signature


def decode_public_key(text: str) -> bytes | None:
    """The raw 32-byte Ed25519 key of a base64 ``public_key`` field, or None."""
    try:
        raw = base64.b64decode(text, validate=True)
    except ValueError:
        return None
    return raw if len(raw) == 32 else None


SIG_TYPE_COSIGNATURE = 0x04
COSIGN_PREFIX = b"cosignature/v1\ntime "


def witness_key_name(key_id: str) -> str:
    return f"tourney-witness/{key_id}"


def cosign_key_hash(name: str, public_key_raw: bytes) -> bytes:
    data = name.encode("utf-8") + b"\n" + bytes([SIG_TYPE_COSIGNATURE]) + public_key_raw
    return hashlib.sha256(data).digest()[:4]


def cosigned_message(text: bytes, timestamp: int) -> bytes:
    return COSIGN_PREFIX + str(timestamp).encode("ascii") + b"\n" + text


def cosignature_line(text: bytes, signer: Signer, timestamp: int) -> bytes:
    name = witness_key_name(signer.key_id)
    blob = (cosign_key_hash(name, signer.public_key_raw) + timestamp.to_bytes(8, "big")
            + signer.sign(cosigned_message(text, timestamp)))
    return f"{SIG_PREFIX}{name} {base64.b64encode(blob).decode('ascii')}\n".encode()


@dataclass(frozen=True)
class Witness:
    key_id: str
    name: str  # key name in notes
    public_key: bytes
    added_seq: int
    revoked_seq: int | None


@dataclass(frozen=True)
class Cosignature:
    key_id: str
    timestamp: int
    valid: bool


def witnesses_of(state: TournamentState) -> dict[bytes, Witness]:
    """Witness keys the log declares, by cosignature key hash."""
    out: dict[bytes, Witness] = {}
    for off in state.officials.values():
        if Role.WITNESS not in off.roles:
            continue
        pub = decode_public_key(off.public_key)
        if pub is None:
            continue
        name = witness_key_name(off.key_id)
        out[cosign_key_hash(name, pub)] = Witness(off.key_id, name, pub, off.added_seq,
                                                  off.revoked_seq)
    return out


def cosignatures(text: bytes, signatures: Sequence[NoteSignature],
                 witnesses: dict[bytes, Witness]) -> list[Cosignature]:
    """Every cosignature line of a declared witness, verified (unknown lines ignored)."""
    out: list[Cosignature] = []
    for sig in signatures:
        w = witnesses.get(sig.key_hash)
        if w is None or sig.name != w.name:
            continue
        if len(sig.signature) != 72:
            out.append(Cosignature(w.key_id, 0, False))
            continue
        ts = int.from_bytes(sig.signature[:8], "big")
        ok = verify_signature(w.public_key, sig.signature[8:], cosigned_message(text, ts))
        out.append(Cosignature(w.key_id, ts, ok))
    return out


def signature_line(sig: NoteSignature) -> bytes:
    """The exact signed-note line of ``sig`` (``— name base64(key hash ‖ signature)``)."""
    return (f"{SIG_PREFIX}{sig.name} ".encode()
            + base64.b64encode(sig.key_hash + sig.signature) + b"\n")
