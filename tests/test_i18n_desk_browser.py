"""The staff console in Japanese and in Arabic (right to left) in headless chromium, at
phone (390×844) and tablet (820×1180) size (issue 31; ADR "cmdwords"): the console, a
command's form (``round pair``, ``penalty issue``) and the key page carry
``lang``/``dir``, are no wider than the screen and have no serious or critical axe-core
violation; the command search finds a command by its translated name.

Screenshots go to ``test-artifacts/serve/desk-i18n-*.png``; with ``TOURNEY_DESK_SHOTS=1``
the ones in ``KEEP`` (Arabic's and Japanese's) also to ``docs/screenshots/desk/`` (kept in the
repository).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.browser import ARTIFACTS, PHONE, _fits, _skip_reason, launched
from tests.helpers.cli_runner import CLOCK
from tests.helpers.desk_event import desk_event, desk_server
from tests.helpers.live import ledger_bytes
from tests.helpers.page_checks import Visit, axe
from tests.helpers.page_matrix_run import AXE, axe_read

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "screenshots" / "desk"
SIZES = {"phone": PHONE, "tablet": {"width": 820, "height": 1180}}
LANGS = {"ja": ("ltr", "ja-JP"), "ar": ("rtl", "ar-EG")}
PAGES = (("console", "/desk"), ("pair", "/desk/do/round/pair"),
         ("penalty", "/desk/do/penalty/issue"), ("keys", "/desk/keys"))
#: the screenshots kept in the repository (``TOURNEY_DESK_SHOTS=1`` writes them there):
#: Arabic's and Japanese's; write them only on a machine with fonts-noto-cjk and
#: fonts-noto-core installed (CI's chromium has neither: its screenshots show boxes;
#: docs/TRANSLATING.md, "Screenshots with real glyphs")
KEEP = {f"desk-i18n-{lang}-{size}-{name}" for lang in LANGS for size in SIZES
        for name in ("console", "pair")}

pytestmark = pytest.mark.skipif(_skip_reason() is not None or not AXE.exists(),
                                reason=_skip_reason() or f"no axe-core at {AXE}")


@pytest.fixture(autouse=True)
def _same_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOURNEY_FIXED_CLOCK", CLOCK)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched() as b:
        yield b


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=False)
    if os.environ.get("TOURNEY_DESK_SHOTS") and name in KEEP:
        DOCS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(DOCS / f"{name}.png"), full_page=False)


@pytest.mark.parametrize("lang", sorted(LANGS))
def test_the_console_in_japanese_and_arabic_at_phone_and_tablet_size(
        tmp_path: Path, browser: Any, lang: str) -> None:
    ev = desk_event(tmp_path, "bushiroad-swiss")
    before = ledger_bytes(ev.cli.ledger)
    source = axe_read()
    direction, locale = LANGS[lang]
    problems: list[str] = []
    with desk_server(ev) as (base, _hub):
        for size, viewport in SIZES.items():
            ctx = browser.new_context(viewport=viewport, locale=locale)
            ctx.add_init_script(source)     # axe-core, loaded as each page is made (CSP)
            page = ctx.new_page()
            page.goto(f"{base}/c/{ev.cards['hj']}")
            for name, path in PAGES:
                resp = page.goto(base + path)
                v = Visit(page, resp.status if resp else 0, path, [])
                v.need(v.status == 200, f"HTTP {v.status}")
                v.need(page.get_attribute("html", "lang") == lang
                       and page.get_attribute("html", "dir") == direction,
                       f"not lang={lang} dir={direction}")
                v.need(_fits(page), "wider than the screen")
                axe(v, source)
                problems += [f"{lang} {size} {path}: {p}" for p in v.problems]
                _shot(page, f"desk-i18n-{lang}-{size}-{name}")
            # the command search filters by the translated words as one types
            page.goto(base + "/desk")
            word = {"ja": "シード", "ar": "بذرة"}[lang]
            page.fill("#cmd-q", word)
            page.dispatch_event("#cmd-q", "input")
            shown = page.locator("ul.cmds li:visible a").all_inner_texts()
            if not shown or len(shown) > 8:
                problems.append(f"{lang} {size} search {word!r}: {shown}")
            ctx.close()
    assert not problems, "\n".join(problems)
    assert ledger_bytes(ev.cli.ledger) == before
