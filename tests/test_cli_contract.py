"""The CLI contract of docs/DESIGN.md §8, run as real subprocesses of the ``tourney`` script.

Covers every normative command line that exists so far (keys new, init, official add,
official revoke, player add, seed record, draw, export, audit verify) with ``--json``
parsed as exactly one JSON document; the exit codes 2/3/4/5; that every refusal leaves
the ledger's bytes (main file and -wal) unchanged; and that no private key is ever
printed.  One module-scoped tournament is shared to keep the subprocess count low.

The harness (``Cli``) is tests/helpers/cli_runner.py; here every command is a real process.
"""

from __future__ import annotations

import shutil
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from ledger.core.draw import draw_v1, seed_from_material
from tests.helpers.checks import note_dir
from tests.helpers.cli_runner import Cli, Run, raw_bytes, snapshot
from tests.helpers.cli_runner import remember_secret as _remember_secret


@dataclass
class World:
    cli: Cli
    dir: Path
    db: Path
    log: str
    keys: dict[str, str]  # name -> key id
    outputs: dict[str, Any]


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    d = tmp_path_factory.mktemp("cli")
    db = d / "t.db"
    cli = Cli(d, db, subprocess=True)  # the contract is a real process's
    keys: dict[str, str] = {}
    out: dict[str, Any] = {}
    names = ("hj", "sk", "judge", "gone")
    with ThreadPoolExecutor(max_workers=len(names)) as pool:  # independent: in parallel
        made = pool.map(lambda n: cli("keys", "new", "--name", f"{n} person", "--out",
                                      f"{n}.pem", "--json").doc, names)
        for name, doc in zip(names, made, strict=True):
            keys[name] = doc["key_id"]
            _remember_secret(d / f"{name}.pem")
    out["init"] = cli("init", "--name", "Spring Open 2026", "--format", "hotc-swiss-de",
                      "--cut", "4", "--key", "hj.pem", "--json").doc
    out["add_sk"] = cli("official", "add", "--role", "scorekeeper", "--name", "Sam",
                        "--public-key", "sk.pem.pub", "--key", "hj.pem", "--json").doc
    cli("official", "add", "--role", "judge", "--name", "Jo", "--public-key",
        "judge.pem.pub", "--key", "hj.pem")
    cli("official", "add", "--role", "scorekeeper", "--name", "Gone",
        "--public-key", "gone.pem.pub", "--key", "hj.pem")
    out["revoke"] = cli("official", "revoke", keys["gone"], "--reason", "lost laptop",
                        "--key", "hj.pem", "--json").doc
    out["p1"] = cli("player", "add", "Ada Lovelace", "--number", "1", "--key", "sk.pem",
                    "--json").doc
    out["p2"] = cli("--json", "--key", "sk.pem", "player", "add", "Bea").doc
    out["seed"] = cli("seed", "record", "--material", "example seed", "--source", "dice",
                      "--reason", "top cut", "--ctx", "T2026-001/cut", "--key", "hj.pem",
                      "--json").doc
    out["draw"] = cli("draw", "--ctx", "T2026-001/cut", "--items", "5,3,9,1,7",
                      "--universe", "numbers",
                      "--seed-seq", str(out["seed"]["seq"]), "--key", "hj.pem",
                      "--json").doc
    return World(cli, d, db, out["init"]["tournament"], keys, out)


# -- normative command lines ------------------------------------------------------------

def test_keys_new_writes_private_0600_and_public(world: World) -> None:
    for name in ("hj", "sk"):
        priv, pub = world.dir / f"{name}.pem", world.dir / f"{name}.pem.pub"
        assert priv.stat().st_mode & 0o777 == 0o600
        assert b"PRIVATE KEY" in priv.read_bytes() and b"PUBLIC KEY" in pub.read_bytes()
    shown = world.cli("keys", "show", "hj.pem", "--json").doc
    assert shown["key_id"] == world.keys["hj"] and shown["kind"] == "private"
    human = world.cli("keys", "show", "sk.pem.pub")
    assert world.keys["sk"] in human.out


def test_init_genesis_names_the_head_judge(world: World) -> None:
    doc = world.outputs["init"]
    assert doc["tournament"] == "spring-open-2026" and doc["seq"] == 1
    assert doc["head_judge"] == world.keys["hj"]
    assert doc["format"]["id"] == "hotc-swiss-de" and doc["format"]["cut"] == 4
    body = doc["event"]["event"]["body"]
    assert body["head_judge"]["key_id"] == world.keys["hj"]


def test_officials_and_players_are_signed_events(world: World) -> None:
    out = world.outputs
    assert out["add_sk"]["event"]["event"]["body"]["role"] == "scorekeeper"
    assert out["revoke"]["event"]["event"]["body"]["key_id"] == world.keys["gone"]
    assert out["p1"]["number"] == 1 and out["p1"]["event"]["event"]["actor"] == world.keys["sk"]
    assert out["p2"]["number"] == 2  # the next free number
    listed = world.cli("official", "list", "--json").doc["officials"]
    gone = next(o for o in listed if o["key_id"] == world.keys["gone"])
    assert gone["revoked_seq"] == out["revoke"]["seq"]


def test_seed_and_draw_follow_draw_v1(world: World) -> None:
    seed, draw = world.outputs["seed"], world.outputs["draw"]
    assert seed["seed"] == seed_from_material("example seed").hex()
    assert draw["result"] == [1, 9, 7, 5, 3]  # docs/DESIGN.md §6 known answer
    assert draw["result"] == draw_v1(bytes.fromhex(seed["seed"]), "T2026-001/cut",
                                     [5, 3, 9, 1, 7])
    body = draw["event"]["event"]["body"]
    assert body["algorithm"] == "DRAW-v1" and body["items"] == [1, 3, 5, 7, 9]


def test_export_and_audit_verify(world: World) -> None:
    doc = world.cli("export", "bundle", "--json").doc
    assert doc["events"] >= 9 and (world.dir / "bundle" / "log.jsonl").is_file()
    report = world.cli("audit", "verify", "bundle", "--json").doc
    assert report["ok"] is True and report["events"] == doc["events"]
    assert isinstance(report["findings"], list)
    assert not [f for f in report["findings"] if f["severity"] == "error"]
    human = world.cli("audit", "verify")  # default: the --ledger (TOURNEY_LEDGER)
    assert human.out.startswith("OK") and f"{doc['events']} events" in human.out


def test_log_and_info(world: World) -> None:
    leaves = world.cli("log", "--json", "--kind", "player_registered").doc
    assert [lf["event"]["body"]["number"] for lf in leaves] == [1, 2]
    human = world.cli("log", "--from", "2")
    assert human.out.splitlines()[0].split()[0] == "2"
    info = world.cli("info", "--json").doc
    assert info["players"] == 2 and info["registration"]["closed"] is False


# -- refusals write nothing -------------------------------------------------------------

def refuse(world: World, *args: str, code: int, db: Path | None = None) -> Run:
    db = db or world.db
    before = snapshot(db)
    run = world.cli(*args, code=code)
    assert raw_bytes(db) == before, f"tourney {' '.join(args)} changed the ledger"
    return run


def test_usage_errors_exit_2(world: World) -> None:
    run = refuse(world, "player", "add", "Cy", "--bogus", "--key", "sk.pem", "--json",
                 code=2)
    assert "--bogus" in run.err and run.doc["error"]["code"] == "usage"
    run = refuse(world, "draw", "--ctx", "x/y", "--items", "3,,1", "--key", "hj.pem",
                 "--json", code=2)
    assert run.doc["error"]["exit_code"] == 2 and "--items" in run.err


@pytest.mark.parametrize("text", ["", "3,,1", "3,a", "1.5", "2,2", " , "])
def test_items_parser_refuses_malformed_lists(text: str) -> None:
    from cli.random_cmd import parse_items
    from ledger.errors import UsageError

    with pytest.raises(UsageError):
        parse_items(text)
    assert parse_items(" 3, 1,2 ") == [3, 1, 2]


@pytest.mark.parametrize("content, needle", [
    ("", "line 1: the header row is missing"),
    ("name,number,shoe\n8,Cy,41\n", "line 1: unknown column 'shoe'"),
    ("nickname,name\nCy,Cy\n", "line 1: the header must have the columns number and name"),
    ("number,name\n1x,Cy\n", "line 2: number '1x' is not a whole number"),
    ("number,name\n0,Cy\n", "line 2: number '0'"),
    ("number,name\n7,Cy\n\n7,Dee\n", "line 4: number 7 is already used on line 2"),
    ("number,name\n8,Cy\n9, \n", "line 3: the name is empty"),
    ("number,name\n8,Cy,extra\n", "line 2: 3 fields, the header has 2"),
    ('number,name\n8,"Cy\n', "line 2: malformed CSV"),
    ("number,name\n", "has a header but no players"),
])
def test_csv_validation_names_the_line(tmp_path: Path, content: str, needle: str) -> None:
    from cli.players_cmd import parse_csv
    from ledger.errors import UsageError

    path = tmp_path / "p.csv"
    path.write_text(content)
    with pytest.raises(UsageError) as exc:
        parse_csv(path)
    assert needle in exc.value.message and str(path) in exc.value.message


def test_malformed_csv_exit_2_writes_nothing(world: World) -> None:
    (world.dir / "bad.csv").write_text("number,name\n8,Cy\n8,Dee\n")
    run = refuse(world, "player", "import", "bad.csv", "--key", "sk.pem", "--json", code=2)
    assert run.doc["error"]["code"] == "usage" and "bad.csv line 3" in run.err


def test_rule_refusals_exit_3(world: World) -> None:
    run = refuse(world, "player", "add", "Cy", "--key", "judge.pem", "--json", code=3)
    assert run.doc["error"]["finding"] == "role_not_permitted"
    run = refuse(world, "player", "add", "Cy", "--key", "gone.pem", "--json", code=3)
    assert run.doc["error"]["finding"] == "key_revoked"
    run = refuse(world, "player", "add", "Cy", "--number", "1", "--key", "sk.pem", code=3)
    assert "already" in run.err
    (world.dir / "dup.csv").write_text("number,name\n20,Cy\n2,Dup\n")
    run = refuse(world, "player", "import", "dup.csv", "--key", "sk.pem", code=3)
    assert "line 3" in run.err


def test_init_refuses_an_existing_tournament(world: World) -> None:
    run = refuse(world, "init", "--name", "Spring Open 2026", "--format", "hotc-swiss-de",
                 "--another-event", "--key", "hj.pem", code=2)
    assert "already exists" in run.err


def test_tampered_ledger_fails_audit_exit_4(world: World) -> None:
    db = world.dir / "tampered.db"
    snapshot(world.db)
    shutil.copyfile(world.db, db)
    with closing(sqlite3.connect(db)) as con:
        (state,) = con.execute("SELECT state FROM stored_events WHERE originator_version = 6"
                               ).fetchone()
        flipped = bytearray(state)
        pos = bytes(state).index(b'"name":"') + 8
        flipped[pos] ^= 0x01
        con.execute("UPDATE stored_events SET state = ? WHERE originator_version = 6",
                    (bytes(flipped),))
        con.commit()
    report = refuse(world, "audit", "verify", str(db), "--json", code=4, db=db).doc
    assert set(report) >= {"ok", "events", "findings"} and report["ok"] is False
    bad = [f for f in report["findings"] if f["severity"] == "error" and f["seq"] == 6]
    assert bad and set(bad[0]) >= {"code", "seq", "severity", "message"}
    human = refuse(world, "audit", "verify", str(db), code=4, db=db)
    assert human.out.startswith("FAILED")
    assert f"ERROR {bad[0]['code']} seq=6 " in human.out


def test_missing_ledger_exit_5(world: World) -> None:
    missing = world.dir / "nowhere.db"
    world.cli("--ledger", str(missing), "player", "add", "Cy", "--key", "sk.pem", code=5)
    assert not missing.exists()


# -- later phases on a copy: import, close, checkpoint, proofs --------------------------

def test_import_close_checkpoint_and_proofs(world: World) -> None:
    snapshot(world.db)
    db = world.dir / "later.db"
    shutil.copyfile(world.db, db)
    cli = world.cli
    env = ["--ledger", str(db)]
    (world.dir / "ok.csv").write_text("number,name,deck\n,Cy,Crab\n10,Dee,\n")
    doc = cli(*env, "player", "import", "ok.csv", "--key", "sk.pem", "--json").doc
    assert doc["count"] == 2 and [p["number"] for p in doc["players"]] == [3, 10]
    closed = cli(*env, "registration", "close", "--key", "hj.pem", "--json").doc
    # stored in the ledger, and mirrored as a note file in the ledger's note directory
    assert closed["checkpoint"]["stored"] == "ledger"
    assert closed["checkpoint"]["size"] == closed["seq"]
    assert Path(closed["checkpoint"]["path"]) == (
        note_dir(world.dir / "later.db.checkpoints", closed["tournament"])
        / f"{closed['seq']}.note")
    cli(*env, "seed", "record", "--material", "more", "--source", "dice", "--reason", "r1",
        "--key", "hj.pem")
    mirror = world.dir / "published"
    second = cli(*env, "--checkpoints", str(mirror), "checkpoint", "--key", "hj.pem",
                 "--json").doc
    assert Path(second["path"]) == note_dir(mirror, second["tournament"]) / (
        f"{second['size']}.note")
    proof = cli(*env, "proof", "3", "--json").doc  # the latest note, from the ledger
    assert proof["verified"] is True and proof["size"] == second["size"]
    assert proof["index"] == 2 and all(len(h) == 64 for h in proof["proof"])
    cons = cli(*env, "consistency", str(closed["seq"]), second["path"], "--json").doc
    assert cons["verified"] is True and (cons["size1"], cons["size2"]) == (
        closed["seq"], second["size"])
    # a checkpoint signed by someone else does not verify: exit 4
    forged = world.dir / "forged.note"
    note = bytearray(Path(second["path"]).read_bytes())
    note[-20] = ord("B") if note[-20] != ord("B") else ord("C")  # inside the signature
    forged.write_bytes(bytes(note))
    cli(*env, "proof", "3", "--checkpoint", str(forged), code=4)
