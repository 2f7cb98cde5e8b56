"""Issue 32: the desk's echo of a team seat's result says the seat's result in words (it
printed "-": the team table has no result until its last seat is in), and the team's once
its last seat is recorded."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.team_cli import HJ, SK, Event, open_trio


def test_the_desk_echo_of_a_seat_result_says_it(tmp_path: Path) -> None:
    ev = Event(tmp_path)
    open_trio(ev, "Seat echo", fighters=6, teams=2, named=True)
    cli = ev.cli
    cli("registration", "close", *HJ)
    cli("round", "pair", "--seed-material", "seat echo", "--seed-source", "dice", *HJ)
    doc = cli("round", "show", "1", "--json").doc
    t = doc["tables"][0]
    s1, s2, s3 = t["seats"]
    first = cli("result", "record", "--round", "1", "--table", str(t["table"]), "--seat",
                "1", "--winner", str(s1["players"][0]), *SK).out.strip()
    assert not first.endswith(": -"), first
    assert f"seat 1: #{s1['players'][0]} wins" in first, first
    assert first.endswith("team: when every seat is in"), first
    cli("result", "record", "--round", "1", "--table", str(t["table"]), "--seat", "2",
        "--winner", str(s2["players"][0]), *SK)
    last = cli("result", "record", "--round", "1", "--table", str(t["table"]), "--seat",
               "3", "--winner", str(s3["players"][1]), *SK).out.strip()
    assert "seat 3:" in last and "; team: #" in last and " wins" in last, last
