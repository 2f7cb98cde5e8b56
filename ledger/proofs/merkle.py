"""RFC 6962 / RFC 9162 Merkle tree over the log's leaves (docs/DESIGN.md §4).

Owns: the tree head (MTH) of a list of leaf hashes (the leaf and node hashes themselves are
``ledger.wire.tree_hash``, re-exported here), an incremental accumulator for one-pass
audits, inclusion and consistency proof generation
(RFC 9162 §2.1.3.1, §2.1.4.1) and verification (§2.1.3.2, §2.1.4.2), and ``ProofError``.

A "leaf" is the raw leaf bytes; every other argument is a 32-byte SHA-256 hash.
Verification treats all of its inputs as untrusted data: anything wrong with them raises
``ProofError`` (``_verify_*``) or returns False (``_*_ok``).  Verification is private to
``ledger``: the public API (``ledger.proofs.checkpoint.verify_inclusion_at`` and
``verify_consistency_between``) takes a ``Checkpoint`` object, so a proof can never be
checked against a (size, root) pair that no checkpoint signed (docs/DESIGN.md §4, THREATS T19).
Generation is done by the log owner over its own leaves, so bad arguments there are a
``UsageError``.

May import: ``hashlib``, ``ledger.errors``, ``ledger.wire.tree_hash`` (the hashes and the
frontier it re-exports).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from ledger.errors import UsageError, VerificationError
from ledger.wire.tree_hash import EMPTY_ROOT as EMPTY_ROOT
from ledger.wire.tree_hash import HASH_SIZE as HASH_SIZE
from ledger.wire.tree_hash import frontier_append as frontier_append
from ledger.wire.tree_hash import frontier_root as frontier_root
from ledger.wire.tree_hash import leaf_hash as leaf_hash
from ledger.wire.tree_hash import node_hash as node_hash

_sha256 = hashlib.sha256


class ProofError(VerificationError):
    """An inclusion or consistency proof did not verify (exit 4)."""

    code = "bad_proof"


def root_from_hashes(leaf_hashes: Sequence[bytes]) -> bytes:
    """MTH over already-hashed leaves, bottom-up in O(n) hashes.

    Pairing each level left to right and carrying a lone last node up unchanged builds
    exactly the RFC 6962 tree (left subtree = largest power of two < n).
    """
    if not leaf_hashes:
        return EMPTY_ROOT
    level = list(leaf_hashes)
    while len(level) > 1:
        paired = [_sha256(b"\x01" + level[i] + level[i + 1]).digest()
                  for i in range(0, len(level) - 1, 2)]
        if len(level) % 2:
            paired.append(level[-1])
        level = paired
    return level[0]


class MerkleAccumulator:
    """Incremental tree head: O(log n) memory, one pass over the log.

    The stack holds the roots of the perfect subtrees that make up the tree, largest first
    (one per set bit of ``size``).
    """

    def __init__(self) -> None:
        self._stack: list[bytes] = []
        self._size = 0

    @property
    def size(self) -> int:
        return self._size

    def append(self, leaf_hash: bytes) -> None:
        """Add the next leaf's hash (``leaf_hash(leaf)``, not the leaf itself)."""
        if len(leaf_hash) != HASH_SIZE:
            raise UsageError(f"leaf hash is {len(leaf_hash)} bytes, want {HASH_SIZE}")
        self._stack.append(leaf_hash)
        self._size += 1
        n = self._size
        while n % 2 == 0:  # one merge per trailing zero bit of the new size
            right = self._stack.pop()
            left = self._stack.pop()
            self._stack.append(node_hash(left, right))
            n //= 2

    def root(self) -> bytes:
        """The tree head at the current size (``EMPTY_ROOT`` when empty)."""
        if not self._stack:
            return EMPTY_ROOT
        result = self._stack[-1]
        for left in reversed(self._stack[:-1]):
            result = node_hash(left, result)
        return result


def _split(n: int) -> int:
    """Largest power of two strictly less than ``n`` (n >= 2)."""
    return 1 << ((n - 1).bit_length() - 1)


def inclusion_proof(leaf_hashes: Sequence[bytes], index: int) -> list[bytes]:
    """PATH(index, D[n]) of RFC 9162 §2.1.3.1 for the tree over all of ``leaf_hashes``."""
    size = len(leaf_hashes)
    if not 0 <= index < size:
        raise UsageError(f"leaf index {index} is outside a tree of size {size}")
    path: list[bytes] = []
    lo, hi = 0, size
    while hi - lo > 1:
        k = _split(hi - lo)
        if index < lo + k:
            path.append(root_from_hashes(leaf_hashes[lo + k:hi]))
            hi = lo + k
        else:
            path.append(root_from_hashes(leaf_hashes[lo:lo + k]))
            lo += k
    path.reverse()  # the recursion emits the deepest sibling first
    return path


def consistency_proof(leaf_hashes: Sequence[bytes], size1: int, size2: int) -> list[bytes]:
    """PROOF(size1, D[size2]) of RFC 9162 §2.1.4.1, over the first ``size2`` leaf hashes."""
    if not 0 < size1 <= size2 <= len(leaf_hashes):
        raise UsageError(f"consistency proof needs 0 < size1 <= size2 <= {len(leaf_hashes)}, "
                         f"got size1={size1} size2={size2}")
    path: list[bytes] = []
    lo, hi, m, complete = 0, size2, size1, True
    while hi - lo != m:
        k = _split(hi - lo)
        if m <= k:
            path.append(root_from_hashes(leaf_hashes[lo + k:hi]))
            hi = lo + k
        else:
            path.append(root_from_hashes(leaf_hashes[lo:lo + k]))
            lo += k
            m -= k
            complete = False
    if not complete:
        path.append(root_from_hashes(leaf_hashes[lo:hi]))
    path.reverse()
    return path


def _check_hashes(proof: Sequence[bytes]) -> None:
    for i, element in enumerate(proof):
        if len(element) != HASH_SIZE:
            raise ProofError(f"proof element {i} is {len(element)} bytes, want {HASH_SIZE}")


def _verify_inclusion(leaf_hash: bytes, index: int, size: int, proof: Sequence[bytes],
                     root: bytes) -> None:
    """Raise ``ProofError`` unless ``proof`` shows leaf ``index`` of a tree of ``size`` with
    tree head ``root`` has hash ``leaf_hash`` (RFC 9162 §2.1.3.2)."""
    if len(leaf_hash) != HASH_SIZE:
        raise ProofError(f"leaf hash is {len(leaf_hash)} bytes, want {HASH_SIZE}")
    if not 0 <= index < size:
        raise ProofError(f"leaf index {index} is outside a tree of size {size}")
    _check_hashes(proof)
    fn, sn, r = index, size - 1, leaf_hash
    for p in proof:
        if sn == 0:
            raise ProofError(f"inclusion proof has {len(proof)} elements, too many "
                             f"for leaf {index} of a tree of size {size}")
        if fn % 2 == 1 or fn == sn:
            r = node_hash(p, r)
            if fn % 2 == 0:
                while fn % 2 == 0 and fn != 0:
                    fn >>= 1
                    sn >>= 1
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    if sn != 0:
        raise ProofError(f"inclusion proof has {len(proof)} elements, too few "
                         f"for leaf {index} of a tree of size {size}")
    if r != root:
        raise ProofError(f"inclusion proof for leaf {index} of a tree of size {size} "
                         "does not lead to the given root")


def _verify_consistency(size1: int, size2: int, root1: bytes, root2: bytes,
                       proof: Sequence[bytes]) -> None:
    """Raise ``ProofError`` unless ``proof`` shows the tree of ``size1`` with head ``root1``
    is a prefix of the tree of ``size2`` with head ``root2`` (RFC 9162 §2.1.4.2).

    A consistency check from size 0 is refused (it proves nothing); equal sizes need an
    empty proof and equal roots.
    """
    if size1 < 0 or size2 < size1:
        raise ProofError(f"consistency needs 0 <= size1 <= size2, got size1={size1} "
                         f"size2={size2}")
    if size1 == 0:
        raise ProofError("consistency from an empty tree (size1 = 0) proves nothing")
    if size1 == size2:
        if proof:
            raise ProofError(f"sizes are equal ({size1}) but the proof is not empty")
        if root1 != root2:
            raise ProofError(f"sizes are equal ({size1}) but the roots differ")
        return
    if not proof:
        raise ProofError(f"empty consistency proof from size {size1} to {size2}")
    _check_hashes(proof)
    path = list(proof)
    if size1 & (size1 - 1) == 0:  # size1 is a power of two: its root is the first node
        path.insert(0, root1)
    fn, sn = size1 - 1, size2 - 1
    while fn % 2 == 1:
        fn >>= 1
        sn >>= 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            raise ProofError(f"consistency proof from {size1} to {size2} is too long")
        if fn % 2 == 1 or fn == sn:
            fr = node_hash(c, fr)
            sr = node_hash(c, sr)
            if fn % 2 == 0:
                while fn % 2 == 0 and fn != 0:
                    fn >>= 1
                    sn >>= 1
        else:
            sr = node_hash(sr, c)
        fn >>= 1
        sn >>= 1
    if sn != 0:
        raise ProofError(f"consistency proof from {size1} to {size2} is too short")
    if fr != root1:
        raise ProofError(f"consistency proof from {size1} to {size2} does not lead to root1")
    if sr != root2:
        raise ProofError(f"consistency proof from {size1} to {size2} does not lead to root2")


def _inclusion_ok(leaf_hash: bytes, index: int, size: int, proof: Sequence[bytes],
                 root: bytes) -> bool:
    """``_verify_inclusion`` that reports instead of raising."""
    try:
        _verify_inclusion(leaf_hash, index, size, proof, root)
    except ProofError:
        return False
    return True


def _consistency_ok(size1: int, size2: int, root1: bytes, root2: bytes,
                   proof: Sequence[bytes]) -> bool:
    """``_verify_consistency`` that reports instead of raising."""
    try:
        _verify_consistency(size1, size2, root1, root2, proof)
    except ProofError:
        return False
    return True
