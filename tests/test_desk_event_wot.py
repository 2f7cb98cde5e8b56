"""A whole Wheel of Time 2001 event from the staff console alone (issue 29's proof), at
tablet size (820×1180), in headless chromium against the real server and its runner.

After ``init``, ``official add`` and the staff cards at the terminal: eight players typed
in, registration closed, a late entry refused (RULES-8: a late entry's game losses are a
penalty this format has not), each Game held, paired, posted and its results entered in
the format's own terms (outcome code, winner, pattern, neutral, conceder, Last Battle:
the simulator's, as the CLI tests play it) through ``result record``'s form, a drop
refused as the CLI refuses it (WOTOLD-FORF-1) and the Declaration of Forfeiture it points
to.  The exported log audits clean and equals, event for event (actor, kind, body), what
the same script gives at the terminal on a copy of the opening.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ledger.core.draw import seed_from_material
from ledger.formats.wot.model import Revision
from ledger.formats.wot.sim import simulated_result
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
from tests.helpers.standings_play import sides

pytestmark = pytest.mark.skipif(_skip_reason() is not None, reason=str(_skip_reason()))

NAMES = ["Rand Ash", "Egwene Bell", "Mat Cole", "Nynaeve Dunn", "Perrin Eld", "Min Farr",
         "Elayne Gray", "Thom Hale"]


def outcome(n: int, table: dict[str, Any]) -> dict[str, Any]:
    """A Game's outcome as ``result record``'s options, from the simulator."""
    a, b = sides(table)
    kw = simulated_result(Revision.WOT_2001, seed_from_material("desk wot"),
                          f"G{n}/T{table['table']}", a, b)
    out: dict[str, Any] = {"outcome": kw["wot_outcome"]}
    if kw.get("winner") is not None:
        out["winner"] = kw["winner"]
    for name in ("support", "pattern"):
        if kw.get(name):
            out[name] = ",".join(f"{p}={v}" for p, v in kw[name].items())
    for name in ("neutral", "conceded_by", "last_battle"):
        if kw.get(name) is not None:
            out[name] = kw[name]
    return out


def play(desk: Desk, cli: Any) -> dict[str, Any]:
    seen: dict[str, Any] = {"results": 0, "games": 0}

    def ok(who: str, path: str, **args: Any) -> dict[str, Any]:
        return done(desk, who, path, **args)

    for name in NAMES:
        ok("sk", "player/add", name=name)
    ok("hj", "pages/set", hold_pairings=True)
    ok("hj", "registration/close")
    # a late entry is a penalty's game losses, which this format does not have (RULES-8):
    # the console shows the CLI's refusal, nothing written
    seen["late"] = desk.do("hj", "player/late", name="Ian Late", reason="came after the close")
    for n in (1, 2, 3):
        paired = desk.do("hj", "round/pair", seed_material=f"desk wot G{n} 6 6 2",
                         seed_source=f"dice #{n}")
        if not paired["ok"]:
            seen["stopped"] = paired
            break
        ok("hj", "round/post", number=n)
        seen["games"] = n
        _, ts = tables(cli, n)
        for t in ts:
            if t.get("result") is None and "bye" not in str(t.get("kind", "")):
                try:
                    sides(t)
                except (KeyError, ValueError, TypeError):
                    continue
                ok("sk", "result/record", round=n, table=t["table"], **outcome(n, t))
                seen["results"] += 1
        if n == 2:     # a player leaves: no drop in this format, a Declaration of Forfeiture
            gone = sides(ts[-1])[1]
            seen["drop"] = desk.do("sk", "drop", number=gone, reason="went home")
            seen["forfeit"] = ok("hj", "forfeit", number=gone, reason="went home")
    desk.shot("sk", "end")
    return seen


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched() as b:
        yield b


def test_a_whole_wot_2001_event_from_the_console(tmp_path: Path, browser: Any) -> None:

    op = opening(tmp_path / "desk", "wot-2001")
    cli_twin = twin(op, tmp_path / "cli")
    d = op.d
    with console_on(op, browser, "tablet", "wot") as console:
        seen = play(console, op.cli)
    assert console.searched > console.typed, (console.searched, console.typed)
    assert not seen["late"]["ok"] and "RULES-8" in seen["late"]["text"], seen["late"]
    assert "late entries" in seen["late"]["text"], seen["late"]   # says what it refuses
    assert not seen["drop"]["ok"] and "WOTOLD-FORF-1" in seen["drop"]["text"]
    assert seen["games"] == 3 and seen["results"] >= 10, seen
    standings = op.cli("standings", "--json").doc
    assert len(standings["players"]) == 8, standings
    op.cli("export", str(d / "bundle"))
    report = op.cli("audit", "verify", str(d / "bundle"), "--json").doc
    assert report["ok"] is True, report
    play(Terminal(cli_twin), cli_twin)
    same_events(op.cli, cli_twin)
