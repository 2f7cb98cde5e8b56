"""``tourney serve`` in a real headless browser (issue 18): Debian's chromium driven by
Playwright through ``executable_path`` (no browser download), at phone size (390x844) and
desktop size.

A player searches their name and lands on their table; an open page updates by itself
within 3 s after the CLI records a result (the SSE nudge); with JavaScript off the pages
still show the pairings and the search still works; long and marked-up names never push
the page wider than the phone; the print view keeps the pairings and the checkable line.
Players reporting from their phones: ``tests/test_serve_browser_reports.py``.
Screenshots are kept in ``test-artifacts/serve/`` (or ``$TOURNEY_ARTIFACTS``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.browser import (
    DESKTOP,
    PHONE,
    _fits,
    _shot,
    _skip_reason,
    launched,
)
from tests.helpers.cli_runner import Cli
from tests.helpers.live import GENEROUS_S, running, wait_until
from tests.helpers.standings_play import pair, record, start

pytestmark = pytest.mark.skipif(_skip_reason() is not None, reason=_skip_reason() or "")

NAMES = ["Ana Alves", "Bo Brandt", "<b>Bold</b> Mallory", "Dee Alder",
         "Eve \u05e2\u05d3\u05df Eggers", "Fay Foster",
         "Gus " + "Greatlongname" * 7, "Hal Hart"]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched() as b:
        yield b


@pytest.fixture()
def event(tmp_path: Path) -> tuple[Cli, dict[str, Any]]:
    cli, _log = start(tmp_path, "hotc-swiss-de", NAMES)
    return cli, pair(cli, "hotc-swiss-de", 1)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_search_a_name_and_land_on_the_players_table(
        browser: Any, event: tuple[Cli, dict[str, Any]], size: str) -> None:
    cli, doc = event
    table = next(t for t in doc["tables"] if 4 in t["players"])
    with running(cli.ledger) as (base, _hub):
        ctx = browser.new_context(viewport=PHONE if size == "phone" else DESKTOP)
        page = ctx.new_page()
        page.goto(base + "/")
        _shot(page, f"home-{size}")
        page.fill("#q", "ald")                       # Dee Alder, by a prefix of her name
        page.click("button[type=submit]")
        page.wait_for_url(base + "/p/4")
        mine = page.inner_text(".mytable")
        assert f"table {table['table']}" in mine and "Opponent" in mine
        assert _fits(page)
        _shot(page, f"player-{size}")
        page.goto(base + "/pairings")
        assert _fits(page), "a long name made the pairings wider than the screen"
        assert "<b>Bold</b> Mallory" in page.inner_text("table.pairings")  # shown as text
        _shot(page, f"pairings-{size}")
        page.goto(base + "/standings")
        assert _fits(page)
        _shot(page, f"standings-{size}")
        ctx.close()


def test_an_open_page_updates_within_3s_after_the_cli_records_a_result(
        browser: Any, event: tuple[Cli, dict[str, Any]]) -> None:
    cli, doc = event
    t = doc["tables"][0]
    with running(cli.ledger) as (base, hub):
        ctx = browser.new_context(viewport=PHONE)
        page = ctx.new_page()
        page.goto(base + "/pairings")
        page.wait_for_function("() => !!document.querySelector('#live')")
        wait_until(lambda: hub.streams >= 1, GENEROUS_S)   # the page's stream is open
        assert f"#{t['players'][0]} wins" not in page.inner_text("#live")
        marker = page.evaluate("() => { window.__same = 1; return 1; }")
        record(cli, "hotc-swiss-de", 1, t)
        page.wait_for_function(
            f"() => document.querySelector('#live').innerText.includes('#{t['players'][0]} "
            "wins')", timeout=3000)
        assert page.evaluate("() => window.__same") == marker  # no reload: refetched part
        _shot(page, "pairings-updated-phone")
        ctx.close()


def test_pages_work_with_javascript_off(browser: Any,
                                        event: tuple[Cli, dict[str, Any]]) -> None:
    cli, doc = event
    with running(cli.ledger) as (base, _hub):
        ctx = browser.new_context(viewport=PHONE, java_script_enabled=False)
        page = ctx.new_page()
        page.goto(base + "/pairings")
        text = page.inner_text("table.pairings")
        for tb in doc["tables"]:
            assert f"#{tb['players'][0]} " in text and f"#{tb['players'][1]} " in text
        _shot(page, "pairings-nojs-phone")
        page.goto(base + "/find")
        page.fill("#q", "8")
        page.click("button[type=submit]")
        page.wait_for_url(base + "/p/8")
        assert "Hal Hart" in page.inner_text("h2.who")
        page.emulate_media(media="print")
        page.goto(base + "/pairings")
        assert "log size" in page.inner_text("footer.checkable")
        assert not page.is_visible("nav.site")       # the print view drops the navigation
        _shot(page, "pairings-print")
        ctx.close()
