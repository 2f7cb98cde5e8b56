"""A Bushiroad Swiss (best of three) from the staff console alone (issue 29's proof), at
tablet size (820×1180), in headless chromium against the real server and its runner; its
top 8 from the console is tests/test_desk_event_bushiroad_top8.py (issue 33: one whole
event was one file of ~60 s; the two phases are two files the workers can share).

After ``init``, ``official add`` and the staff cards at the terminal: 14 players by a CSV
upload and 2 typed, registration closed, three Swiss rounds with results by table number,
a penalty and its repeat whose upgrade "Check first" shows before it is signed, a
disqualification behind its confirmation, the slips printed.  The exported log audits
clean and equals, event for event (actor, kind, body), what the same script gives at the
terminal on a copy of the opening.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.browser import _skip_reason, launched
from tests.helpers.desk_bushiroad import opened, swiss
from tests.helpers.desk_whole import Terminal, console_on, same_events, twin

pytestmark = pytest.mark.skipif(_skip_reason() is not None, reason=str(_skip_reason()))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched() as b:
        yield b


def test_a_bushiroad_bo3_swiss_with_penalties_and_a_dq_from_the_console(
        tmp_path: Path, browser: Any) -> None:

    op = opened(tmp_path / "desk")
    cli_twin = twin(op, tmp_path / "cli")
    d = op.d
    seen: dict[str, Any] = {"results": 0}
    with console_on(op, browser, "tablet", "bushiroad") as console:
        swiss(console, op.cli, seen)
    assert console.searched > console.typed, (console.searched, console.typed)
    assert seen["slips"][0] == seen["slips"][1] == 8
    assert "upgrade" in seen["check"], seen["check"]
    assert seen["results"] >= 20
    kinds = [e["event"]["kind"] for e in op.cli("log", "--json").doc]
    assert kinds.count("penalty_issued") == 2 and "player_disqualified" in kinds, kinds
    op.cli("export", str(d / "bundle"))
    report = op.cli("audit", "verify", str(d / "bundle"), "--json").doc
    assert report["ok"] is True, report
    swiss(Terminal(cli_twin), cli_twin, {"results": 0})
    same_events(op.cli, cli_twin)
