"""``tourney serve`` following the log (issue 18): a result the CLI records updates the
page and nudges the phones (SSE); an earlier round amended mid-round shows once the log
is quiet; the round clock and a table's extension.  The pages themselves:
``tests/test_serve.py``; held pairings and published penalties:
``tests/test_serve_publishing.py``.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.helpers.cli_runner import Cli
from tests.helpers.live import get, running, wait_until
from tests.helpers.standings_play import pair, play, record, start

NAMES = ["Ana Alves", "Bo Brandt", "<script>alert(1)</script> Mallory", "Dee Alder",
         "Eve \u05e2\u05d3\u05df Eggers", "Fay Foster", "Gus " + "G" * 95, "Hal Hart"]


@pytest.fixture()
def event(tmp_path: Path) -> tuple[Cli, str, dict[str, Any]]:
    """A HotC event with round 1 paired and no result yet."""
    cli, log = start(tmp_path, "hotc-swiss-de", NAMES)
    doc = pair(cli, "hotc-swiss-de", 1)
    return cli, log, doc


def test_result_recorded_by_the_cli_updates_the_page_and_nudges(
        event: tuple[Cli, str, dict[str, Any]]) -> None:
    cli, log, doc = event
    with running(cli.ledger) as (base, hub):
        first = get(base + "/pairings")
        nudges: list[dict[str, Any]] = []

        def listen() -> None:
            with httpx.stream("GET", base + "/live", timeout=10) as s:
                for line in s.iter_lines():
                    if line.startswith("data: "):
                        nudges.append(json.loads(line[6:]))
                        if len(nudges) >= 2:
                            return

        t = threading.Thread(target=listen, daemon=True)
        t.start()
        wait_until(lambda: len(nudges) >= 1, 5)          # the stream says where it starts
        assert nudges[0]["size"] == hub.data.checkable.size
        record(cli, "hotc-swiss-de", 1, doc["tables"][0])
        took = wait_until(lambda: get(base + "/pairings", **{
            "If-None-Match": first.headers["etag"]}).status_code == 200, 3)
        assert took < 3
        fresh = get(base + "/pairings")
        assert fresh.headers["etag"] != first.headers["etag"]
        winner = doc["tables"][0]["players"][0]
        assert f"#{winner} wins" in fresh.text
        wait_until(lambda: len(nudges) >= 2, 4)           # coalesced, trailing send
        assert nudges[1]["size"] == hub.data.checkable.size > nudges[0]["size"]
        assert set(nudges[1]) == {"size", "root", "live", "v", "spread"}  # content-free


def test_an_earlier_round_amended_mid_round_shows_once_the_log_is_quiet(
        tmp_path: Path) -> None:
    """A result of round 2 reads only round 2 again (a partial build); an amendment of
    round 1 made while round 2 is played shows after the whole is built again."""
    cli, _log = start(tmp_path, "hotc-swiss-de", [f"P{c}" for c in "ABCDEFGH"])
    first = pair(cli, "hotc-swiss-de", 1)
    play(cli, "hotc-swiss-de", 1, first)
    second = pair(cli, "hotc-swiss-de", 2)
    t = first["tables"][0]
    with running(cli.ledger) as (base, hub):
        record(cli, "hotc-swiss-de", 2, second["tables"][0])
        wait_until(lambda: "wins" in get(base + "/pairings").text, 5)
        assert f"#{t['players'][0]} wins" in get(base + "/round/1").text
        cli("result", "amend", "--round", "1", "--table", str(t["table"]), "--winner",
            str(t["players"][1]), "--reason", "slip swapped", "--key", "hj.pem")
        wait_until(lambda: f"#{t['players'][1]} wins" in get(base + "/round/1").text, 8)
        page = get(base + "/round/1")
        assert hub.data.partial is False and page.headers["etag"].startswith(
            f'"{hub.data.checkable.size}-')


def test_the_round_clock_and_a_tables_extension_show(tmp_path: Path) -> None:
    """``round start`` gives the clock (start + minutes: the end), ``round time`` says
    time was called, ``round extend`` shows on that table's players' pages (BR-TIME-5,
    BR-EXT-1)."""
    cli, _log = start(tmp_path, "bushiroad-swiss", [f"P{c}" for c in "ABCDEF"])
    doc = pair(cli, "bushiroad-swiss", 1)
    t = doc["tables"][0]
    with running(cli.ledger) as (base, hub):
        assert 'class="clock"' not in get(base + "/").text
        cli("round", "start", "--minutes", "50", "--key", "hj.pem")
        wait_until(lambda: "50 minutes from" in get(base + "/").text, 5)
        clock = hub.data.clock
        assert clock is not None and clock.minutes == 50
        assert f'data-ends="{clock.ends}"' in get(base + "/pairings").text
        cli("round", "extend", "--round", "1", "--table", str(t["table"]), "--minutes", "3",
            "--reason", "a ruling took 3 minutes", "--key", "hj.pem")
        wait_until(lambda: "3 extra minutes" in get(base + f"/p/{t['players'][0]}").text, 5)
        other = next(tb for tb in doc["tables"] if tb is not t)
        assert "extra minute" not in get(base + f"/p/{other['players'][0]}").text
        cli("round", "time", "--key", "hj.pem")
        wait_until(lambda: "time has been called" in get(base + "/").text, 5)
