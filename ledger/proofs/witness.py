"""Witnesses: C2SP ``tlog-cosignature/v1`` cosignatures on checkpoint notes, and the
witness's own state (C2SP ``tlog-witness``: cosign only what is consistent with what it
cosigned before).

Owns: the cosignature key hash ``SHA-256(name || 0x0A || 0x04 || pub)[:4]``, the signed
message ``"cosignature/v1\\ntime <t>\\n" + note text``, the signature line (key hash ||
u64 big-endian timestamp || Ed25519 signature), ``cosignatures`` (the verified cosignatures
of a note by the witnesses a log declares), the ``WitnessState`` file (last cosigned
checkpoint per origin) and ``cosign`` (the witness's decision: refuse a note older than,
forked from, or not provably consistent with its last cosigned checkpoint).

A witness is an official with role ``witness`` (``official_added``); its key name is
``tourney-witness/<key id>``.  Cosigning never changes the note text, so the head judge's
signature stays valid.

May import: ``cryptography``, ``msgspec``, ``ledger.proofs.checkpoint``,
``ledger.proofs.checkpoint_store``,
``ledger.wire.events``, ``ledger.wire.keys``, ``ledger.proofs.merkle``, ``ledger.core.state``,
``ledger.errors``,
``ledger.proofs.witness_fold``.
"""

from __future__ import annotations

import base64
import os
from collections.abc import Sequence
from pathlib import Path

import msgspec

from ledger.core.state import TournamentState
from ledger.errors import RuleError, StorageError, UsageError
from ledger.proofs.checkpoint import (
    Checkpoint,
    split_note,
    verify_consistency_between,
)
from ledger.proofs.checkpoint_store import fsync_directory, trusted_checkpoint
from ledger.proofs.cosign import (  # noqa: F401  (the pure checks, re-exported for callers)
    COSIGN_PREFIX,
    SIG_TYPE_COSIGNATURE,
    Cosignature,
    Witness,
    cosign_key_hash,
    cosignature_line,
    cosignatures,
    cosigned_message,
    decode_public_key,
    signature_line,
    witness_key_name,
    witnesses_of,
)
from ledger.proofs.merkle import ProofError, consistency_proof, root_from_hashes
from ledger.proofs.witness_fold import WitnessRefusal
from ledger.wire.events import Role
from ledger.wire.keys import Signer

# -- the witness's own state ----------------------------------------------------------------


class _Entry(msgspec.Struct, frozen=True):
    size: int
    root: str  # base64
    timestamp: int


class WitnessState(msgspec.Struct):
    key_id: str
    logs: dict[str, _Entry] = {}

    def last(self, origin: str) -> Checkpoint | None:
        e = self.logs.get(origin)
        return None if e is None else Checkpoint(origin, e.size, base64.b64decode(e.root))


def load_state(path: Path, key_id: str) -> WitnessState:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return WitnessState(key_id=key_id)
    except OSError as exc:
        raise StorageError(f"cannot read witness state {path}: {exc.strerror}") from None
    try:
        st = msgspec.json.decode(data, type=WitnessState)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise StorageError(f"witness state {path} is damaged: {exc}",
                           hint="restore it from a copy; never start it afresh silently"
                           ) from None
    if st.key_id != key_id:
        raise UsageError(f"witness state {path} belongs to key {st.key_id}, not {key_id}",
                         hint="pass the --state file of this witness key")
    return st


def atomic_write(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
        fsync_directory(path.parent)
    except OSError as exc:
        raise StorageError(f"cannot write {path}: {exc.strerror}",
                           hint="write elsewhere with --out / --state") from None


def save_state(path: Path, st: WitnessState) -> None:
    atomic_write(path, msgspec.json.encode(st) + b"\n")


# -- the decision ---------------------------------------------------------------------------


def cosign(note: bytes, *, state: TournamentState, leaf_hashes: Sequence[bytes],
           signer: Signer, wstate: WitnessState, timestamp: int) -> tuple[bytes, Checkpoint]:
    """Check ``note`` against the witness's last checkpoint and the log, and return the
    note with this witness's cosignature added (and ``wstate`` updated in memory).

    Refuses (``WitnessRefusal``, exit 4) a note that is smaller than the last cosigned one
    (C2SP 409), of the same size with another root, or whose consistency proof from the
    last one does not verify (C2SP 422); a key that is not a witness of the log is a rule
    refusal (exit 3)."""
    cp = trusted_checkpoint(state, note)
    off = state.officials.get(signer.key_id)
    if off is None or Role.WITNESS not in off.roles or off.revoked_seq is not None:
        raise RuleError("WITNESS-1", f"key {signer.key_id} is not an active witness of "
                        f"{state.log}", hint="the organizer adds it with 'tourney official "
                        "add --role witness'", finding="unknown_key")
    if cp.size > len(leaf_hashes):
        raise WitnessRefusal(f"the note covers {cp.size} events but the log has "
                             f"{len(leaf_hashes)}", hint="cosign against the full log")
    if root_from_hashes(leaf_hashes[:cp.size]) != cp.root:
        raise WitnessRefusal(f"the note's root for size {cp.size} is not the log's root",
                             hint="the head judge signed another history; do not cosign")
    last = wstate.last(cp.origin)
    if last is not None:
        if cp.size < last.size:
            raise WitnessRefusal(f"the note has size {cp.size}, older than size "
                                 f"{last.size} this witness already cosigned (C2SP 409)",
                                 hint="cosign only newer checkpoints")
        if cp.size == last.size and cp.root != last.root:
            raise WitnessRefusal(f"the note has size {cp.size} with another root than the "
                                 "one this witness cosigned: the log forked",
                                 hint="publish both notes; this is equivocation")
        if cp.size > last.size:
            proof = consistency_proof(leaf_hashes, last.size, cp.size)
            try:
                verify_consistency_between(last, cp, proof)
            except ProofError as exc:
                raise WitnessRefusal(f"the note is not consistent with size {last.size} "
                                     f"this witness cosigned: {exc.message} (C2SP 422)",
                                     hint="the history was rewritten; do not cosign"
                                     ) from None
    text, sigs = split_note(note)
    name = witness_key_name(signer.key_id)
    kept = [s for s in sigs if s.name != name]
    block = b"".join(signature_line(s) for s in kept)
    out = text + b"\n" + block + cosignature_line(text, signer, timestamp)
    wstate.logs[cp.origin] = _Entry(size=cp.size, root=base64.b64encode(cp.root).decode(),
                                    timestamp=timestamp)
    return out, cp

