"""The head judge's desk (issue 7): every trap a new user hit, run through the CLI.

Each refusal is checked for its exit code, its one-line message and the ledger's bytes
being unchanged.  Two module-scoped events are shared: a 10-player
Swiss event in round 1 (CJK and emoji names) and a 4-player event whose top cut is
paired at once (AMB-H6).  Tests that write work on a copy of the ledger.
"""

from __future__ import annotations

import json
import os
import pty
import select
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.cli_runner import TOURNEY, Cli, raw_bytes, remember_secret, snapshot, tourney
from tests.helpers.desk import refuse

NAMES = ["山田太郎", "Ada Lovelace", "Bea 🐉 Brown", "Zoë Ångström", "김민준", "Cy Young",
         "Dee Dee", "Eve", "Fay Wray", "Gus"]


@dataclass
class Desk:
    cli: Cli
    dir: Path
    db: Path
    log: str
    pairing: dict[str, Any]
    round: int = 1

    def copy(self, name: str) -> tuple[Cli, Path]:
        snapshot(self.db)
        db = self.dir / f"{name}.db"
        shutil.copyfile(self.db, db)
        return Cli(self.dir, db), db

    def refused(self, cli: Cli, db: Path, *args: str, code: int) -> str:
        return refuse(cli, db, *args, code=code)


def _keys(cli: Cli, d: Path, *names: str) -> None:
    for name in names:
        cli("keys", "new", "--name", f"{name} person", "--out", f"{name}.pem")
        remember_secret(d / f"{name}.pem")


@pytest.fixture(scope="module")
def desk(tmp_path_factory: pytest.TempPathFactory) -> Desk:
    d = tmp_path_factory.mktemp("desk")
    cli = Cli(d, d / "t.db")
    _keys(cli, d, "hj", "sk", "judge")
    log = cli("init", "--name", "Desk Open", "--format", "hotc-swiss-de", "--cut", "4",
              "--key", "hj.pem", "--json").doc["tournament"]
    cli("official", "add", "--role", "scorekeeper", "--name", "Sam", "--public-key",
        "sk.pem.pub", "--key", "hj.pem")
    cli("official", "add", "--role", "judge", "--name", "Jo", "--public-key",
        "judge.pem.pub", "--key", "hj.pem")
    (d / "players.csv").write_text("number,name,external_id\n" + "".join(
        f",{n},M{i:03d}\n" for i, n in enumerate(NAMES, start=1)), encoding="utf-8")
    cli("player", "import", "players.csv", "--key", "sk.pem")
    cli("registration", "close", "--key", "hj.pem")
    pairing = cli("round", "pair", "--seed-material", "desk 04 19 22 71",
                  "--seed-source", "atmospheric #9", "--key", "hj.pem", "--json").doc
    return Desk(cli, d, d / "t.db", log, pairing)


def _table(desk: Desk, k: int = 0) -> tuple[int, list[int]]:
    t = desk.pairing["tables"][k]
    return t["table"], t["players"]


# -- trap 1: players before registration closes ---------------------------------------

def test_withdraw_rename_and_reimport_before_close(tmp_path: Path) -> None:
    cli = Cli(tmp_path, tmp_path / "r.db")
    _keys(cli, tmp_path, "hj")
    cli("init", "--name", "Reg Night", "--format", "hotc-swiss-de", "--key", "hj.pem")
    csv = tmp_path / "players.csv"
    csv.write_text("number,name,external_id\n,Ada,7\n,Bea,\n,Ada,8\n", encoding="utf-8")
    first = cli("player", "import", str(csv), "--key", "hj.pem", "--json").doc
    assert first["count"] == 3  # two Adas told apart by their external ids
    again = cli("player", "import", str(csv), "--key", "hj.pem", "--json").doc
    assert again["count"] == 0 and [r["number"] for r in again["already_registered"]] == \
        [1, 2, 3]
    err = refuse(cli, tmp_path / "r.db", "drop", "2", "--key", "hj.pem",
                       code=3)
    assert "registration is still open" in err and "tourney player withdraw 2" in err
    assert "not registered" not in err
    cli("player", "withdraw", "2", "--reason", "left before start", "--key", "hj.pem")
    cli("player", "rename", "3", "Ada Byron", "--reason", "typo", "--key", "hj.pem")
    listed = cli("player", "list", "--json").doc["players"]
    assert [(p["number"], p["name"]) for p in listed] == [(1, "Ada"), (3, "Ada Byron")]
    err = refuse(cli, tmp_path / "r.db", "player", "add", "Cy", "--number",
                       "2", "--key", "hj.pem", code=3)
    assert "withdrawn" in err and "not reused" in err
    assert cli("player", "add", "Cy", "--key", "hj.pem", "--json").doc["number"] == 4
    cli("player", "add", "Dee", "--key", "hj.pem")
    cli("registration", "close", "--key", "hj.pem")
    err = refuse(cli, tmp_path / "r.db", "player", "withdraw", "1",
                       "--key", "hj.pem", code=3)
    assert "tourney drop 1" in err
    report = cli("audit", "verify", "--json").doc
    assert report["ok"], report


# -- trap 2: simulate never writes into a real event's ledger -------------------------

def test_simulate_uses_its_own_ledger(desk: Desk, tmp_path: Path) -> None:
    shutil.copyfile(desk.db, tmp_path / "tournament.db")
    env = {k: v for k, v in desk.cli.env.items() if k != "TOURNEY_LEDGER"}
    before = raw_bytes(tmp_path / "tournament.db")
    run = tourney("simulate", "--players", "12", "--format", "hotc-swiss-de", "--json",
                  cwd=tmp_path, env=env)
    assert run.code == 0, run.err
    doc = json.loads(run.out)
    assert doc["ledger"] == "sim-12.db" and (tmp_path / "sim-12.db").is_file()
    assert raw_bytes(tmp_path / "tournament.db") == before
    run = tourney("--ledger", "tournament.db", "simulate", "--players", "12", "--format",
                  "hotc-swiss-de", cwd=tmp_path, env=env)
    assert run.code == 2 and "real tournament" in run.err
    assert raw_bytes(tmp_path / "tournament.db") == before


# -- trap 3: global options before or after the sub-command ---------------------------

def test_global_options_anywhere(desk: Desk) -> None:
    env = {"TOURNEY_LEDGER": ""}
    ledger = str(desk.db)
    front = desk.cli("--ledger", ledger, "--tournament", desk.log, "--json", "player",
                     "list", env=env).doc
    back = desk.cli("player", "list", "--ledger", ledger, "--tournament", desk.log,
                    "--json", env=env).doc
    mixed = desk.cli("--json", "player", "list", f"--ledger={ledger}", env=env).doc
    assert front == back == mixed and len(front["players"]) == len(NAMES)
    shown = desk.cli("round", "show", "1", "--json", "--ledger", ledger, env=env).doc
    assert shown["round"] == 1


# -- trap 4: the right rule, the missing option named ---------------------------------

@pytest.fixture(scope="module")
def top_cut(tmp_path_factory: pytest.TempPathFactory) -> Desk:
    d = tmp_path_factory.mktemp("topcut")
    cli = Cli(d, d / "t.db")
    _keys(cli, d, "hj")
    log = cli("init", "--name", "Four", "--format", "hotc-swiss-de", "--cut", "2",
              "--key", "hj.pem", "--json").doc["tournament"]
    for n in ("A", "B", "C", "D"):
        cli("player", "add", n, "--key", "hj.pem")
    cli("registration", "close", "--key", "hj.pem")
    # two Swiss rounds leave one undefeated, fewer than the top 2 (HOTC-STOP-1)
    for rnd, material in ((1, "four 3 1 4 1 5"), (2, "2 9 4 4")):
        tables = cli("round", "pair", "--seed-material", material, "--seed-source", "dice",
                     "--key", "hj.pem", "--json").doc["tables"]
        for t in tables:
            cli("result", "record", "--round", str(rnd), "--table", str(t["table"]),
                "--winner", str(t["players"][0]), "--key", "hj.pem")
    cli("cut", "--seed-material", "7 7 7 1", "--seed-source", "dice", "--key", "hj.pem")
    pairing = cli("bracket", "--seed-material", "four 3 1 4 1 5", "--seed-source",
                  "dice", "--key", "hj.pem", "--json").doc
    assert pairing["ok"]
    return Desk(cli, d, d / "t.db", log, {}, pairing["round"]["round"])


def test_top_cut_timeout_names_turn_player(top_cut: Desk) -> None:
    cli, db = top_cut.cli, top_cut.db
    err = top_cut.refused(cli, db, "result", "record", "--round", str(top_cut.round),
                          "--table", "1", "--timeout", "--key", "hj.pem", code=2)
    assert "--turn-player" in err and "HOTC-TOP-2" in err


def test_swiss_stray_turn_player_is_refused(desk: Desk) -> None:
    cli, db = desk.copy("stray")
    table, players = _table(desk)
    err = desk.refused(cli, db, "result", "record", "--round", "1", "--table", str(table),
                       "--timeout", "--turn-player", str(players[0]), "--key", "sk.pem",
                       code=2)
    assert "--turn-player" in err and "Swiss" in err


def test_winner_not_at_table_cites_result_rule(desk: Desk) -> None:
    cli, db = desk.copy("notattable")
    table, players = _table(desk)
    other = next(n for n in range(1, 11) if n not in players)
    err = desk.refused(cli, db, "result", "record", "--round", "1", "--table", str(table),
                       "--winner", str(other), "--key", "sk.pem", code=3)
    assert "[LEDGER-RES-1]" in err and "HOTC-TIME-2" not in err


def test_role_refusal_comes_before_no_seed(desk: Desk) -> None:
    cli, db = desk.copy("role")
    err = desk.refused(cli, db, "cut", "--key", "sk.pem", code=3)
    assert "head_judge" in err and "seed" not in err.split("[")[0]


# -- trap 5: identical re-entry, conflicting entry, identical correction --------------

def test_reentry_conflict_and_identical_correction(desk: Desk) -> None:
    cli, db = desk.copy("reentry")
    table, (a, b) = _table(desk, 1)
    rec = ("result", "record", "--round", "1", "--table", str(table))
    first = cli(*rec, "--winner", str(a), "--key", "sk.pem", "--json").doc
    before = snapshot(db)
    again = cli(*rec, "--winner", str(a), "--key", "judge.pem", "--json").doc
    assert again["written"] is False and again["seq"] == first["seq"]
    assert raw_bytes(db) == before
    err = desk.refused(cli, db, *rec, "--winner", str(b), "--key", "judge.pem", code=3)
    assert f"#{a} wins" in err and f"seq {first['seq']}" in err and "Sam" in err
    assert "result correct" in err
    fix = ("result", "correct", "--round", "1", "--table", str(table), "--reason", "slip")
    same = cli(*fix, "--winner", str(a), "--key", "judge.pem", "--json").doc
    assert same["written"] is False and raw_bytes(db) == before


# -- trap 6: placeholder seed material ------------------------------------------------

@pytest.mark.parametrize("material", ["<what the randomizer showed>", "…", "TODO"])
def test_placeholder_seed_material_refused(desk: Desk, material: str) -> None:
    err = desk.refused(desk.cli, desk.db, "seed", "record", "--material", material,
                       "--source", "x", "--reason", "y", "--key", "hj.pem", code=2)
    assert "placeholder" in err


# -- trap 7: Unicode tournament ids ---------------------------------------------------

def test_unicode_tournament_id(tmp_path: Path) -> None:
    cli = Cli(tmp_path, tmp_path / "u.db")
    _keys(cli, tmp_path, "hj")
    doc = cli("init", "--name", "山田カップ 2026", "--format", "hotc-swiss-de", "--key",
              "hj.pem", "--json").doc
    assert doc["tournament"] == "山田カップ-2026"
    assert cli("info", "--json").doc["name"] == "山田カップ 2026"


# -- trap 8: display width, readable log, info, standings JSON ------------------------

def test_round_show_aligns_by_display_width(desk: Desk) -> None:
    from cli.text import width

    lines = desk.cli("round", "show", "1").out.splitlines()
    rows = [ln for ln in lines[2:] if "  v  " in ln]
    assert rows and all(width(ln) <= 80 for ln in lines)
    # the " v " separator sits in the same terminal column on every row
    cols = {width(ln[:ln.index("  v  ")]) for ln in rows}
    assert len(cols) == 1, lines


def test_log_info_and_standings_json(desk: Desk) -> None:
    log = desk.cli("log").out
    assert "{'" not in log and "round 1 (swiss)" in log
    info = desk.cli("info", "--json").doc
    assert info["phase"] == "swiss" and info["round"]["number"] == 1
    assert len(info["round"]["missing_results"]) == 5 and info["champion"] is None
    assert "missing:      tables" in desk.cli("info").out
    rows = desk.cli("standings", "--json").doc["players"]
    for r in rows:
        for k in ("mw_percent", "omw_percent", "oomw_percent"):
            assert len(r[k].split(".")[1]) == 4, r
        assert {"top_cut_wins", "top_cut_losses"} <= set(r)
    assert "Swiss record" in desk.cli("standings").out


# -- trap 9: version, export --force, encrypted keys on a terminal --------------------

def test_version() -> None:
    proc = subprocess.run([*TOURNEY, "--version"], capture_output=True, text=True,
                          timeout=30)
    assert proc.returncode == 0 and proc.stdout.startswith("tourney ")


def test_export_force(desk: Desk) -> None:
    out = desk.dir / "bundle"
    desk.cli("export", str(out))
    err = desk.cli("export", str(out), code=2).err
    assert "--force" in err
    doc = desk.cli("export", str(out), "--force", "--json").doc
    assert doc["checkpoints"] >= 2
    assert desk.cli("audit", "verify", str(out), "--json").doc["ok"]
    (out / "notes.txt").write_text("mine")
    assert "not part of a bundle" in desk.cli("export", str(out), "--force", code=2).err


def _run_on_tty(argv: list[str], cwd: Path, env: dict[str, str], answer: str) -> tuple[
        int, str]:
    """Run ``argv`` with a pseudo-terminal as stdin/stdout/stderr, typing ``answer`` at
    the passphrase prompt; returns (exit code, everything printed)."""
    pid, fd = pty.fork()
    if pid == 0:  # child
        os.chdir(cwd)
        os.execvpe(argv[0], argv, env)
    out = b""
    sent = False
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(fd, 1024)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
            if not sent and b"Passphrase" in out:
                os.write(fd, answer.encode() + b"\n")
                sent = True
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), out.decode("utf-8", "replace")


def test_encrypted_key_prompts_on_a_terminal(tmp_path: Path) -> None:
    base = {k: v for k, v in os.environ.items() if not k.startswith("TOURNEY_")}
    env = {**base, "TOURNEY_KEY_PASSPHRASE": "s3cret horse", "TOURNEY_LEDGER":
           str(tmp_path / "p.db"), "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    subprocess.run([*TOURNEY, "keys", "new", "--name", "HJ", "--out", "hj.pem"], cwd=tmp_path,
                   env=env, check=True, capture_output=True, timeout=60)
    assert b"ENCRYPTED PRIVATE KEY" in (tmp_path / "hj.pem").read_bytes()
    env.pop("TOURNEY_KEY_PASSPHRASE")
    code, out = _run_on_tty([*TOURNEY, "init", "--name", "Locked", "--format",
                             "hotc-swiss-de", "--key", "hj.pem"], tmp_path, env,
                            "s3cret horse")
    assert code == 0, out
    assert "Passphrase for hj.pem" in out and "tournament: locked" in out
    # without a terminal: a clear refusal naming the way out, nothing created
    proc = subprocess.run([*TOURNEY, "--ledger", "q.db", "init", "--name", "Q", "--format",
                           "hotc-swiss-de", "--key", "hj.pem"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL)
    assert proc.returncode == 2 and "TOURNEY_KEY_PASSPHRASE" in proc.stderr
    assert not (tmp_path / "q.db").exists()


# -- result import ---------------------------------------------------------------------

def test_result_import_rows(desk: Desk) -> None:
    cli, db = desk.copy("import")
    tables = [(t["table"], t["players"]) for t in desk.pairing["tables"]]
    (t1, p1), (t2, p2), (t3, p3), (t4, p4), (t5, p5) = tables
    outsider = next(n for n in range(1, 11) if n not in p1)
    rows = ["round,table,winner,games,decided_by",
            f"1,{t1},{p1[0]},2-1,",            # line 2: good
            f"1,{t2},{outsider},,",            # line 3: winner not at the table
            f"1,{t3},double-loss,,timeout",    # line 4: good (Swiss time: double loss)
            "1,x,3,,",                         # line 5: malformed
            f"1,{t4},{p4[1]},,concession",     # line 6: good
            f"1,{t1},{p1[0]},2-1,"]            # line 7: identical to line 2: unchanged
    (desk.dir / "slips.csv").write_text("\n".join(rows) + "\n")
    run = cli.plain("result", "import", "slips.csv", "--key", "sk.pem", "--json")
    assert run.code == 3, run.err
    doc = json.loads(run.out)
    assert [w["line"] for w in doc["written"]] == [2, 4, 6]
    assert [r["line"] for r in doc["refused"]] == [3, 5]
    assert [u["line"] for u in doc["unchanged"]] == [7]
    assert "line 3" in run.err and "line 5" in run.err
    shown = {t["table"]: t["result"] for t in cli("round", "show", "1", "--json").doc["tables"]}
    assert shown[t1]["winner"] == p1[0] and shown[t3]["winner"] is None
    assert shown[t4]["outcome"] == "concession" and shown[t2] is None
    # stdin; the last slip closes the round
    last = f"round,table,winner\n1,{t2},{p2[0]}\n1,{t5},{p5[1]}\n"
    run = cli.plain("--ledger", str(db), "result", "import", "-", "--key", "sk.pem", "--json",
                    input=last)
    assert run.code == 0, run.err
    doc = json.loads(run.out)
    assert len(doc["written"]) == 2 and doc["closed"][0]["round_closed"]["round"] == 1
    assert cli("audit", "verify", "--json").doc["ok"]


def test_result_import_all_bad_writes_nothing(desk: Desk) -> None:
    cli, db = desk.copy("import_bad")
    (desk.dir / "bad.csv").write_text("round,table,winner\n1,999,3\n2,1,3\n")
    err = refuse(cli, db, "result", "import", "bad.csv", "--key", "sk.pem", code=3, lines=2,
                 summary=True)
    assert "line 2" in err and "line 3" in err
    err = desk.refused(cli, db, "result", "import", "bad.csv", "--key", "nope.pem", code=2)
    (desk.dir / "nohead.csv").write_text("1,2,3\n")
    err = desk.refused(cli, db, "result", "import", "nohead.csv", "--key", "sk.pem", code=2)
    assert "header" in err
