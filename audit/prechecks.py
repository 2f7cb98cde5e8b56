"""The stateless pass: the signature workers clear leaves for the fold ahead of it
(issue 22 item 9, ADR 0020, docs/AUDIT.md §6).

Owns: ``Prechecks`` — shared memory the forked workers of ``audit.sigpool`` fill before
they verify signatures, block by block (``BLOCK`` leaves), in order: per leaf a status
byte and its two hashes (the chain's SHA-256 of the leaf and the Merkle leaf hash), per
block a state byte.  A leaf is ``CLEAR`` when ``audit.leafcheck.leaf_findings`` finds
nothing (bytes, canonical form, log, seq, chain link, genesis, text) and, when its actor
has a key, the presumed signature job of ``audit.sigpool`` reads the same actor and
signature — so the fold decodes it without checking its form again
(``ledger.wire.events.decode_checked``) and counts the presumed verdict.  Anything else is
``FLAGGED``: the fold runs the same checks itself and writes the findings.

The fold asks for a block once, when it reaches it (``take``): a block the workers have
finished is used; a block not finished yet is taken by the fold (a worker then skips it)
and checked there.  The block state is read and written under the pool's lock, whose
acquire and release order the workers' writes before the fold's reads.  Never a verdict
of the fold's own: a worker can only spare the fold work, not decide what it reports.

May import: ``multiprocessing``, ``ledger.wire.events``, ``ledger.proofs.merkle``,
``audit.leafcheck``, ``audit.leaf_shape`` (the presumed-job reading).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from audit.leaf_shape import reads_as
from audit.leafcheck import leaf_findings
from ledger.proofs.merkle import leaf_hash
from ledger.wire.events import ZERO_HASH

BLOCK = 64
#: leaf status
PENDING, CLEAR, FLAGGED = 0, 1, 2
#: block state
_OPEN, _CLAIMED, _DONE, _TAKEN = 0, 1, 2, 3


class Prechecks:
    """Per-leaf verdicts of the stateless checks, filled by forked workers."""

    def __init__(self, ctx: Any, lock: Any, leaves: Sequence[tuple[int, bytes]],
                 log: str | None, keys: dict[str, bytes]) -> None:
        self.leaves, self.log, self.keys, self.lock = leaves, log, keys, lock
        self.block = block = BLOCK
        n = len(leaves)
        self.status: Any = ctx.RawArray("b", n)
        self.hashes: Any = ctx.RawArray("c", 64 * n)
        self.blocks: Any = ctx.RawArray("b", (n + block - 1) // block)
        self.next: Any = ctx.RawValue("q", 0)

    # -- the workers -----------------------------------------------------------------------
    def work(self) -> None:
        """Claim open blocks in order until none is left (a forked worker)."""
        while True:
            with self.lock:
                b = self.next.value
                while b < len(self.blocks) and self.blocks[b] != _OPEN:
                    b += 1  # the fold took it
                if b >= len(self.blocks):
                    self.next.value = b
                    return
                self.blocks[b] = _CLAIMED
                self.next.value = b + 1
            self._check(b)
            with self.lock:  # publishes the block's bytes to whoever reads its state
                self.blocks[b] = _DONE

    def _check(self, b: int) -> None:
        first = b * self.block
        prev = ZERO_HASH if first == 0 else \
            hashlib.sha256(self.leaves[first - 1][1]).hexdigest()
        for k in range(first, min(first + self.block, len(self.leaves))):
            version, leaf = self.leaves[k]
            digest = hashlib.sha256(leaf).digest()
            found: list[Any] = []
            parsed = leaf_findings(k + 1, version, leaf, self.log, prev, found)
            clear = parsed is not None and not found and (
                parsed.event.actor not in self.keys
                or reads_as(leaf, parsed.event.actor, parsed.event.sig))
            self.hashes[64 * k:64 * k + 64] = digest + leaf_hash(leaf)
            self.status[k] = CLEAR if clear else FLAGGED
            prev = digest.hex()

    def finished(self) -> bool:
        """Whether every block is checked or taken (benchmarks wait for it)."""
        with self.lock:
            return all(state in (_DONE, _TAKEN) for state in self.blocks)

    def stop(self) -> None:
        """No more blocks for the workers (the caller holds the lock)."""
        self.next.value = len(self.blocks)

    # -- the fold --------------------------------------------------------------------------
    def take(self, b: int) -> bool:
        """Whether block ``b`` was checked by a worker (then ``clear`` and ``hashes`` may
        be read for its leaves); otherwise the fold takes it and checks it itself."""
        with self.lock:
            if self.blocks[b] == _DONE:
                return True
            if self.blocks[b] == _OPEN:
                self.blocks[b] = _TAKEN
            return False

    def clear(self, k: int) -> bool:
        """Leaf ``k`` (from 0) of a block ``take`` returned True for passed every check."""
        return bool(self.status[k] == CLEAR)

    def chain_and_leaf_hash(self, k: int) -> tuple[bytes, bytes]:
        """(SHA-256 of the leaf, its Merkle leaf hash) of a cleared leaf ``k``."""
        both = self.hashes[64 * k:64 * k + 64]
        return both[:32], both[32:]
