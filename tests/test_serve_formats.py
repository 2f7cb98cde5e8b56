"""``tourney serve`` (issue 18) over every format: a real server on a loopback port over a
real ledger — every page of every format after two rounds, and a trio event's team tables
with their seats.  A whole simulated event of every format:
``tests/test_serve_simulated.py``; the pages themselves: ``tests/test_serve.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.cli_runner import Cli
from tests.helpers.live import get, running
from tests.helpers.standings_play import FORMATS, pair, play, record, start

PAGES = ("/", "/find", "/pairings", "/standings", "/bracket", "/verify")


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_every_format_serves_every_page(tmp_path: Path, fmt: str) -> None:
    names = [f"Player {c}" for c in "ABCDEFGH"]
    cli, log = start(tmp_path, fmt, names)
    doc = pair(cli, fmt, 1)
    play(cli, fmt, 1, doc)
    second = pair(cli, fmt, 2)
    record(cli, fmt, 2, second["tables"][0])
    with running(cli.ledger) as (base, hub):
        data = hub.data
        assert [r["round"] for r in data.rounds] == [1, 2]
        for path in (*PAGES, "/round/1", "/round/2",
                     *(f"/p/{n}" for n in range(1, len(names) + 1))):
            r = get(base + path)
            assert r.status_code == 200, (fmt, path, r.text[:300])
            assert "Traceback" not in r.text and data.checkable.text() in r.text
        noun = data.noun
        assert f"{noun} 2" in get(base + "/pairings").text
        player = second["tables"][0]["players"][0] if "players" in second["tables"][0] \
            else second["tables"][0]["hero"]
        mine = get(base + f"/p/{player}").text
        # a bracket round is named by what it is (issue 32: "Semifinal", not "Round 2")
        assert "Matches" in mine and f"{data.rounds[-1]['name']}:" in mine
        if fmt.startswith("wot"):
            assert "Hero" in mine or "Villain" in mine
            assert "pile pairing: the Hero pile against the Villain pile" in \
                get(base + "/round/2").text


def test_a_trio_event_shows_team_tables_with_seats_and_finds_members(
        tmp_path: Path) -> None:
    """Issue 20 on the live pages: a team table lists its seats; a member who is not the
    representative finds their own seat by name."""
    cli = Cli(tmp_path, tmp_path / "trio.db")
    cli("simulate", "--players", "18", "--format", "bushiroad-swiss", "--param",
        "team_mode=trio", "--seed", "live trio")
    with running(cli.ledger) as (base, hub):
        r1 = get(base + "/round/1").text
        assert r1.count('<tr class="seat">') >= 3 and "seat 3" in r1
        first = hub.data.rounds[0]["tables"][0]
        assert first["a"] != first["seats"][-1]["a"]  # the team's name, not its captain's
        member = first["seats"][0]["a"]              # position 1: not the representative
        n = int(member.split()[0].lstrip("#"))
        mine = get(base + f"/p/{n}").text
        assert f"{first['table']} seat 1" in mine and "(team:" in mine
