"""THREATS.md as tests: every tamper row that applies to what exists, named after the
attack, run against the SQLite file, an exported bundle and (where rows are what the
attack changes) PostgreSQL.  docs/AUDIT.md §7 maps each row to its test.

Each test builds one small real ledger (real keys, real signatures), reads its rows and
notes as an ``Image``, applies the attack to the image, writes the image back to the
backend under test with plain SQL or plain files, and audits it as an auditor would.
Rows covered elsewhere: T17/T18 ``test_merkle_vectors``, T20 ``test_ed25519_wycheproof``,
T24 ``test_draw_v1`` + ``test_draw_v1_js_port`` here, T27/T28 ``test_witness``,
F1 (SQLite) ``test_crash_safety``, F3 ``test_concurrency``, F6 ``test_hotc_events``.
The seed rows (T15, T16, T21–T23) come with the randomness issue.
"""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import msgspec
import pytest

from audit.findings import Report
from audit.verify import verify_bundle, verify_ledger
from ledger.core.draw import draw_v1
from ledger.errors import UsageError, VerificationError
from ledger.formats.simulation import demo_key, simulate
from ledger.proofs.checkpoint import Checkpoint
from ledger.proofs.checkpoint_store import (
    checkpoint_dir,
    inclusion,
    write_checkpoint,
)
from ledger.proofs.merkle import ProofError
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.clock import FixedClock
from ledger.wire.events import DrawMade, PlayerRegistered, Role
from ledger.wire.keys import Signer
from tests.conftest import HJ, JUDGE, SCOREKEEPER, STRANGER, build_small, public
from tests.helpers.checks import delete_pg_tournament, pg_skip_reason, pg_url, unique_log
from tests.helpers.forgery import (
    Image,
    _bundle,
    _replace_rows,
    chained_next,
    note_for,
    resign_from,
)

PG = pytest.param("postgres", marks=[pytest.mark.postgres, pytest.mark.skipif(
    pg_skip_reason() is not None, reason=pg_skip_reason() or "")])
ROWS = ["sqlite", "bundle", PG]      # the attack edits stored rows: every backend
FILES = ["sqlite", "bundle"]         # the attack is on notes or bytes: the backend is moot


@dataclass
class World:
    backend: str
    tmp: Path
    log: str
    original: Image
    pg_logs: list[str] = field(default_factory=list)

    def audit(self, image: Image, *, published: Path | None = None) -> Report:
        pub = [published] if published is not None else []
        if self.backend == "bundle":
            d = self.tmp / f"bundle-{len(list(self.tmp.glob('bundle-*')))}"
            (d / "checkpoints").mkdir(parents=True)
            (d / "log.jsonl").write_bytes(b"".join(leaf + b"\n" for _v, leaf in image.rows))
            for name, note in image.notes.items():
                (d / "checkpoints" / name).write_bytes(note)
            return verify_bundle(d, published=pub)
        loc = self._location()
        _replace_rows(loc, image)
        cdir = checkpoint_dir(loc, self.tmp / "cp-audit", image.log)
        shutil.rmtree(cdir, ignore_errors=True)
        cdir.mkdir(parents=True)
        for name, note in image.notes.items():
            (cdir / name).write_bytes(note)
        return verify_ledger(loc, image.log, self.tmp / "cp-audit", published=pub)

    def _location(self) -> Location:
        if self.backend == "postgres":
            return Location(pg_url())
        return Location(str(self.tmp / "t.db"))


@pytest.fixture(params=ROWS)
def world(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[World]:
    yield from _world(request.param, tmp_path)


@pytest.fixture(params=FILES)
def fworld(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[World]:
    yield from _world(request.param, tmp_path)


def _world(backend: str, tmp_path: Path) -> Iterator[World]:
    log = unique_log("thr") if backend == "postgres" else "t1"
    lite = build_small(tmp_path / "t.db", log=log)
    with Ledger(lite, readonly=True) as led:
        rows = list(led.raw_leaves(log))
    cdir = checkpoint_dir(lite, None, log)
    notes = {p.name: p.read_bytes() for p in sorted(cdir.glob("*.note"))}
    w = World(backend, tmp_path, log, Image(log, rows, notes))
    if backend == "postgres":
        with Ledger(Location(pg_url()), create=True):
            pass  # the tables exist once a ledger opened them
        w.pg_logs.append(log)
    try:
        yield w
    finally:
        if backend == "postgres":
            with Ledger(Location(pg_url())) as led:
                delete_pg_tournament(led, log)


def codes(report: Report) -> set[tuple[str, int | None]]:
    return {(f.code, f.seq) for f in report.findings}


def codeset(report: Report) -> set[str]:
    return {f.code for f in report.findings}


# -- T1–T14 ----------------------------------------------------------------------------------

def test_t1_byte_flipped_in_an_event_body(world: World) -> None:
    rows = list(world.original.rows)
    v, leaf = rows[4]
    rows[4] = (v, leaf.replace(b"Player 2", b"Player 9"))
    found = codes(world.audit(replace(world.original, rows=rows)))
    assert ("bad_signature", v) in found and ("chain_broken", v + 1) in found


@pytest.mark.parametrize("variant", ["whitespace", "escape", "key_order"])
def test_t2_same_json_value_different_bytes(world: World, variant: str) -> None:
    rows = list(world.original.rows)
    v, leaf = rows[3]
    if variant == "whitespace":
        bad = leaf.replace(b'"seq":', b'"seq": ', 1)
    elif variant == "escape":
        bad = leaf.replace(b"Player 1", b"Pl\\u0061yer 1")
    else:
        bad = b'{"sig":' + leaf[leaf.rindex(b',"sig":') + 7:-1] + b',"event":' + \
            leaf[len(b'{"event":'):leaf.rindex(b',"sig":')] + b"}"
    assert bad != leaf and msgspec.json.decode(bad) == msgspec.json.decode(leaf)
    rows[3] = (v, bad)
    report = world.audit(replace(world.original, rows=rows))
    assert ("non_canonical", v) in codes(report) and not report.ok


def test_t3_duplicate_key_smuggled_in(world: World) -> None:
    rows = list(world.original.rows)
    v, leaf = rows[3]
    rows[3] = (v, leaf.replace(b'"name":"Player 1"', b'"name":"Mallory","name":"Player 1"'))
    report = world.audit(replace(world.original, rows=rows))
    assert ("non_canonical", v) in codes(report)


def test_t4_valid_key_wrong_role(world: World) -> None:
    rows = list(world.original.rows)
    rows.append(chained_next(rows, PlayerRegistered(number=99, name="Late"), JUDGE,
                             world.log))
    assert ("role_not_permitted", len(rows)) in codes(world.audit(
        replace(world.original, rows=rows)))


def test_t5_outsider_key(world: World) -> None:
    rows = list(world.original.rows)
    rows.append(chained_next(rows, PlayerRegistered(number=99, name="Late"), STRANGER,
                             world.log))
    assert ("unknown_key", len(rows)) in codes(world.audit(replace(world.original, rows=rows)))


def test_t6_event_deleted(world: World) -> None:
    rows = list(world.original.rows)
    del rows[5]
    if world.backend == "bundle":  # a bundle has no stored versions: positions shift
        rows = [(i, leaf) for i, (_v, leaf) in enumerate(rows, start=1)]
    found = codes(world.audit(replace(world.original, rows=rows)))
    assert ("chain_broken", 6) in found
    assert ("seq_gap", 6) in found or ("seq_mismatch", 6) in found


def test_t7_events_reordered_or_inserted(world: World) -> None:
    rows = list(world.original.rows)
    (va, a), (vb, b) = rows[4], rows[5]
    rows[4], rows[5] = (va, b), (vb, a)
    found = codes(world.audit(replace(world.original, rows=rows)))
    assert ("seq_mismatch", va) in found and ("chain_broken", va) in found
    rows = list(world.original.rows)
    rows.insert(5, rows[4])
    rows = [(i, leaf) for i, (_v, leaf) in enumerate(rows, start=1)]
    found = codes(world.audit(replace(world.original, rows=rows)))
    assert ("seq_mismatch", 6) in found and ("chain_broken", 6) in found


def test_t8_insider_rewrites_history_and_resigns_everything(world: World) -> None:
    """With the head-judge key the rewritten log and its own notes are self-consistent;
    only the note published earlier (kept by the auditor) catches it."""
    published = world.tmp / "published"
    published.mkdir()
    for name, note in world.original.notes.items():
        (published / f"published-{name}").write_bytes(note)
    rows = resign_from(world.original.rows, 4, lambda b: {**b, "name": "Mallory"})
    forged = Image(world.log, rows, {f"{len(rows)}.note": note_for(rows, world.log)})
    alone = world.audit(forged)
    assert alone.ok, alone.findings  # nothing inside the rewritten log betrays it
    found = codeset(world.audit(forged, published=published))
    assert {"checkpoint_root_mismatch", "checkpoint_fork"} <= found


def test_t9_tail_truncated_rollback(world: World) -> None:
    published = world.tmp / "published"
    published.mkdir()
    for name, note in world.original.notes.items():
        (published / name).write_bytes(note)
    rows = world.original.rows[:-2]
    report = world.audit(Image(world.log, rows, {f"{len(rows)}.note": note_for(rows,
                                                                              world.log)}),
                         published=published)
    assert "checkpoint_beyond_log" in codeset(report) and not report.ok


def test_t10_log_key_signs_a_fork_two_roots_at_one_size(fworld: World) -> None:
    rows = fworld.original.rows
    other = resign_from(rows, 4, lambda b: {**b, "name": "Mallory"})
    notes = {**fworld.original.notes, "equivocation.note": note_for(other, fworld.log)}
    found = codeset(fworld.audit(replace(fworld.original, notes=notes)))
    assert "checkpoint_fork" in found and "checkpoint_root_mismatch" in found


def test_t11_checkpoint_signed_only_by_unknown_keys(fworld: World) -> None:
    rows = fworld.original.rows
    only_stranger = note_for(rows, fworld.log, STRANGER)
    found = codes(fworld.audit(replace(fworld.original, notes={"x.note": only_stranger})))
    assert ("checkpoint_bad_signature", len(rows)) in found
    # unknown extra signatures next to the head judge's are ignored (C2SP signed-note)
    good = note_for(rows, fworld.log)
    extra = good + only_stranger[only_stranger.rindex(b"\n\n") + 2:].replace(
        f"tourney/{fworld.log}".encode(), b"someone-else")
    report = fworld.audit(replace(fworld.original, notes={"y.note": extra}))
    assert report.ok, report.findings


def test_t12_event_replayed_from_another_tournament(world: World) -> None:
    other = build_small(world.tmp / "other.db", log="other")
    with Ledger(other, readonly=True) as led:
        foreign = list(led.raw_leaves("other"))
    rows = list(world.original.rows)
    rows[4] = (rows[4][0], foreign[4][1])
    assert ("log_mismatch", 5) in codes(world.audit(replace(world.original, rows=rows)))


def test_t13_revoked_key_signs_after_revocation_only(world: World) -> None:
    from ledger.wire.events import OfficialRevoked
    rows = list(world.original.rows)
    rows.append(chained_next(rows, OfficialRevoked(key_id=SCOREKEEPER.key_id, reason="x"),
                             HJ, world.log))
    rows.append(chained_next(rows, PlayerRegistered(number=77, name="Late"), SCOREKEEPER,
                             world.log))
    report = world.audit(replace(world.original, rows=rows))
    bad = {(c, s) for c, s in codes(report) if c in {"key_revoked", "unknown_key"}}
    assert bad == {("key_revoked", len(rows))}  # earlier scorekeeper events stay valid


def test_t14_draw_result_edited_and_resigned_by_the_head_judge(world: World) -> None:
    rows = world.original.rows
    draw_v = next(v for v, leaf in rows if b'"kind":"draw_made"' in leaf)
    forged = resign_from(rows, draw_v, lambda b: {**b, "result": sorted(b["result"])})
    image = Image(world.log, forged, {f"{len(forged)}.note": note_for(forged, world.log)})
    assert ("draw_mismatch", draw_v) in codes(world.audit(image))


# -- T19, T24–T26, T29, T30 --------------------------------------------------------------

def test_t19_a_size_and_root_not_from_one_checkpoint_cannot_be_passed() -> None:
    import ledger.proofs.merkle as merkle
    from ledger.proofs.checkpoint import verify_consistency_between, verify_inclusion_at
    public = [n for n in dir(merkle) if not n.startswith("_")]
    assert not [n for n in public if n.startswith("verify") or n.endswith("_ok")]
    with pytest.raises(UsageError, match="Checkpoint"):
        verify_inclusion_at((5, b"\0" * 32), b"\0" * 32, 0, [])  # type: ignore[arg-type]
    cp = Checkpoint("tourney/x", 1, b"\0" * 32)
    with pytest.raises(UsageError, match="Checkpoint"):
        verify_consistency_between(cp, (2, b"\0" * 32), [])  # type: ignore[arg-type]


JS_DRAW = Path(__file__).with_name("js") / "draw_v1.mjs"


@pytest.mark.skipif(shutil.which("node") is None, reason="node (Debian nodejs) not installed")
def test_t24_draw_v1_known_answers_in_a_second_language() -> None:
    """A 30-line JavaScript port of docs/DESIGN.md §6 agrees with DRAW-v1 here."""
    seed = hashlib.sha256(b"tourney-seed/v1\x00example seed").digest()
    cases = [("T2026-001/R1/pairing", list(range(1, 17))),
             ("T2026-001/R2/pairing", list(range(1, 17))),
             ("T2026-001/cut", [5, 3, 9, 1, 7]), ("x/€/ünï", [4, 2, 99, 1000, 7, 3])]
    for ctx, items in cases:
        out = subprocess.run(["node", str(JS_DRAW), seed.hex(), ctx,
                              ",".join(map(str, items))], capture_output=True, text=True,
                             timeout=30, check=True).stdout.strip()
        assert [int(x) for x in out.split(",")] == draw_v1(seed, ctx, items)
    assert draw_v1(seed, "T2026-001/cut", [5, 3, 9, 1, 7]) == [1, 9, 7, 5, 3]


def _sim_rows(tmp: Path) -> tuple[Location, str, list[tuple[int, bytes]]]:
    loc = Location(str(tmp / "sim.db"))
    with Ledger(loc, create=True, clock=FixedClock()) as led:
        simulate(led, log="s", players=6, seed_text="t25", cut=2,
                 checkpoints=lambda: checkpoint_dir(loc, None, "s"))
        rows = list(led.raw_leaves("s"))
    return loc, "s", rows


def test_t25_draw_input_not_the_sorted_active_roster(tmp_path: Path) -> None:
    loc, log, rows = _sim_rows(tmp_path)
    sim = {k.key_id: k for k in (demo_key("t25", "head-judge"), demo_key("t25", "scorekeeper"))}
    pv = next(v for v, leaf in rows if b'"kind":"draw_made"' in leaf and b"/R1/pairing" in leaf)
    doc = msgspec.json.decode(rows[pv - 1][1])["event"]["body"]
    seed = bytes.fromhex(doc["seed"])

    def with_items(items: list[int]) -> Callable[[dict[str, Any]], dict[str, Any]]:
        return lambda b: {**b, "items": items, "result": draw_v1(seed, b["ctx"], items)}

    for items in (sorted(doc["items"]) + [99],  # an unregistered player
                  sorted(doc["items"])[1:]):     # an active player left out
        forged = resign_from(rows, pv, with_items(items), sim)
        report = verify_bundle(_bundle(tmp_path / f"b{len(items)}", forged))
        # the draw itself replays; the round that used it is refused: not the roster
        paired = [f for f in report.findings if f.seq is not None and f.seq > pv
                  and f.code in {"pairing_mismatch", "draw_mismatch"}]
        assert paired and "not over" in paired[0].message, report.findings
    unsorted = list(reversed(doc["items"]))
    forged = resign_from(rows, pv, lambda b: {**b, "items": unsorted}, sim)
    assert ("draw_mismatch", pv) in codes(verify_bundle(_bundle(tmp_path / "u", forged)))


def test_t26_head_judge_key_rotation_for_checkpoints(tmp_path: Path) -> None:
    """No TUF root exists; its analogue is the head-judge key set in the log: a note
    signed by a head judge added later is accepted, one signed by a revoked head judge
    at a size after the revocation is rejected, an unused extra signature is ignored."""
    loc = build_small(tmp_path / "t.db")
    new_hj = Signer.from_seed(bytes([9]) * 32, "HJ two")
    with Ledger(loc) as led:
        led.write("t1", lambda t, now: t.add_official(public(new_hj), Role.HEAD_JUDGE,
                                                      "HJ two", HJ, now))
        rows = list(led.raw_leaves("t1"))
    ok = verify_ledger(loc, "t1", None, published=[_notes(tmp_path / "a", {
        "n.note": note_for(rows, "t1", new_hj)})])
    assert ok.ok, ok.findings
    with Ledger(loc) as led:
        led.write("t1", lambda t, now: t.revoke_official(new_hj.key_id, "left", HJ, now))
        rows = list(led.raw_leaves("t1"))
    late = verify_ledger(loc, "t1", None, published=[_notes(tmp_path / "b", {
        "late.note": note_for(rows, "t1", new_hj)})])
    assert ("checkpoint_bad_signature", len(rows)) in codes(late)


def _notes(d: Path, notes: dict[str, bytes]) -> Path:
    d.mkdir(parents=True)
    for name, note in notes.items():
        (d / name).write_bytes(note)
    return d


def test_t29_event_or_proof_spliced_from_another_ledger_or_index(fworld: World) -> None:
    other = build_small(fworld.tmp / "other.db", log="other")
    with Ledger(other, readonly=True) as led:
        foreign_note = note_for(list(led.raw_leaves("other")), "other")
    report = fworld.audit(replace(fworld.original, notes={
        **fworld.original.notes, "spliced.note": foreign_note}))
    assert "checkpoint_origin_mismatch" in codeset(report)
    # an inclusion proof of seq 3 does not prove seq 4 (index binding)
    loc = build_small(fworld.tmp / "p.db")
    note = next(checkpoint_dir(loc, None, "t1").glob("*.note")).read_bytes()
    with Ledger(loc) as led:
        res = inclusion(led, "t1", 3, note)
        from ledger.proofs.checkpoint import verify_inclusion_at
        from ledger.proofs.checkpoint_store import trusted_checkpoint
        cp = trusted_checkpoint(led.load("t1").state, note)
    with pytest.raises(ProofError):
        verify_inclusion_at(cp, res.leaf_hash, 3, res.proof)


def test_t30_oversized_event_many_signatures_non_utf8_control_characters(
        fworld: World) -> None:
    rows = list(fworld.original.rows)
    rows.append(chained_next(rows, PlayerRegistered(number=50, name="Big", deck="x" * 200_000),
                             SCOREKEEPER, fworld.log))
    rows.append(chained_next(rows, PlayerRegistered(number=51, name="\x1b[2J\u202eEvil"),
                             SCOREKEEPER, fworld.log))
    n = len(rows)
    report = fworld.audit(Image(fworld.log, rows, {"n.note": note_for(rows, fworld.log)}))
    assert ("oversized", n - 1) in codes(report) and ("unsafe_text", n) in codes(report)
    # a note with 15 extra unknown signatures passes; more than the limit is refused
    good = note_for(fworld.original.rows, fworld.log)
    line = good[good.rindex(b"\n\n") + 2:].replace(f"tourney/{fworld.log}".encode(), b"k")
    report = fworld.audit(replace(fworld.original, notes={"a.note": good + line * 15}))
    assert report.ok, report.findings
    report = fworld.audit(replace(fworld.original, notes={"b.note": good + line * 120}))
    assert "checkpoint_malformed" in codeset(report)
    # a non-UTF-8 leaf
    rows = list(fworld.original.rows)
    rows[3] = (rows[3][0], rows[3][1].replace(b"Player 1", b"Player \xff"))
    assert ("malformed", 4) in codes(fworld.audit(replace(fworld.original, rows=rows)))


# -- fault cases -------------------------------------------------------------------------

def test_f1_torn_last_line_of_a_bundle(tmp_path: Path) -> None:
    loc = build_small(tmp_path / "t.db")
    with Ledger(loc, readonly=True) as led:
        rows = list(led.raw_leaves("t1"))
    notes = {p.name: p.read_bytes() for p in checkpoint_dir(loc, None, "t1").glob("*.note")}
    torn = rows[:-1] + [(rows[-1][0], rows[-1][1][:37])]
    report = verify_bundle(_bundle(tmp_path / "b", torn, notes))
    assert ("malformed", len(rows)) in codes(report) and not report.ok
    # every complete line before it still verifies: no other event is blamed
    assert {s for c, s in codes(report) if c in {"bad_signature", "chain_broken"}} <= {
        len(rows)}


def test_f2_checkpoint_written_after_the_leaf_atomically_and_durably(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import ledger.proofs.checkpoint_store as store
    synced: list[Path] = []
    real = store.fsync_directory
    monkeypatch.setattr(store, "fsync_directory", lambda d: (synced.append(d), real(d)))
    loc = build_small(tmp_path / "t.db")
    cdir = checkpoint_dir(loc, None, "t1")
    assert synced == [cdir]  # the rename is made durable
    # a note half-written when the power went: the temp file is never read as a note
    (cdir / "99.tmp").write_bytes(b"tourney/t1\n99\n")
    report = verify_ledger(loc, "t1", None)
    assert report.ok and report.checkpoints == 1
    with Ledger(loc, readonly=True) as led:
        assert max(int(p.stem) for p in cdir.glob("*.note")) <= len(list(led.raw_leaves("t1")))


def test_f4_backwards_clock_refused_beyond_tolerance(tmp_path: Path) -> None:
    loc = build_small(tmp_path / "t.db")  # FixedClock from 09:00:00, one second a step
    from ledger.errors import RuleError
    with Ledger(loc, clock=FixedClock("2013-06-01T08:50:00.000000Z")) as led:
        with pytest.raises(RuleError, match="tolerance is 300 s"):
            led.write("t1", lambda t, now: t.record_seed(material="m", source="s",
                                                         reason="r", signer=HJ, time=now))
    with Ledger(loc, clock=FixedClock("2013-06-01T08:58:00.000000Z")) as led:
        led.write("t1", lambda t, now: t.record_seed(material="m", source="s", reason="r",
                                                     signer=HJ, time=now))
    assert verify_ledger(loc, "t1", None).ok


def test_f5_bit_rot_in_an_old_line_is_localised(world: World) -> None:
    rows = list(world.original.rows)
    v, leaf = rows[2]
    rows[2] = (v, leaf[:60] + bytes([leaf[60] ^ 0x04]) + leaf[61:])
    report = world.audit(replace(world.original, rows=rows))
    errors = [f for f in report.findings if f.severity == "error" and f.seq is not None]
    assert min(f.seq for f in errors if f.seq is not None) == v
    assert ("chain_broken", v + 1) in codes(report)


def test_f7_offline_draw_computed_later_audits_identically(tmp_path: Path) -> None:
    loc = build_small(tmp_path / "t.db")
    with Ledger(loc, clock=FixedClock("2013-06-02T18:00:00.000000Z")) as led:  # next day
        led.write("t1", lambda t, now: t.record_seed(
            material="offline dice 4 4 1", source="dice", reason="offline draw",
            ctx="t1/offline", signer=HJ, time=now))
        ev = led.write("t1", lambda t, now: t.make_draw(ctx="t1/offline", items=[3, 1, 2],
                                                        universe="tables", signer=HJ,
                                                        time=now))
        write_checkpoint(led, "t1", HJ, checkpoint_dir(loc, None, "t1"))
    body = ev.body
    assert isinstance(body, DrawMade)
    seed_leaf = msgspec.json.decode(Ledger(loc, readonly=True).raw_leaf("t1", body.seed_seq)
                                    or b"{}")
    assert body.result == draw_v1(bytes.fromhex(seed_leaf["event"]["body"]["seed"]),
                                  "t1/offline", [1, 2, 3])
    assert verify_ledger(loc, "t1", None).ok


def test_refused_write_on_a_tampered_head_leaves_bytes_unchanged(tmp_path: Path) -> None:
    """F-row companion of defect 8: the head judge never signs on top of a tampered tail."""
    loc = build_small(tmp_path / "t.db")
    with sqlite3.connect(loc.text) as db:
        v, leaf = db.execute("SELECT originator_version, state FROM stored_events ORDER BY "
                             "originator_version DESC LIMIT 1").fetchone()
        db.execute("UPDATE stored_events SET state=? WHERE originator_version=?",
                   (bytes(leaf).replace(b'"players":6', b'"players":7'), v))
    with sqlite3.connect(loc.text) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    before = Path(loc.text).read_bytes()
    with Ledger(loc) as led, pytest.raises(VerificationError, match="does not verify"):
        led.write("t1", lambda t, now: t.record_seed(material="m", source="s", reason="r",
                                                     signer=HJ, time=now))
    with sqlite3.connect(loc.text) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    assert Path(loc.text).read_bytes() == before
