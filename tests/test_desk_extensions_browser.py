"""The console's "Extensions to confirm" in a real browser at 1280×800 (issue 30, task
floor2): headless Debian chromium on loopback, a ledger the real CLI wrote with a fixed
clock (a deck check of 2:01 proposes 3 minutes, a ruling of 3:10 proposes 4), the server
holding the judge's key.  With JavaScript on, the judge changes the deck check's minutes
and confirms; with JavaScript off, the call's proposal is confirmed as it stands; the
console then lists neither and its floor panel shows proposed vs given; no page is wider
than the screen, and axe-core finds no serious or critical violation.  Screenshot:
``test-artifacts/serve/desk-extensions-desktop.png``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.helpers.browser import ARTIFACTS, _fits, _skip_reason, launched
from tests.helpers.desk_event import desk_event, desk_server
from tests.helpers.floor_proposals import floor_with_proposals
from tests.helpers.live import wait_until
from tests.helpers.page_checks import Visit, axe
from tests.helpers.page_matrix_run import AXE, axe_read

pytestmark = pytest.mark.skipif(_skip_reason() is not None or not AXE.exists(),
                                reason=_skip_reason() or f"no axe-core at {AXE}")

DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture(autouse=True)
def _after_the_floor(monkeypatch: pytest.MonkeyPatch) -> None:
    # the server's events come after the CLI's (10:00–10:04)
    monkeypatch.setenv("TOURNEY_FIXED_CLOCK", "2026-03-01T11:00:00.000000Z")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched() as b:
        yield b


def _tab(browser: Any, base: str, token: str, js: bool, init: str | None = None) -> Any:
    ctx = browser.new_context(viewport=DESKTOP, java_script_enabled=js)
    if init is not None:       # axe-core, loaded as each page is made (the page's CSP)
        ctx.add_init_script(init)
    page = ctx.new_page()
    page.goto(f"{base}/c/{token}")
    page.goto(base + "/desk")
    return page


def test_the_judge_confirms_extensions_on_the_console_js_on_and_off(
        tmp_path: Any, browser: Any) -> None:
    ev = desk_event(tmp_path, "bushiroad-swiss")
    check, t1, call, t2 = floor_with_proposals(ev)
    with desk_server(ev) as (base, hub):
        source = axe_read()
        page = _tab(browser, base, ev.cards["judge"], js=True, init=source)
        ext = page.locator(f"#extdc{check}")
        assert ext.is_visible() and "+3 min proposed" in ext.inner_text()
        assert page.locator(f"#ext{call}").is_visible()
        assert _fits(page)
        v = Visit(page, 200, "/desk", [])
        axe(v, source)        # no serious or critical violation with the forms shown
        assert not v.problems, v.problems
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "desk-extensions-desktop.png"))
        ext.get_by_label("Minutes").fill("2")
        ext.get_by_role("button", name=f"Confirm extension for table {t1}").click()
        page.wait_for_url("**/desk?done=*")
        assert "Recorded" in page.inner_text("main")
        wait_until(lambda: check in hub.follower.state.fmt.officiating.deck_extended, 10)
        assert hub.follower.state.fmt.officiating.deck_extended[check][1:] == [2, 3]

        off = _tab(browser, base, ev.cards["judge"], js=False)
        assert not off.locator(f"#extdc{check}").count()
        off.locator(f"#ext{call}").get_by_role(
            "button", name=f"Confirm extension for table {t2}").click()
        off.wait_for_url("**/desk?done=*")
        wait_until(lambda: call in hub.follower.state.calls.extended, 10)
        assert hub.follower.state.calls.extended[call][1:] == [4, 4]
        off.goto(base + "/desk")
        assert "Extensions to confirm" not in off.content()
        off.locator("details.floor summary").click()
        floor = off.inner_text("details.floor")
        assert f"table {t1} +2 min (deck check {check}: proposed 3, given 2)" in floor
        assert f"table {t2} +4 min (call {call}: proposed 4)" in floor
        assert _fits(off)
