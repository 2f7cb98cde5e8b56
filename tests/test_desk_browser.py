"""The staff console in a real browser (issue 29 item 1): headless Debian chromium on
loopback, a ledger the real CLI wrote, the server holding the officials' keys.

For Heart of the Cards, Bushiroad and Wheel of Time 2001, at desktop (1280×800) and
tablet (820×1180) size: the console, the result form of a table and a command's form have
no serious or critical axe-core violation and are no wider than the screen.  With
JavaScript on, "/" goes to the command search and a result is entered by typing a table
number and picking the outcome; a refusal shows the CLI's sentence and the log is
unchanged; with JavaScript off, a form is sent and recorded; at phone width no console
page is wider than the screen.

Screenshots go to ``test-artifacts/serve/desk-*.png``; with ``TOURNEY_DESK_SHOTS=1`` the
ones in ``KEEP`` also to ``docs/screenshots/desk/`` (kept in the repository).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.browser import ARTIFACTS, _fits, _skip_reason, launched
from tests.helpers.cli_runner import CLOCK
from tests.helpers.desk_event import desk_event, desk_server
from tests.helpers.live import ledger_bytes, wait_until
from tests.helpers.page_checks import Visit, axe
from tests.helpers.page_matrix_run import AXE, axe_read

ROOT = Path(__file__).resolve().parents[1]
SIZES = {"desktop": {"width": 1280, "height": 800}, "tablet": {"width": 820, "height": 1180}}
DOCS = ROOT / "docs" / "screenshots" / "desk"
#: the screenshots kept in the repository (``TOURNEY_DESK_SHOTS=1`` writes them there)
KEEP = {f"desk-{f}-{s}-console" for f in ("hotc-swiss-de", "bushiroad-swiss", "wot-2001")
        for s in ("desktop", "tablet")} | {
    "desk-bushiroad-swiss-desktop-result", "desk-bushiroad-swiss-desktop-penalty",
    "desk-bushiroad-swiss-tablet-refused", "desk-bushiroad-swiss-tablet-recorded",
    "desk-bushiroad-swiss-slips-print"}

pytestmark = pytest.mark.skipif(_skip_reason() is not None or not AXE.exists(),
                                reason=_skip_reason() or f"no axe-core at {AXE}")


@pytest.fixture(autouse=True)
def _same_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOURNEY_FIXED_CLOCK", CLOCK)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched() as b:
        yield b


@pytest.fixture(scope="module")
def axe_source() -> str:
    return axe_read()    # the vendored axe-core, checked against its pin


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=False)
    if os.environ.get("TOURNEY_DESK_SHOTS") and name in KEEP:
        DOCS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(DOCS / f"{name}.png"), full_page=False)


def _tab(browser: Any, base: str, token: str, size: str, js: bool = True,
         init: str | None = None) -> Any:
    ctx = browser.new_context(viewport=SIZES[size], java_script_enabled=js)
    if init is not None:       # axe-core, loaded as each page is made (the page's CSP)
        ctx.add_init_script(init)
    page = ctx.new_page()
    page.goto(f"{base}/c/{token}")
    return page


@pytest.mark.parametrize("fmt", ["hotc-swiss-de", "bushiroad-swiss", "wot-2001"])
def test_the_console_reads_well_at_desktop_and_tablet_size(
        tmp_path: Path, browser: Any, axe_source: str, fmt: str) -> None:
    ev = desk_event(tmp_path, fmt)
    table = ev.round1["tables"][0]["table"]
    problems: list[str] = []
    with desk_server(ev) as (base, _hub):
        for size in SIZES:
            page = _tab(browser, base, ev.cards["hj"], size, init=axe_source)
            for name, path in (("console", "/desk"),
                               ("result", f"/desk/result?round=1&table={table}"),
                               ("command", "/desk/do/drop"),
                               ("penalty", "/desk/do/penalty/issue"),
                               ("slips", "/desk/slips/1")):
                resp = page.goto(base + path)
                v = Visit(page, resp.status if resp else 0, path, [])
                v.need(v.status == 200, f"HTTP {v.status}")
                v.need(_fits(page), "wider than the screen")
                axe(v, axe_source)
                problems += [f"{fmt} {size} {path}: {p}" for p in v.problems]
                _shot(page, f"desk-{fmt}-{size}-{name}")
            page.context.close()
    assert not problems, "\n".join(problems)


def test_a_result_by_table_a_refusal_and_a_form_without_javascript(
        tmp_path: Path, browser: Any) -> None:
    ev = desk_event(tmp_path, "bushiroad-swiss")
    t1, t2 = ev.round1["tables"][:2]
    with desk_server(ev) as (base, _hub):
        page = _tab(browser, base, ev.cards["sk"], "tablet")
        page.goto(base + "/desk")
        # "/" goes to the command search, which filters the commands as one types
        page.keyboard.press("/")
        assert page.evaluate("document.activeElement.id") == "cmd-q"
        page.keyboard.type("drop")
        assert page.locator("ul.cmds li:visible").count() >= 1
        assert not page.locator("ul.cmds li:visible a", has_text="penalty").count()
        # a result by table: the number, Enter, the outcome, sign
        page.fill("#q-table", str(t1["table"]))
        page.keyboard.press("Enter")
        page.wait_for_url("**/desk/result?**")
        page.get_by_label("One of us won").check()
        page.select_option("select[name$='.winner']", str(t1["players"][1]))
        page.get_by_role("button", name="Sign and record").click()
        page.wait_for_load_state("load")
        assert "Done" in page.inner_text("#outcome")
        _shot(page, "desk-bushiroad-swiss-tablet-recorded")
        # the answer stays while the log grows: a nudge refetches the page's address
        # (GET /desk/result, no answer in it) and must not swap it in under the official
        meta = 'meta[name="tourney-log"]'
        seen = int(page.get_attribute(meta, "data-refetched") or 0)
        ev.cli("round", "start", "--minutes", "50", "--key", "hj.pem")
        page.wait_for_function(
            f"() => +(document.querySelector('{meta}').dataset.refetched || 0) > {seen}",
            timeout=30000)
        assert "Done" in page.inner_text("#outcome")
        wait_until(lambda: f'id="t{t1["table"]}"' not in
                   (page.goto(base + "/desk") and page.content()), 10)
        # a refusal: the CLI's sentence, nothing written
        before = ledger_bytes(ev.cli.ledger)
        page.goto(base + "/desk/do/drop")
        page.fill("#f-number", "99")
        page.get_by_role("button", name="Sign and record").click()
        page.wait_for_load_state("load")
        shown = page.inner_text("#outcome")
        cli = ev.cli.plain("drop", "99", "--key", "sk.pem",
                           env={"TOURNEY_LEDGER": str(ev.cli.ledger)})
        said = cli.err.strip().splitlines()[0].removeprefix("error: ")
        assert cli.code != 0 and said in shown, (said, shown)
        assert "Nothing was written" in shown
        assert ledger_bytes(ev.cli.ledger) == before
        _shot(page, "desk-bushiroad-swiss-tablet-refused")
        # the match slips print: one per table, the console's own parts left out
        page.goto(base + "/desk/slips/1")
        page.emulate_media(media="print")
        assert page.locator(".slip").count() == len(ev.round1["tables"])
        assert not page.locator("nav.site").is_visible()
        _shot(page, "desk-bushiroad-swiss-slips-print")
        page.context.close()
        # JavaScript off: the same forms work
        off = _tab(browser, base, ev.cards["sk"], "desktop", js=False)
        off.goto(base + f"/desk/result?round=1&table={t2['table']}")
        off.get_by_label("One of us won").check()
        off.select_option("select[name$='.winner']", str(t2["players"][0]))
        off.get_by_role("button", name="Sign and record").click()
        off.wait_for_load_state("load")
        assert "Done" in off.inner_text("#outcome")
        off.goto(base + "/desk/do/drop")
        off.fill("#f-number", str(t2["players"][1]))
        off.fill("#f-reason", "left the venue")
        off.get_by_role("button", name="Sign and record").click()
        off.wait_for_load_state("load")
        assert "Done" in off.inner_text("#outcome"), off.inner_text("main")
        off.context.close()
        # and it reads on a phone: no page of the console is wider than the screen
        phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        phone.goto(f"{base}/c/{ev.cards['hj']}")
        for path in ("/desk", f"/desk/result?table={t1['table']}",
                     "/desk/do/penalty/issue", "/desk/slips/1"):
            phone.goto(base + path)
            assert _fits(phone), f"{path} is wider than a phone"
        phone.context.close()
    events = [leaf["event"] for leaf in ev.cli("log", "--json").doc]
    assert sum(e["kind"] == "result_recorded" for e in events) == 2
    assert any(e["kind"] == "player_dropped" for e in events), [e["kind"] for e in events]
    ev.cli("audit", "verify", str(ev.cli.ledger))
