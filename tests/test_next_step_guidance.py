"""Issue 17, defect 13: the line printed when the Swiss phase ends says what comes next,
as the format says (``FormatPlugin.next_step``), and the next command agrees with it.

``tourney`` commands; the first player of every table wins.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.cli_event import open_event
from tests.helpers.cli_runner import Cli


def _play_swiss(cli: Cli) -> str:
    """Pair and record rounds until the Swiss phase is over; the last round's verdict."""
    for n in range(1, 12):
        doc = cli("round", "pair", "--seed-material", f"guidance {n} 4 7 1", "--seed-source",
                  "test", "--key", "hj.pem", "--json").doc
        verdict = ""
        for t in doc["tables"]:
            out = cli("result", "record", "--round", str(n), "--table", str(t["table"]),
                      "--winner", str(t["players"][0]), "--key", "hj.pem", "--json").doc
            verdict = out.get("verdict") or verdict
        if "Swiss phase over" in verdict:
            return verdict
    raise AssertionError("the Swiss phase never ended")


@pytest.mark.parametrize(("fmt", "players", "args"), [
    ("round-robin", 3, ()),
    ("bushiroad-de", 4, ()),
    ("bushiroad-swiss", 4, ("--param", "swiss_rounds=2")),
    ("hotc-swiss-de", 8, ("--cut", "2")),
])
def test_defect_13_end_of_swiss_guidance_agrees_with_the_next_command(
        tmp_path: Path, fmt: str, players: int, args: tuple[str, ...]) -> None:
    cli, _log = open_event(tmp_path, fmt, [f"P{i}" for i in range(1, players + 1)], *args)
    verdict = _play_swiss(cli)
    assert "top 0" not in verdict and "fewer than the top" not in verdict
    cut = cli("cut", "--seed-material", "guidance cut 3 9", "--seed-source", "test",
              "--key", "hj.pem", code=None)
    info = cli("info", "--json").doc
    if "'tourney cut'" in verdict:
        assert cut.code == 0, cut.err
    else:
        assert "the event is over" in verdict and cut.code != 0
    assert "top 0" not in info["next"]
