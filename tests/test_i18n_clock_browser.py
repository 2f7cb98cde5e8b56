"""The round clock keeps the event's time zone in a phone that lives in another one (issue
31 item 1; branch jswords2): ``live.js`` used to rewrite the clock's ``<time>`` texts with
``toLocaleTimeString([])`` (the phone's zone and language), replacing the event-zone time
``server/when.py`` wrote.  Debian's chromium in New York's zone (Playwright's
``timezone_id``) and American English reads an event in Asia/Tokyo in English, Japanese and
Arabic; after a live refresh each time reads exactly the server's ``clock_text`` of its
``datetime``, in the page's language.  A real server over a ledger the real CLI wrote
(fixed clock)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server.when import clock_text
from tests.helpers.browser import PHONE, _skip_reason, launched
from tests.helpers.live import running, wait_until

pytestmark = pytest.mark.skipif(_skip_reason() is not None, reason=_skip_reason() or "")

ZONE = "Asia/Tokyo"
PHONE_ZONE = "America/New_York"
META = 'meta[name="tourney-log"]'


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched() as b:
        yield b


def _times(page: Any) -> list[tuple[str, str]]:
    """(datetime, visible text) of each ``<time>`` of the page's round clock."""
    return [(t.get_attribute("datetime"), t.inner_text())
            for t in page.locator(".clock[data-ends] time").all()]


def test_the_clock_stays_in_the_event_zone_after_a_live_refresh(
        browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.helpers.cli_runner import CLOCK
    from tests.helpers.reporting_phones import reporting_event

    monkeypatch.setenv("TOURNEY_FIXED_CLOCK", CLOCK)
    cli, _doc, _tokens = reporting_event(tmp_path)
    cli("round", "start", "--minutes", "40", "--key", "hj.pem")
    cli("pages", "set", "--time-zone", ZONE, "--key", "hj.pem")
    ctx = browser.new_context(viewport=PHONE, timezone_id=PHONE_ZONE, locale="en-US")
    try:
        with running(cli.ledger) as (base, hub):
            wait_until(lambda: hub.pages.data.clock is not None, 5)
            pages = {}
            for lang in ("en", "ja", "ar"):
                page = ctx.new_page()
                page.goto(f"{base}/?lang={lang}")
                page.wait_for_selector(".clock[data-ends] time.ends")
                pages[lang] = page
            assert pages["en"].evaluate(
                "Intl.DateTimeFormat().resolvedOptions().timeZone") == PHONE_ZONE
            before = {lang: int(p.get_attribute(META, "data-refetched") or 0)
                      for lang, p in pages.items()}
            cli("pages", "set", "--names", "initial", "--key", "hj.pem")   # the log grows
            for lang, page in pages.items():
                page.wait_for_function(
                    f"() => +(document.querySelector('{META}').dataset.refetched || 0)"
                    f" > {before[lang]}", timeout=30000)
                page.wait_for_timeout(100)            # the swap's own tick() has run
                times = _times(page)
                assert len(times) == 2, (lang, times)
                for iso, shown in times:
                    want = clock_text(iso, ZONE, lang)
                    assert shown == want, (lang, iso, shown, want)
                    # the phone's zone would read otherwise: the check can fail
                    assert clock_text(iso, PHONE_ZONE, lang) != want
                    assert ("JST" in shown) and (lang != "en" or "PM" in shown
                                                 or "AM" in shown), shown
    finally:
        ctx.close()
