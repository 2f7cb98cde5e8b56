"""The HTTP API's commands (issue 29 item 3) on a real ``tourney serve`` process: a
64-player HotC event run end to end over HTTP only, after the terminal's opening (init,
officials, staff cards, ``--staff-key``); the exported log audits clean; and the events
the API wrote are those the same commands give through the CLI (times and signatures
aside).
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.api_event import CliDesk, HttpDesk, Opening, bodies, opening, play_hotc
from tests.helpers.live import serve_process

STAFF = ("--station-key", "st.pem", "--staff-key", "hj.pem", "--staff-key", "sk.pem",
         "--staff-key", "judge.pem")


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Opening, Path, dict[str, Any]]:
    base = tmp_path_factory.mktemp("api")
    op = opening(base / "api")
    twin = base / "cli"
    shutil.copytree(op.d, twin)          # the same opening, for the CLI's run
    with serve_process(op.d, op.cli.env, serve_args=STAFF) as (url, _proc):
        seen = play_hotc(HttpDesk(url, op.tokens), op.cli)
    return op, twin, seen


def test_a_whole_event_over_http(played: tuple[Opening, Path, dict[str, Any]]) -> None:
    op, _, seen = played
    assert seen["import"]["seq"] and len(seen["import"]["events"]) == 64
    assert seen["rounds"] >= 3 and seen["results"] > 64
    assert seen["stopped"]["status"] == 409 and seen["stopped"]["error"]["rule"]
    assert seen["drop"]["events"][0]["event"]["kind"] == "player_dropped"
    assert "after pairing" in seen["drop"]["text"]
    fixed = seen["correct"]["events"][0]["event"]
    assert fixed["kind"] == "result_corrected" and fixed["body"]["reason"] == "slips swapped"
    assert seen["correct"]["receipt"]["version"] == "tourney-receipt/v1"
    assert seen["cut"]["events"]
    log = op.cli("log", "--json").doc
    assert log[-1]["event"]["kind"] != "round_paired"
    standings = op.cli("standings", "--json").doc
    assert any(p.get("status") == "champion" for p in standings["players"]), standings


def test_the_exported_log_audits_clean(played: tuple[Opening, Path, dict[str, Any]]) -> None:
    op, _, _ = played
    op.cli("export", str(op.d / "bundle"))
    report = op.cli("audit", "verify", str(op.d / "bundle"), "--json").doc
    assert report["ok"] is True, report
    assert not [f for f in report["findings"] if f["severity"] == "error"]


def test_the_api_writes_what_the_cli_writes(
        played: tuple[Opening, Path, dict[str, Any]]) -> None:
    op, twin, _ = played
    from tests.helpers.cli_runner import Cli

    cli = Cli(twin, twin / "t.db")
    play_hotc(CliDesk(cli), cli)
    api, desk = bodies(op.cli), bodies(cli)
    assert len(api) == len(desk)
    for k, (a, b) in enumerate(zip(api, desk, strict=True)):
        assert a == b, f"event {k + 1}: {a} != {b}"
