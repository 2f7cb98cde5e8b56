"""Fixed Ed25519 keys standing for players' phones (a browser's key is not extractable),
and their signatures of a statement, for the phone-key rules' tests (REPORT-16..21).

May import: ``ledger.wire.keys``, ``cryptography``, the standard library.
"""

from __future__ import annotations

import base64
from typing import Any


def _key(seed: int) -> tuple[Any, str]:
    """A fixed Ed25519 key standing for one phone (the browser's is not extractable)."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from ledger.wire.keys import public_raw

    k = Ed25519PrivateKey.from_private_bytes(bytes([seed]) * 32)
    return k, base64.b64encode(public_raw(k.public_key())).decode()


def _b64(key: Any, msg: bytes) -> str:
    return base64.b64encode(key.sign(msg)).decode()
