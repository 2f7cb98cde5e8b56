"""Checkpoints: C2SP ``tlog-checkpoint`` bodies in C2SP ``signed-note`` envelopes, Ed25519.

Owns: the ``Checkpoint`` body (origin, size, base64 root, extension lines), the note key
hash ``SHA-256(name || 0x0A || 0x01 || pub)[:4]``, signing and strict parsing of signed
notes, verification of a note against one trusted (name, public key), ``CheckpointError``,
and proof verification against a verified ``Checkpoint`` (docs/DESIGN.md §4: proofs verify
against a checkpoint object, never a bare (size, root)).

Verification checks the signature over the exact text bytes of the note before any field
of the body is decoded or trusted.  Following the signed-note spec, signature lines of
other keys are ignored, but every line of the trusted key must verify.

May import: ``cryptography``, ``ledger.errors``, ``ledger.wire.keys``, ``ledger.proofs.merkle``.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ledger.errors import UsageError, VerificationError
from ledger.proofs.merkle import HASH_SIZE, ProofError, _verify_consistency, _verify_inclusion
from ledger.wire.keys import public_raw, verify_signature

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

SIG_TYPE_ED25519 = 0x01
SIG_PREFIX = "\u2014 "  # EM DASH, space
MAX_SIGNATURES = 100  # the spec requires accepting at least 16
MAX_SIZE = 2**64 - 1
_SIZE = re.compile(r"(0|[1-9][0-9]{0,19})\Z")


class CheckpointError(VerificationError):
    """A signed note or checkpoint is malformed or does not verify (exit 4)."""

    code = "bad_checkpoint"


def _has_control(text: str) -> bool:
    """True if ``text`` holds an ASCII control character other than newline."""
    return any(ch < " " and ch != "\n" for ch in text)


def _valid_key_name(name: str) -> bool:
    """Signed-note key names: non-empty, no Unicode spaces, no '+', no control chars."""
    return bool(name) and "+" not in name and not _has_control(name) and not any(
        ch.isspace() for ch in name)


def _b64decode_canonical(text: str) -> bytes | None:
    """Standard base64 with padding, accepted only in its canonical form."""
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        return None
    return raw if base64.b64encode(raw).decode("ascii") == text else None


@dataclass(frozen=True)
class Checkpoint:
    """A tree head: log ``origin``, tree ``size`` and RFC 6962 ``root`` (32 bytes)."""

    origin: str
    size: int
    root: bytes
    extensions: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.origin or "\n" in self.origin or _has_control(self.origin):
            raise UsageError(f"checkpoint origin {self.origin!r} must be one non-empty line "
                             "without control characters")
        if isinstance(self.size, bool) or not isinstance(self.size, int) \
                or not 0 <= self.size <= MAX_SIZE:
            raise UsageError(f"checkpoint size {self.size!r} must be an integer in "
                             f"0..{MAX_SIZE}")
        if not isinstance(self.root, bytes) or len(self.root) != HASH_SIZE:
            raise UsageError(f"checkpoint root must be {HASH_SIZE} bytes")
        for line in self.extensions:
            if not line or "\n" in line or _has_control(line):
                raise UsageError(f"checkpoint extension line {line!r} must be one non-empty "
                                 "line without control characters")

    def body(self) -> bytes:
        """The note text: ``origin\\nsize\\nbase64(root)\\n`` then any extension lines."""
        lines = [self.origin, str(self.size), base64.b64encode(self.root).decode("ascii"),
                 *self.extensions]
        return "".join(line + "\n" for line in lines).encode("utf-8")


@dataclass(frozen=True)
class NoteSignature:
    """One signature line: key ``name``, 4-byte ``key_hash`` and the raw ``signature``."""

    name: str
    key_hash: bytes
    signature: bytes


def note_key_hash(name: str, public_key_raw: bytes) -> bytes:
    """Signed-note key ID of an Ed25519 key: SHA-256(name || 0x0A || 0x01 || pub)[:4]."""
    if len(public_key_raw) != 32:
        raise UsageError(f"Ed25519 public key is {len(public_key_raw)} bytes, want 32")
    data = name.encode("utf-8") + b"\n" + bytes([SIG_TYPE_ED25519]) + public_key_raw
    return hashlib.sha256(data).digest()[:4]


def sign_note(text: bytes, key_name: str, private_key: Ed25519PrivateKey) -> bytes:
    """A signed note: ``text``, a blank line, one Ed25519 signature line over ``text``."""
    return sign_note_with(text, key_name, public_raw(private_key.public_key()),
                          private_key.sign)


def sign_note_with(text: bytes, key_name: str, public_key_raw: bytes,
                   sign: Callable[[bytes], bytes]) -> bytes:
    """``sign_note`` by a key that signs elsewhere (``sign``: a ``Signer``'s, perhaps the
    official's browser: ADR 0046); Ed25519 is deterministic, so the same bytes."""
    if not _valid_key_name(key_name):
        raise UsageError(f"key name {key_name!r} must be non-empty, without spaces or '+'")
    try:
        decoded = text.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError("note text is not valid UTF-8") from None
    if not decoded.endswith("\n") or _has_control(decoded):
        raise UsageError("note text must end in a newline and hold no control characters")
    key_hash = note_key_hash(key_name, public_key_raw)
    blob = base64.b64encode(key_hash + sign(text)).decode("ascii")
    return text + b"\n" + f"{SIG_PREFIX}{key_name} {blob}\n".encode("utf-8")


def split_note(note: bytes) -> tuple[bytes, list[NoteSignature]]:
    """Split a signed note into its text bytes and signature lines, checking syntax only."""
    try:
        decoded = note.decode("utf-8")
    except UnicodeDecodeError:
        raise CheckpointError("signed note is not valid UTF-8") from None
    if _has_control(decoded):
        raise CheckpointError("signed note holds an ASCII control character")
    split = note.rfind(b"\n\n")
    if split < 0:
        raise CheckpointError("signed note has no blank line before its signatures")
    text, block = note[:split + 1], note[split + 2:]
    if not block.endswith(b"\n"):
        raise CheckpointError("signed note does not end with a signature line and newline")
    lines = block.decode("utf-8").split("\n")[:-1]
    if len(lines) > MAX_SIGNATURES:
        raise CheckpointError(f"signed note has {len(lines)} signatures, more than "
                              f"{MAX_SIGNATURES}")
    return text, [_parse_signature_line(line) for line in lines]


def _parse_signature_line(line: str) -> NoteSignature:
    if not line.startswith(SIG_PREFIX):
        raise CheckpointError(f"signature line {line[:40]!r} does not start with an em dash "
                              "and a space")
    name, _, blob = line[len(SIG_PREFIX):].partition(" ")
    if not _valid_key_name(name):
        raise CheckpointError(f"signature line has a malformed key name {name!r}")
    raw = _b64decode_canonical(blob)
    if raw is None or len(raw) < 5:
        raise CheckpointError(f"signature of key {name!r} is not canonical base64 of a key "
                              "hash and a signature")
    return NoteSignature(name, raw[:4], raw[4:])


def verify_note(note: bytes, key_name: str, public_key_raw: bytes) -> bytes:
    """Return the note text once a signature of (``key_name``, ``public_key_raw``) verifies.

    Raises ``CheckpointError`` if the note is malformed, carries no line of that key, or
    any line of that key fails (lines of other keys are ignored).
    """
    key_hash = note_key_hash(key_name, public_key_raw)
    text, signatures = split_note(note)
    mine = [s for s in signatures if s.name == key_name and s.key_hash == key_hash]
    label = f"{key_name}+{key_hash.hex()}"
    if not mine:
        raise CheckpointError(f"signed note carries no signature of key {label}")
    for signature in mine:
        if not verify_signature(public_key_raw, signature.signature, text):
            raise CheckpointError(f"invalid signature of key {label} on the note")
    return text


def parse_checkpoint_body(text: bytes) -> Checkpoint:
    """Strictly parse a ``tlog-checkpoint`` note text (without checking any signature)."""
    try:
        decoded = text.decode("utf-8")
    except UnicodeDecodeError:
        raise CheckpointError("checkpoint is not valid UTF-8") from None
    if not decoded.endswith("\n") or _has_control(decoded):
        raise CheckpointError("checkpoint text must end in a newline and hold no control "
                              "characters")
    lines = decoded[:-1].split("\n")
    if len(lines) < 3 or not all(lines):
        raise CheckpointError("checkpoint needs at least three lines (origin, size, root) "
                              "and no empty line")
    origin, size_text, root_text, *extensions = lines
    if not _SIZE.match(size_text) or int(size_text) > MAX_SIZE:
        raise CheckpointError(f"checkpoint size {size_text!r} is not a decimal without "
                              "leading zeros")
    root = _b64decode_canonical(root_text)
    if root is None or len(root) != HASH_SIZE:
        raise CheckpointError(f"checkpoint root {root_text!r} is not base64 of "
                              f"{HASH_SIZE} bytes")
    return Checkpoint(origin, int(size_text), root, tuple(extensions))


def sign_checkpoint(cp: Checkpoint, key_name: str, private_key: Ed25519PrivateKey) -> bytes:
    """The full signed note of ``cp``: body, blank line, ``— <name> <base64>`` line."""
    return sign_note(cp.body(), key_name, private_key)


def parse_checkpoint_note(note: bytes) -> tuple[Checkpoint, list[NoteSignature]]:
    """Parse a checkpoint note strictly, WITHOUT verifying it: for display and triage."""
    text, signatures = split_note(note)
    return parse_checkpoint_body(text), signatures


def verify_checkpoint_note(note: bytes, key_name: str, public_key_raw: bytes, *,
                           expected_origin: str | None = None) -> Checkpoint:
    """The checkpoint of ``note`` once its signature by the trusted key verifies.

    With ``expected_origin`` (docs/DESIGN.md §5: the key name is the origin), a checkpoint of
    another log is refused too.
    """
    checkpoint = parse_checkpoint_body(verify_note(note, key_name, public_key_raw))
    if expected_origin is not None and checkpoint.origin != expected_origin:
        raise CheckpointError(f"checkpoint origin {checkpoint.origin!r} is not "
                              f"{expected_origin!r}")
    return checkpoint


def checkpoint_note_ok(note: bytes, key_name: str, public_key_raw: bytes, *,
                       expected_origin: str | None = None) -> bool:
    """``verify_checkpoint_note`` that reports instead of raising."""
    try:
        verify_checkpoint_note(note, key_name, public_key_raw,
                               expected_origin=expected_origin)
    except CheckpointError:
        return False
    return True


def _require_checkpoint(cp: object, what: str) -> Checkpoint:
    if not isinstance(cp, Checkpoint):
        raise UsageError(f"{what} must be a Checkpoint (a verified signed note), not "
                         f"{type(cp).__name__}: proofs never verify against a bare size "
                         "and root")
    return cp


def verify_inclusion_at(cp: Checkpoint, leaf_hash: bytes, index: int,
                        proof: Sequence[bytes]) -> None:
    """Raise ``ProofError`` unless leaf ``index`` of the tree of ``cp`` has ``leaf_hash``."""
    cp = _require_checkpoint(cp, "the checkpoint")
    _verify_inclusion(leaf_hash, index, cp.size, proof, cp.root)


def verify_consistency_between(old: Checkpoint, new: Checkpoint,
                               proof: Sequence[bytes]) -> None:
    """Raise ``ProofError`` unless ``old`` is a prefix of ``new`` (same origin)."""
    old = _require_checkpoint(old, "the old checkpoint")
    new = _require_checkpoint(new, "the new checkpoint")
    if old.origin != new.origin:
        raise CheckpointError(f"checkpoints of different logs: {old.origin!r} and "
                              f"{new.origin!r}")
    _verify_consistency(old.size, new.size, old.root, new.root, proof)


def inclusion_ok_at(cp: Checkpoint, leaf_hash: bytes, index: int,
                    proof: Sequence[bytes]) -> bool:
    """``verify_inclusion_at`` that reports instead of raising."""
    try:
        verify_inclusion_at(cp, leaf_hash, index, proof)
    except ProofError:
        return False
    return True


def consistency_ok_between(old: Checkpoint, new: Checkpoint, proof: Sequence[bytes]) -> bool:
    """``verify_consistency_between`` that reports instead of raising."""
    try:
        verify_consistency_between(old, new, proof)
    except (ProofError, CheckpointError):
        return False
    return True
