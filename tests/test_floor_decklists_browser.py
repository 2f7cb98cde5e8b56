"""A player hands in their decklist from the phone in a real headless chromium (issue 30
item 4): 390×844, JavaScript on and off; the page fits the screen, has no serious or
critical axe-core violation (with JavaScript on, the page's own scripts running), and
after the list is sent says it is registered with its fingerprint.  The station's clock is
fixed, 100 s a reading (``tests.helpers.calls``)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from ledger.formats.officiating.decklist_rules import list_hash
from tests.helpers.browser import PHONE, _fits, _shot, _skip_reason, launched
from tests.helpers.calls import slow_station_clock
from tests.helpers.cli_runner import CLOCK
from tests.helpers.live import running, wait_until
from tests.helpers.page_checks import Visit, axe
from tests.helpers.page_matrix_run import AXE, axe_read
from tests.helpers.reporting_phones import reporting_event

pytestmark = pytest.mark.skipif(_skip_reason() is not None or not AXE.is_file(),
                                reason=_skip_reason() or f"no axe-core at {AXE}")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched() as b:
        yield b


@pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])
def test_a_player_hands_in_their_list_from_the_phone(
        browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, js: bool) -> None:
    import ledger.wire.clock as clock

    cli, _doc, tokens = reporting_event(tmp_path)
    cli("deck", "deadline", "--at", "2026-03-01T12:00:00Z", "--key", "hj.pem")
    slow_station_clock(monkeypatch)
    monkeypatch.setattr(clock, "default_clock",
                        lambda: clock.FixedClock(CLOCK, step=timedelta(seconds=100)))
    tag = "js" if js else "nojs"
    text = "4 Alpha Strike\n4 Beta Guard\n2 Gamma\n"
    with running(cli.ledger, station_key=tmp_path / "station.pem") as (base, hub):
        ctx = browser.new_context(viewport=PHONE, java_script_enabled=js)
        if js:         # axe-core, loaded as the page is made (the page's CSP)
            ctx.add_init_script(axe_read())
        phone = ctx.new_page()
        phone.goto(f"{base}/c/{tokens[1]}")
        phone.goto(f"{base}/p/1")
        phone.click("text=Hand in your decklist")
        phone.wait_for_url(base + "/deck")
        v = Visit(phone, 200, "/deck", [])
        v.need(_fits(phone), "the form is wider than the phone")
        if js:
            axe(v, axe_read())
        phone.fill("textarea[name=list]", text)
        _shot(phone, f"deck-form-{tag}")
        phone.click("button[type=submit]")
        phone.wait_for_selector("#handed-in")
        main = phone.inner_text("main")
        v.need("Your list is registered" in main and list_hash(text) in main,
               "no registration shown: " + main)
        v.need(_fits(phone), "the answer is wider than the phone")
        if js:
            axe(v, axe_read())
        _shot(phone, f"deck-done-{tag}")
        assert v.problems == []
        wait_until(lambda: 1 in hub.follower.state.fmt.officiating.decks, 5)
        ctx.close()
    cli("audit", "verify", str(cli.ledger))
