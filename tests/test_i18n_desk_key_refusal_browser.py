"""A browser-held key's refused command in the console's language (issue 31; branch
jswords2): ``desk.js`` signs through ``/api/v1/…/prepare``, whose refusal is English JSON
(the API is a contract); the console shows it in the page's language by asking its own
``/desk/say``.  ``tourney serve`` as a process with no key, headless Debian chromium on
loopback, a key made on the key page and bound by the head judge (as
``tests/test_desk_browser_keys.py``); the refusal is the ledger's own (a drop of a player
who is not registered), nothing written."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.helpers.browser import _skip_reason, launched
from tests.helpers.browser_keys import NO_KEYS, bind_browser_scorekeeper
from tests.helpers.cli_event import open_event
from tests.helpers.live import ledger_bytes, serve_process

pytestmark = pytest.mark.skipif(_skip_reason() is not None or NO_KEYS is not None,
                                reason=str(_skip_reason() or NO_KEYS))

ENGLISH = "player 99 is not registered [BR-DROP-1]"


def _refused_drop(page: Any, base: str, lang: str, answers: list[Any]) -> str:
    """The console's drop form in ``lang``, player 99, signed by the browser's key: the
    refusal the page shows."""
    page.goto(base + f"/desk/do/drop?lang={lang}")
    assert page.get_attribute("html", "lang") == lang
    page.fill("#f-number", "99")
    answers.clear()
    page.click("form.cmd button.go")
    page.locator("#outcome.refused").wait_for(timeout=30_000)
    page.wait_for_function("() => document.querySelector('#outcome').textContent.length > 20")
    return str(page.inner_text("#outcome"))


def test_a_refusal_of_the_api_shows_in_the_console_s_language(tmp_path: Path) -> None:
    cli, _log = open_event(tmp_path, "hotc-swiss-de", [f"P{i}" for i in range(1, 9)],
                           "--cut", "4")
    cli("round", "pair", "--seed-material", "desk words 2 7", "--seed-source", "dice",
        "--key", "hj.pem")
    env = {k: v for k, v in cli.env.items() if k != "TOURNEY_KEY"}
    with serve_process(tmp_path, env) as (base, _proc), launched() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        bind_browser_scorekeeper(page, base, cli)
        answers: list[Any] = []
        page.on("response", lambda r: answers.append(r.json())
                if "/api/v1/" in r.url and r.status >= 400 else None)
        before = ledger_bytes(cli.ledger)
        ja = _refused_drop(page, base, "ja", answers)
        assert "プレイヤー99は登録されていません [BR-DROP-1]" in ja, ja
        assert "「tourney player list」を見てください" in ja and "registered" not in ja, ja
        # the API's own answer stayed English: the translation is the console's
        assert [a["error"]["message"] for a in answers] == [ENGLISH], answers
        assert answers[0]["error"]["hint"] == "see 'tourney player list'"
        en = _refused_drop(page, base, "en", answers)
        assert f"{ENGLISH} (see 'tourney player list')" in en, en
        assert ledger_bytes(cli.ledger) == before
