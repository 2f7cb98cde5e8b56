"""A whole trio team event (Bushiroad Swiss, ``team_mode=trio``) from the staff console
alone (issue 29's proof), at desktop size (1280×800), in headless chromium against the
real server and its runner.

After ``init``, ``official add`` and the staff cards at the terminal: twelve fighters by a
CSV upload, three teams by a team CSV upload and one typed member by member, registration
closed, round 1's seats entered one by one (by table and seat on the result page, and
through ``result record``'s form with its ``--seat``), its slips printed, round 2's by a
slip CSV upload (``result import`` with a seat column).  The exported log audits clean
and equals, event for event (actor, kind, body), what the same script gives at the
terminal on a copy of the opening.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.browser import _skip_reason, launched
from tests.helpers.desk_whole import (
    Desk,
    Terminal,
    console_on,
    done,
    opening,
    same_events,
    tables,
    twin,
)

pytestmark = pytest.mark.skipif(_skip_reason() is not None, reason=str(_skip_reason()))

FIGHTERS = "number,name\n" + "".join(f"{i},Fighter {i:02d}\n" for i in range(1, 13))
TEAMS = "first,second,third,name\n1,2,3,Red Crows\n4,5,6,Blue Wings\n7,8,9,Gold Oaks\n"


def play(desk: Desk, cli: Any) -> dict[str, Any]:
    seen: dict[str, Any] = {"seats": 0}

    def ok(who: str, path: str, **args: Any) -> dict[str, Any]:
        return done(desk, who, path, **args)

    ok("sk", "player/import", file=FIGHTERS)
    seen["teams"] = ok("sk", "team/import", file=TEAMS)
    ok("sk", "team/add", members=[10, 11, 12], name="Grey Owls")
    ok("hj", "registration/close")
    for r in (1, 2):
        ok("hj", "round/pair", seed_material=f"desk trio R{r} 8 8", seed_source=f"dice #{r}")
        _, ts = tables(cli, r)
        if r == 1:
            seen["slips"] = desk.slips(1), len(ts)
            for t in ts:          # seats 1 and 3 by table and seat, seat 2 by the command
                for s in t.get("seats") or ():
                    won = s["players"][s["seat"] % 2]
                    if s["seat"] == 2:
                        ok("sk", "result/record", round=1, table=t["table"], seat=2,
                           winner=won)
                    else:
                        assert desk.by_table("sk", 1, t["table"], won, s["seat"])["ok"]
                    seen["seats"] += 1
        else:
            rows = [f"2,{t['table']},{s['players'][0]},,play,{s['seat']}"
                    for t in ts for s in t.get("seats") or ()]
            seen["seats"] += len(rows)
            seen["import"] = ok("sk", "result/import", file="round,table,winner,games,"
                                "decided_by,seat\n" + "\n".join(rows) + "\n")
    desk.shot("sk", "end")
    return seen


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched() as b:
        yield b


def test_a_whole_trio_team_event_from_the_console(tmp_path: Path, browser: Any) -> None:

    op = opening(tmp_path / "desk", "bushiroad-swiss", "--param", "team_mode=trio",
                 "--param", "swiss_rounds=2")
    cli_twin = twin(op, tmp_path / "cli")
    d = op.d
    with console_on(op, browser, "desktop", "trio") as console:
        seen = play(console, op.cli)
    assert console.searched > console.typed, (console.searched, console.typed)
    assert seen["slips"] == (2, 2) and seen["seats"] == 12, seen
    kinds = [e["event"]["kind"] for e in op.cli("log", "--json").doc]
    assert kinds.count("team_registered") == 4, kinds
    standings = op.cli("standings", "--json").doc
    assert standings, standings
    op.cli("export", str(d / "bundle"))
    report = op.cli("audit", "verify", str(d / "bundle"), "--json").doc
    assert report["ok"] is True, report
    play(Terminal(cli_twin), cli_twin)
    same_events(op.cli, cli_twin)
