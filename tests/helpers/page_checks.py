"""The checks of one page matrix cell (``tests/test_page_matrix*.py``, issue 32 item 6).

Owns: ``Visit`` (one page opened in the browser, its status and the problems found),
``path`` (each page's address at a moment), ``generic`` (never a 5xx, the expected status,
no horizontal overflow, no jargon: ``JARGON``), ``must_see`` (what a player must see on
each page at each moment: table, opponent, result, the round clock, the standing with every
column, the event's state, a held round, a disqualification, the report form, the receipt,
the staff queue, the checkable footer), ``standings_columns`` and ``axe`` (axe-core's
serious and critical violations).  Each check adds a plain sentence to the visit's
problems instead of stopping at the first.

May import: ``tests.helpers.page_matrix``, the standard library (the page is a Playwright
``Page``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from tests.helpers.page_matrix import Moment

#: jargon a player must never read: a command-line option, a rule id, the rule book's file
JARGON = {
    "a command-line option": re.compile(r"(?<![\w-])--[a-z][a-z0-9-]+"),
    "a rule id": re.compile(r"\b(?:BR|WOTOLD|WOT01|HOTC|TC|EOM|LEDGER|AMEND|AMB|REPORT|"
                            r"PAGES|DESIGN|RULES|BYE|TEAM)-[A-Z0-9]+(?:-[A-Z0-9]+)*\b"),
    "RULES.md": re.compile(r"RULES\.md"),
}



@dataclass
class Visit:
    page: Any
    status: int
    url: str
    problems: list[str]

    def need(self, ok: bool, what: str) -> None:
        if not ok:
            self.problems.append(what)


def path(m: Moment, page: str) -> str:
    return {"home": "/", "find": "/find", "player": f"/p/{m.subject}",
            "pairings": "/pairings", "round": f"/round/{m.round or _last_posted(m)}",
            "standings": "/standings", "bracket": "/bracket", "report": "/report",
            "drop": "/drop", "receipt": f"/receipt/{m.receipt}", "staff": "/staff",
            "verify": "/verify", "404": "/no-such-page"}[page]


def _last_posted(m: Moment) -> int:
    return {"mid-round": 1, "held-round": 1, "after-dq": 2}.get(m.moment, 1)


def _visible(v: Visit, selector: str) -> bool:
    loc = v.page.locator(selector)
    return bool(loc.count() and loc.first.is_visible())


def generic(v: Visit, m: Moment, page: str) -> str:
    """Every cell: an answer (never a 5xx), the page's width, no jargon."""
    want = 404 if page == "404" else 200
    v.need(v.status < 500, f"HTTP {v.status} (a server error) for {path(m, page)}")
    v.need(v.status == want or v.status >= 500,
           f"HTTP {v.status} for {path(m, page)} (expected {want})")
    # the body's text and the widths in one call to the browser (a call costs more than
    # what it reads); Playwright's evaluate runs with the page's own scripts off too
    try:
        body, scroll, inner = v.page.evaluate(
            "[document.body ? document.body.innerText : null,"
            " document.documentElement.scrollWidth, window.innerWidth]")
    except Exception as err:  # noqa: BLE001 - reported as a problem of the cell
        body, scroll, inner = None, 0, 0
        v.problems.append(f"the page could not be read ({err})")
    if body is None:
        v.problems.append("the page has no body text")
    text = str(body or "")
    v.need(scroll <= inner, f"wider than the screen: scrollWidth {scroll} > "
                            f"innerWidth {inner}")
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
            # a member reports their own seat (REPORT-21), or reads that it is recorded
            v.need(_visible(v, "main button[type=submit]") or "recorded" in low
                   or "desk" in low, "a team fighter is offered no form for their own "
                   "seat and not told where its result is given")
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


#: the rules axe-core can only ever report as minor or moderate, by its own metadata: a
#: rule's violation takes the impact of its failing checks, so a rule whose impact and
#: whose every check's impact is minor or moderate can never be serious or critical;
#: those are switched off for the run (what is read is unchanged: serious and critical
#: violations), computed in the page from the pinned axe-core (``AXE_SHA256``)
QUIET_RULES_JS = (
    "(() => { const rank = {minor: 1, moderate: 2, serious: 3, critical: 4}; const off = {};"
    " for (const r of axe._audit.rules) {"
    " const imps = [r.impact, ...[...r.any, ...r.all, ...r.none].map("
    "c => (axe._audit.data.checks[c.id || c] || {}).impact)];"
    " if (imps.every(i => rank[i] === 1 || rank[i] === 2)) off[r.id] = {enabled: false}; }"
    " return off; })()")

#: one round trip: ``null`` where the page lacks axe-core, else its serious and critical
#: violations as lines
AXE_RUN_JS = (
    "async () => { if (!(typeof window.axe === 'object' && window.axe.run)) return null;"
    " const r = await axe.run(document, {resultTypes: ['violations'], rules: "
    + QUIET_RULES_JS + "});"
    " return r.violations.filter(x => x.impact === 'serious' || x.impact === 'critical')"
    ".map(x => `${x.impact} ${x.id} (${x.help}): ` + x.nodes.slice(0, 3).map("
    "n => n.target.join(' ')).join(' | ')); }")


def axe(v: Visit, source: str, url: str | None = None) -> None:
    """axe-core's serious and critical violations of the page as it is (the rules that can
    only be minor or moderate are not run: ``QUIET_RULES_JS``).  The page's own copy of
    axe is used where it has one (the matrix's phone tab loads it with every page); else
    axe is loaded from ``url`` when one is given (the browser compiles it once and caches
    it), or ``source`` is injected."""
    found = v.page.evaluate(AXE_RUN_JS)
    if found is None:
        if url is not None:
            v.page.add_script_tag(url=url)
        else:
            v.page.add_script_tag(content=source)
        found = v.page.evaluate(AXE_RUN_JS)
    for line in found:
        v.problems.append("axe " + line)
