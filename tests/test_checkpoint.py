"""Checkpoint notes are byte-compatible with C2SP tlog-checkpoint / signed-note (and with
the Go reference golang.org/x/mod/sumdb/note), round-trip, and refuse every tampering."""

from __future__ import annotations

import base64
import hashlib

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ledger.errors import UsageError, VerificationError
from ledger.proofs.checkpoint import (
    Checkpoint,
    CheckpointError,
    NoteSignature,
    checkpoint_note_ok,
    note_key_hash,
    parse_checkpoint_body,
    parse_checkpoint_note,
    sign_checkpoint,
    sign_note,
    split_note,
    verify_checkpoint_note,
    verify_consistency_between,
    verify_inclusion_at,
    verify_note,
)
from ledger.proofs.merkle import (
    ProofError,
    consistency_proof,
    inclusion_proof,
    leaf_hash,
    root_from_hashes,
)
from ledger.wire.keys import public_raw

KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
PUB = public_raw(KEY.public_key())
OTHER_KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(1, 33)))
ORIGIN = "tourney/spring-open"
LEAVES = [leaf_hash(b"leaf %d" % i) for i in range(5)]
CP = Checkpoint(ORIGIN, 5, root_from_hashes(LEAVES))

GOLDEN_NOTE = (
    b"tourney/spring-open\n"
    b"5\n"
    b"NBUVmC1lDiNSDb1U1/zwr6G3DMOhakEdRk3JwayWwwE=\n"
    b"\n"
    b"\xe2\x80\x94 tourney/spring-open KAAaTWPMRXkbaJQdO54vqavUNpFSxvujZYrLYMa3Kk8CY9XpWllJER"
    b"hzjoW2w5RljxcPdcF+wksWxb1JgmbCus7cIwA=\n"
)

# golang.org/x/mod/sumdb/note note_test.go (TestSign, TestOpen, TestVerifierList).
GO_SKEY = "PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz"
GO_PETER_VKEY = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW"
GO_ENOCH_VKEY = "EnochRoot+af0cfe78+ATtqJ7zOtqQtYqOo0CpvDXNlMhV3HeJDpjrASKGLWdop"
GO_TEXT = (b"If you think cryptography is the answer to your problem,\n"
           b"then you don't know what your problem is.\n")
GO_PETER_SIG = ("\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2"
                "pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n").encode()
GO_ENOCH_SIG = ("\u2014 EnochRoot rwz+eBzmZa0SO3NbfRGzPCpDckykFXSdeX+MNtCOXm2/5n2tiOHp+vAF1aGr"
                "Q5ovTG01oOTGwnWLox33WWd1RvMc+QQ=\n").encode()


def _go_vkey(vkey: str) -> tuple[str, bytes, bytes]:
    """(name, key hash, raw Ed25519 public key) of a Go verifier key ``name+hash+b64``."""
    name, hash_hex, blob = vkey.split("+", 2)
    raw = base64.b64decode(blob)
    assert raw[0] == 0x01  # Ed25519 algorithm byte
    return name, bytes.fromhex(hash_hex), raw[1:]


def _go_signer() -> Ed25519PrivateKey:
    raw = base64.b64decode(GO_SKEY.split("+", 4)[4])  # the key material itself holds a "+"
    assert raw[0] == 0x01
    return Ed25519PrivateKey.from_private_bytes(raw[1:])


# --- cross-checks against the Go reference ---------------------------------------------

def test_note_key_hash_matches_go_reference_keys() -> None:
    for vkey in (GO_PETER_VKEY, GO_ENOCH_VKEY):
        name, key_hash, pub = _go_vkey(vkey)
        assert note_key_hash(name, pub) == key_hash
    assert public_raw(_go_signer().public_key()) == _go_vkey(GO_PETER_VKEY)[2]


def test_sign_note_reproduces_go_signed_note_byte_for_byte() -> None:
    assert sign_note(GO_TEXT, "PeterNeumann", _go_signer()) == GO_TEXT + b"\n" + GO_PETER_SIG


def test_verify_note_accepts_go_notes_and_ignores_unknown_keys() -> None:
    peter = _go_vkey(GO_PETER_VKEY)
    enoch = _go_vkey(GO_ENOCH_VKEY)
    note = GO_TEXT + b"\n" + GO_PETER_SIG + GO_ENOCH_SIG
    assert verify_note(note, peter[0], peter[2]) == GO_TEXT
    assert verify_note(note, enoch[0], enoch[2]) == GO_TEXT
    text, sigs = split_note(note)
    assert text == GO_TEXT
    assert [(s.name, s.key_hash.hex(), len(s.signature)) for s in sigs] == [
        ("PeterNeumann", "c74f20a3", 64), ("EnochRoot", "af0cfe78", 64)]
    with pytest.raises(CheckpointError, match="no signature"):
        verify_note(GO_TEXT + b"\n" + GO_ENOCH_SIG, peter[0], peter[2])
    with pytest.raises(CheckpointError):
        verify_note(note.replace(b"cryptography", b"cryptographY"), peter[0], peter[2])


def test_go_invalid_signature_and_malformed_notes_are_refused() -> None:
    name, _, pub = _go_vkey(GO_PETER_VKEY)
    corrupted = GO_PETER_SIG[:60] + b"ABCD" + GO_PETER_SIG[60:]
    with pytest.raises(CheckpointError, match="invalid signature"):
        verify_note(GO_TEXT + b"\n" + corrupted, name, pub)
    bad_messages = [
        GO_TEXT,
        GO_TEXT + b"\n",
        GO_TEXT + b"\n" + GO_PETER_SIG[:-1],
        b"\x01" + GO_TEXT + b"\n" + GO_PETER_SIG,
        b"\xff" + GO_TEXT + b"\n" + GO_PETER_SIG,
        GO_TEXT + b"\n" + "\u2014 Bad Name x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FF"
                          "YC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=".encode(),
        GO_TEXT + b"\n" + GO_PETER_SIG + b"Unexpected line.\n",
        GO_TEXT + b"\n" + GO_PETER_SIG * 101,
    ]
    for message in bad_messages:
        with pytest.raises(CheckpointError):
            verify_note(message, name, pub)


def test_c2sp_spec_example_checkpoint_parses() -> None:
    note = ("example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I="
            "\n\n\u2014 example.com/behind-the-sofa Az3grlgtzPICa5OS8npVmf1Myq/5IZniMp+ZJurmRDeOo"
            "RDe4URYN7u5/Zhcyv2q1gGzGku9nTo+zyWE+xeMcTOAYQ8=\n").encode()
    cp, sigs = parse_checkpoint_note(note)
    assert (cp.origin, cp.size, cp.extensions) == ("example.com/behind-the-sofa", 20852163, ())
    assert cp.root == base64.b64decode("CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=")
    assert [(s.name, s.key_hash.hex(), len(s.signature)) for s in sigs] == [
        ("example.com/behind-the-sofa", "033de0ae", 64)]


# --- our own notes ---------------------------------------------------------------------

def test_checkpoint_note_has_the_exact_golden_text() -> None:
    assert CP.body() == b"tourney/spring-open\n5\nNBUVmC1lDiNSDb1U1/zwr6G3DMOhakEdRk3JwayWwwE=\n"
    note = sign_checkpoint(CP, ORIGIN, KEY)
    assert note == GOLDEN_NOTE
    assert note.count(b"\n\n") == 1
    key_hash = hashlib.sha256(ORIGIN.encode() + b"\n\x01" + PUB).digest()[:4]
    assert note_key_hash(ORIGIN, PUB) == key_hash
    blob = note.split(b"\n")[-2].split(b" ")[-1]
    assert base64.b64decode(blob)[:4] == key_hash


def test_sign_parse_verify_round_trip() -> None:
    note = sign_checkpoint(CP, ORIGIN, KEY)
    cp, sigs = parse_checkpoint_note(note)
    assert cp == CP
    assert sigs == [NoteSignature(ORIGIN, note_key_hash(ORIGIN, PUB), sigs[0].signature)]
    assert verify_checkpoint_note(note, ORIGIN, PUB) == CP
    assert verify_checkpoint_note(note, ORIGIN, PUB, expected_origin=ORIGIN) == CP
    assert checkpoint_note_ok(note, ORIGIN, PUB)


def test_extension_lines_and_size_zero_round_trip() -> None:
    cp = Checkpoint(ORIGIN, 0, root_from_hashes([]), ("ext one", "ext two"))
    assert cp.body().endswith(b"=\next one\next two\n")
    assert verify_checkpoint_note(sign_checkpoint(cp, ORIGIN, KEY), ORIGIN, PUB) == cp


def test_wrong_key_name_wrong_key_or_wrong_origin_is_refused() -> None:
    note = sign_checkpoint(CP, ORIGIN, KEY)
    other_pub = public_raw(OTHER_KEY.public_key())
    with pytest.raises(CheckpointError, match="no signature"):
        verify_checkpoint_note(note, "tourney/other", PUB)
    with pytest.raises(CheckpointError, match="no signature"):
        verify_checkpoint_note(note, ORIGIN, other_pub)
    with pytest.raises(CheckpointError, match="origin"):
        verify_checkpoint_note(note, ORIGIN, PUB, expected_origin="tourney/other")
    assert not checkpoint_note_ok(note, ORIGIN, other_pub)
    # Same name, key hash forged to match the trusted key, signed by another key.
    forged = sign_checkpoint(CP, ORIGIN, OTHER_KEY)
    blob = base64.b64decode(forged.split(b" ")[-1])
    forged = forged.rsplit(b" ", 1)[0] + b" " + base64.b64encode(
        note_key_hash(ORIGIN, PUB) + blob[4:]) + b"\n"
    with pytest.raises(CheckpointError, match="invalid signature"):
        verify_checkpoint_note(forged, ORIGIN, PUB)


def test_every_single_bit_flip_anywhere_in_the_note_is_refused() -> None:
    note = sign_checkpoint(CP, ORIGIN, KEY)
    for i in range(len(note)):
        for bit in (0x01, 0x20):
            tampered = note[:i] + bytes([note[i] ^ bit]) + note[i + 1:]
            assert not checkpoint_note_ok(tampered, ORIGIN, PUB), (i, bit)


def test_a_bad_second_signature_line_of_the_trusted_key_is_refused() -> None:
    note = sign_checkpoint(CP, ORIGIN, KEY)
    sig_line = note[len(CP.body()) + 1:]
    other_line = sign_checkpoint(CP, "tourney/witness", OTHER_KEY)[len(CP.body()) + 1:]
    assert verify_checkpoint_note(note + other_line, ORIGIN, PUB) == CP
    assert verify_checkpoint_note(CP.body() + b"\n" + other_line + sig_line, ORIGIN, PUB) == CP
    bad_line = sig_line[:-6] + (b"AAAA" if sig_line[-6:-2] != b"AAAA" else b"BBBB") + b"=\n"
    assert not checkpoint_note_ok(note + bad_line, ORIGIN, PUB)


def _signed(text: bytes) -> bytes:
    """A correctly signed note over an arbitrary (possibly bad) checkpoint text."""
    return sign_note(text, ORIGIN, KEY)


ROOT_B64 = base64.b64encode(CP.root)


MALFORMED_BODIES = [
    (b"tourney/spring-open\n05\n" + ROOT_B64 + b"\n", "leading zero"),
    (b"tourney/spring-open\n00\n" + ROOT_B64 + b"\n", "leading zero"),
    (b"tourney/spring-open\n+5\n" + ROOT_B64 + b"\n", "plus sign"),
    (b"tourney/spring-open\n-5\n" + ROOT_B64 + b"\n", "negative"),
    (b"tourney/spring-open\n5 \n" + ROOT_B64 + b"\n", "trailing space"),
    (b"tourney/spring-open\n1_000\n" + ROOT_B64 + b"\n", "underscore"),
    ("tourney/spring-open\n\u0665\n".encode() + ROOT_B64 + b"\n", "non-ASCII digit"),
    (b"tourney/spring-open\n18446744073709551616\n" + ROOT_B64 + b"\n", "above 2^64-1"),
    (b"tourney/spring-open\n5\n" + base64.b64encode(CP.root[:31]) + b"\n", "31-byte root"),
    (b"tourney/spring-open\n5\n" + base64.b64encode(CP.root + b"\0") + b"\n", "33-byte root"),
    (b"tourney/spring-open\n5\n" + ROOT_B64.rstrip(b"=") + b"\n", "unpadded root"),
    (b"tourney/spring-open\n5\n" + ROOT_B64[:-2] + b"F=\n", "non-canonical root"),
    (b"tourney/spring-open\n5\n" + base64.urlsafe_b64encode(b"\xff" * 32) + b"\n", "url b64"),
    (b"\n5\n" + ROOT_B64 + b"\n", "empty origin"),
    (b"tourney/spring-open\n5\n", "two lines"),
    (b"tourney/spring-open\n5\n" + ROOT_B64 + b"\n\next\n", "empty extension line"),
]


@pytest.mark.parametrize("text", [text for text, _ in MALFORMED_BODIES],
                         ids=[reason for _, reason in MALFORMED_BODIES])
def test_malformed_checkpoint_body_is_refused_even_when_signed(text: bytes) -> None:
    note = _signed(text)
    assert verify_note(note, ORIGIN, PUB) == text  # the signature itself is fine
    with pytest.raises(CheckpointError):
        verify_checkpoint_note(note, ORIGIN, PUB)
    with pytest.raises(CheckpointError):
        parse_checkpoint_note(note)


def test_note_envelope_errors_are_refused() -> None:
    note = sign_checkpoint(CP, ORIGIN, KEY)
    body, sig_line = CP.body(), note[len(CP.body()) + 1:]
    for bad in (
        body + sig_line,  # missing blank line
        body + b"\n\n" + sig_line,  # a second blank line
        body + b"\n" + sig_line + b"\n",  # trailing blank line
        body + b"\n" + sig_line[:-1],  # no final newline
        note.replace(b"\n", b"\r\n"),  # CRLF
        body + b"\n" + sig_line.replace("\u2014".encode(), b"-"),  # ASCII dash
        body + b"\n" + sig_line.replace(b" ", b"  ", 1),  # empty key name
        body + b"\n" + sig_line.replace(b"=\n", b"\n"),  # unpadded signature
        body + b"\n" + "\u2014 tourney/spring-open AAAA\n".encode(),  # too short
    ):
        with pytest.raises(CheckpointError):
            verify_checkpoint_note(bad, ORIGIN, PUB)
        assert not checkpoint_note_ok(bad, ORIGIN, PUB)


def test_parse_does_not_verify_but_verify_does() -> None:
    note = sign_checkpoint(CP, ORIGIN, KEY)
    other = Checkpoint(ORIGIN, 6, CP.root)
    swapped = other.body() + note[len(CP.body()):]
    assert parse_checkpoint_note(swapped)[0] == other
    assert not checkpoint_note_ok(swapped, ORIGIN, PUB)
    assert parse_checkpoint_body(CP.body()) == CP


def test_bad_inputs_to_construction_and_signing_are_usage_errors() -> None:
    for args in ((("", 1, CP.root)), (("a\nb", 1, CP.root)), ((ORIGIN, -1, CP.root)),
                 ((ORIGIN, 2**64, CP.root)), ((ORIGIN, 1, CP.root[:31]))):
        with pytest.raises(UsageError):
            Checkpoint(*args)
    with pytest.raises(UsageError):
        Checkpoint(ORIGIN, 1, CP.root, ("",))
    for name in ("", "has space", "a+b", "tab\tname"):
        with pytest.raises(UsageError):
            sign_checkpoint(CP, name, KEY)
    with pytest.raises(UsageError):
        sign_note(b"no final newline", ORIGIN, KEY)
    with pytest.raises(UsageError):
        note_key_hash(ORIGIN, PUB[:31])
    assert issubclass(CheckpointError, VerificationError)
    assert CheckpointError.code == "bad_checkpoint"


def test_proofs_verify_against_a_checkpoint_object() -> None:
    verify_inclusion_at(CP, LEAVES[3], 3, inclusion_proof(LEAVES, 3))
    with pytest.raises(ProofError):
        verify_inclusion_at(CP, LEAVES[2], 3, inclusion_proof(LEAVES, 3))
    old = Checkpoint(ORIGIN, 3, root_from_hashes(LEAVES[:3]))
    verify_consistency_between(old, CP, consistency_proof(LEAVES, 3, 5))
    with pytest.raises(ProofError):
        verify_consistency_between(CP, old, consistency_proof(LEAVES, 3, 5))
    with pytest.raises(CheckpointError, match="different logs"):
        verify_consistency_between(Checkpoint("tourney/x", 3, old.root), CP,
                                   consistency_proof(LEAVES, 3, 5))
