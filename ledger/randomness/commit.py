"""Commit-reveal (docs/DESIGN.md §6, THREATS T15/T16): the commitment and the mixed material.

Owns: ``commitment`` (SHA-256(b"tourney-commit/v1\\0" + salt + secret)), ``reveal_material``
(the text whose seed mixes the reveal with the beacon) and ``SecretFile`` (what the head
judge keeps, private, between commit and reveal).

May import: ``hashlib``, ``msgspec``.
"""

from __future__ import annotations

import hashlib

import msgspec

COMMIT_DOMAIN = b"tourney-commit/v1\x00"
SALT_BYTES = 16
SECRET_BYTES = 32


def commitment(salt: bytes, secret: bytes) -> bytes:
    return hashlib.sha256(COMMIT_DOMAIN + salt + secret).digest()


def reveal_material(salt: bytes, secret: bytes, beacon_randomness: bytes) -> str:
    """``commit-reveal/v1:<salt hex>:<secret hex>:<beacon randomness hex>``; the seed is the
    usual SHA-256(b"tourney-seed/v1\\0" + material), so it depends on both halves."""
    return f"commit-reveal/v1:{salt.hex()}:{secret.hex()}:{beacon_randomness.hex()}"


class SecretFile(msgspec.Struct, frozen=True, kw_only=True):
    """The head judge's private half, written at commit time (file mode 0600)."""

    tournament: str
    commit_seq: int
    chain: str
    round: int
    salt: str
    secret: str
