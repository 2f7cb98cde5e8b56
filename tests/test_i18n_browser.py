"""The player pages in Japanese in headless chromium at 390×844 (issue 31 items 3 and 5,
first part), JavaScript off: the switch "日本語" on the English home page is a plain link
whose cookie keeps every later page Japanese; each page has ``lang="ja"``, fits the
phone's width, and axe-core finds no serious or critical violation. Screenshots go to
``test-artifacts/serve/i18n-ja-*.png``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.browser import PHONE, _fits, _shot, _skip_reason, launched
from tests.helpers.live import running
from tests.helpers.page_checks import Visit, axe
from tests.helpers.page_matrix_run import axe_read, skip_reason
from tests.helpers.standings_play import pair, record, start

pytestmark = pytest.mark.skipif(skip_reason() is not None or _skip_reason() is not None,
                                reason=skip_reason() or _skip_reason() or "")

NAMES = ["山田 花子", "やまだ はなこ", "Nguyễn Văn An", "ｻﾄｳ ｹﾝｼﾞ", "カタカナ・タロウ・ナガイナマエ",
         "Søren Ørsted"]


def test_japanese_pages_on_a_phone_without_javascript(tmp_path: Path) -> None:
    fmt = "hotc-swiss-de"
    cli, _log = start(tmp_path, fmt, NAMES)
    doc = pair(cli, fmt, 1)
    record(cli, fmt, 1, doc["tables"][0])
    source = axe_read()
    with running(cli.ledger) as (base, _hub), launched() as b:
        ctx = b.new_context(viewport=PHONE, java_script_enabled=False, locale="en-US")
        page = ctx.new_page()
        page.goto(base + "/")
        assert page.get_attribute("html", "lang") == "en"
        page.click("nav.langs a[lang=ja]")
        assert page.get_attribute("html", "lang") == "ja", page.url
        problems: list[str] = []
        for path in ("/", "/pairings", "/standings", "/p/1", "/p/5", "/find?q=%E3%82%84"):
            page.goto(base + path)           # the cookie, no ?lang=
            assert page.get_attribute("html", "lang") == "ja", path
            assert page.get_attribute("html", "dir") == "ltr", path
            assert _fits(page), f"{path} is wider than the phone"
            _shot(page, "i18n-ja-" + (path.strip("/").split("?")[0].replace("/", "-")
                                      or "home"))
        ctx.close()
        js = b.new_context(viewport=PHONE, locale="ja-JP", bypass_csp=True)   # axe: scripts
        page = js.new_page()
        for path in ("/", "/pairings", "/standings", "/p/1"):
            page.goto(base + path)           # Accept-Language: ja-JP from the locale
            assert page.get_attribute("html", "lang") == "ja", path
            v = Visit(page=page, status=200, url=path, problems=[])
            axe(v, source)
            problems += [f"{path}: {p}" for p in v.problems]
        js.close()
    assert problems == []


def test_the_new_faces_in_japanese_on_a_phone(tmp_path: Path) -> None:
    """Issue 31's second slice (branch ``words``): the bracket, verify, a round and the
    standings of a HotC event in its top cut, and a Bushiroad standings page — every
    word Japanese, the format's included — fit 390×844 and pass axe-core with no serious
    or critical violation (screenshots ``i18n-ja-words-*.png``)."""
    from tests.helpers.standings_play import play

    fmt = "hotc-swiss-de"
    cli, _log = start(tmp_path, fmt, NAMES + ["Bo Chen", "Di Eve"])
    for n in (1, 2):
        play(cli, fmt, n, pair(cli, fmt, n))
    seed = ("--seed-material", "words browser cut", "--seed-source", "dice")
    cli("cut", *seed, "--key", "hj.pem")
    cli("bracket", *seed, "--key", "hj.pem")
    source = axe_read()
    problems: list[str] = []
    with running(cli.ledger) as (base, _hub), launched() as b:
        ctx = b.new_context(viewport=PHONE, locale="ja-JP", bypass_csp=True)
        page = ctx.new_page()
        for path in ("/bracket", "/verify", "/round/3", "/standings", "/p/1"):
            resp = page.goto(base + path)
            assert resp is not None and resp.status == 200, path
            assert page.get_attribute("html", "lang") == "ja", path
            assert _fits(page), f"{path} is wider than the phone"
            _shot(page, "i18n-ja-words-" + path.strip("/").replace("/", "-"))
            v = Visit(page=page, status=200, url=path, problems=[])
            axe(v, source)
            problems += [f"{path}: {p}" for p in v.problems]
        ctx.close()
    assert problems == []


def test_the_signing_step_speaks_japanese(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A script's own message in the page's language (ADR 0065): a card whose
    phone holds its key, reported from another phone set to Japanese (the switch's
    cookie, an English browser): the signing step's script finds no key here and says so
    in the Japanese of the page's words island, not in its English; nothing written."""
    from server.i18n import Language, translations
    from tests.helpers.cli_runner import CLOCK
    from tests.helpers.live import ledger_bytes
    from tests.helpers.reporting_phones import reporting_event

    english = ("This card's reports are signed by the phone that holds its key, and this "
               "is not that phone. Report from it, or ask the head judge for a new card.")
    japanese = translations(Language.JA).gettext(english)
    assert japanese != english
    monkeypatch.setenv("TOURNEY_FIXED_CLOCK", CLOCK)   # the station signs on the CLI's clock
    cli, doc, tokens = reporting_event(tmp_path)
    a, b = doc["tables"][0]["players"]
    with running(cli.ledger, station_key=tmp_path / "station.pem") as (base, _hub), \
            launched() as browser:
        keyed = browser.new_context(viewport=PHONE).new_page()
        keyed.goto(f"{base}/c/{tokens[a]}")
        keyed.goto(base + "/report")
        keyed.click("#bind button")
        keyed.wait_for_selector("text=Your reports are signed by the key")
        other = browser.new_context(viewport=PHONE, locale="en-US").new_page()
        other.goto(f"{base}/c/{tokens[a]}")
        other.goto(base + "/?lang=ja")                   # the switch: its cookie
        other.goto(base + "/report")
        box = other.locator("fieldset", has=other.locator('select[name$=".winner"]')).first
        box.locator("input[type=radio]").check()
        box.locator('select[name$=".winner"]').select_option(str(b))
        before = ledger_bytes(cli.ledger)
        other.click("button[type=submit]")
        other.wait_for_selector("#sign-problem:not([hidden])")
        assert other.get_attribute("html", "lang") == "ja"
        assert other.inner_text("#sign-problem") == japanese
        assert _fits(other), "the signing step is wider than the phone"
        _shot(other, "i18n-ja-signing-step")
        assert ledger_bytes(cli.ledger) == before
