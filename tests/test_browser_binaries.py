"""The page tests drive Debian's headless shell; the full browser shows the same pages
(ADR 0077).

``tests/helpers/browser.py`` runs the page tests in ``chromium-headless-shell`` where it is
installed (a quarter of the full browser's CPU per tab), else in the full ``chromium``.
Both come from Debian's one chromium source, so Blink lays a page out the same in each;
this file checks that on real pages of a live server at phone size, JavaScript on: the same
words, the same page height and width, every page fitting 390 px, in both binaries.
``TOURNEY_TEST_BROWSER=full python -m pytest`` runs every page test in the full browser.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bench.bench_cli import make_event
from tests.helpers.browser import FULL, PHONE, SHELL, launched, pick
from tests.helpers.live import running

PAGES = ("/", "/pairings", "/standings", "/p/1", "/p/17")

pytestmark = pytest.mark.skipif(
    not (Path(FULL).exists() and Path(SHELL).exists()),
    reason="needs both Debian packages 'chromium' and 'chromium-headless-shell' "
           "(.ci/run installs them)")


def _seen(binary: str, base: str) -> dict[str, dict[str, Any]]:
    """Each page's words, height, width and whether it fits, in ``binary``."""
    out: dict[str, dict[str, Any]] = {}
    with launched(executable=binary) as b:
        ctx = b.new_context(viewport=PHONE)
        page = ctx.new_page()
        for path in PAGES:
            page.goto(base + path)
            page.wait_for_load_state("load")
            out[path] = page.evaluate(
                """() => ({words: document.querySelector('main').innerText,
                           height: document.documentElement.scrollHeight,
                           width: document.documentElement.scrollWidth,
                           fits: document.documentElement.scrollWidth
                                 <= window.innerWidth + 1})""")
        ctx.close()
    return out


def test_the_shell_and_the_full_browser_show_the_same_pages(tmp_path: Path) -> None:
    db, _key, _signer = make_event(tmp_path, 32, 1)
    with running(db) as (base, _hub):
        shell = _seen(SHELL, base)
        full = _seen(FULL, base)
    for path in PAGES:
        assert shell[path]["words"].strip(), f"{path}: no words in the headless shell"
        assert shell[path] == full[path], \
            f"{path}: the headless shell and the full browser differ: {shell[path]} {full[path]}"
        assert shell[path]["fits"], f"{path} is wider than a phone: {shell[path]['width']} px"


def test_the_binary_is_the_shell_where_installed_and_chosen_by_the_environment() -> None:
    assert pick("") == SHELL                      # both installed here (the skip above)
    assert pick("full") == FULL
    assert pick("shell") == SHELL
