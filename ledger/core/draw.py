"""DRAW-v1: the one random-decision algorithm of tourney (docs/DESIGN.md §6, normative).

Owns: seed derivation for ``entered`` material, ``draw_v1`` (SHA-256 counter stream driving
a Fisher–Yates shuffle of the items pre-ordered by player number, LEDGER-RAND-1/2,
AMB-H13) and ``select_k`` (shuffle, take the first k).  Pure functions; never ``random``.

May import: ``hashlib`` and ``struct`` only.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Iterable

ALGORITHM = "DRAW-v1"
_SEED_DOMAIN = b"tourney-seed/v1\x00"
_DRAW_DOMAIN = b"tourney-draw/v1\x00"
_TWO64 = 1 << 64
_U64 = struct.Struct(">Q")


def seed_from_material(material: str) -> bytes:
    """Seed of an ``entered`` provenance: SHA-256(b"tourney-seed/v1\\0" + utf8(material))."""
    return hashlib.sha256(_SEED_DOMAIN + material.encode("utf-8")).digest()


class _Stream:
    """u64(c) = first 8 bytes of SHA-256(key + u64be(c)), c = 0, 1, 2, … (one per call)."""

    def __init__(self, seed: bytes, ctx: str) -> None:
        if len(seed) != 32:
            raise ValueError("DRAW-v1 seed must be 32 bytes")
        c = ctx.encode("utf-8")
        self._key = hashlib.sha256(_DRAW_DOMAIN + len(c).to_bytes(4, "big") + c + seed).digest()
        #: SHA-256 that has absorbed the key: each block copies it and adds the counter
        self._keyed = hashlib.sha256(self._key)
        self._counter = 0

    def u64(self) -> int:
        h = self._keyed.copy()
        h.update(_U64.pack(self._counter))
        self._counter += 1
        return int(_U64.unpack_from(h.digest())[0])

    def below(self, n: int) -> int:
        limit = _TWO64 - (_TWO64 % n)
        while True:
            x = self.u64()
            if x < limit:
                return x % n


def draw_v1(seed: bytes, ctx: str, items: Iterable[int]) -> list[int]:
    """DRAW-v1(seed, ctx, items): a permutation of ``sorted(items)``."""
    a = sorted(items)
    keyed = _Stream(seed, ctx)._keyed
    pack, unpack = _U64.pack, _U64.unpack_from
    counter = 0
    for i in range(len(a) - 1, 0, -1):   # _Stream.below(i + 1), inlined: one per item
        n = i + 1
        limit = _TWO64 - (_TWO64 % n)
        while True:
            h = keyed.copy()
            h.update(pack(counter))
            counter += 1
            x = unpack(h.digest())[0]
            if x < limit:
                break
        j = x % n
        a[i], a[j] = a[j], a[i]
    return a


def select_k(seed: bytes, ctx: str, items: Iterable[int], k: int) -> list[int]:
    """Select k of n: shuffle with DRAW-v1 and take the first k (docs/DESIGN.md §6)."""
    return draw_v1(seed, ctx, items)[:k]


def stream_below(seed: bytes, ctx: str, n: int) -> int:
    """One uniform integer in [0, n) from the DRAW-v1 stream of (seed, ctx).

    For simulations only (e.g. a simulated match outcome); rule decisions use ``draw_v1``
    through a recorded ``draw_made`` event.
    """
    return _Stream(seed, ctx).below(n)
