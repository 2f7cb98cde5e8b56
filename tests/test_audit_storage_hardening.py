"""Issue 12's ten defects, one test (or a few) named after each, mostly as real
``tourney`` subprocesses on real files: published checkpoints bind every audit, every note
is read, read-only media, exit codes for storage and environment errors, nothing written to
a file without a tournament, claimed times, integer range, verified caches, safe display
text, and proofs that take checkpoints only."""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

from audit.verify import verify_bundle, verify_ledger
from ledger.proofs.checkpoint import Checkpoint, sign_checkpoint
from ledger.proofs.checkpoint_store import checkpoint_dir, origin_of
from ledger.storage.location import Location
from ledger.storage.snapshots import SNAPSHOT_INTERVAL
from ledger.storage.store import Ledger
from ledger.wire.events import PlayerRegistered, Role, parse_leaf, seal
from tests.conftest import HJ, SCOREKEEPER, STRANGER, build_small
from tests.helpers.checks import note_dir
from tests.helpers.cli_runner import TOURNEY, Cli, raw_bytes, snapshot


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> tuple[Cli, Path, str]:
    """A 16-player event with a checkpoint, written through the CLI."""
    d = tmp_path_factory.mktemp("hard")
    cli = Cli(d, d / "t.db")
    cli("keys", "new", "--name", "hj", "--out", "hj.pem")
    log = cli("init", "--name", "Hard Open", "--format", "hotc-swiss-de", "--cut", "4",
              "--key", "hj.pem", "--json").doc["tournament"]
    for i in range(1, 17):
        cli("player", "add", f"Player {i}", "--key", "hj.pem")
    cli("registration", "close", "--key", "hj.pem")
    return cli, d, log


def fresh_copy(event: tuple[Cli, Path, str], tmp_path: Path) -> tuple[Cli, Path, str]:
    cli, d, log = event
    snapshot(d / "t.db")
    shutil.copy(d / "t.db", tmp_path / "t.db")
    shutil.copytree(d / "t.db.checkpoints", tmp_path / "t.db.checkpoints")
    for k in ("hj.pem", "hj.pem.pub"):
        shutil.copy(d / k, tmp_path / k)
    return Cli(tmp_path, tmp_path / "t.db"), tmp_path, log


# -- 1. published checkpoints bind every audit ------------------------------------------

def _rolled_back_bundle(cli: Cli, d: Path, log: str) -> tuple[Path, Path]:
    """The auditor's published notes, and a bundle rolled back by two events whose own
    note was re-signed with the head-judge key (self-consistent on its own)."""
    from ledger.wire.keys import load_signer
    from tests.helpers.forgery import note_for
    published = d / "published"
    published.mkdir()
    for p in note_dir(d / "t.db.checkpoints", log).glob("*.note"):
        shutil.copy(p, published / f"published-{p.name}")
    cli("export", "bundle")
    lines = (d / "bundle" / "log.jsonl").read_bytes().split(b"\n")[:-1]
    rows = list(enumerate(lines[:-2], start=1))
    (d / "bundle" / "log.jsonl").write_bytes(b"".join(x + b"\n" for x in lines[:-2]))
    for p in (d / "bundle" / "checkpoints").glob("*.note"):
        p.unlink()
    (d / "bundle" / "checkpoints" / f"{len(rows)}.note").write_bytes(
        note_for(rows, log, load_signer(d / "hj.pem")))
    return published, d / "bundle"


def test_defect1_published_checkpoints_bind_every_audit(event: tuple[Cli, Path, str],
                                                        tmp_path: Path) -> None:
    cli, d, log = fresh_copy(event, tmp_path)
    published, bundle = _rolled_back_bundle(cli, d, log)
    assert cli("audit", "verify", str(bundle), "--json").doc["ok"]  # alone it passes
    for args in (["--checkpoints", str(published), "audit", "verify", str(bundle)],
                 ["audit", "verify", str(bundle), "--checkpoints", str(published)]):
        doc = cli(*args, "--json", code=4).doc
        assert "checkpoint_beyond_log" in {f["code"] for f in doc["findings"]}
    # the ledger itself, with the published notes: clean
    assert cli("audit", "verify", "--checkpoints", str(published), "--json").doc["ok"]


def test_defect1_checkpoints_option_that_cannot_apply_is_a_usage_error(
        event: tuple[Cli, Path, str], tmp_path: Path) -> None:
    cli, d, log = fresh_copy(event, tmp_path)
    (d / "a").mkdir()
    (d / "b").mkdir()
    before = snapshot(d / "t.db")
    cli("--checkpoints", "a", "player", "add", "Late", "--key", "hj.pem", code=2)
    cli("--checkpoints", "a", "--checkpoints", "b", "checkpoint", "--key", "hj.pem", code=2)
    cli("audit", "verify", "--checkpoints", "no-such-dir", code=2)
    assert snapshot(d / "t.db") == before
    # an empty published directory binds nothing: a usage error (issue 21, item 15)
    cli("--checkpoints", "a", "--checkpoints", "b", "audit", "verify", "--json", code=2)
    for p in note_dir(d / "t.db.checkpoints", log).glob("*.note"):
        shutil.copy(p, d / "a" / p.name)
        shutil.copy(p, d / "b" / p.name)
    assert cli("--checkpoints", "a", "--checkpoints", "b", "audit", "verify",
               "--json").doc["ok"]


def test_defect1_published_checkpoints_bind_a_postgres_audit(tmp_path: Path) -> None:
    from tests.helpers.checks import delete_pg_tournament, pg_skip_reason, pg_url, unique_log
    if pg_skip_reason():
        pytest.skip(pg_skip_reason() or "")
    from tests.helpers.forgery import Image, _replace_rows, note_for
    log = unique_log("pub")
    lite = build_small(tmp_path / "t.db", log=log)
    with Ledger(lite, readonly=True) as led:
        rows = list(led.raw_leaves(log))
    pg = Location(pg_url())
    try:
        with Ledger(pg, create=True):
            pass
        _replace_rows(pg, Image(log, rows[:-2]))
        published = tmp_path / "pub"
        published.mkdir()
        (published / "kept.note").write_bytes(note_for(rows, log))
        report = verify_ledger(pg, log, tmp_path / "own", published=[published])
        assert "checkpoint_beyond_log" in {f.code for f in report.findings}
    finally:
        with Ledger(pg) as led:
            delete_pg_tournament(led, log)


# -- 2. every note is read -----------------------------------------------------------------

def test_defect2_every_note_is_read_and_a_fork_fires_whatever_the_names(
        tmp_path: Path) -> None:
    loc = build_small(tmp_path / "t.db")
    cdir = checkpoint_dir(loc, None, "t1")
    size = int(next(cdir.glob("*.note")).stem)
    other = Checkpoint(origin_of("t1"), size, hashlib.sha256(b"equivocation").digest())
    (cdir / "published-46.note").write_bytes(sign_checkpoint(other, other.origin,
                                                             HJ.private_key))
    report = verify_ledger(loc, "t1", None)
    assert {"checkpoint_fork", "checkpoint_root_mismatch"} <= {f.code for f in report.findings}
    assert report.checkpoints == 2


# -- 3. read-only media --------------------------------------------------------------------

def _ro_run(d: Path, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run tourney with ``d`` bind-mounted read-only in a private mount namespace."""
    cmd = " ".join(["mount --bind", str(d), str(d), "&& mount -o remount,bind,ro", str(d),
                    str(d), "&& exec", *(f"'{a}'" for a in [*TOURNEY, *args])])
    return subprocess.run(["unshare", "--map-root-user", "--mount", "sh", "-c", cmd],
                          cwd=d, env=env, capture_output=True, text=True, timeout=60)


def _can_mount_ro(tmp: Path) -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(["unshare", "--map-root-user", "--mount", "sh", "-c",
                            f"mount --bind {tmp} {tmp} && mount -o remount,bind,ro {tmp} "
                            f"{tmp} && ! touch {tmp}/x"], capture_output=True)
    return probe.returncode == 0


def test_defect3_read_commands_work_on_read_only_media(event: tuple[Cli, Path, str],
                                                       tmp_path: Path) -> None:
    if not _can_mount_ro(tmp_path):
        pytest.skip("no unprivileged read-only bind mount here (unshare --map-root-user)")
    cli, d, log = fresh_copy(event, tmp_path)
    before = raw_bytes(d / "t.db")
    assert not (d / "t.db-wal").exists() and not (d / "t.db-shm").exists()
    out = tmp_path.parent / f"{tmp_path.name}-export"
    for args in (["audit", "verify", "--json"], ["standings", "--json"], ["log", "--json"],
                 ["info", "--json"], ["export", str(out), "--json"]):
        run = _ro_run(d, *args, env=cli.env)
        assert run.returncode == 0, (args, run.stderr)
        assert msgspec.json.decode(run.stdout)  # one JSON document
    assert verify_bundle(out).ok
    run = _ro_run(d, "player", "add", "Late", "--key", "hj.pem", env=cli.env)
    assert run.returncode == 5, run.stderr
    assert "read-only" in run.stderr and len(run.stderr.strip().splitlines()) == 1
    assert raw_bytes(d / "t.db") == before


# -- 4. exit codes for storage and environment errors ---------------------------------------

def test_defect4_storage_and_environment_errors_have_their_exit_codes(
        event: tuple[Cli, Path, str], tmp_path: Path) -> None:
    cli, d, log = fresh_copy(event, tmp_path)
    (d / "notes.txt").write_text("not a database at all\n" * 20)
    run = cli("--ledger", "notes.txt", "standings", code=5)
    assert "is not a tourney ledger" in run.err
    cli("audit", "verify", "notes.txt", code=5)
    truncated = d / "truncated.db"
    data = (d / "t.db").read_bytes()
    truncated.write_bytes(data[:len(data) // 2])
    for args in (["standings"], ["audit", "verify", str(truncated)], ["log"]):
        run = cli("--ledger", str(truncated), *args, code=5)
        assert "internal error" not in run.err
    (d / "somedir").mkdir()
    run = cli("--ledger", "somedir", "init", "--name", "X", "--format", "hotc-swiss-de",
              "--key", "hj.pem", code=2)
    assert "is a directory" in run.err
    run = cli("standings", code=2, env={"TOURNEY_FIXED_CLOCK": "yesterday"})
    assert "TOURNEY_FIXED_CLOCK" in run.err


# -- 5. nothing written to a file that holds no tournament ----------------------------------

@pytest.mark.parametrize("kind", ["empty", "foreign"])
def test_defect5_nothing_written_to_a_file_that_holds_no_tournament(
        event: tuple[Cli, Path, str], tmp_path: Path, kind: str) -> None:
    cli, d, log = fresh_copy(event, tmp_path)
    f = d / f"{kind}.db"
    if kind == "empty":
        f.write_bytes(b"")
    else:
        with sqlite3.connect(f) as db:
            db.execute("CREATE TABLE recipes (name TEXT)")
            db.execute("INSERT INTO recipes VALUES ('soup')")
    before = f.read_bytes()
    for args in (["audit", "verify", str(f)], ["--ledger", str(f), "standings"],
                 ["--ledger", str(f), "player", "add", "X", "--key", "hj.pem"],
                 ["--ledger", str(f), "checkpoint", "--key", "hj.pem"]):
        cli(*args, code=5)
    assert f.read_bytes() == before
    assert not f.with_name(f.name + "-wal").exists()
    if kind == "foreign":  # init refuses to move into another program's database
        cli("--ledger", str(f), "init", "--name", "X", "--format", "hotc-swiss-de",
            "--key", "hj.pem", code=5)
        assert f.read_bytes() == before


# -- 6. claimed times ---------------------------------------------------------------------

def test_defect6_command_refuses_a_clock_behind_the_head_beyond_tolerance(
        event: tuple[Cli, Path, str], tmp_path: Path) -> None:
    cli, d, log = fresh_copy(event, tmp_path)
    before = snapshot(d / "t.db")
    run = cli("player", "list", code=0)  # reads are never refused for the clock
    run = cli("seed", "record", "--material", "m", "--source", "s", "--reason", "r",
              "--key", "hj.pem", code=3, env={"TOURNEY_FIXED_CLOCK":
                                              "2026-03-01T08:00:00.000000Z"})
    assert "tolerance is 300 s" in run.err
    assert snapshot(d / "t.db") == before
    cli("seed", "record", "--material", "m", "--source", "s", "--reason", "r", "--key",
        "hj.pem", env={"TOURNEY_FIXED_CLOCK": "2026-03-01T08:58:00.000000Z"})


def test_defect6_audit_flags_the_event_that_jumped_not_its_honest_successor(
        tmp_path: Path) -> None:
    from tests.helpers.forgery import chained_next
    loc = build_small(tmp_path / "t.db")
    with Ledger(loc, readonly=True) as led:
        rows = list(led.raw_leaves("t1"))
    rows = rows[:-1]  # drop registration_closed; register more players
    rows.append(chained_next(rows, PlayerRegistered(number=7, name="A"), SCOREKEEPER, "t1",
                             time="2099-01-01T00:00:00.000000Z"))
    for n in (8, 9):
        rows.append(chained_next(rows, PlayerRegistered(number=n, name=f"P{n}"), SCOREKEEPER,
                                 "t1", time="2013-06-01T09:01:00.000000Z"))
    from tests.helpers.forgery import _bundle
    report = verify_bundle(_bundle(tmp_path / "b", rows))
    timing = {(f.code, f.seq) for f in report.findings if f.code.startswith("time_")}
    jumped = len(rows) - 2
    assert timing == {("time_jump", jumped)}


def test_defect6_tolerance_is_a_genesis_parameter(event: tuple[Cli, Path, str],
                                                  tmp_path: Path) -> None:
    cli = Cli(tmp_path, tmp_path / "t.db")
    shutil.copy(event[1] / "hj.pem", tmp_path / "hj.pem")
    cli("init", "--name", "Strict", "--format", "hotc-swiss-de", "--time-tolerance", "30",
        "--key", "hj.pem")
    assert cli("info", "--json").doc["policy"]["time_tolerance_s"] == 30
    cli("player", "add", "A", "--key", "hj.pem", code=3,
        env={"TOURNEY_FIXED_CLOCK": "2026-03-01T08:59:00.000000Z"})


# -- 7. integer range on every path --------------------------------------------------------

def test_defect7_integer_above_2_53_minus_1_is_non_canonical_at_its_seq(
        tmp_path: Path) -> None:
    loc = build_small(tmp_path / "t.db")
    with Ledger(loc, readonly=True) as led:
        rows = list(led.raw_leaves("t1"))
    v, last = rows[-1]
    ev = {"v": 1, "log": "t1", "seq": v + 1, "prev": hashlib.sha256(last).hexdigest(),
          "time": "2013-06-01T09:00:30.000000Z", "kind": "draw_made",
          "actor": HJ.key_id, "body": {"ctx": "t1/big", "algorithm": "DRAW-v1",
                                       "seed": "00" * 32, "seed_seq": 2**53 + 5,
                                       "items": [1], "result": [1], "reason": ""}}
    import base64

    from ledger.wire.events import SIG_DOMAIN
    evb = msgspec.json.encode(ev, order="sorted")
    leaf = msgspec.json.encode({"event": ev, "sig": base64.b64encode(
        HJ.sign(SIG_DOMAIN + evb)).decode()}, order="sorted")
    assert parse_leaf(leaf).noncanonical is not None
    from tests.helpers.forgery import _bundle
    report = verify_bundle(_bundle(tmp_path / "b", [*rows, (v + 1, leaf)]))
    assert ("non_canonical", v + 1) in {(f.code, f.seq) for f in report.findings}


# -- 8. the command side never trusts an unverified cache -----------------------------------

def _edited_snapshot_makes_stranger_head_judge(loc: Location) -> None:
    from ledger.core.state import Official
    from ledger.storage.snapshots import _snap_decoder, _snap_encoder
    with sqlite3.connect(loc.text) as db:
        v, state = db.execute("SELECT originator_version, state FROM stored_snapshots "
                              "ORDER BY originator_version DESC LIMIT 1").fetchone()
        rec = _snap_decoder.decode(state)
        rec.state.officials[STRANGER.key_id] = Official(
            key_id=STRANGER.key_id, public_key=STRANGER.public_key_b64, name="Mallory",
            roles=[Role.HEAD_JUDGE], added_seq=2)
        db.execute("UPDATE stored_snapshots SET state=? WHERE originator_version=?",
                   (_snap_encoder.encode(msgspec.structs.replace(rec, state=rec.state)), v))


def test_defect8_edited_snapshot_never_lets_an_outsider_sign(tmp_path: Path) -> None:
    from ledger.errors import RuleError
    loc = build_small(tmp_path / "t.db", players=SNAPSHOT_INTERVAL)  # crosses a snapshot
    with sqlite3.connect(loc.text) as db:
        assert db.execute("SELECT count(*) FROM stored_snapshots").fetchone()[0] == 1
    _edited_snapshot_makes_stranger_head_judge(loc)
    with Ledger(loc) as led:
        assert STRANGER.key_id in led.load("t1").state.officials  # the cache lies …
        with pytest.raises(RuleError, match="not an official"):   # … and is not trusted
            led.write("t1", lambda t, now: t.record_seed(
                material="m", source="s", reason="r", signer=STRANGER, time=now))
        assert STRANGER.key_id not in led.load("t1").state.officials  # rebuilt
    assert verify_ledger(loc, "t1", None).ok


def test_defect8_snapshot_is_bound_to_the_leaf_hash_of_its_event(tmp_path: Path) -> None:
    loc = build_small(tmp_path / "t.db", players=SNAPSHOT_INTERVAL)
    from ledger.storage.snapshots import _snap_decoder
    with sqlite3.connect(loc.text) as db:
        v, state = db.execute("SELECT originator_version, state FROM stored_snapshots"
                              ).fetchone()
        leaf = db.execute("SELECT state FROM stored_events WHERE originator_version=?",
                          (v,)).fetchone()[0]
    assert _snap_decoder.decode(state).leaf_hash == hashlib.sha256(leaf).hexdigest()
    # a snapshot from another chain (here: another tournament's fold) is dropped
    other = build_small(tmp_path / "o.db", players=SNAPSHOT_INTERVAL)
    with sqlite3.connect(other.text) as db:
        foreign = db.execute("SELECT state FROM stored_snapshots").fetchone()[0]
    with sqlite3.connect(loc.text) as db:
        db.execute("UPDATE stored_snapshots SET state=?", (foreign,))
    with Ledger(loc) as led:
        led.write("t1", lambda t, now: t.record_seed(material="m", source="s", reason="r",
                                                     signer=HJ, time=now))
    assert verify_ledger(loc, "t1", None).ok


# -- 9. display text is safe ---------------------------------------------------------------

HOSTILE = ["\x1b[31mRed\x1b[0m", "Ada\u202eecalevol", "Bob\nAlice", "Nul\x00l", "C1\x85x",
           "Iso\u2066late", "x" * 101]


@pytest.mark.parametrize("name", HOSTILE)
def test_defect9_hostile_names_are_refused_and_nothing_is_written(
        event: tuple[Cli, Path, str], tmp_path: Path, name: str) -> None:
    cli, d, log = fresh_copy(event, tmp_path)
    before = snapshot(d / "t.db")
    if "\x00" in name:  # argv cannot carry NUL: the same rule, called directly
        from ledger.errors import RuleError
        with Ledger(Location(str(d / "t.db"))) as led, pytest.raises(RuleError,
                                                                     match="U\\+0000"):
            led.write(log, lambda t, now: t.register_player(name, HJ, now))
        assert snapshot(d / "t.db") == before
        return
    run = cli("official", "add", "--role", "judge", "--name", name, "--public-key",
              "hj.pem.pub", "--key", "hj.pem", code=3)
    assert "\x1b" not in run.err and "\u202e" not in run.err
    assert snapshot(d / "t.db") == before


def test_defect9_names_are_nfc_and_foreign_unsafe_text_is_reported_and_escaped(
        tmp_path: Path) -> None:
    from tests.helpers.forgery import _bundle, chained_next
    loc = build_small(tmp_path / "t.db")
    with Ledger(loc) as led:
        ev = led.write("t1", lambda t, now: t.revoke_official(
            SCOREKEEPER.key_id, "Jose\u0301 left", HJ, now))
    assert ev.body.reason == "Jos\u00e9 left"  # type: ignore[attr-defined]
    with Ledger(loc, readonly=True) as led:
        rows = list(led.raw_leaves("t1"))
    v, last = rows[-1]
    rows.append((v + 1, seal(log="t1", seq=v + 1, prev=hashlib.sha256(last).hexdigest(),
                             time="2013-06-01T09:00:30.000000Z",
                             body=PlayerRegistered(number=40, name="\x1b[2JEvil"),
                             signer=HJ).leaf))
    report = verify_bundle(_bundle(tmp_path / "b", rows))
    assert ("unsafe_text", v + 1) in {(f.code, f.seq) for f in report.findings}
    # printed for a terminal, the escape is visible text, never an escape sequence
    run = subprocess.run([*TOURNEY, "audit", "verify", str(tmp_path / "b")],
                         capture_output=True, text=True, env={**os.environ})
    assert "\x1b" not in run.stdout + run.stderr
    assert chained_next  # shared helper stays importable


# -- 10. proofs take checkpoints only; the checkpoint directory is fsynced -------------------

def test_defect10_proof_verification_takes_checkpoints_only() -> None:
    import ledger.proofs.checkpoint as cp_mod
    import ledger.proofs.merkle as merkle
    public = {n for n in dir(merkle) if not n.startswith("_")}
    assert not {"verify_inclusion", "verify_consistency", "inclusion_ok",
                "consistency_ok"} & public
    assert {"verify_inclusion_at", "verify_consistency_between", "inclusion_ok_at",
            "consistency_ok_between"} <= set(dir(cp_mod))


def test_defect10_checkpoint_directory_is_fsynced_after_the_rename(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, object]] = []
    real_replace, real_fsync = os.replace, os.fsync
    monkeypatch.setattr(os, "replace", lambda a, b: (calls.append(("replace", b)),
                                                     real_replace(a, b))[1])

    def fsync(fd: int) -> None:
        calls.append(("fsync", os.path.isdir(f"/proc/self/fd/{fd}")))
        real_fsync(fd)
    monkeypatch.setattr(os, "fsync", fsync)
    build_small(tmp_path / "t.db")
    i = next(i for i, c in enumerate(calls) if c[0] == "replace"
             and str(c[1]).endswith(".note"))
    assert ("fsync", True) in calls[i + 1:]  # the directory itself, after the rename
    assert ("fsync", False) in calls[:i]     # the note file, before it


@pytest.fixture(autouse=True)
def _no_stray_env() -> Iterator[None]:
    yield


def test_defect9_undecodable_bytes_in_argv_are_refused_not_an_internal_error(
        event: tuple[Cli, Path, str], tmp_path: Path) -> None:
    cli, d, log = fresh_copy(event, tmp_path)
    before = snapshot(d / "t.db")
    run = subprocess.run([*[os.fsencode(a) for a in TOURNEY], b"player", b"add",
                          b"Bad \xff name", b"--key", b"hj.pem"], cwd=d, env=cli.env,
                         capture_output=True)
    assert run.returncode == 3, run.stderr
    assert b"U+DCFF" in run.stderr and len(run.stderr.strip().splitlines()) == 1
    assert snapshot(d / "t.db") == before
