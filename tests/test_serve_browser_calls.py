"""Judge calls in a real headless chromium (issue 30): a player calls a judge from their
phone (390×844), with JavaScript on and with it off; a judge claims and closes the call
and confirms the extension on the staff page; the player's call page shows "a judge is
coming", then the outcome and the extra time.  The station's clock is fixed, 100 s a
reading (``tests.helpers.calls``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.browser import PHONE, _fits, _shot, _skip_reason, launched
from tests.helpers.calls import calls_event, slow_station_clock
from tests.helpers.live import running, wait_until

pytestmark = pytest.mark.skipif(_skip_reason() is not None, reason=_skip_reason() or "")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched() as b:
        yield b


@pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])
def test_a_player_calls_a_judge_from_the_phone_and_sees_the_extension(
        browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, js: bool) -> None:
    cli, doc, tokens, staff = calls_event(tmp_path)
    slow_station_clock(monkeypatch)
    t1 = doc["tables"][0]  # type: ignore[index]
    a = t1["players"][0]
    tag = "js" if js else "nojs"
    with running(cli.ledger, station_key=tmp_path / "station.pem",
                 staff_keys=(tmp_path / "judge.pem",)) as (base, hub):
        ctx = browser.new_context(viewport=PHONE, java_script_enabled=js)
        phone = ctx.new_page()
        phone.goto(f"{base}/c/{tokens[a]}")
        phone.click("text=Call a judge")
        phone.wait_for_url(base + "/call")
        assert _fits(phone)
        phone.fill("input[name=note]", "rules question")
        phone.click("button[type=submit]")
        phone.wait_for_selector("#coming")
        assert "A judge is coming" in phone.inner_text("main") and _fits(phone)
        _shot(phone, f"call-coming-{tag}")
        judge = browser.new_context(viewport=PHONE, java_script_enabled=js).new_page()
        judge.goto(f"{base}/c/{staff}")
        judge.wait_for_url(base + "/staff")
        assert "rules question" in judge.inner_text("#calls") and _fits(judge)
        _shot(judge, f"call-queue-{tag}")
        judge.click("#calls button:has-text('Claim')")
        judge.wait_for_selector("#calls input[name=outcome]")
        judge.fill("#calls input[name=outcome]", "X resolves first")
        judge.click("#calls button:has-text('Close the call')")
        judge.wait_for_selector("#calls button:has-text('Confirm extension')")
        assert "+2 min" in judge.inner_text("#calls")
        _shot(judge, f"call-proposal-{tag}")
        judge.click("#calls button:has-text('Confirm extension')")
        wait_until(lambda: bool(hub.follower.state.calls.extended), 5)
        phone.goto(f"{base}/call")
        phone.wait_for_selector("#extension")
        text = phone.inner_text("main")
        assert "X resolves first" in text and "+2 minutes" in text and _fits(phone)
        _shot(phone, f"call-outcome-{tag}")
        ctx.close()
    cli("audit", "verify", str(cli.ledger))
