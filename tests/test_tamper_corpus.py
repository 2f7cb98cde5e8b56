"""Tamper corpus: each defect of a stored ledger is detected with its stable code.

One test per case (issue 2); each builds the same small signed ledger, damages it with
plain sqlite3 (or a forged but correctly chained event), and audits it.
"""

from __future__ import annotations

import base64
import hashlib
import shutil
import sqlite3
from pathlib import Path

import msgspec

from audit.bundle import export_bundle
from audit.verify import verify_bundle
from ledger.proofs.checkpoint import Checkpoint, sign_checkpoint
from ledger.proofs.checkpoint_store import checkpoint_dir, origin_of
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.events import DrawMade, PlayerRegistered, parse_leaf, seal
from tests.conftest import HJ, JUDGE, SCOREKEEPER, STRANGER, build_small
from tests.helpers.tamper import LOG, append_raw, audit, codes_at, forge_next, rows


def set_state(loc: Location, version: int, state: bytes) -> None:
    with sqlite3.connect(loc.text) as db:
        db.execute("UPDATE stored_events SET state=? WHERE originator_id=? AND "
                   "originator_version=?", (state, LOG, version))
        db.execute("DELETE FROM stored_snapshots")


def test_clean_ledger_audits_clean(small_ledger: Location) -> None:
    report = audit(small_ledger)
    assert report.ok, report.findings
    assert report.events == len(rows(small_ledger))
    assert [f.code for f in report.findings] == []


def test_byte_flip_in_body_is_bad_signature(small_ledger: Location) -> None:
    v, leaf = rows(small_ledger)[4]
    set_state(small_ledger, v, leaf.replace(b"Player 2", b"Player 9"))
    found = codes_at(audit(small_ledger))
    assert ("bad_signature", v) in found
    assert ("chain_broken", v + 1) in found


def test_whitespace_is_non_canonical(small_ledger: Location) -> None:
    v, leaf = rows(small_ledger)[4]
    set_state(small_ledger, v, leaf.replace(b'"name":', b'"name": '))
    report = audit(small_ledger)
    assert ("non_canonical", v) in codes_at(report)
    # the signature is over canonical(event), so only the bytes are wrong here
    assert ("bad_signature", v) not in codes_at(report)


def test_key_order_is_non_canonical(small_ledger: Location) -> None:
    v, leaf = rows(small_ledger)[4]
    obj = msgspec.json.decode(leaf)
    reordered = {"sig": obj["sig"], "event": obj["event"]}
    set_state(small_ledger, v, msgspec.json.encode(reordered))
    assert ("non_canonical", v) in codes_at(audit(small_ledger))


def test_escaped_character_is_non_canonical(small_ledger: Location) -> None:
    v, leaf = rows(small_ledger)[4]
    set_state(small_ledger, v, leaf.replace(b"Player 2", b"Pl\\u0061yer 2"))
    assert ("non_canonical", v) in codes_at(audit(small_ledger))


def test_duplicate_key_is_non_canonical(small_ledger: Location) -> None:
    v, leaf = rows(small_ledger)[4]
    set_state(small_ledger, v, leaf.replace(b'{"name":', b'{"name":"Mallory","name":'))
    report = audit(small_ledger)
    assert ("non_canonical", v) in codes_at(report)


def test_wrong_role_is_role_not_permitted(small_ledger: Location) -> None:
    leaf = forge_next(small_ledger, PlayerRegistered(number=99, name="Late"), JUDGE)
    seq = parse_leaf(leaf).event.seq
    assert ("role_not_permitted", seq) in codes_at(audit(small_ledger))


def test_unknown_key_is_flagged(small_ledger: Location) -> None:
    leaf = forge_next(small_ledger, PlayerRegistered(number=99, name="Late"), STRANGER)
    seq = parse_leaf(leaf).event.seq
    assert ("unknown_key", seq) in codes_at(audit(small_ledger))


def test_revoked_key_after_revocation_only(tmp_path: Path) -> None:
    loc = build_small(tmp_path / "t.db")
    with Ledger(loc) as led:
        led.write(LOG, lambda t, now: t.revoke_official(SCOREKEEPER.key_id, "lost laptop",
                                                        HJ, now))
    leaf = forge_next(loc, PlayerRegistered(number=98, name="After"), SCOREKEEPER)
    seq = parse_leaf(leaf).event.seq
    report = audit(loc)
    assert ("key_revoked", seq) in codes_at(report)
    # earlier events by the same key stay valid
    assert {f.seq for f in report.findings if f.code == "key_revoked"} == {seq}


def test_deleted_event_is_seq_gap_and_chain_break(small_ledger: Location) -> None:
    with sqlite3.connect(small_ledger.text) as db:
        db.execute("DELETE FROM stored_events WHERE originator_version=5")
    found = codes_at(audit(small_ledger))
    assert ("seq_gap", 5) in found
    assert ("chain_broken", 5) in found


def test_reordered_events_are_seq_mismatch(small_ledger: Location) -> None:
    r = rows(small_ledger)
    set_state(small_ledger, 5, r[5][1])
    set_state(small_ledger, 6, r[4][1])
    found = codes_at(audit(small_ledger))
    assert ("seq_mismatch", 5) in found and ("seq_mismatch", 6) in found
    assert ("chain_broken", 5) in found


def test_inserted_event_is_detected(small_ledger: Location) -> None:
    r = rows(small_ledger)
    with sqlite3.connect(small_ledger.text) as db:
        db.execute("UPDATE stored_events SET originator_version=originator_version+100 "
                   "WHERE originator_version>=6")
        db.execute("UPDATE stored_events SET originator_version=originator_version-99 "
                   "WHERE originator_version>=106")
        db.execute("INSERT INTO stored_events VALUES (?,?,?,?)", (LOG, 6, "x", r[2][1]))
    found = codes_at(audit(small_ledger))
    assert ("seq_mismatch", 6) in found and ("chain_broken", 6) in found


def test_event_replayed_from_another_tournament(tmp_path: Path) -> None:
    loc = build_small(tmp_path / "t.db")
    other = build_small(tmp_path / "u.db", log="t2")
    with sqlite3.connect(other.text) as db:
        stolen = bytes(db.execute("SELECT state FROM stored_events WHERE "
                                  "originator_version=5").fetchone()[0])
    set_state(loc, 5, stolen)
    assert ("log_mismatch", 5) in codes_at(audit(loc))


def test_edited_draw_result_resigned_by_head_judge(small_ledger: Location) -> None:
    r = rows(small_ledger)
    draw_v, draw_leaf = next((v, b) for v, b in r if b'"kind":"draw_made"' in b)
    ev = parse_leaf(draw_leaf).event
    body = ev.body
    assert isinstance(body, DrawMade)
    rigged = list(reversed(body.result))
    forged = seal(log=LOG, seq=draw_v, prev=ev.prev, time=ev.time,
                  body=DrawMade(ctx=body.ctx, algorithm=body.algorithm, seed=body.seed,
                                seed_seq=body.seed_seq, items=body.items, result=rigged),
                  signer=HJ)
    set_state(small_ledger, draw_v, forged.leaf)
    found = codes_at(audit(small_ledger))
    assert ("draw_mismatch", draw_v) in found
    assert ("bad_signature", draw_v) not in found


def test_truncated_tail_detected_against_checkpoint(small_ledger: Location) -> None:
    n = len(rows(small_ledger))
    with sqlite3.connect(small_ledger.text) as db:
        db.execute("DELETE FROM stored_events WHERE originator_version>=?", (n - 1,))
        db.execute("DELETE FROM stored_snapshots")
    report = audit(small_ledger)
    assert ("checkpoint_beyond_log", n) in codes_at(report)
    assert not report.ok


def test_two_checkpoints_with_different_roots_at_one_size(small_ledger: Location,
                                                          tmp_path: Path) -> None:
    cdir = checkpoint_dir(small_ledger, None, LOG)
    n = len(rows(small_ledger))
    evil = sign_checkpoint(Checkpoint(origin=origin_of(LOG), size=n, root=b"\x07" * 32),
                           origin_of(LOG), HJ.private_key)
    (cdir / f"{n}-second.note").write_bytes(evil)
    (cdir / f"{n}-second.note").rename(cdir / f"{n + 1000}.note")
    found = codes_at(audit(small_ledger))
    assert ("checkpoint_fork", n) in found
    assert ("checkpoint_root_mismatch", n) in found


def test_checkpoint_signed_by_non_head_judge(small_ledger: Location) -> None:
    cdir = checkpoint_dir(small_ledger, None, LOG)
    n = len(rows(small_ledger))
    note = sign_checkpoint(Checkpoint(origin=origin_of(LOG), size=n, root=b"\x00" * 32),
                           origin_of(LOG), JUDGE.private_key)
    (cdir / "9999.note").write_bytes(note)
    assert ("checkpoint_bad_signature", n) in codes_at(audit(small_ledger))


def test_audit_collects_every_finding(small_ledger: Location) -> None:
    r = rows(small_ledger)
    set_state(small_ledger, 5, r[4][1].replace(b"Player", b"Playor"))
    set_state(small_ledger, 7, r[6][1].replace(b'"name":', b'"name": '))
    with sqlite3.connect(small_ledger.text) as db:
        db.execute("DELETE FROM stored_events WHERE originator_version=9")
    found = codes_at(audit(small_ledger))
    assert {("bad_signature", 5), ("non_canonical", 7), ("seq_gap", 9)} <= found


def test_bundle_tampering_is_detected_too(small_ledger: Location, tmp_path: Path) -> None:
    out = tmp_path / "bundle"
    with Ledger(small_ledger) as led:
        export_bundle(led, LOG, out, checkpoint_dir(small_ledger, None, LOG))
    assert verify_bundle(out).ok
    lines = (out / "log.jsonl").read_bytes().split(b"\n")
    (out / "log.jsonl").write_bytes(b"\n".join(lines[:-3] + [b""]))
    report = verify_bundle(out)
    assert not report.ok
    assert any(f.code == "checkpoint_beyond_log" for f in report.findings)


def test_signature_of_other_key_with_same_id_field(small_ledger: Location) -> None:
    """An event whose actor names the head judge but is signed by another key."""
    last_v, last = rows(small_ledger)[-1]
    ev = seal(log=LOG, seq=last_v + 1, prev=hashlib.sha256(last).hexdigest(),
              time="2013-06-01T10:00:00.000000Z",
              body=PlayerRegistered(number=77, name="X"), signer=STRANGER)
    obj = msgspec.json.decode(ev.leaf)
    obj["event"]["actor"] = HJ.key_id
    forged = msgspec.json.encode(obj, order="sorted")
    append_raw(small_ledger, last_v + 1, "player_registered", forged)
    assert ("bad_signature", last_v + 1) in codes_at(audit(small_ledger))
    assert base64.b64decode(obj["sig"])  # the forged sig is well-formed, just wrong
    shutil.rmtree(Path(small_ledger.text).parent / "unused", ignore_errors=True)


def test_hostile_body_does_not_stop_the_audit(small_ledger: Location) -> None:
    """A correctly signed event whose body makes no sense for the state is a finding."""
    from ledger.formats.match.events import ResultRecorded
    from ledger.formats.match.model import LossReason, Outcome

    leaf = forge_next(small_ledger, ResultRecorded(
        round=7, table=3, winner=None, losers=[9999], outcome=Outcome.DROP,
        loss_reasons=[LossReason.DROP_AFTER_PAIRING]), HJ)
    seq = parse_leaf(leaf).event.seq
    report = audit(small_ledger)
    assert not report.ok and any(f.seq == seq for f in report.findings)
