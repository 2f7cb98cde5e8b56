"""The Merkle module agrees with the transparency-dev/merkle RFC 6962/9162 probe vectors,
its proofs verify, and its three ways of computing a tree head agree."""

from __future__ import annotations

import base64
import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

from ledger.proofs.merkle import (
    EMPTY_ROOT,
    MerkleAccumulator,
    ProofError,
    consistency_proof,
    inclusion_proof,
    leaf_hash,
    node_hash,
    root_from_hashes,
)
from ledger.proofs.merkle import _consistency_ok as consistency_ok  # the private primitives
from ledger.proofs.merkle import _inclusion_ok as inclusion_ok
from ledger.proofs.merkle import _verify_consistency as verify_consistency
from ledger.proofs.merkle import _verify_inclusion as verify_inclusion

#: vendored from ../shared/testvectors/transparency-dev-merkle (tests/vectors/PROVENANCE.md)
TESTDATA = Path(__file__).resolve().parent / "vectors" / "merkle" / "testdata"


def _vector_files(kind: str) -> list[Path]:
    return sorted((TESTDATA / kind).rglob("*.json")) if (TESTDATA / kind).is_dir() else []


def _params(kind: str) -> list[Any]:
    files = _vector_files(kind)
    if not files:
        return [pytest.param(None, id=f"{kind}-vectors-absent")]
    return [pytest.param(f, id=str(f.relative_to(TESTDATA))) for f in files]


def _load(path: Path | None) -> dict[str, Any]:
    if path is None:
        pytest.skip(f"test vectors not found under {TESTDATA} (see shared/testvectors/"
                    "PROVENANCE.md)")
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def _b64(value: str | None) -> bytes:
    return base64.b64decode(value) if value else b""


def _proof(values: list[str] | None) -> list[bytes]:
    return [_b64(v) for v in values or []]


def test_vector_corpus_is_complete() -> None:
    if not TESTDATA.is_dir():
        pytest.skip(f"test vectors not found under {TESTDATA}")
    assert len(_vector_files("inclusion")) == 98
    assert len(_vector_files("consistency")) == 98
    dirs = {p.parent.relative_to(TESTDATA).as_posix() for p in _vector_files("inclusion")}
    assert {"inclusion/single-entry", "inclusion/additional/0"} <= dirs


@pytest.mark.parametrize("path", _params("inclusion"))
def test_inclusion_vector_verdict_matches_want_err(path: Path | None) -> None:
    v = _load(path)
    args = (_b64(v["leafHash"]), v["leafIdx"], v["treeSize"], _proof(v["proof"]),
            _b64(v["root"]))
    if v["wantErr"]:
        with pytest.raises(ProofError):
            verify_inclusion(*args)
        assert not inclusion_ok(*args)
    else:
        verify_inclusion(*args)
        assert inclusion_ok(*args)


@pytest.mark.parametrize("path", _params("consistency"))
def test_consistency_vector_verdict_matches_want_err(path: Path | None) -> None:
    v = _load(path)
    args = (v["size1"], v["size2"], _b64(v["root1"]), _b64(v["root2"]), _proof(v["proof"]))
    if v["wantErr"]:
        with pytest.raises(ProofError):
            verify_consistency(*args)
        assert not consistency_ok(*args)
    else:
        verify_consistency(*args)
        assert consistency_ok(*args)


def _reference_mth(hashes: list[bytes]) -> bytes:
    """RFC 6962 §2.1 MTH, recursively and literally."""
    if not hashes:
        return EMPTY_ROOT
    if len(hashes) == 1:
        return hashes[0]
    k = 1
    while k * 2 < len(hashes):
        k *= 2
    return node_hash(_reference_mth(hashes[:k]), _reference_mth(hashes[k:]))


def _leaves(n: int) -> list[bytes]:
    return [leaf_hash(f"leaf {i}".encode()) for i in range(n)]


def test_hash_primitives_match_rfc6962_definitions() -> None:
    assert EMPTY_ROOT.hex() == \
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    assert leaf_hash(b"") == hashlib.sha256(b"\x00").digest()
    left, right = b"a" * 32, b"b" * 32
    assert node_hash(left, right) == hashlib.sha256(b"\x01" + left + right).digest()


def test_root_from_hashes_equals_accumulator_and_reference_at_every_size() -> None:
    hashes = _leaves(70)
    acc = MerkleAccumulator()
    assert acc.size == 0 and acc.root() == EMPTY_ROOT == root_from_hashes([])
    for n in range(1, 71):
        acc.append(hashes[n - 1])
        assert acc.size == n
        assert acc.root() == root_from_hashes(hashes[:n]) == _reference_mth(hashes[:n])


def test_generated_inclusion_proofs_verify_for_every_leaf_of_trees_1_to_70() -> None:
    hashes = _leaves(70)
    for size in range(1, 71):
        tree, root = hashes[:size], root_from_hashes(hashes[:size])
        for index in range(size):
            proof = inclusion_proof(tree, index)
            verify_inclusion(tree[index], index, size, proof, root)
            wrong = tree[(index + 1) % size] if size > 1 else leaf_hash(b"other")
            assert not inclusion_ok(wrong, index, size, proof, root)


def test_generated_consistency_proofs_verify_for_all_size_pairs_up_to_70() -> None:
    hashes = _leaves(70)
    roots = [root_from_hashes(hashes[:n]) for n in range(71)]
    for size2 in range(1, 71):
        for size1 in range(1, size2 + 1):
            proof = consistency_proof(hashes, size1, size2)
            verify_consistency(size1, size2, roots[size1], roots[size2], proof)
            if size1 < size2:
                assert not consistency_ok(size1, size2, roots[size1 - 1] if size1 > 1
                                          else roots[2], roots[size2], proof)


def test_random_proofs_fail_after_any_single_bit_flip() -> None:
    rng = random.Random(6962)
    hashes = _leaves(70)
    for _ in range(40):
        size2 = rng.randint(2, 70)
        size1 = rng.randint(1, size2 - 1)
        index = rng.randrange(size2)
        incl = inclusion_proof(hashes[:size2], index)
        cons = consistency_proof(hashes, size1, size2)
        root1, root2 = root_from_hashes(hashes[:size1]), root_from_hashes(hashes[:size2])
        if incl:
            i = rng.randrange(len(incl))
            bad = list(incl)
            bad[i] = bytes([bad[i][0] ^ 1]) + bad[i][1:]
            assert not inclusion_ok(hashes[index], index, size2, bad, root2)
        j = rng.randrange(len(cons))
        bad_cons = list(cons)
        bad_cons[j] = bad_cons[j][:-1] + bytes([bad_cons[j][-1] ^ 0x80])
        assert not consistency_ok(size1, size2, root1, root2, bad_cons)


def test_proof_generation_refuses_out_of_range_arguments() -> None:
    from ledger.errors import UsageError

    hashes = _leaves(5)
    for bad_index in (-1, 5):
        with pytest.raises(UsageError):
            inclusion_proof(hashes, bad_index)
    for size1, size2 in ((0, 3), (4, 3), (1, 6)):
        with pytest.raises(UsageError):
            consistency_proof(hashes, size1, size2)
    with pytest.raises(UsageError):
        MerkleAccumulator().append(b"short")


def test_verification_refuses_wrong_length_hashes_and_bad_sizes() -> None:
    hashes = _leaves(4)
    root = root_from_hashes(hashes)
    proof = inclusion_proof(hashes, 1)
    assert inclusion_ok(hashes[1], 1, 4, proof, root)
    assert not inclusion_ok(hashes[1][:31], 1, 4, proof, root)
    with pytest.raises(ProofError, match="proof element 0 is 33 bytes"):
        verify_inclusion(hashes[1], 1, 4, [proof[0] + b"\x00", proof[1]], root)
    with pytest.raises(ProofError, match="too many"):
        verify_inclusion(hashes[1], 1, 4, [*proof, root], root)
    with pytest.raises(ProofError, match="too few"):
        verify_inclusion(hashes[1], 1, 4, proof[:1], root)
    assert not inclusion_ok(hashes[1], -1, 4, proof, root)
    assert not consistency_ok(-1, 4, root, root, [])
    assert not consistency_ok(0, 0, EMPTY_ROOT, EMPTY_ROOT, [])
    with pytest.raises(ProofError, match="size1 = 0"):
        verify_consistency(0, 4, EMPTY_ROOT, root, [])


def test_root_from_hashes_is_fast_for_60000_leaves() -> None:
    hashes = _leaves(60_000)
    acc = MerkleAccumulator()
    for h in hashes:
        acc.append(h)
    assert root_from_hashes(hashes) == acc.root()
    index = 54_321
    proof = inclusion_proof(hashes, index)
    assert len(proof) == 16
    verify_inclusion(hashes[index], index, 60_000, proof, acc.root())
