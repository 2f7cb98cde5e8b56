"""The page matrix (issue 32 item 6): every page of ``tourney serve`` in a real browser
(Debian's chromium driven by Playwright), for every format of ``tourney init --format``
plus Bushiroad tag and trio, at every moment of an event.

One test per cell ``format × moment × page`` (``test_phone``): a phone (390×844) with
JavaScript on.  It checks that the page answers (never a 5xx), shows what a player must see
at that moment (their table, opponent, result, standing with every tiebreaker column on
screen, the round clock; the event's state), is not wider than the phone, speaks no jargon
(no ``--option``, no rule id, no ``RULES.md``), and has no serious or critical
accessibility violation by axe-core (vendored: ``tests/vendor/axe-core``).  Every problem of
a cell is listed in its failure, not only the first.

``test_desktop_and_no_js`` repeats the content, width and jargon checks of every page of
every format at the mid-round moment on a desktop (1280×900, JavaScript on) and on a phone
with JavaScript off.  A screenshot of every phone cell is kept in
``test-artifacts/page-matrix/<format>/<page>-<moment>-phone.png`` (or under
``$TOURNEY_ARTIFACTS``).  The events are built in-process once per test session (per
xdist worker): ``tests/helpers/page_matrix.py``.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.page_matrix import FORMATS, MOMENTS, Moment, build

CHROMIUM = "/usr/lib/chromium/chromium"   # Debian's package (/usr/bin/chromium wraps it)
ARGS = ["--no-sandbox", "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
        "--disable-background-networking", "--disable-component-update", "--no-first-run"]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = Path(os.environ.get("TOURNEY_ARTIFACTS") or ROOT / "test-artifacts") \
    / "page-matrix"
AXE = ROOT / "tests" / "vendor" / "axe-core" / "axe.min.js"
AXE_SHA256 = "29348999450cdf2849a8e70b7912fc2da85a849da39c0d0d5394f51d4a9ed95c"

PAGES = ("home", "find", "player", "pairings", "round", "standings", "bracket", "report",
         "drop", "receipt", "staff", "verify", "404")
#: formats with a top cut (the others have no such moment)
TOP_CUT = {"hotc-swiss-de", "bushiroad-swiss", "trio"}

#: jargon a player must never read: a command-line option, a rule id, the rule book's file
JARGON = {
    "a command-line option": re.compile(r"(?<![\w-])--[a-z][a-z0-9-]+"),
    "a rule id": re.compile(r"\b(?:BR|WOTOLD|WOT01|HOTC|TC|EOM|LEDGER|AMEND|AMB|REPORT|"
                            r"PAGES|DESIGN|RULES|BYE|TEAM)-[A-Z0-9]+(?:-[A-Z0-9]+)*\b"),
    "RULES.md": re.compile(r"RULES\.md"),
}


def _skip_reason() -> str | None:
    if not Path(CHROMIUM).exists():
        return f"no chromium at {CHROMIUM} (Debian package 'chromium'; .ci/run installs it)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -e '.[test]')"
    if not AXE.exists():
        return f"axe-core is missing at {AXE}"
    return None


pytestmark = pytest.mark.skipif(_skip_reason() is not None, reason=_skip_reason() or "")


def moments_of(fmt: str) -> tuple[str, ...]:
    return tuple(m for m in MOMENTS if m != "top-cut" or fmt in TOP_CUT)


def applies(fmt: str, moment: str, page: str) -> bool:
    """Whether a cell exists: a round page needs a posted round, a receipt a report."""
    if page == "round" and moment == "before-r1":
        return False
    return not (page == "receipt" and moment == "before-r1")


CELLS = [pytest.param(f, m, p, id=f"{f}-{m}-{p}")
         for f in FORMATS for m in moments_of(f) for p in PAGES if applies(f, m, p)]


# -- the events, their servers and the browser (once per session / worker) ---------------
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


@pytest.fixture(scope="session")
def events(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Events]:
    ev = Events(tmp_path_factory.mktemp("page-matrix"))
    yield ev
    ev.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def axe_source() -> str:
    data = AXE.read_bytes()
    assert hashlib.sha256(data).hexdigest() == AXE_SHA256, \
        "tests/vendor/axe-core/axe.min.js is not the vendored file (see PROVENANCE.md)"
    return data.decode("utf-8")


# -- one cell -----------------------------------------------------------------------------
@dataclass
class Visit:
    page: Any
    status: int
    url: str
    problems: list[str]

    def need(self, ok: bool, what: str) -> None:
        if not ok:
            self.problems.append(what)


def _path(m: Moment, page: str) -> str:
    return {"home": "/", "find": "/find", "player": f"/p/{m.subject}",
            "pairings": "/pairings", "round": f"/round/{m.round or _last_posted(m)}",
            "standings": "/standings", "bracket": "/bracket", "report": "/report",
            "drop": "/drop", "receipt": f"/receipt/{m.receipt}", "staff": "/staff",
            "verify": "/verify", "404": "/no-such-page"}[page]


def _last_posted(m: Moment) -> int:
    return {"mid-round": 1, "held-round": 1, "after-dq": 2}.get(m.moment, 1)


class Tabs:
    """One long-lived browser tab per screen and script setting (a new context per cell
    costs more than the page itself); each cell sets the card cookie it needs."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.tabs: dict[tuple[str, bool], tuple[Any, Any]] = {}

    def open(self, base: str, m: Moment, page: str, *, size: str, js: bool) -> Visit:
        if (size, js) not in self.tabs:
            ctx = self.browser.new_context(viewport=PHONE if size == "phone" else DESKTOP,
                                           java_script_enabled=js, bypass_csp=True)
            self.tabs[(size, js)] = (ctx, ctx.new_page())
        ctx, p = self.tabs[(size, js)]
        host = base.split("://", 1)[1].split(":")[0]
        token = m.staff_token if page == "staff" else m.tokens.get(m.subject, "")
        ctx.clear_cookies()
        ctx.add_cookies([{"name": "tourney_card", "value": token, "domain": host,
                          "path": "/"}])
        resp = p.goto(base + _path(m, page), wait_until="load")
        status = resp.status if resp is not None else 0
        return Visit(p, status, p.url, [])

    def open_blank(self, size: str) -> None:
        if (size, True) not in self.tabs:
            ctx = self.browser.new_context(viewport=PHONE if size == "phone" else DESKTOP,
                                           bypass_csp=True)
            self.tabs[(size, True)] = (ctx, ctx.new_page())

    def close(self) -> None:
        for ctx, _p in self.tabs.values():
            ctx.close()


@pytest.fixture(scope="session")
def tabs(browser: Any) -> Iterator[Tabs]:
    t = Tabs(browser)
    yield t
    t.close()


def _text(v: Visit) -> str:
    try:
        return str(v.page.inner_text("body"))
    except Exception as err:  # noqa: BLE001 - reported as a problem of the cell
        v.problems.append(f"the page has no body text ({err})")
        return ""


def _visible(v: Visit, selector: str) -> bool:
    loc = v.page.locator(selector)
    return bool(loc.count() and loc.first.is_visible())


def generic(v: Visit, m: Moment, page: str) -> str:
    """Every cell: an answer (never a 5xx), the page's width, no jargon."""
    want = 404 if page == "404" else 200
    v.need(v.status < 500, f"HTTP {v.status} (a server error) for {_path(m, page)}")
    v.need(v.status == want or v.status >= 500,
           f"HTTP {v.status} for {_path(m, page)} (expected {want})")
    text = _text(v)
    # Playwright's evaluate runs with the page's own scripts off too
    wide = v.page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    v.need(wide[0] <= wide[1], f"wider than the screen: scrollWidth {wide[0]} > "
                               f"innerWidth {wide[1]}")
    for what, rx in JARGON.items():
        found = sorted(set(rx.findall(text)))
        v.need(not found, f"jargon ({what}): {', '.join(found[:5])}")
    return text


def must_see(v: Visit, m: Moment, page: str, text: str) -> None:
    """What a player must see on ``page`` at moment ``m``."""
    open_round = m.round is not None and not m.over
    low = text.lower()
    if page == "home":
        if open_round:
            v.need(f"{m.noun} {m.round}".lower() in low, f"home does not name {m.noun} "
                   f"{m.round}, the round being played")
            if m.clock:
                v.need(_visible(v, ".clock"), "home shows no round clock during a round")
        if m.held:
            v.need("post" in low or "check" in low, "home does not say the new round is "
                   "waiting to be posted")
        if m.over:
            v.need(bool(re.search(r"\b(over|final|ended|finished|champion)", low)),
                   "home does not say the event is over")
    elif page == "find":
        v.need(_visible(v, "#q"), "no search box")
        surname = m.subject_name.split()[-1]
        v.page.fill("#q", surname)
        v.page.click("form[role=search] button[type=submit], main button[type=submit]")
        v.page.wait_for_load_state("load")
        v.need(v.page.url.endswith(f"/p/{m.subject}"), f"searching {surname!r} did not "
               f"land on #{m.subject}'s page (at {v.page.url})")
    elif page == "player":
        player_page(v, m, text)
    elif page in ("pairings", "round"):
        if (open_round or page == "round") and not (m.held and page == "pairings"):
            v.need(m.subject_name in text or m.round is None,
                   f"the {page} page does not list {m.subject_name}")
            if m.opponent and m.table is not None and page == "pairings":
                v.need(m.opponent in text, f"pairings do not list the opponent "
                       f"{m.opponent}")
        if m.held and page == "pairings":
            v.need("check" in low or "post" in low, "pairings of a held round do not say "
                   "they are being checked")
    elif page == "standings":
        if m.moment != "before-r1":
            standings_columns(v, "table.standings")
            v.need(m.subject_name in text, f"standings do not list {m.subject_name}")
        if m.dq_name and m.moment in ("after-dq",):
            v.need(bool(re.search(r"disqualif|forfeit", low)),
                   f"standings do not mark {m.dq_name} as disqualified")
    elif page == "bracket":
        if m.has_bracket and m.moment in ("top-cut", "over"):
            v.need(_visible(v, "main table, main ol, main ul, main .bracket"),
                   "the bracket page shows no bracket")
    elif page == "report":
        if m.teams and open_round:
            v.need("desk" in low, "a team fighter is not told where their seat's result "
                   "is reported")
        elif open_round and m.table is not None and not m.result_in:
            v.need(v.page.locator("main input[type=radio]").count() > 0,
                   "the report form offers no outcome to choose")
            v.need(_visible(v, "main button[type=submit]"), "the report form has no "
                   "submit button")
    elif page == "drop":
        v.need(_visible(v, "main form") or "drop" in low, "the drop page has no form")
    elif page == "receipt":
        if m.receipt is not None:
            v.need(f"R{m.receipt}-" in text, f"the receipt does not show its code "
                   f"R{m.receipt}-…")
    elif page == "staff":
        v.need("queue" in low or "report" in low, "the staff page shows no reports queue")
        if open_round and m.receipt is not None and not m.result_in and m.table is not None:
            v.need(f"table {m.table}" in low, f"the staff page does not show table "
                   f"{m.table}'s report")
    elif page == "verify":
        v.need("log size" in low, "the verify page does not show the log size")
    elif page == "404":
        v.need(_visible(v, "main a[href='/find'], nav a[href='/find']"),
               "the not-found page offers no way to find a table")
    if page != "404" and v.status < 400:
        v.need("log size" in low, "the footer's checkable line (log size · root) is "
               "missing")


def player_page(v: Visit, m: Moment, text: str) -> None:
    v.need(m.subject_name in text, f"the player page does not name {m.subject_name}")
    if m.held:
        v.need("checked" in text or "post" in text, "a held round: the player page does "
               "not say their table is being checked")
    elif m.round is not None and not m.over and m.table is not None:
        mine = v.page.locator(".mytable")
        mt = mine.first.inner_text() if mine.count() else ""
        v.need(f"table {m.table}" in mt, f"the player's table ({m.table}) is not shown "
               "in their box")
        v.need(bool(m.opponent) and str(m.opponent) in mt,
               f"the opponent ({m.opponent}) is not shown in their box")
        v.need("Result" in mt, "their result (or that it is not in yet) is not shown")
        if m.clock:
            v.need(_visible(v, ".mytable .clock"), "the round clock is not shown with "
                   "their table")
    if m.moment != "before-r1":
        v.need(_visible(v, "table.standings"), "their standing is not shown")
        standings_columns(v, "table.standings")
    if m.dq is not None and m.dq != m.subject:
        v.page.goto(v.url.rsplit("/p/", 1)[0] + f"/p/{m.dq}")
        dq_text = v.page.inner_text("body").lower()
        v.need(bool(re.search(r"disqualif|forfeit", dq_text)),
               f"the page of #{m.dq} ({m.dq_name}) does not say they were disqualified")


def standings_columns(v: Visit, selector: str) -> None:
    """Every column of a standings table (the tiebreakers too) is on screen or one
    horizontal scroll away, never hidden."""
    tab = v.page.locator(selector)
    if not tab.count():
        v.problems.append(f"no {selector}")
        return
    hidden = tab.first.evaluate(
        "t => [...t.querySelectorAll('th')].filter(th => getComputedStyle(th).display === "
        "'none' || getComputedStyle(th).visibility === 'hidden').map(th => th.innerText || "
        "th.title)")
    v.need(not hidden, f"standings columns hidden: {', '.join(map(str, hidden))}")
    heads = tab.first.locator("th").count()
    v.need(heads >= 3, f"standings have {heads} columns (no tiebreakers shown)")


def axe(v: Visit, source: str) -> None:
    v.page.add_script_tag(content=source)
    found = v.page.evaluate(
        "async () => { const r = await axe.run(document, {resultTypes: ['violations']});"
        " return r.violations.filter(x => x.impact === 'serious' || x.impact === 'critical')"
        ".map(x => `${x.impact} ${x.id} (${x.help}): ` + x.nodes.slice(0, 3).map("
        "n => n.target.join(' ')).join(' | ')); }")
    for line in found:
        v.problems.append("axe " + line)


def _shot(v: Visit, m: Moment, page: str, size: str) -> None:
    out = ARTIFACTS / m.fmt / f"{page}-{m.moment}-{size}.png"
    out.parent.mkdir(parents=True, exist_ok=True)
    v.page.screenshot(path=str(out), full_page=True)


def _report(m: Moment, page: str, where: str, problems: list[str]) -> str:
    return (f"{m.fmt} · {m.moment} · {page} ({where}): {len(problems)} problem(s)\n  - "
            + "\n  - ".join(problems))


@pytest.mark.parametrize(("fmt", "moment", "page"), CELLS)
def test_phone(tabs: Tabs, events: Events, axe_source: str, fmt: str, moment: str,
               page: str) -> None:
    m = events.moment(fmt, moment)
    v = tabs.open(events.server(m), m, page, size="phone", js=True)
    text = generic(v, m, page)
    if v.status < 500:
        _shot(v, m, page, "phone")
        axe(v, axe_source)
        must_see(v, m, page, text)
    if v.problems:
        pytest.fail(_report(m, page, "phone, JavaScript on", v.problems), pytrace=False)


@pytest.mark.parametrize(("fmt", "page"), [
    pytest.param(f, p, id=f"{f}-mid-round-{p}") for f in FORMATS for p in PAGES])
def test_desktop_and_no_js(tabs: Tabs, events: Events, fmt: str, page: str) -> None:
    m = events.moment(fmt, "mid-round")
    base = events.server(m)
    problems: list[str] = []
    for where, size, js in (("desktop, JavaScript on", "desktop", True),
                            ("phone, JavaScript off", "phone", False)):
        v = tabs.open(base, m, page, size=size, js=js)
        text = generic(v, m, page)
        if v.status < 500:
            _shot(v, m, page, "desktop" if js else "phone-nojs")
            must_see(v, m, page, text)
        problems += [f"[{where}] {p}" for p in v.problems]
    if problems:
        pytest.fail(_report(m, page, "desktop and JavaScript off", problems), pytrace=False)


def test_the_checks_catch_a_bad_page(tabs: Tabs, axe_source: str) -> None:
    """The matrix's checks can fail: a page wider than the phone, with jargon, an input
    without a label, grey-on-white text and a hidden tiebreaker column is caught by each."""
    tabs.open_blank("phone")
    p = tabs.tabs[("phone", True)][1]
    p.set_content(
        "<!doctype html><html lang=en><head><title>x</title>"
        "<style>.tb{display:none}</style></head><body><main>"
        "<p style='width:900px'>Run tourney standings --json (HOTC-TOP-2, see RULES.md)</p>"
        "<input type=text><p style='color:#eee;background:#fff'>faint</p>"
        "<table class=standings><tr><th>Rank</th><th>Name</th><th class=tb>OMW%</th></tr>"
        "</table></main></body></html>")
    v = Visit(p, 200, "about:blank", [])
    m = Moment(fmt="x", moment="mid-round", db=Path(), log="x", noun="Round", round=None,
               subject=1, subject_name="x", table=None, opponent=None, result_in=False,
               held=False, has_bracket=False, over=False, dq=None, dq_name=None,
               receipt=None, clock=False)
    generic(v, m, "verify")
    axe(v, axe_source)
    standings_columns(v, "table.standings")
    said = "\n".join(v.problems)
    for expected in ("wider than the screen", "a command-line option", "a rule id",
                     "RULES.md", "axe critical label", "axe serious color-contrast",
                     "standings columns hidden: OMW%"):
        assert expected in said, f"{expected!r} not caught:\n{said}"
