"""The Bushiroad Swiss (best of three) with a top 8 of tests/test_desk_event_bushiroad*.py,
as two phases a desk plays: ``swiss`` (14 players by a CSV upload and 2 typed,
registration closed, three Swiss rounds with results by table number, a penalty and its
repeat whose upgrade "Check first" shows, a disqualification, round 1's slips) and
``top8`` (the cut and its bracket to a champion); ``opened`` is the opening both files
start from.  Split so that each file plays one phase from the console (issue 33: a file
≤ 60 s); the other phase is the same script at the terminal, and each file checks its
console's log against the terminal's, event for event.

May import: ``tests.helpers.*``, the standard library.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.helpers.api_event import Opening
from tests.helpers.desk_whole import Desk, bracket_to_champion, done, opening, tables

CSV = "number,name\n" + "".join(f"{i},Fighter {i:02d}\n" for i in range(1, 15))


def opened(d: Path) -> Opening:
    return opening(d, "bushiroad-swiss", "--cut", "8", "--param", "match_format=BO3",
                   "--param", "swiss_rounds=3")


def swiss(desk: Desk, cli: Any, seen: dict[str, Any]) -> None:
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


def top8(desk: Desk, cli: Any, seen: dict[str, Any]) -> None:
    done(desk, "hj", "cut", seed_material="desk br cut 5 5", seed_source="dice #c")
    bracket_to_champion(desk, cli, {"seed_material": "desk br bracket 8",
                                    "seed_source": "dice #b"}, seen)
    desk.shot("hj", "end")
