"""The log's tree hashes (RFC 6962 / RFC 9162 §2.1.1, docs/DESIGN.md §4): the bytes every
checkpoint root is made of, below the state that keeps the log's frontier.

Owns: ``HASH_SIZE``, ``EMPTY_ROOT``, ``leaf_hash`` (SHA-256(0x00 || leaf)), ``node_hash``
(SHA-256(0x01 || left || right)), ``frontier_append`` and ``frontier_root`` (the roots of the
perfect subtrees of a tree, largest first).  ``ledger.core.state`` keeps the frontier with
them; ``ledger.proofs.merkle`` (proofs, the accumulator) builds on them and re-exports them
(docs/adr/0039-layering-layers-and-rule-ids.md: the state below the proofs).

May import: ``hashlib``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

HASH_SIZE = 32
EMPTY_ROOT: bytes = hashlib.sha256(b"").digest()

_sha256 = hashlib.sha256


def leaf_hash(leaf: bytes) -> bytes:
    """SHA-256(0x00 || leaf)."""
    return _sha256(b"\x00" + leaf).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """SHA-256(0x01 || left || right)."""
    return _sha256(b"\x01" + left + right).digest()


def frontier_append(stack: list[bytes], size: int, leaf_hash: bytes) -> None:
    """Append leaf number ``size + 1`` to a tree frontier in place: ``stack`` holds the
    roots of the perfect subtrees of a tree of ``size`` leaves, largest first (one per set
    bit of ``size``) — what a command keeps to sign a checkpoint without re-reading the
    log."""
    stack.append(leaf_hash)
    n = size + 1
    while n % 2 == 0 and len(stack) > 1:  # (a hostile log's seq gap must not raise)
        right = stack.pop()
        stack[-1] = node_hash(stack[-1], right)
        n //= 2


def frontier_root(stack: Sequence[bytes]) -> bytes:
    """RFC 6962 tree head of a frontier (``EMPTY_ROOT`` when empty)."""
    if not stack:
        return EMPTY_ROOT
    result = stack[-1]
    for left in reversed(stack[:-1]):
        result = node_hash(left, result)
    return result
