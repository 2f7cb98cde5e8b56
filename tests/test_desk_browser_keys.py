"""The staff console with a key held by the official's browser (issue 29 items 1 and 2):
``tourney serve`` started with no key at all, headless Debian chromium on loopback (a
secure context).  The console says which mode it is in; the official makes a key on the
key page, the head judge binds it, and a result entered by table on the console is
prepared by the server, signed in the page and appended, signed by that key — the same
form that a server-held key posts; the key page's script speaks the page's language.
Without JavaScript the same form is refused with the CLI's words and nothing is written.
Needs the browser-key routes (``server.api_keys``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.browser import _skip_reason, launched
from tests.helpers.browser_keys import NO_KEYS, bind_browser_scorekeeper
from tests.helpers.cli_event import open_event
from tests.helpers.live import ledger_bytes, serve_process

pytestmark = pytest.mark.skipif(_skip_reason() is not None or NO_KEYS is not None,
                                reason=str(_skip_reason() or NO_KEYS))


def test_a_result_by_table_signed_by_the_browsers_key(tmp_path: Path) -> None:
    cli, _log = open_event(tmp_path, "hotc-swiss-de", [f"P{i}" for i in range(1, 9)],
                           "--cut", "4")
    cli("round", "pair", "--seed-material", "desk keys 3 1 4", "--seed-source", "dice",
        "--key", "hj.pem")
    table, players = next((t["table"], t["players"]) for t in
                          cli("round", "show", "1", "--json").doc["tables"])
    env = {k: v for k, v in cli.env.items() if k != "TOURNEY_KEY"}
    with serve_process(tmp_path, env) as (base, _proc), launched() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        kid, token = bind_browser_scorekeeper(page, base, cli)
        assert "a key made in this browser signs" in page.inner_text(".mode")
        page.goto(base + f"/desk/result?round=1&table={table}")
        page.get_by_label("One of us won").check()
        page.select_option("select[name$='.winner']", str(players[0]))
        page.get_by_role("button", name="Sign and record").click()
        page.locator("#outcome", has_text="Done").wait_for(timeout=30_000)
        assert page.url.endswith(f"/desk/result?round=1&table={table}")   # no post
        # the key page's script writes its words from the page's island (ADR 0065): in
        # Japanese, then in English again
        for lang, bound, mode in (("ja", "ヘッドジャッジがあなたの鍵として登録しました。",
                                   "ブラウザの鍵"),
                                  ("en", "Bound to you by the head judge.", "browser key")):
            page.goto(base + f"/desk/keys?lang={lang}")
            page.wait_for_selector("#key-state:not(:empty)")
            assert page.inner_text("#key-state") == bound
            assert page.inner_text("#mode strong") == mode
        # JavaScript off: the browser's key cannot sign; the CLI's words, nothing written
        ctx = browser.new_context(java_script_enabled=False)
        off = ctx.new_page()
        off.goto(base + f"/c/{token}")
        off.goto(base + "/desk/do/drop")
        before = ledger_bytes(cli.ledger)
        off.fill("#f-number", str(players[1]))
        off.get_by_role("button", name="Sign and record").click()
        off.wait_for_load_state("load")
        assert "does not hold your key" in off.inner_text("#outcome")
        assert ledger_bytes(cli.ledger) == before
        ctx.close()
    leaves = cli("log", "--json").doc
    rec = [x["event"] for x in leaves if x["event"]["kind"] == "result_recorded"]
    assert len(rec) == 1 and rec[0]["actor"] == kid
    assert rec[0]["body"]["table"] == table and rec[0]["body"]["winner"] == players[0]
    cli("audit", "verify")
