"""Witnesses (issue 12): C2SP tlog-cosignature lines, the witness's consistency decision
and its state, the genesis witness policy, and what the audit reports about cosignatures.

Real keys, a real SQLite ledger, real notes on disk; the CLI half runs ``tourney`` as a
subprocess."""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path

import msgspec
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from audit.verify import verify_ledger
from ledger.errors import RuleError
from ledger.formats.simulation import simulate
from ledger.proofs.checkpoint import Checkpoint, sign_checkpoint, split_note
from ledger.proofs.checkpoint_store import checkpoint_dir, origin_of
from ledger.proofs.witness import (
    WitnessRefusal,
    WitnessState,
    cosign_key_hash,
    witness_key_name,
)
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.clock import FixedClock
from ledger.wire.events import LedgerPolicy, TournamentCreated, parse_leaf
from tests.conftest import HJ, build_small
from tests.helpers.cli_runner import Cli
from tests.helpers.witnesses import (
    LOG,
    W1,
    W2,
    _finished_event,
    add_witnesses,
    codes,
    do_cosign,
    new_checkpoint,
)

# -- the cosignature format ---------------------------------------------------------------

def test_cosignature_line_follows_c2sp_tlog_cosignature(tmp_path: Path) -> None:
    loc = build_small(tmp_path / "t.db")
    add_witnesses(loc, W1)
    note = new_checkpoint(loc)
    out = do_cosign(loc, note, W1, WitnessState(key_id=W1.key_id), ts=1_700_000_000)
    text, sigs = split_note(out)
    mine = [s for s in sigs if s.name == witness_key_name(W1.key_id)]
    assert len(mine) == 1 and len(sigs) == 2  # the head judge's line is kept
    # key id: SHA-256(name || 0x0A || 0x04 || pub)[:4] (signature type 0x04)
    name = f"tourney-witness/{W1.key_id}"
    assert mine[0].key_hash == hashlib.sha256(name.encode() + b"\n\x04" +
                                              W1.public_key_raw).digest()[:4]
    assert mine[0].key_hash == cosign_key_hash(name, W1.public_key_raw)
    # signature: u64 big-endian timestamp || Ed25519 over "cosignature/v1\ntime T\n" + text
    ts = int.from_bytes(mine[0].signature[:8], "big")
    assert ts == 1_700_000_000
    Ed25519PublicKey.from_public_bytes(W1.public_key_raw).verify(
        mine[0].signature[8:], b"cosignature/v1\ntime 1700000000\n" + text)


def test_cosigning_keeps_the_head_judge_signature_and_the_audit_verifies_it(
        tmp_path: Path) -> None:
    loc = build_small(tmp_path / "t.db")
    add_witnesses(loc, W1, W2)
    note = new_checkpoint(loc)
    do_cosign(loc, note, W1, WitnessState(key_id=W1.key_id), ts=1_370_078_000)
    do_cosign(loc, note, W2, WitnessState(key_id=W2.key_id), ts=1_370_078_000)
    report = verify_ledger(loc, LOG, None)
    assert report.ok, report.findings
    assert not codes(report) & {"cosignature_bad", "checkpoint_bad_signature"}


# -- the witness's decision ---------------------------------------------------------------

def test_witness_refuses_a_note_older_than_what_it_cosigned(tmp_path: Path) -> None:
    loc = build_small(tmp_path / "t.db")
    add_witnesses(loc, W1)
    first = new_checkpoint(loc)
    old_bytes = first.read_bytes()
    ws = WitnessState(key_id=W1.key_id)
    with Ledger(loc) as led:
        led.write(LOG, lambda t, now: t.record_seed(material="more", source="dice",
                                                    reason="r2", signer=HJ, time=now))
    second = new_checkpoint(loc)
    do_cosign(loc, second, W1, ws, ts=1)
    first.write_bytes(old_bytes)
    with pytest.raises(WitnessRefusal, match="409"):
        do_cosign(loc, first, W1, ws, ts=2)


def test_witness_refuses_an_equivocating_note_of_the_same_size(tmp_path: Path) -> None:
    loc = build_small(tmp_path / "t.db")
    add_witnesses(loc, W1)
    note = new_checkpoint(loc)
    ws = WitnessState(key_id=W1.key_id)
    do_cosign(loc, note, W1, ws, ts=1)
    cp = Checkpoint(origin_of(LOG), ws.logs[origin_of(LOG)].size, hashlib.sha256(b"x").digest())
    forged = tmp_path / "forged.note"
    forged.write_bytes(sign_checkpoint(cp, cp.origin, HJ.private_key))
    with pytest.raises(WitnessRefusal):
        do_cosign(loc, forged, W1, ws, ts=2)


def test_witness_refuses_a_rewritten_history_even_with_the_head_judge_key(
        tmp_path: Path) -> None:
    """The head judge rewrites an old event, re-signs every later one and re-signs the
    note: the log is self-consistent, but not with what the witness cosigned."""
    import sqlite3

    loc = build_small(tmp_path / "t.db")
    add_witnesses(loc, W1)
    ws = WitnessState(key_id=W1.key_id)
    do_cosign(loc, new_checkpoint(loc), W1, ws, ts=1)
    old_size = ws.logs[origin_of(LOG)].size
    # rewrite: a copy of the ledger rebuilt by the head judge with another player name
    from tests.helpers.forgery import resign_from  # one implementation of the rewrite
    with sqlite3.connect(loc.text) as db:
        rows = [(v, bytes(s)) for v, s in db.execute(
            "SELECT originator_version, state FROM stored_events WHERE originator_id=? "
            "ORDER BY originator_version", (LOG,))]
    new_rows = resign_from(rows, 4, lambda body: {**body, "name": "Mallory"})
    with sqlite3.connect(loc.text) as db:
        for v, leaf in new_rows:
            db.execute("UPDATE stored_events SET state=? WHERE originator_id=? AND "
                       "originator_version=?", (leaf, LOG, v))
        db.execute("DELETE FROM stored_snapshots")
    with Ledger(loc) as led:
        led.write(LOG, lambda t, now: t.record_seed(material="later", source="dice",
                                                    reason="r3", signer=HJ, time=now))
    newer = new_checkpoint(loc)
    assert msgspec.json.decode(newer.read_bytes().split(b"\n")[1]) > old_size
    with pytest.raises(WitnessRefusal, match="422"):
        do_cosign(loc, newer, W1, ws, ts=2)


def test_only_a_witness_of_the_log_may_cosign(tmp_path: Path) -> None:
    loc = build_small(tmp_path / "t.db")
    note = new_checkpoint(loc)
    with pytest.raises(RuleError, match="not an active witness"):
        do_cosign(loc, note, W1, WitnessState(key_id=W1.key_id), ts=1)


# -- genesis policy -----------------------------------------------------------------------

def test_default_policy_is_omitted_from_genesis_and_a_set_one_is_recorded_in_full(
        tmp_path: Path) -> None:
    plain = build_small(tmp_path / "a.db")
    with Ledger(plain, readonly=True) as led:
        genesis = next(led.raw_leaves(LOG))[1]
    assert b"policy" not in genesis
    loc = Location(str(tmp_path / "b.db"))
    with Ledger(loc, create=True, clock=FixedClock()) as led:
        simulate(led, log="p", players=4, seed_text="p", cut=2,
                 checkpoints=lambda: checkpoint_dir(loc, None, "p"),
                 policy=LedgerPolicy(witness_quorum=1))
        genesis = next(led.raw_leaves("p"))[1]
    body = parse_leaf(genesis).event.body
    assert isinstance(body, TournamentCreated)
    assert msgspec.json.decode(genesis)["event"]["body"]["policy"] == {
        "time_tolerance_s": 300, "witness_quorum": 1, "witness_max_age_s": 0}


def test_missing_quorum_on_the_end_of_event_checkpoint_is_an_error(tmp_path: Path) -> None:
    loc, log, hj = _finished_event(tmp_path, LedgerPolicy(witness_quorum=2))
    note = new_checkpoint(loc, log, hj)
    do_cosign(loc, note, W1, WitnessState(key_id=W1.key_id), ts=1_370_078_000, log=log)
    report = verify_ledger(loc, log, None)
    assert "witness_quorum_missing" in codes(report) and not report.ok
    do_cosign(loc, note, W2, WitnessState(key_id=W2.key_id), ts=1_370_078_000, log=log)
    report = verify_ledger(loc, log, None)
    assert report.ok, report.findings


def test_quorum_mid_event_is_only_pending(tmp_path: Path) -> None:
    loc = Location(str(tmp_path / "t.db"))
    with Ledger(loc, create=True, clock=FixedClock()) as led:
        from ledger.core.aggregate import Tournament
        from ledger.formats.registry import make_format
        led.create(LOG, lambda now: Tournament.create(
            log=LOG, name="Q", fmt=make_format("hotc-swiss-de", 4), signer=HJ, time=now,
            policy=LedgerPolicy(witness_quorum=1)))
    new_checkpoint(loc)
    report = verify_ledger(loc, LOG, None)
    assert "witness_quorum_pending" in codes(report) and report.ok


def test_stale_newest_cosignature_against_the_freshness_limit(tmp_path: Path) -> None:
    loc, log, hj = _finished_event(tmp_path, LedgerPolicy(witness_quorum=1,
                                                          witness_max_age_s=3600))
    note = new_checkpoint(loc, log, hj)
    with Ledger(loc, readonly=True) as led:
        last = led.load(log).state.last_time
    from ledger.wire.clock import parse_time
    end = int(parse_time(last).timestamp())
    do_cosign(loc, note, W1, WitnessState(key_id=W1.key_id), ts=end - 7200, log=log)
    assert "cosignature_stale" in codes(verify_ledger(loc, log, None))
    do_cosign(loc, note, W1, WitnessState(key_id=W1.key_id), ts=end - 60, log=log)
    report = verify_ledger(loc, log, None)
    assert report.ok and "cosignature_stale" not in codes(report), report.findings


def test_cosignature_over_an_inconsistent_tree_is_reported(tmp_path: Path) -> None:
    """A witness key that cosigned a forged note (collusion or a stolen key) is named."""
    from ledger.proofs.witness import cosignature_line

    loc = build_small(tmp_path / "t.db")
    add_witnesses(loc, W1)
    note = new_checkpoint(loc)
    size = int(note.read_bytes().split(b"\n")[1])
    cp = Checkpoint(origin_of(LOG), size, hashlib.sha256(b"other history").digest())
    forged = sign_checkpoint(cp, cp.origin, HJ.private_key)
    forged += cosignature_line(cp.body(), W1, 1_370_078_000)
    published = tmp_path / "published"
    published.mkdir()
    (published / "from-the-venue-wall.note").write_bytes(forged)
    report = verify_ledger(loc, LOG, None, published=[published])
    found = codes(report)
    assert {"checkpoint_fork", "checkpoint_root_mismatch", "cosignature_inconsistent"} <= found


def test_a_cosignature_that_does_not_verify_is_reported(tmp_path: Path) -> None:
    loc = build_small(tmp_path / "t.db")
    add_witnesses(loc, W1)
    note = new_checkpoint(loc)
    out = do_cosign(loc, note, W1, WitnessState(key_id=W1.key_id), ts=5)
    last = out.rstrip(b"\n").split(b"\n")[-1]
    name, blob = last.split(b" ")[1:3]
    raw = bytearray(base64.b64decode(blob))
    raw[12] ^= 1  # a timestamp bit: the signed message changes
    note.write_bytes(out[:out.rindex(last)] + b"\xe2\x80\x94 " + name + b" " +
                     base64.b64encode(bytes(raw)) + b"\n")
    assert "cosignature_bad" in codes(verify_ledger(loc, LOG, None))


# -- the CLI --------------------------------------------------------------------------------

def test_cli_witness_cosigns_and_refuses_an_equivocating_note_exit_4(tmp_path: Path) -> None:
    cli = Cli(tmp_path, tmp_path / "t.db")
    for n in ("hj", "w"):
        cli("keys", "new", "--name", f"{n} person", "--out", f"{n}.pem")
    log = cli("init", "--name", "Witnessed Open", "--format", "hotc-swiss-de", "--cut", "2",
              "--witness-quorum", "1", "--key", "hj.pem", "--json").doc["tournament"]
    cli("official", "add", "--role", "witness", "--name", "Wendy", "--public-key",
        "w.pem.pub", "--key", "hj.pem")
    cli("player", "add", "Ada", "--key", "hj.pem")
    cli("player", "add", "Bea", "--key", "hj.pem")
    closed = cli("registration", "close", "--key", "hj.pem", "--json").doc
    note = Path(closed["checkpoint"]["path"])
    if not note.is_absolute():
        note = tmp_path / note
    done = cli("witness", "cosign", str(note), "--key", "w.pem", "--json").doc
    assert done["size"] == closed["checkpoint"]["size"]
    assert (tmp_path / "w.pem.witness.json").is_file()
    assert b"tourney-witness/" in note.read_bytes()
    ok = cli("audit", "verify", "--json").doc
    assert ok["ok"], ok
    # the head judge signs another root for the same size: the witness refuses, exit 4
    from ledger.wire.keys import load_signer
    hj = load_signer(tmp_path / "hj.pem")
    cp = Checkpoint(origin_of(log), done["size"], hashlib.sha256(b"fork").digest())
    forged = tmp_path / "forged.note"
    forged.write_bytes(sign_checkpoint(cp, cp.origin, hj.private_key))
    before = forged.read_bytes(), (tmp_path / "w.pem.witness.json").read_bytes()
    run = cli("witness", "cosign", str(forged), "--key", "w.pem", code=4)
    assert "root" in run.err
    assert (forged.read_bytes(), (tmp_path / "w.pem.witness.json").read_bytes()) == before
    # a key that is not a witness of the log: refused by the rules, exit 3
    cli("witness", "cosign", str(note), "--key", "hj.pem", "--state", "hj.json", code=3)
    # a witness that only has the published bundle: same decision from the bundle's log
    cli("seed", "record", "--material", "m", "--source", "s", "--reason", "r", "--key",
        "hj.pem")
    newer = cli("checkpoint", "--key", "hj.pem", "--json").doc
    cli("export", "pub")
    published = tmp_path / "pub" / "checkpoints" / f"{newer['size']}.note"
    doc = cli("witness", "cosign", str(published), "--bundle", "pub", "--key", "w.pem",
              "--json").doc
    assert doc["size"] == newer["size"]
    cli("witness", "cosign", str(forged), "--bundle", "pub", "--key", "w.pem", code=4)
