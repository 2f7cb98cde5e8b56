"""A whole Bushiroad Swiss (best of three) with a top 8 from the staff console alone
(issue 29's proof), at tablet size (820×1180), in headless chromium against the real
server and its runner.

After ``init``, ``official add`` and the staff cards at the terminal: 14 players by a CSV
upload and 2 typed, registration closed, three Swiss rounds with results by table number,
a penalty and its repeat whose upgrade "Check first" shows before it is signed, a
disqualification behind its confirmation, the slips printed, the top 8 cut and its
bracket to a champion.  The exported log audits clean and equals, event for event
(actor, kind, body), what the same script gives at the terminal on a copy of the opening.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.browser import _skip_reason, launched
from tests.helpers.desk_whole import (
    Console,
    Desk,
    Terminal,
    bracket_to_champion,
    done,
    opening,
    same_events,
    tables,
    twin,
)
from tests.helpers.live import running

pytestmark = pytest.mark.skipif(_skip_reason() is not None, reason=str(_skip_reason()))

CSV = "number,name\n" + "".join(f"{i},Fighter {i:02d}\n" for i in range(1, 15))


def play(desk: Desk, cli: Any) -> dict[str, Any]:
    seen: dict[str, Any] = {"results": 0}

    def ok(who: str, path: str, **args: Any) -> dict[str, Any]:
        return done(desk, who, path, **args)

    ok("sk", "player/import", file=CSV)
    ok("sk", "player/add", name="Yui Yamada")
    ok("sk", "player/add", name="Zed Zane")
    ok("hj", "registration/close")
    for r in (1, 2, 3):
        ok("hj", "round/pair", seed_material=f"desk br R{r} 2 7 1", seed_source=f"dice #{r}")
        _, ts = tables(cli, r)
        if r == 1:
            seen["slips"] = desk.slips(1), len(ts)
            offender = ts[0]["players"][0]
            ok("judge", "penalty/issue", number=offender, infraction="3.11",
               penalty="caution", description="shuffled too little")
            seen["check"] = desk.check("judge", "penalty/issue", number=offender,
                                       infraction="3.11", penalty="warning")
            seen["upgrade"] = ok("judge", "penalty/issue", number=offender,
                                 infraction="3.11", penalty="warning",
                                 description="shuffled too little again",
                                 justification="a second improper shuffle")
        if r == 2:
            cheat = ts[-1]["players"][1]
            seen["dq"] = ok("hj", "disqualify", number=cheat, infraction="3.8.3",
                            reason="threatened the opponent")
            _, ts = tables(cli, r)
        for t in ts:
            if t["result"] is None and len(t["players"]) == 2:
                assert desk.by_table("sk", r, t["table"], t["players"][0])["ok"]
                seen["results"] += 1
    ok("hj", "cut", seed_material="desk br cut 5 5", seed_source="dice #c")
    bracket_to_champion(desk, cli, {"seed_material": "desk br bracket 8",
                                    "seed_source": "dice #b"}, seen)
    desk.shot("hj", "end")
    return seen


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched() as b:
        yield b


def test_a_whole_bushiroad_bo3_event_with_a_top_8_from_the_console(
        tmp_path: Path, browser: Any) -> None:
    from cli.api_runner import ApiRunner
    from ledger.storage.location import Location

    op = opening(tmp_path / "desk", "bushiroad-swiss", "--cut", "8", "--param",
                 "match_format=BO3", "--param", "swiss_rounds=3")
    cli_twin = twin(op, tmp_path / "cli")
    d = op.d
    with running(op.cli.ledger, station_key=d / "st.pem",
                 staff_keys=(d / "hj.pem", d / "sk.pem", d / "judge.pem"),
                 runner=ApiRunner(Location(str(op.cli.ledger)))) as (base, _hub):
        console = Console(browser, base, op.tokens, "tablet", "bushiroad")
        try:
            seen = play(console, op.cli)
        finally:
            console.close()
    assert console.searched > console.typed, (console.searched, console.typed)
    assert seen["slips"][0] == seen["slips"][1] == 8
    assert "upgrade" in seen["check"], seen["check"]
    assert seen["results"] >= 20
    kinds = [e["event"]["kind"] for e in op.cli("log", "--json").doc]
    assert kinds.count("penalty_issued") == 2 and "player_disqualified" in kinds, kinds
    standings = op.cli("standings", "--json").doc
    assert any(p.get("status") == "champion" for p in standings["players"]), standings
    op.cli("export", str(d / "bundle"))
    report = op.cli("audit", "verify", str(d / "bundle"), "--json").doc
    assert report["ok"] is True, report
    play(Terminal(cli_twin), cli_twin)
    same_events(op.cli, cli_twin)
