"""Issue 32 item 7: the smaller defects found running ``tourney serve`` on real events.

Real subprocess runs of the CLI (exit codes, one-line errors, nothing written on a
refusal); the search of the live pages in process.  Each test names the defect it
exercises; the backup and PostgreSQL ones are in ``tests/test_issue32_backup.py`` and
``tests/test_issue32_pg_timeout.py``.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.helpers.cli_event import open_event

ROOT = Path(__file__).resolve().parents[1]
SK = ("--key", "sk.pem")


def test_simulate_demo_keys_are_git_ignored() -> None:
    """``tourney simulate`` writes private demo keys beside its ledger
    (``sim-70.db.demo-keys/<id>/*.pem``) or in ``./tourney-demo-keys/`` (PostgreSQL):
    a ``git add -A`` in a checkout must not pick them up."""
    paths = ["sim-70.db.demo-keys/sim-70/head-judge.pem",
             "sim-70-2.db.demo-keys/sim-70-2/scorekeeper.pem",
             "tourney-demo-keys/sim-8/head-judge.pem"]
    run = subprocess.run(["git", "check-ignore", "--no-index", *paths], cwd=ROOT,
                         capture_output=True, text=True, timeout=30)
    assert run.stdout.split() == paths, run.stdout + run.stderr


def test_round_show_json_carries_the_bo3_game_score(tmp_path: Path) -> None:
    """A Bushiroad BO3 result's game score (``--games 1-2``) was in the log and the text
    but not in ``round show --json``: each result now carries ``games`` ([wins of
    players[0], wins of players[1], draws]), null before a result; the other keys stay."""
    cli, _log = open_event(tmp_path, "bushiroad-swiss", ["Ann", "Bo", "Cy", "Di"],
                           "--param", "swiss_rounds=2", "--param", "match_format=BO3")
    cli("round", "pair", "--seed-material", "bo3 games 1 2 3", "--seed-source", "dice",
        "--key", "hj.pem")
    before = cli("round", "show", "1", "--json").doc
    assert all(t["result"] is None for t in before["tables"])
    t1, t2 = before["tables"]
    a, b = t1["players"]
    cli("result", "record", "--round", "1", "--table", str(t1["table"]), "--winner", str(b),
        "--games", "1-2", *SK)
    c, _d = t2["players"]
    cli("result", "record", "--round", "1", "--table", str(t2["table"]), "--winner", str(c),
        *SK)
    text_before = cli("round", "show", "1").out
    doc = cli("round", "show", "1", "--json").doc
    r1, r2 = (t["result"] for t in doc["tables"])
    assert set(r1) == {"seq", "winner", "losers", "outcome", "loss_reasons", "games"}
    assert r1["winner"] == b and r1["losers"] == [a] and r1["games"] == [1, 2, 0]
    assert r2["winner"] == c and r2["games"] == [2, 0, 0]     # BO3 win without --games
    assert "1-2" in text_before and "games" not in text_before
