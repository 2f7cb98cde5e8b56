"""Issue 32 item 4 in a real headless chromium at phone size (390x844): the standings of a
Bushiroad Swiss best-of-three event with a top 8 show every tiebreaker column (MW%, OMW%,
OOMW%, byes, status) — the table scrolls sideways inside its box with the name column
kept in view, the page itself never wider than the phone — and a percentage's exact
fraction is one tap away; the bracket's final is reachable by scrolling, with a hint.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from ledger.formats.simulation import simulate
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.clock import FixedClock
from tests.helpers.browser import PHONE, _fits, _shot, _skip_reason, launched
from tests.helpers.live import running

pytestmark = pytest.mark.skipif(_skip_reason() is not None, reason=_skip_reason() or "")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched() as b:
        yield b


@pytest.fixture(scope="module")
def ledger_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("phone")
    db = d / "br.db"
    with Ledger(Location(str(db)), create=True,
                clock=FixedClock("2026-05-01T09:00:00.000000Z")) as led:
        simulate(led, log="br", players=24, seed_text="phone standings",
                 timeouts=Fraction(1, 8), checkpoints=d / "notes", cut=8,
                 format_id="bushiroad-swiss",
                 params={"swiss_rounds": 4, "match_format": "BO3"})
    return db


def test_phone_standings_show_every_tiebreaker_and_scroll_inside(
        browser: Any, ledger_file: Path) -> None:
    with running(ledger_file) as (base, _hub):
        page = browser.new_page(viewport=PHONE)
        page.goto(base + "/standings")
        for head in ("MW%", "OMW%", "OOMW%", "BYES", "STATUS"):
            th = page.locator("table.standings th", has_text=head).first
            assert th.is_visible(), head
            assert th.evaluate("e => getComputedStyle(e).display") == "table-cell", head
        assert _fits(page)                                  # the page never scrolls sideways
        box = page.locator("div.scroll").first
        assert box.evaluate("e => e.scrollWidth > e.clientWidth")   # the table does
        assert page.locator(".swipe").first.is_visible()
        # scrolled to the far right, the name column stays in view
        box.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
        name = page.locator("table.standings tbody tr td:nth-child(3)").first
        left = name.evaluate("e => e.getBoundingClientRect().left")
        box_left = box.evaluate("e => e.getBoundingClientRect().left")
        assert abs(left - box_left) < 2
        oomw = page.locator("table.standings tbody tr td:last-child").first
        assert oomw.is_visible()
        # the exact fraction, one tap away
        abbr = oomw.locator("abbr")
        abbr.focus()
        after = abbr.evaluate("e => getComputedStyle(e, '::after').content")
        assert "/" in after, after
        _shot(page, "phone-standings-scrolled")
        page.close()


def test_phone_bracket_scrolls_to_the_final_with_a_hint(
        browser: Any, ledger_file: Path) -> None:
    with running(ledger_file) as (base, _hub):
        page = browser.new_page(viewport=PHONE)
        page.goto(base + "/bracket")
        assert _fits(page)
        assert page.locator(".swipe", has_text="bracket").is_visible()
        final = page.locator(".bracket section h3", has_text="Final").last
        final.scroll_into_view_if_needed()
        assert final.is_visible()
        last = page.locator(".bracket section").last
        left, right = last.evaluate(
            "e => [e.getBoundingClientRect().left, e.getBoundingClientRect().right]")
        assert left >= 0 and right <= PHONE["width"] + 1, (left, right)   # all of it
        _shot(page, "phone-bracket-final")
        page.close()
