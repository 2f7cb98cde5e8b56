"""``tourney simulate`` through the CLI: a whole event signed, then audited.

Runs the same command twice in one directory (ids ``sim-16`` then ``sim-16-2``), checks
the summary, that both logs audit clean through ``tourney audit verify``, and that bad
rates, formats and player counts exit 2 without creating a ledger.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.checks import note_dir
from tests.helpers.cli_runner import Cli, Run

ARGS = ("simulate", "--players", "16", "--format", "hotc-swiss-de", "--seed", "t",
        "--timeouts", "0.1", "--drops", "0.05")


@dataclass
class Sims:
    cli: Cli
    dir: Path
    first: Run
    second: dict[str, Any]


@pytest.fixture(scope="module")
def sims(tmp_path_factory: pytest.TempPathFactory) -> Sims:
    d = tmp_path_factory.mktemp("sim")
    cli = Cli(d, d / "sim.db")
    first = cli(*ARGS)
    second = cli(*ARGS, "--json").doc
    return Sims(cli, d, first, second)


def test_simulate_prints_a_champion_and_audits_clean(sims: Sims) -> None:
    out = sims.first.out
    assert out.startswith("simulated sim-16 in ")
    assert "\nchampion: #" in out and "\naudit: OK (" in out
    assert "demo keys" in out and "NOT for real events" in out
    # checkpoints live in the ledger itself (issue 7), mirrored as note files
    with closing(sqlite3.connect(sims.dir / "sim.db")) as db:
        sizes = [r[0] for r in db.execute(
            "SELECT size FROM tourney_checkpoints WHERE log = 'sim-16' ORDER BY size")]
    files = sorted(int(p.stem) for p in note_dir(sims.dir / "sim.db.checkpoints", "sim-16").glob(
        "*.note"))
    assert len(sizes) >= 5 and files == sizes
    report = sims.cli("--tournament", "sim-16", "audit", "verify", "--json").doc
    assert report["ok"] is True and report["log"] == "sim-16"
    assert not [f for f in report["findings"] if f["severity"] == "error"]


def test_second_run_gets_a_fresh_id(sims: Sims) -> None:
    doc = sims.second
    assert doc["log"] == "sim-16-2" and doc["ok"] is True
    assert set(doc) >= {"log", "events", "rounds", "cut", "champion", "audit"}
    assert doc["champion"] in doc["cut"] and len(doc["cut"]) == 8
    assert doc["audit"]["ok"] is True and doc["audit"]["events"] == doc["events"]
    report = sims.cli("--tournament", "sim-16-2", "audit", "verify", "--json").doc
    assert report["ok"] is True and report["events"] == doc["events"]


@pytest.mark.parametrize("extra, needle", [
    (("--timeouts", "1.5"), "--timeouts 1.5 is outside 0..1"),
    (("--drops", "abc"), "--drops 'abc' is not a number"),
    (("--format", "swiss"), "known formats: bushiroad-de, bushiroad-swiss, hotc-swiss-de, "
                            "round-robin, single-elim"),
    (("--players", "1"), "--players 1 is outside"),
])
def test_bad_options_exit_2_and_create_nothing(sims: Sims, tmp_path: Path,
                                               extra: tuple[str, ...], needle: str) -> None:
    fresh = tmp_path / "none.db"
    run = sims.cli("--ledger", str(fresh), *ARGS, *extra, code=2)
    assert needle in run.err and not fresh.exists()
