"""Appeal proof files (issue 8 item 8): one event, provable without the ledger.

Owns: ``build_proof_file`` (the event's leaf and its RFC 6962 inclusion proof in a signed
checkpoint, plus the key events that make it checkable: the genesis, the checkpoint
signer's and the event signer's ``official_added``, each with its own inclusion proof) and
``verify_proof_file`` (every check without the ledger: inclusion of each leaf in the
checkpoint, the checkpoint's signature by a head-judge key declared in those key events,
the key events' own signatures, and the event's signature).  When the genesis policy asks
for witnesses (``witness_quorum``), the checkpoint carries their cosignatures (those stored
in the ledger are merged in) and the file their ``official_added`` events; a file without
them fails (issue 21 item 6).  Trust anchor: the genesis (its leaf hash is printed);
revocations later than the key events cannot be seen without the log.
docs/verify_proof.py re-implements the same checks in ~50 lines.

May import: ``msgspec``, ``ledger.*`` (checkpoint, checkpoint_store, events, keys, merkle,
store, errors).
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from typing import Any

import msgspec

from ledger.errors import VerificationError
from ledger.proofs.checkpoint import (
    CheckpointError,
    parse_checkpoint_note,
    split_note,
    verify_checkpoint_note,
    verify_inclusion_at,
)
from ledger.proofs.merkle import inclusion_proof, leaf_hash
from ledger.wire.canonical import NonCanonicalError
from ledger.wire.events import SIG_DOMAIN, OfficialAdded, Role, TournamentCreated, parse_leaf
from ledger.wire.keys import verify_signature

VERSION = "tourney-proof/v1"
_FIELDS = {"version", "tournament", "checkpoint", "event", "keys"}
_HEX64 = re.compile(r"^[0-9a-f]{64}$")


class ProofFileError(VerificationError):
    code = "proof_invalid"


def _entry(hashes: list[bytes], leaves: list[bytes], seq: int) -> dict[str, Any]:
    return {"seq": seq, "leaf": base64.b64encode(leaves[seq - 1]).decode("ascii"),
            "proof": [h.hex() for h in inclusion_proof(hashes, seq - 1)]}


def build_proof_file(ledger: Any, log: str, seq: int, note: bytes) -> dict[str, Any]:
    """The proof file of event ``seq`` against the checkpoint ``note`` (verified first)."""
    from ledger.errors import UsageError
    from ledger.proofs.checkpoint_store import trusted_checkpoint

    state = ledger.load(log).state
    cp = trusted_checkpoint(state, note)
    note = _with_stored_cosignatures(ledger, log, cp.size, note)
    if not 1 <= seq <= cp.size:
        raise UsageError(f"seq {seq} is not covered by the checkpoint of size {cp.size}",
                         hint="pick a later checkpoint (tourney checkpoint) or an earlier seq")
    leaves = [leaf for _v, leaf in ledger.raw_leaves(log)][:cp.size]
    hashes = [leaf_hash(x) for x in leaves]
    actor = parse_leaf(leaves[seq - 1]).event.actor
    signer_ids = {kid for kid, off in state.officials.items() if Role.HEAD_JUDGE in off.roles}
    key_seqs = {1}
    cosigners = _cosigners(state, note)  # issue 21 item 6: the witnesses' key events too
    quorum = state.ledger_policy.witness_quorum
    if len(cosigners) < quorum:
        raise VerificationError(
            f"the checkpoint of size {cp.size} carries {len(cosigners)} of the {quorum} "
            "witness cosignature(s) the genesis policy requires",
            hint="have the witnesses cosign it ('tourney witness cosign', 'tourney witness "
                 "attach'), or pass --checkpoint NOTE of a cosigned one")
    for off in state.officials.values():
        if off.added_seq <= cp.size and (off.key_id == actor or off.key_id in signer_ids
                                         or off.key_id in cosigners):
            key_seqs.add(off.added_seq)
    doc = {"version": VERSION, "tournament": log, "checkpoint": note.decode("utf-8"),
           "event": _entry(hashes, leaves, seq),
           "keys": [_entry(hashes, leaves, s) for s in sorted(key_seqs)]}
    verify_proof_file(msgspec.json.encode(doc))
    return doc


def _with_stored_cosignatures(ledger: Any, log: str, size: int, note: bytes) -> bytes:
    from ledger.storage.cosignature_table import CosignatureTable, with_cosignatures

    return with_cosignatures(note, CosignatureTable(ledger).lines(log).get(size, []))


def _cosigners(state: Any, note: bytes) -> set[str]:
    """Key ids of the log's witnesses whose cosignature on ``note`` verifies."""
    from ledger.proofs.cosign import cosignatures, witnesses_of

    text, sigs = split_note(note)
    return {co.key_id for co in cosignatures(text, sigs, witnesses_of(state)) if co.valid}


def _witness_quorum(genesis: TournamentCreated, note: bytes,
                    witness_keys: dict[str, bytes]) -> None:
    """The genesis witness policy (issue 21 item 6): the checkpoint carries valid
    cosignatures of at least ``witness_quorum`` witnesses declared in the file, so a
    checkpoint of an insider-rewritten history (which no witness cosigns) proves nothing."""
    from ledger.proofs.cosign import Witness, cosign_key_hash, cosignatures, witness_key_name

    quorum = genesis.policy.witness_quorum if genesis.policy is not None else 0
    if quorum == 0:
        return
    declared = {cosign_key_hash(witness_key_name(kid), pub):
                Witness(kid, witness_key_name(kid), pub, 0, None)
                for kid, pub in witness_keys.items()}
    text, sigs = split_note(note)
    have = {co.key_id for co in cosignatures(text, sigs, declared) if co.valid}
    if len(have) < quorum:
        raise _fail(f"the genesis policy asks for {quorum} witness cosignature(s) on the "
                    f"checkpoint; it carries {len(have)} by witnesses declared in the file")


@dataclass(frozen=True)
class ProofResult:
    tournament: str
    seq: int
    kind: str
    actor: str
    body: Any
    checkpoint_size: int
    root: str
    genesis_leaf_hash: str


def _fail(message: str) -> ProofFileError:
    return ProofFileError(message, hint="the proof file was altered or does not belong "
                                        "to this tournament")


def verify_proof_file(data: bytes) -> ProofResult:
    """Check a proof file completely, without the ledger; raises ``ProofFileError``."""
    try:
        doc = msgspec.json.decode(data)
        if doc.get("version") != VERSION or set(doc) != _FIELDS:
            raise _fail(f"not a {VERSION} file")
        note = str(doc["checkpoint"]).encode("utf-8")
        cp, _sigs = parse_checkpoint_note(note)
        entries = [doc["event"], *doc["keys"]]
        parsed = []
        for e in entries:
            leaf = base64.b64decode(e["leaf"], validate=True)
            if set(e) != {"seq", "leaf", "proof"} or \
                    base64.b64encode(leaf).decode() != e["leaf"] or \
                    not all(_HEX64.match(h) for h in e["proof"]):
                raise _fail(f"entry of seq {e.get('seq')} is not canonical")
            proof = [bytes.fromhex(h) for h in e["proof"]]
            verify_inclusion_at(cp, leaf_hash(leaf), int(e["seq"]) - 1, proof)
            p = parse_leaf(leaf)
            if p.noncanonical is not None or p.event.seq != int(e["seq"]):
                raise _fail(f"leaf of seq {e['seq']} is not canonical or not at its seq")
            if cp.origin != f"tourney/{p.event.log}":
                raise _fail(f"seq {e['seq']} belongs to log {p.event.log}, not {cp.origin}")
            parsed.append(p)
    except ProofFileError:
        raise
    except VerificationError as exc:  # CheckpointError, ProofError
        raise _fail(exc.message) from None
    except (msgspec.DecodeError, KeyError, TypeError, ValueError, binascii.Error,
            AttributeError, NonCanonicalError) as exc:
        raise _fail(f"malformed proof file: {exc}") from None
    keys: dict[str, tuple[bytes, bool]] = {}  # key id -> (public key, may sign checkpoints)
    genesis = next((p for p in parsed[1:] if p.event.seq == 1), None)
    if genesis is None or not isinstance(genesis.event.body, TournamentCreated):
        raise _fail("the proof file lacks the genesis event")
    organizer = genesis.event.body.head_judge
    keys[organizer.key_id] = (base64.b64decode(organizer.public_key), True)
    witness_keys: dict[str, bytes] = {}
    for p in parsed[1:]:
        if isinstance(p.event.body, OfficialAdded):
            b = p.event.body
            keys[b.key_id] = (base64.b64decode(b.public_key), b.role is Role.HEAD_JUDGE)
            if b.role is Role.WITNESS:
                witness_keys[b.key_id] = keys[b.key_id][0]
    for p in [*parsed[1:], parsed[0]]:
        ev = p.event
        signer = keys.get(ev.actor)
        if signer is None or not verify_signature(signer[0], ev.sig,
                                                  SIG_DOMAIN + p.signed_bytes):
            raise _fail(f"seq {ev.seq}: signature by {ev.actor} does not verify")
        if p is not parsed[0] and ev.seq != 1 and ev.actor != organizer.key_id:
            raise _fail(f"key event seq {ev.seq} is not signed by the organizer")
    for pub, may_sign in keys.values():
        if may_sign:
            try:
                verify_checkpoint_note(note, cp.origin, pub, expected_origin=cp.origin)
                break
            except CheckpointError:
                continue
    else:
        raise _fail("the checkpoint is not signed by a head judge declared in the file")
    _witness_quorum(genesis.event.body, note, witness_keys)
    ev = parsed[0].event
    if doc["tournament"] != ev.log:
        raise _fail(f"the file names tournament {doc['tournament']!r}, the event {ev.log!r}")
    return ProofResult(tournament=ev.log, seq=ev.seq, kind=ev.kind, actor=ev.actor,
                       body=msgspec.to_builtins(ev.body), checkpoint_size=cp.size,
                       root=cp.root.hex(), genesis_leaf_hash=genesis.event.leaf_hash_hex)
