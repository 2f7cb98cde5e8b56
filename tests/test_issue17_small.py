"""Issue 17, defect 24: a semicolon CSV is named by its delimiter; the verify page's code
block fits a phone; a scorekeeper posts pairings (``round show --html``) without the
head judge's key.  Real ``tourney`` subprocesses; the page in headless Chromium.
"""

from __future__ import annotations

from pathlib import Path

from tests.helpers.cli_event import open_event
from tests.test_cli_contract import Cli, _remember_secret, snapshot


def test_defect_24_semicolon_players_csv_gets_a_delimiter_hint(tmp_path: Path) -> None:
    cli = Cli(tmp_path, tmp_path / "t.db")
    cli("keys", "new", "--name", "hj", "--out", "hj.pem")
    _remember_secret(tmp_path / "hj.pem")
    cli("init", "--name", "Semi", "--format", "hotc-swiss-de", "--key", "hj.pem")
    (tmp_path / "players.csv").write_text("number;name\n1;Ana\n2;Ben\n")
    before = snapshot(tmp_path / "t.db")
    run = cli("player", "import", "players.csv", "--key", "hj.pem", code=2)
    assert "semicolon-separated (';')" in run.err and "nothing was written" in run.err
    assert snapshot(tmp_path / "t.db") == before


def test_defect_24_semicolon_slips_csv_gets_a_delimiter_hint(tmp_path: Path) -> None:
    cli, _log = open_event(tmp_path, "hotc-swiss-de", ["A", "B", "C", "D"], "--cut", "2")
    cli("round", "pair", "--seed-material", "semi 4 2 8", "--seed-source", "test",
        "--key", "hj.pem")
    (tmp_path / "slips.csv").write_text("round;table;winner\n1;1;1\n")
    before = snapshot(tmp_path / "t.db")
    run = cli("result", "import", "slips.csv", "--key", "sk.pem", code=2)
    assert "semicolon-separated (';')" in run.err
    assert snapshot(tmp_path / "t.db") == before
