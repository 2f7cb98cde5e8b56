"""The player's page shows their table's own end time after ``round extend --call``
(issue 30 item 2; ``clock`` ADR), in a real headless chromium at 390×844, JavaScript on
and off: before the extension the page shows the round's end alone; after the judge
confirms the extension the record proposes for a call (190 s of ruling → 4 minutes),
the page shows the table's extra minutes and its own end, the round clock's end plus
them; the call page shows the same end.  The CLI writes the ledger with fixed clocks
while the live server follows it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.browser import PHONE, _fits, _shot, _skip_reason, launched
from tests.helpers.calls import calls_event
from tests.helpers.live import running, wait_until

pytestmark = pytest.mark.skipif(_skip_reason() is not None, reason=_skip_reason() or "")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched() as b:
        yield b


def _at(hms: str) -> dict[str, str]:
    return {"TOURNEY_FIXED_CLOCK": f"2026-03-01T{hms}.000000Z"}


@pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])
def test_the_player_s_page_shows_the_extended_end_after_round_extend_call(
        browser: Any, tmp_path: Path, js: bool) -> None:
    cli, doc, tokens, _staff = calls_event(tmp_path)
    t1 = doc["tables"][0]  # type: ignore[index]
    a = t1["players"][0]
    j = ("--key", "judge.pem")
    cli("round", "start", "--minutes", "40", "--key", "hj.pem", env=_at("09:00:00"))
    call = str(cli("call", "open", "--table", str(t1["table"]), *j, "--json",
                   env=_at("09:10:00")).doc["seq"])
    cli("call", "claim", call, *j, env=_at("09:10:30"))
    cli("call", "close", call, "--outcome", "ruled", *j, env=_at("09:13:40"))
    tag = "js" if js else "nojs"
    with running(cli.ledger, station_key=tmp_path / "station.pem",
                 staff_keys=(tmp_path / "judge.pem",)) as (base, hub):
        ctx = browser.new_context(viewport=PHONE, java_script_enabled=js, timezone_id="UTC")
        phone = ctx.new_page()
        phone.goto(f"{base}/c/{tokens[a]}")
        phone.goto(f"{base}/p/{a}")
        before = phone.inner_text("main")
        assert "extra minute" not in before and _fits(phone)
        cli("round", "extend", "--call", call, *j, env=_at("09:14:00"))
        wait_until(lambda: hub.follower.state.fmt.officiating.extensions.get(
            f"1/{t1['table']}") == 4, 10)

        def shown() -> bool:
            phone.goto(f"{base}/p/{a}")
            return "4 extra minutes" in phone.inner_text("main")

        wait_until(shown, 10)
        ends = phone.locator("main p:has-text('extra minutes') time.ends")
        assert ends.get_attribute("datetime") == "2026-03-01T09:44:00Z"
        assert "09:44" in ends.inner_text() and _fits(phone)
        _shot(phone, f"table-end-player-{tag}")
        phone.goto(f"{base}/call")
        end = phone.locator("#table-end time.ends")
        assert end.get_attribute("datetime") == "2026-03-01T09:44:00Z"
        assert "4 extra minutes" in phone.inner_text("#table-end") and _fits(phone)
        _shot(phone, f"table-end-call-{tag}")
        ctx.close()
    cli("audit", "verify", str(cli.ledger))
