"""Running the page matrix's cells (issue 32 item 6; ADR 0034): the browser, its tabs, the
events' servers and one cell's checks, shared by the per-format matrix files
``tests/test_page_matrix_<format>.py`` (one file per format, so pytest-xdist spreads the
matrix over its workers and no file runs long; issue 33).

Owns: ``PAGES``, ``TOP_CUT``, ``AXE`` (the vendored axe-core and its pinned SHA-256),
``skip_reason``, ``moments_of``/``applies``/``phone_cells``/``desktop_cells``/``ja_cells``
(which cells exist), ``Events`` (a format's event built on first use, a server per
moment, the newest few kept running), ``Tabs`` (one long-lived browser tab per screen
and script setting), the bodies of the module-scoped fixtures ``matrix_events``, ``matrix_browser``,
``matrix_axe`` and ``matrix_tabs`` of ``tests/conftest.py`` (one browser and one event per
matrix file), and ``phone_cell``/``desktop_cell``/``ja_cell`` (one cell: open, check, fail
with every problem listed).

May import: ``tests.helpers.page_matrix``, ``tests.helpers.page_checks``,
``tests.helpers.browser``, ``tests.helpers.live`` (lazily), ``pytest``, the standard library.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.browser import DESKTOP, PHONE, launched
from tests.helpers.browser import _skip_reason as browser_skip_reason
from tests.helpers.page_checks import Visit, axe, generic, must_see, path
from tests.helpers.page_matrix import FORMATS, MOMENTS, Moment, build

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("TOURNEY_ARTIFACTS") or ROOT / "test-artifacts") \
    / "page-matrix"
AXE = ROOT / "tests" / "vendor" / "axe-core" / "axe.min.js"
AXE_SHA256 = "29348999450cdf2849a8e70b7912fc2da85a849da39c0d0d5394f51d4a9ed95c"

PAGES = ("home", "find", "player", "pairings", "round", "standings", "bracket", "report",
         "drop", "receipt", "staff", "verify", "404")
#: formats with a top cut (the others have no such moment)
TOP_CUT = {"hotc-swiss-de", "bushiroad-swiss", "trio"}


def skip_reason() -> str | None:
    if not AXE.exists():
        return f"axe-core is missing at {AXE}"
    return browser_skip_reason()


#: the mark of every matrix file: skipped, with the reason, where the browser is missing
needs_browser = pytest.mark.skipif(skip_reason() is not None, reason=skip_reason() or "")


def moments_of(fmt: str) -> tuple[str, ...]:
    return tuple(m for m in MOMENTS if m != "top-cut" or fmt in TOP_CUT)


def applies(fmt: str, moment: str, page: str) -> bool:
    """Whether a cell exists: a round page needs a posted round, a receipt a report."""
    if page == "round" and moment == "before-r1":
        return False
    return not (page == "receipt" and moment == "before-r1")


def phone_cells(fmt: str) -> list[Any]:
    """``(moment, page)`` of every phone cell of ``fmt``, with the id ``fmt-moment-page``."""
    assert fmt in FORMATS, fmt
    return [pytest.param(m, p, id=f"{fmt}-{m}-{p}")
            for m in moments_of(fmt) for p in PAGES if applies(fmt, m, p)]


#: the moment whose every page also runs in Japanese (issue 31 item 5): mid-round has every
#: page (a round, a report, a receipt), and one moment keeps the matrix cheap
JA_MOMENT = "mid-round"


def ja_cells(fmt: str) -> list[Any]:
    """Every page of ``fmt`` at ``JA_MOMENT`` in Japanese, with the id
    ``fmt-mid-round-page-ja``."""
    assert fmt in FORMATS, fmt
    return [pytest.param(p, id=f"{fmt}-{JA_MOMENT}-{p}-ja") for p in PAGES
            if applies(fmt, JA_MOMENT, p)]


def desktop_cells(fmt: str) -> list[Any]:
    """Every page of ``fmt`` at mid-round, with the id ``fmt-mid-round-page``."""
    assert fmt in FORMATS, fmt
    return [pytest.param(p, id=f"{fmt}-mid-round-{p}") for p in PAGES]


# -- the events, their servers and the browser (once per matrix file) --------------------
class Events:
    """Each format's event built on first use; one server per moment, the newest few
    kept running (cells are ordered by format and moment)."""

    KEEP = 3

    def __init__(self, base: Path) -> None:
        self.base = base
        self.built: dict[str, dict[str, Moment]] = {}
        self.servers: OrderedDict[tuple[str, str], tuple[ExitStack, str]] = OrderedDict()

    def moment(self, fmt: str, moment: str) -> Moment:
        if fmt not in self.built:
            d = self.base / fmt
            d.mkdir(parents=True, exist_ok=True)
            self.built[fmt] = build(d, fmt)
        found = self.built[fmt].get(moment)
        if found is None:
            raise AssertionError(f"the {fmt} event never reached the moment {moment!r}")
        return found

    def server(self, m: Moment) -> str:
        from tests.helpers.live import running

        key = (m.fmt, m.moment)
        if key in self.servers:
            self.servers.move_to_end(key)
            return self.servers[key][1]
        while len(self.servers) >= self.KEEP:
            _k, (stack, _b) = self.servers.popitem(last=False)
            stack.close()
        stack = ExitStack()
        base, _hub = stack.enter_context(running(
            m.db, station_key=m.station_key, staff_keys=(m.station_key.with_name("hj.pem"),)))
        self.servers[key] = (stack, base)
        return base

    def close(self) -> None:
        while self.servers:
            _k, (stack, _b) = self.servers.popitem()
            stack.close()


def events_in(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Events]:
    """The ``matrix_events`` fixture (tests/conftest.py): servers stopped at the end."""
    ev = Events(tmp_path_factory.mktemp("page-matrix"))
    yield ev
    ev.close()


def browser_open() -> Iterator[Any]:
    """The ``matrix_browser`` fixture: one headless chromium per matrix file."""
    with launched() as b:
        yield b


def axe_read() -> str:
    """The ``matrix_axe`` fixture: the vendored axe-core, checked against its pin."""
    data = AXE.read_bytes()
    assert hashlib.sha256(data).hexdigest() == AXE_SHA256, \
        "tests/vendor/axe-core/axe.min.js is not the vendored file (see PROVENANCE.md)"
    return data.decode("utf-8")


class AxeServer:
    """axe-core over HTTP on a loopback port of its own, cacheable for an hour: loaded into
    a page with a ``<script src>``, the browser compiles it once and reuses the compiled code
    from its cache on every later page (as an init script, or inline, it was compiled again
    with every page: a quarter of a cell's browser time)."""

    def __init__(self, source: str) -> None:
        import http.server
        import threading

        body = source.encode("utf-8")

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - the standard library's name
                if self.path != "/axe.min.js":
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/javascript; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "public, max-age=3600, immutable")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                return

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/axe.min.js"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(10)


#: the phone tab's init script: every page it opens loads axe-core from ``AxeServer`` by
#: a ``<script src>`` added when its document is parsed (before ``load``, which waits for
#: it), so ``page_checks.axe`` finds it there and runs it in one round trip instead of
#: three (is it there? add it; run it): ~40 ms a phone cell.  The page's own markup and
#: scripts are untouched (the element is added to ``<head>``, outside ``#live``)
AXE_LOADER_JS = (
    "(() => { const add = () => { if (window.axe || document.getElementById("
    "'tourney-test-axe')) return; const s = document.createElement('script');"
    " s.id = 'tourney-test-axe'; s.src = %s;"
    " (document.head || document.documentElement).appendChild(s); };"
    " if (document.readyState === 'loading')"
    " document.addEventListener('DOMContentLoaded', add); else add(); })();")


class Tabs:
    """One long-lived browser tab per screen and script setting (a new context per cell
    costs more than the page itself); each cell sets the card cookie it needs.  The cells
    that run axe-core load it from ``AxeServer`` (sent and compiled once, then taken from
    the browser's cache: ``axe_url``), into every page of the phone tab as it loads
    (``AXE_LOADER_JS``)."""

    def __init__(self, browser: Any, axe_source: str) -> None:
        self.browser = browser
        self.axe_source = axe_source
        self.tabs: dict[tuple[str, bool], tuple[Any, Any]] = {}
        self._axe: AxeServer | None = None

    @property
    def axe_url(self) -> str:
        if self._axe is None:
            self._axe = AxeServer(self.axe_source)
        return self._axe.url

    def tab(self, size: str, js: bool) -> tuple[Any, Any]:
        if (size, js) not in self.tabs:
            ctx = self.browser.new_context(viewport=PHONE if size == "phone" else DESKTOP,
                                           java_script_enabled=js, bypass_csp=True)
            if size == "phone" and js:          # the tab of the cells that run axe-core
                ctx.add_init_script(script=AXE_LOADER_JS % json.dumps(self.axe_url))
            self.tabs[(size, js)] = (ctx, ctx.new_page())
        return self.tabs[(size, js)]

    def open(self, base: str, m: Moment, page: str, *, size: str, js: bool,
             lang: str = "") -> Visit:
        """``page`` at moment ``m`` (in ``lang`` by ``?lang=``: its cookie is cleared with
        the others by the next cell, so every other cell stays English)."""
        ctx, p = self.tab(size, js)
        host = base.split("://", 1)[1].split(":")[0]
        token = m.staff_token if page == "staff" else m.tokens.get(m.subject, "")
        ctx.clear_cookies()
        ctx.add_cookies([{"name": "tourney_card", "value": token, "domain": host,
                          "path": "/"}])
        resp = p.goto(base + path(m, page) + (f"?lang={lang}" if lang else ""),
                      wait_until="load")
        status = resp.status if resp is not None else 0
        return Visit(p, status, p.url, [])

    def close(self) -> None:
        for ctx, _p in self.tabs.values():
            ctx.close()
        if self._axe is not None:
            self._axe.close()


def tabs_of(browser: Any, axe_source: str) -> Iterator[Tabs]:
    """The ``matrix_tabs`` fixture: the browser's tabs, closed at the end."""
    t = Tabs(browser, axe_source)
    yield t
    t.close()


# -- one cell -----------------------------------------------------------------------------
#: the cells whose screenshots ``docs/LIVE.md`` shows (``docs/screenshots/``, and its
#: ``ja/`` and ``ar/``): the player's page at mid-round in English, Japanese and Arabic
KEPT = {("player", "mid-round", "phone"), ("player", "mid-round", "phone-ja"),
        ("player", "mid-round", "phone-ar")}
DOCS = ROOT / "docs" / "screenshots"
#: where ``TOURNEY_MATRIX_SHOTS=1`` copies a kept cell's screenshot, by its screen
DOCS_DIR = {"phone": DOCS, "phone-ja": DOCS / "ja", "phone-ar": DOCS / "ar"}


def _shot(v: Visit, m: Moment, page: str, size: str) -> None:
    """The cell's screenshot (whole page, as ``docs/screenshots/`` keeps them); with
    ``TOURNEY_MATRIX_SHOTS=1`` a kept cell that passed is also copied to
    ``docs/screenshots/[ja/|ar/]<page>-<moment>-<format>.png``."""
    out = ARTIFACTS / m.fmt / f"{page}-{m.moment}-{size}.png"
    out.parent.mkdir(parents=True, exist_ok=True)
    v.page.screenshot(path=str(out), full_page=True)
    if os.environ.get("TOURNEY_MATRIX_SHOTS") and (page, m.moment, size) in KEPT \
            and not v.problems:
        docs = DOCS_DIR[size]
        docs.mkdir(parents=True, exist_ok=True)
        (docs / f"{page}-{m.moment}-{m.fmt}.png").write_bytes(out.read_bytes())


def _kept(m: Moment, page: str, shot: str, failing: bool) -> bool:
    """Whether a cell's screenshot is written: a cell of ``docs/screenshots/``, a failing
    cell, or every cell with ``TOURNEY_PAGE_SHOTS=all`` (a screenshot costs about as much
    as opening the page)."""
    return failing or (page, m.moment, shot) in KEPT or \
        os.environ.get("TOURNEY_PAGE_SHOTS") == "all"


def _checked(tabs: Tabs, v: Visit, base: str, m: Moment, page: str, text: str, *,
             size: str, js: bool) -> None:
    """``must_see`` with the cell's screenshot where one is kept: taken before the checks
    that click or open another page (the search, a disqualified player's page); a cell
    found failing only by them is opened again for its picture."""
    shot = size if js else f"{size}-nojs"
    if _kept(m, page, shot, bool(v.problems)):
        _shot(v, m, page, shot)
        must_see(v, m, page, text)
        return
    must_see(v, m, page, text)
    if v.problems:
        _shot(tabs.open(base, m, page, size=size, js=js), m, page, shot)


def _report(m: Moment, page: str, where: str, problems: list[str]) -> str:
    return (f"{m.fmt} · {m.moment} · {page} ({where}): {len(problems)} problem(s)\n  - "
            + "\n  - ".join(problems))


def phone_cell(tabs: Tabs, events: Events, axe_source: str, fmt: str, moment: str,
               page: str) -> None:
    """One phone cell (390×844, JavaScript on): status, content, width, jargon, axe."""
    m = events.moment(fmt, moment)
    base = events.server(m)
    v = tabs.open(base, m, page, size="phone", js=True)
    text = generic(v, m, page)
    if v.status < 500:
        axe(v, axe_source, url=tabs.axe_url)
        _checked(tabs, v, base, m, page, text, size="phone", js=True)
    if v.problems:
        pytest.fail(_report(m, page, "phone, JavaScript on", v.problems), pytrace=False)


#: what every page shows in Japanese: its ``<html lang>`` and the translated header's link
JA_NAV = "対戦表"
#: the officials' console stays English (issue 31: "the CLI for officials may stay
#: English"): its Japanese cell checks width, jargon and axe only
ENGLISH_ONLY = {"staff"}
#: English words a team member's page once kept in every language (the table "3 seat 2"
#: and "(team: —)" were built in English by ``server.view``): none on a translated player page
PLAYER_ENGLISH = (" seat ", "(team:")


def _no_english_seat(v: Visit, text: str) -> None:
    left = [w.strip() for w in PLAYER_ENGLISH if w in text]
    v.need(not left, f"English left on the player's page: {left}")


def ja_cell(tabs: Tabs, events: Events, axe_source: str, fmt: str, page: str) -> None:
    """One page at ``JA_MOMENT`` in Japanese on a phone (390×844, JavaScript on): status,
    width, jargon, ``lang="ja"``, the Japanese header, axe-core 0 serious or critical;
    its screenshot (``<fmt>/<page>-mid-round-phone-ja.png``) kept as the English cells'
    are (``_kept``: the player's page always, a failing cell, every cell with
    ``TOURNEY_PAGE_SHOTS=all``).  The player's cell also opens that page in Arabic
    (``_arabic_player``)."""
    m = events.moment(fmt, JA_MOMENT)
    base = events.server(m)
    v = tabs.open(base, m, page, size="phone", js=True, lang="ja")
    text = generic(v, m, page)
    if page == "player":
        _no_english_seat(v, text)
    if v.status < 500:
        lang, nav = v.page.evaluate(
            "[document.documentElement.lang,"
            " (document.querySelector('nav.site') || {innerText: ''}).innerText]")
        if page not in ENGLISH_ONLY:
            v.need(lang == "ja", f'<html lang="{lang}">, not "ja"')
            v.need(JA_NAV in nav, f"the header is not in Japanese (no {JA_NAV} in {nav!r})")
        axe(v, axe_source, url=tabs.axe_url)
        if _kept(m, page, "phone-ja", bool(v.problems)):
            _shot(v, m, page, "phone-ja")
    problems = v.problems
    if page == "player":
        problems = problems + [f"[Arabic] {p}" for p in _arabic_player(tabs, base, m)]
    if problems:
        pytest.fail(_report(m, page, "phone, Japanese", problems), pytrace=False)


def _arabic_player(tabs: Tabs, base: str, m: Moment) -> list[str]:
    """The player's page of the same cell in Arabic (``?lang=ar``, right to left): status,
    width, jargon, ``lang="ar"`` and ``dir="rtl"``; its screenshot kept as the Japanese
    one is (``player-mid-round-phone-ar.png``).  axe-core runs on the Arabic pages in
    ``tests/test_i18n_rtl_browser.py``."""
    v = tabs.open(base, m, "player", size="phone", js=True, lang="ar")
    _no_english_seat(v, generic(v, m, "player"))
    if v.status < 500:
        lang, dir_ = v.page.evaluate("[document.documentElement.lang,"
                                     " document.documentElement.dir]")
        v.need((lang, dir_) == ("ar", "rtl"), f'<html lang="{lang}" dir="{dir_}">, '
                                               'not lang="ar" dir="rtl"')
        if _kept(m, "player", "phone-ar", bool(v.problems)):
            _shot(v, m, "player", "phone-ar")
    return v.problems


def desktop_cell(tabs: Tabs, events: Events, fmt: str, page: str) -> None:
    """One page at mid-round on a desktop (JavaScript on) and a phone (JavaScript off)."""
    m = events.moment(fmt, "mid-round")
    base = events.server(m)
    problems: list[str] = []
    for where, size, js in (("desktop, JavaScript on", "desktop", True),
                            ("phone, JavaScript off", "phone", False)):
        v = tabs.open(base, m, page, size=size, js=js)
        text = generic(v, m, page)
        if v.status < 500:
            _checked(tabs, v, base, m, page, text, size=size, js=js)
        problems += [f"[{where}] {p}" for p in v.problems]
    if problems:
        pytest.fail(_report(m, page, "desktop and JavaScript off", problems), pytrace=False)
