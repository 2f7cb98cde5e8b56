"""A whole Heart of the Cards (HotC) event from the staff console alone (issue 29's proof), at
desktop size (1280×800), in headless chromium against the real server and its runner.

After ``init``, ``official add`` and the staff cards at the terminal, everything is
clicks and typing in ``/desk``: players added one by one and by a CSV upload, the
pairings held, registration closed, a late entry, each round paired, posted and its
results entered by table number, a drop, a correction with a reason, the cut and the
bracket to a champion, the round's slips printed.  The exported log audits clean and
equals, event for event (actor, kind, body), what the same script gives at the terminal
on a copy of the opening.
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
    bracket_to_champion,
    console_on,
    done,
    opening,
    same_events,
    tables,
    twin,
)

pytestmark = pytest.mark.skipif(_skip_reason() is not None, reason=str(_skip_reason()))

FIRST = ["Ana Alves", "Bo Berg", "Cy Chen", "Dee Diaz"]
CSV = "number,name\n5,Eli Eze\n6,Fay Fox\n7,Gus Gil\n8,Hal Ho\n9,Ivy Ito\n"


def play(desk: Desk, cli: Any) -> dict[str, Any]:
    """The event, registration to champion; what the desk showed along the way."""
    seen: dict[str, Any] = {"results": 0, "rounds": 0}

    def ok(who: str, path: str, **args: Any) -> dict[str, Any]:
        return done(desk, who, path, **args)

    for name in FIRST:
        ok("sk", "player/add", name=name)
    seen["import"] = ok("sk", "player/import", file=CSV)
    ok("hj", "pages/set", hold_pairings=True)
    ok("hj", "registration/close")
    seen["late"] = ok("hj", "player/late", name="Lou Late", reason="arrived after close")
    r = 0
    while True:
        r += 1
        paired = desk.do("hj", "round/pair", seed_material=f"desk hotc R{r} 4 1 5",
                         seed_source=f"dice #{r}")
        if not paired["ok"]:
            seen["stopped"] = paired
            break
        seen["rounds"] = r
        if r == 1:
            seen["held"] = desk.held("hj", True)
            desk.shot("hj", "held")
        ok("hj", "round/post", number=r)
        if r == 1:
            seen["posted"] = desk.held("hj", False)
        _, ts = tables(cli, r)
        if r == 1:
            seen["slips"] = desk.slips(1), len(ts)
            seen["drop"] = ok("sk", "drop", number=ts[-1]["players"][1],
                              reason="left the venue")
            _, ts = tables(cli, r)
        for t in ts:
            if t["result"] is None and len(t["players"]) == 2:
                assert desk.by_table("sk", r, t["table"], t["players"][0])["ok"]
                seen["results"] += 1
        if r == 2:
            fix = ts[0]
            seen["correct"] = ok("judge", "result/correct", round=2, table=fix["table"],
                                 winner=fix["players"][1], reason="slips swapped")
    ok("hj", "cut", seed_material="desk hotc cut 9 2", seed_source="dice #c")
    bracket_to_champion(desk, cli, {"seed_material": "desk hotc bracket 6",
                                    "seed_source": "dice #b"}, seen)
    desk.shot("hj", "end")
    return seen


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched() as b:
        yield b


def test_a_whole_hotc_event_from_the_console(tmp_path: Path, browser: Any) -> None:

    op = opening(tmp_path / "desk", "hotc-swiss-de", "--cut", "4")
    cli_twin = twin(op, tmp_path / "cli")
    d = op.d
    with console_on(op, browser, "desktop", "hotc") as console:
        seen = play(console, op.cli)
    assert console.searched > console.typed, (console.searched, console.typed)
    assert len(seen["import"]["text"]) and seen["late"]["ok"]
    # round 1 was held for checking (the console says so) and then posted
    assert "Held for checking, not posted: Round 1" in seen["held"], seen["held"]
    assert seen["posted"] == ""
    assert seen["slips"][0] == seen["slips"][1] and seen["slips"][0] >= 5
    assert seen["rounds"] >= 2 and seen["results"] >= 10, (seen["rounds"], seen["results"])
    # the Swiss phase's end is the CLI's sentence, shown as the console's refusal
    assert "HOTC-STOP-1" in seen["stopped"]["text"], seen["stopped"]
    assert "Nothing was written" in seen["stopped"]["text"]
    standings = op.cli("standings", "--json").doc
    assert any(p.get("status") == "champion" for p in standings["players"]), standings
    op.cli("export", str(d / "bundle"))
    report = op.cli("audit", "verify", str(d / "bundle"), "--json").doc
    assert report["ok"] is True, report
    # the same script at the terminal, on a copy of the opening: the same events
    play(Terminal(cli_twin), cli_twin)
    same_events(op.cli, cli_twin)
