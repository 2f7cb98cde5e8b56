"""Binding a key made in an official's browser (issue 29 item 2): the organizer adds
it as that official with the existing ``official_added`` event (docs/adr/0046): a browser
key is an official's key like any other, so the audit, the roles table and the
PostgreSQL roles guard need nothing new, and no wire bytes change.

Owns: ``browser_public_key`` (the public key as the console shows it: standard base64 of
the 32 raw bytes, refused in one line otherwise) and ``bind_official`` (the decision,
through ``Tournament.add_official``: who may add whom is the ledger's rule, RULES-1.3).

May import: ``ledger.*``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ledger.errors import UsageError
from ledger.wire.keys import PublicKey, b64_exact

if TYPE_CHECKING:
    from ledger.core.aggregate import Tournament
    from ledger.wire.events import Role, SignedEvent
    from ledger.wire.keys import Signer


def browser_public_key(text: str, name: str) -> PublicKey:
    """The console's public key (base64 of 32 raw Ed25519 bytes) named ``name``."""
    raw = b64_exact(text.strip(), 32)
    if raw is None:
        raise UsageError(f"{text.strip()[:60]!r} is not an Ed25519 public key (standard "
                         "base64 of 32 bytes)",
                         hint="copy the public key the official's console shows; nothing "
                              "was written")
    if not name.strip():
        raise UsageError("the official's name is empty", hint="pass --name NAME")
    return PublicKey(raw, name.strip())


def bind_official(t: Tournament, public_key: str, role: Role, name: str, signer: Signer,
                  time: str) -> SignedEvent:
    """``official_added`` for the browser's key, signed by ``signer`` (the head judge)."""
    pub = browser_public_key(public_key, name)
    return t.add_official(pub, role, pub.name, signer, time)
