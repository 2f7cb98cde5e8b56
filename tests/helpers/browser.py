"""Headless Debian chromium for the page tests (docs/LIVE.md §4 recipe): the binary (the
headless shell where installed, ADR 0077), its flags, phone and desktop sizes, the skip
reason, screenshots and the no-overflow check.

May import: the standard library (Playwright is imported by the tests that drive it).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

#: Debian's full browser (package ``chromium``; /usr/bin/chromium wraps it)
FULL = "/usr/lib/chromium/chromium"
#: Debian's headless shell (package ``chromium-headless-shell``, built from the same source:
#: the same Blink, V8 and fonts without the browser's UI layer; what Playwright itself runs
#: for headless Chromium).  A tab costs about a quarter of the full browser's CPU, and
#: chromium was half of the suite's CPU (ADR 0077, docs/TESTING.md)
SHELL = "/usr/lib/chromium/chromium-headless-shell"


def pick(env: str | None = None) -> str:
    """The binary the page tests drive: the headless shell where it is installed, else the
    full browser; ``TOURNEY_TEST_BROWSER=full`` (or ``shell``) chooses
    (``tests/test_browser_binaries.py`` shows a page the same in both)."""
    want = os.environ.get("TOURNEY_TEST_BROWSER", "") if env is None else env
    if want == "full":
        return FULL
    if want == "shell" or Path(SHELL).exists():
        return SHELL
    return FULL


CHROMIUM = pick()


ARGS = ["--no-sandbox", "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
        "--disable-background-networking", "--disable-component-update", "--no-first-run"]


PHONE = {"width": 390, "height": 844}


DESKTOP = {"width": 1280, "height": 900}


ARTIFACTS = Path(os.environ.get("TOURNEY_ARTIFACTS")
                 or Path(__file__).resolve().parents[2] / "test-artifacts") / "serve"


def _skip_reason() -> str | None:
    if not Path(CHROMIUM).exists():
        return (f"no chromium at {CHROMIUM} (Debian packages 'chromium' and "
                "'chromium-headless-shell'; .ci/run installs them)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -e '.[test]')"
    return None


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def _fits(page: Any) -> bool:
    return bool(page.evaluate(
        "document.documentElement.scrollWidth <= window.innerWidth + 1"))


@contextmanager
def launched(*extra: str, executable: str | None = None) -> Iterator[Any]:
    """One headless Debian chromium (``executable``, by default ``CHROMIUM``, with ``ARGS``
    and ``extra`` flags), closed on the way out (the tests' ``browser`` fixtures).  Scope
    those fixtures to their module, never the session: Playwright's sync API runs an event
    loop in the worker's thread while it is started, so a session-wide browser breaks every
    later test of that worker that uses Playwright or asyncio."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable or CHROMIUM, headless=True,
                              args=[*ARGS, *extra])
        try:
            yield b
        finally:
            b.close()
