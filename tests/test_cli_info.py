"""``tourney info`` asks the format where the event stands (``FormatPlugin.progress``):
phase, current round (a Game in Wheel of Time) and its missing results, champion, and the
next step — for every family of formats, through ``tourney`` commands."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.cli_runner import Cli


@pytest.mark.parametrize(("fmt", "players"), [("wot-2001", 12), ("bushiroad-swiss", 12),
                                               ("hotc-swiss-de", 16)])
def test_info_of_a_finished_event_names_its_champion(tmp_path: Path, fmt: str,
                                                     players: int) -> None:
    cli = Cli(tmp_path, tmp_path / "sim.db")
    sim = cli("simulate", "--players", str(players), "--format", fmt, "--seed", "info",
              "--json").doc
    info = cli("info", "--json").doc
    assert info["phase"] == "finished" and info["next"].startswith("the event is over")
    assert info["champion"] == sim["champion"] is not None
    rnd = info["round"]
    assert rnd["open"] is False and rnd["missing_results"] == []
    assert rnd["phase"] == "game" if fmt.startswith("wot") else rnd["phase"] in (
        "swiss", "top_cut")
    text = cli("info").out
    assert f"champion:     #{sim['champion']} " in text


def test_info_mid_event_lists_the_missing_tables(tmp_path: Path) -> None:
    cli = Cli(tmp_path, tmp_path / "t.db")
    cli("keys", "new", "--name", "HJ", "--out", "hj.pem")
    cli("init", "--name", "Cycle Night", "--format", "wot-2001", "--key", "hj.pem")
    for n in range(1, 7):
        cli("player", "add", f"P{n}", "--key", "hj.pem")
    assert cli("info", "--json").doc["phase"] == "registration"
    cli("registration", "close", "--key", "hj.pem")
    game = cli("round", "pair", "--seed-material", "9 1 7 3", "--seed-source", "dice",
               "--key", "hj.pem", "--json").doc
    info = cli("info", "--json").doc
    assert info["phase"] == "swiss" and info["champion"] is None
    assert info["round"]["open"] is True and info["round"]["phase"] == "game"
    assert info["round"]["missing_results"] == [t["table"] for t in game["tables"]]
    assert info["next"].startswith("enter the results of Game 1")
