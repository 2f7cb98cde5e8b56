"""A Bushiroad Swiss's top 8 from the staff console alone (issue 29's proof), at tablet
size (820×1180), in headless chromium against the real server and its runner: the cut and
its bracket to a champion, results by table number.  The Swiss before it is the same
script as tests/test_desk_event_bushiroad.py, played here at the terminal (that file
proves the console's Swiss and the terminal's are the same events).  The exported log
audits clean and equals, event for event (actor, kind, body), what the same script gives
at the terminal on a copy of the opening.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.browser import _skip_reason, launched
from tests.helpers.desk_bushiroad import opened, swiss, top8
from tests.helpers.desk_whole import Terminal, console_on, same_events, twin

pytestmark = pytest.mark.skipif(_skip_reason() is not None, reason=str(_skip_reason()))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched() as b:
        yield b


def test_a_bushiroad_top_8_to_a_champion_from_the_console(tmp_path: Path,
                                                           browser: Any) -> None:

    op = opened(tmp_path / "desk")
    cli_twin = twin(op, tmp_path / "cli")
    d = op.d
    swiss(Terminal(op.cli), op.cli, {"results": 0})       # the Swiss, at the terminal
    seen: dict[str, Any] = {"results": 0}
    with console_on(op, browser, "tablet", "bushiroad") as console:
        top8(console, op.cli, seen)
    assert console.searched > console.typed, (console.searched, console.typed)
    assert seen["results"] == 7, seen          # a top 8's bracket: 4 + 2 + 1 matches
    assert "champion" in seen["bracket_end"]["text"], seen["bracket_end"]
    standings = op.cli("standings", "--json").doc
    assert any(p.get("status") == "champion" for p in standings["players"]), standings
    op.cli("export", str(d / "bundle"))
    report = op.cli("audit", "verify", str(d / "bundle"), "--json").doc
    assert report["ok"] is True, report
    for phase in (swiss, top8):
        phase(Terminal(cli_twin), cli_twin, {"results": 0})
    same_events(op.cli, cli_twin)
