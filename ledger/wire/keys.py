"""Ed25519 keys: files, key ids, signing and verification (docs/DESIGN.md §4–§5).

Owns: PKCS#8 PEM private-key files (optionally passphrase-protected, mode 0600),
public-key files (SubjectPublicKeyInfo PEM with ``# name:`` / ``# key_id:`` comment lines),
the key id ``hex(sha256(raw public key)[:8])``, ``Signer`` and ``verify_signature``.

May import: ``cryptography``, ``ledger.errors``.
"""

from __future__ import annotations

import base64
import hashlib
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from ledger.errors import UsageError, write_failure

if TYPE_CHECKING:  # imported where used: a read command never loads cryptography
    from cryptography.hazmat.primitives.asymmetric.ed25519 import (
        Ed25519PrivateKey,
        Ed25519PublicKey,
    )

PASSPHRASE_ENV = "TOURNEY_KEY_PASSPHRASE"
#: DER prefix of an unencrypted PKCS#8 Ed25519 private key (RFC 8410 §7): the 32-byte
#: seed follows.  Such files are read without the PEM/ASN.1 machinery of ``cryptography``
#: (a command's start-up is most of its latency); every other file goes through it.
_PKCS8_ED25519 = bytes.fromhex("302e020100300506032b657004220420")
_PEM_BEGIN, _PEM_END = b"-----BEGIN PRIVATE KEY-----", b"-----END PRIVATE KEY-----"


def key_id(public_key_raw: bytes) -> str:
    """Key id of docs/DESIGN.md §4: hex of the first 8 bytes of SHA-256(raw public key)."""
    return hashlib.sha256(public_key_raw).digest()[:8].hex()


def b64_exact(text: str, size: int) -> bytes | None:
    """``text`` as strict base64 of exactly ``size`` bytes (a public key: 32, a signature:
    64), else None."""
    import base64
    import binascii

    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        return None
    return raw if len(raw) == size else None


def public_raw(public_key: Ed25519PublicKey) -> bytes:
    return public_key.public_bytes_raw()


def verify_signature(public_key_raw: bytes, signature: bytes, message: bytes) -> bool:
    """True iff ``signature`` is a valid Ed25519 signature of ``message`` (RFC 8032)."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        Ed25519PublicKey.from_public_bytes(public_key_raw).verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    return True


@dataclass(frozen=True)
class Signer:
    """A private key ready to sign; ``name`` is display only.  A subclass may sign
    elsewhere (``usecases.prepared.BrowserSigner``: the official's browser holds the
    key): its ``signs_here`` is False and it has no ``private_key``."""

    private_key: Ed25519PrivateKey
    name: str = ""
    #: whether the private key is on this machine (a checkpoint note needs it)
    signs_here: ClassVar[bool] = True

    # computed once per signer (a write asks for the key id several times per event)
    @cached_property
    def public_key_raw(self) -> bytes:
        return public_raw(self.private_key.public_key())

    @property
    def public_key_b64(self) -> str:
        return base64.b64encode(self.public_key_raw).decode()

    @cached_property
    def key_id(self) -> str:
        return key_id(self.public_key_raw)

    def sign(self, message: bytes) -> bytes:
        return self.private_key.sign(message)

    @classmethod
    def from_seed(cls, seed: bytes, name: str = "") -> Signer:
        """Deterministic key from 32 bytes: for fixed test keys and golden files only."""
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        return cls(Ed25519PrivateKey.from_private_bytes(seed), name)


@dataclass(frozen=True)
class PublicKey:
    raw: bytes
    name: str = ""

    @property
    def key_id(self) -> str:
        return key_id(self.raw)

    @property
    def b64(self) -> str:
        return base64.b64encode(self.raw).decode()


def _comment(name: str, kid: str) -> bytes:
    safe = name.replace("\n", " ").replace("\r", " ")
    return f"# tourney key\n# name: {safe}\n# key_id: {kid}\n".encode()


def _name_from(text: bytes) -> str:
    for line in text.decode("utf-8", "replace").splitlines():
        if line.startswith("# name: "):
            return line[len("# name: "):]
    return ""


def write_new_key(out: Path, name: str, passphrase: bytes | None) -> Signer:
    """Create a key pair: ``out`` (private, 0600, never printed) and ``out.pub``."""
    pub_path = out.with_name(out.name + ".pub")
    for path in (out, pub_path):
        if path.exists():
            raise UsageError(f"{path} already exists",
                             hint="choose another --out; keys are never overwritten")
    if not out.parent.is_dir():
        raise UsageError(f"directory {out.parent} does not exist", hint="create it first")
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    signer = Signer(Ed25519PrivateKey.generate(), name)
    write_key(out, signer, passphrase)
    return signer


#: the first line of a demo key file (``tourney simulate``; issue 17, defect 22)
DEMO_MARK = b"# DEMO KEY of a simulated event: NOT for real events\n"


def write_key(out: Path, signer: Signer, passphrase: bytes | None, *,
              demo: bool = False) -> None:
    """Write ``signer`` as ``out`` (private PKCS#8 PEM, 0600) and ``out.pub``.  A new file
    is created exclusively; with ``demo`` the files carry ``DEMO_MARK`` and replace only
    an earlier demo key file (a real key is never overwritten)."""
    from cryptography.hazmat.primitives import serialization

    enc: serialization.KeySerializationEncryption = (
        serialization.BestAvailableEncryption(passphrase) if passphrase
        else serialization.NoEncryption())
    head = (DEMO_MARK if demo else b"") + _comment(signer.name, signer.key_id)
    pem = signer.private_key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, enc)
    spki = signer.private_key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    pub_path = out.with_name(out.name + ".pub")
    if demo:
        for path in (out, pub_path):
            if path.exists() and not path.read_bytes().startswith(DEMO_MARK):
                raise UsageError(f"{path} exists and is not a demo key",
                                 hint="move it away; keys are never overwritten")
            path.unlink(missing_ok=True)
    made: list[Path] = []
    try:
        fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        made.append(out)
        with os.fdopen(fd, "wb") as fh:
            fh.write(head + pem)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(out, 0o600)
        fd = os.open(pub_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        made.append(pub_path)
        with os.fdopen(fd, "wb") as fh:
            fh.write(head + spki)
            fh.flush()
            os.fsync(fh.fileno())
    except OSError as exc:   # a full disk (exit 5) keeps no empty or partial key file
        for path in made:
            path.unlink(missing_ok=True)
        raise write_failure(exc, f"cannot write key file {made[-1] if made else out}",
                            hint="free disk space or write elsewhere; no key file was "
                                 "kept") from None


def _plain_pkcs8_seed(data: bytes) -> bytes | None:
    """The seed of an unencrypted PKCS#8 PEM Ed25519 key, or None for anything else."""
    start, end = data.find(_PEM_BEGIN), data.find(_PEM_END)
    if start < 0 or end < start or data.count(b"-----BEGIN") != 1:
        return None
    body = b"".join(data[start + len(_PEM_BEGIN):end].split())
    try:
        der = base64.b64decode(body, validate=True)
    except ValueError:
        return None
    if len(der) != 48 or not der.startswith(_PKCS8_ED25519):
        return None
    return der[len(_PKCS8_ED25519):]


def _terminal_passphrase(path: Path) -> bytes | None:
    """Ask for a key's passphrase when stdin and stderr are a terminal (else None)."""
    if not (sys.stdin.isatty() and sys.stderr.isatty()):
        return None
    import getpass

    try:
        text = getpass.getpass(f"Passphrase for {path}: ", stream=sys.stderr)
    except EOFError:
        return None
    return text.encode() if text else None


#: How a command asks for a passphrase when none was given (replaced in tests).
ask_passphrase: Callable[[Path], bytes | None] = _terminal_passphrase


def load_signer(path: Path, passphrase: bytes | None = None) -> Signer:
    """Load a private key file; the passphrase comes from the argument, the env var, or
    (encrypted key, on a terminal) a prompt."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise UsageError(f"key file {path} not found",
                         hint="pass --key FILE or set TOURNEY_KEY; create one with "
                              "'tourney keys new'") from None
    except IsADirectoryError:
        raise UsageError(f"key file {path} is a directory",
                         hint="pass the private key FILE written by 'tourney keys new'") \
            from None
    except OSError as exc:
        raise UsageError(f"cannot read key file {path}: {exc.strerror}") from None
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    seed = _plain_pkcs8_seed(data)
    if seed is not None:
        return Signer(Ed25519PrivateKey.from_private_bytes(seed), _name_from(data))
    from cryptography.hazmat.primitives import serialization

    if passphrase is None and os.environ.get(PASSPHRASE_ENV):
        passphrase = os.environ[PASSPHRASE_ENV].encode()
    if passphrase is None and b"ENCRYPTED PRIVATE KEY" in data:
        passphrase = ask_passphrase(path)
    try:
        key = serialization.load_pem_private_key(data, passphrase)
    except TypeError:
        raise UsageError(f"key file {path} is encrypted",
                         hint=f"run the command on a terminal to be asked for its "
                              f"passphrase, or set {PASSPHRASE_ENV}") from None
    except ValueError:
        raise UsageError(f"key file {path} is not a readable PKCS#8 PEM private key "
                         "or the passphrase is wrong",
                         hint=f"check the file and {PASSPHRASE_ENV}") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise UsageError(f"key file {path} is not an Ed25519 key",
                         hint="create one with 'tourney keys new'")
    return Signer(key, _name_from(data))


def load_public_key(path: Path) -> PublicKey:
    """Load a public key file (SPKI PEM, as written by ``keys new``) or a private key."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise UsageError(f"public key file {path} not found",
                         hint="pass the FILE.pub written by 'tourney keys new'") from None
    except OSError as exc:
        raise UsageError(f"cannot read public key file {path}: {exc.strerror}") from None
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        key = serialization.load_pem_public_key(data)
    except ValueError:
        raise UsageError(f"{path} is not a PEM public key",
                         hint="pass the FILE.pub written by 'tourney keys new'") from None
    if not isinstance(key, Ed25519PublicKey):
        raise UsageError(f"{path} is not an Ed25519 public key")
    return PublicKey(public_raw(key), _name_from(data))
