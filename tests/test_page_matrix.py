"""The page matrix (issue 32 item 6): every page of ``tourney serve`` in a real browser
(Debian's chromium driven by Playwright), for every format of ``tourney init --format``
plus Bushiroad tag and trio, at every moment of an event.

One test per cell ``format × moment × page`` (``test_phone``, in the format's own file
``tests/test_page_matrix_<format>.py``, so pytest-xdist spreads the matrix over its
workers; the cells run through ``tests/helpers/page_matrix_run.py``): a phone (390×844) with
JavaScript on.  It checks that the page answers (never a 5xx), shows what a player must see
at that moment (their table, opponent, result, standing with every tiebreaker column on
screen, the round clock; the event's state), is not wider than the phone, speaks no jargon
(no ``--option``, no rule id, no ``RULES.md``), and has no serious or critical
accessibility violation by axe-core (vendored: ``tests/vendor/axe-core``).  Every problem of
a cell is listed in its failure, not only the first.

``test_desktop_and_no_js`` repeats the content, width and jargon checks of every page of
every format at the mid-round moment on a desktop (1280×900, JavaScript on) and on a phone
with JavaScript off.  ``test_phone_in_japanese`` opens every page of every format at the
mid-round moment with ``?lang=ja`` on the same phone tab and event (issue 31): status,
width, jargon, ``<html lang="ja">`` and the Japanese header (not on the officials' English
``/staff``), axe-core 0 serious or critical (``page_matrix_run.ja_cell``).  A screenshot
of the cells kept in ``docs/screenshots/`` (the player page at mid-round, per format,
in English and Japanese) and of every failing cell is written to
``test-artifacts/page-matrix/<format>/<page>-<moment>-phone.png`` (or under
``$TOURNEY_ARTIFACTS``); ``TOURNEY_PAGE_SHOTS=all`` writes one of every cell.  axe-core is
loaded into each phone page from a loopback address of its own with a long cache lifetime
(``AxeServer``), by the phone tab's init script: sent and compiled once, not with every cell;
it runs without the rules that can only ever be minor or moderate
(``page_checks.QUIET_RULES_JS``; ``test_axe_without_the_quiet_rules_finds_the_same``).
The events are built in-process once per matrix file: ``tests/helpers/page_matrix.py``.
This file holds what is not one format's: the checks can fail, and every format has its
matrix file with every cell.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.helpers.page_checks import QUIET_RULES_JS, Visit, axe, generic, standings_columns
from tests.helpers.page_matrix import FORMATS, Moment
from tests.helpers.page_matrix_run import (
    PAGES,
    Tabs,
    applies,
    ja_cells,
    moments_of,
    needs_browser,
)

HERE = Path(__file__).resolve().parent


def test_every_format_has_its_matrix_file_with_every_cell() -> None:
    """No cell is lost by the split into one file per format: each format of the matrix
    has ``tests/test_page_matrix_<format>.py`` running its phone and desktop cells, and the
    cells number what docs/LIVE.md says (606 phone cells, 117 desktop and no-JS cells)."""
    files = sorted(HERE.glob("test_page_matrix_*.py"))
    declared = {re.search(r'^FMT = "([^"]+)"$', f.read_text(), re.M).group(1)  # type: ignore[union-attr]
                : f.name for f in files}
    assert sorted(declared) == sorted(FORMATS), declared
    for fmt, name in declared.items():
        assert name == f"test_page_matrix_{fmt.replace('-', '_')}.py"
        text = (HERE / name).read_text()
        assert "phone_cell(matrix_tabs, matrix_events, matrix_axe, FMT, moment, page)" in text
        assert "desktop_cell(matrix_tabs, matrix_events, FMT, page)" in text
        assert "ja_cell(matrix_tabs, matrix_events, matrix_axe, FMT, page)" in text
    phone = [(f, m, p) for f in FORMATS for m in moments_of(f) for p in PAGES
             if applies(f, m, p)]
    assert (len(phone), len(FORMATS) * len(PAGES)) == (606, 117)
    assert sum(len(ja_cells(f)) for f in FORMATS) == len(FORMATS) * len(PAGES)


@needs_browser
def test_the_checks_catch_a_bad_page(matrix_tabs: Tabs, matrix_axe: str) -> None:
    """The matrix's checks can fail: a page wider than the phone, with jargon, an input
    without a label, grey-on-white text and a hidden tiebreaker column is caught by each."""
    p = matrix_tabs.tab("phone", True)[1]
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
    axe(v, matrix_axe)
    standings_columns(v, "table.standings")
    said = "\n".join(v.problems)
    for expected in ("wider than the screen", "a command-line option", "a rule id",
                     "RULES.md", "axe critical label", "axe serious color-contrast",
                     "standings columns hidden: OMW%"):
        assert expected in said, f"{expected!r} not caught:\n{said}"


#: a page that breaks axe-core rules of every impact: critical (an input and an image
#: without a name), serious (faint text, a list holding a div), moderate (no ``<main>``
#: landmark, no ``<h1>``, headings out of order, text outside landmarks) and minor (an
#: empty table header, an image's alt repeating its text)
EVERY_IMPACT = (
    "<!doctype html><html lang=en><head><title>x</title></head><body>"
    "<header>top</header><header>top again</header>"
    "<h2>a</h2><h5>skipped levels</h5><p>outside every landmark</p>"
    "<input type=text><img src='data:,'>"
    "<p style='color:#eee;background:#fff'>faint</p><ul><div>not an item</div></ul>"
    "<table><tr><th></th><th>Score</th></tr><tr><td>1</td><td>2</td></tr></table>"
    "<a href='/x'><img src='data:,' alt='Standings'>Standings</a>"
    "</body></html>")

FULL_AXE_JS = (
    "async () => { const r = await axe.run(document, {resultTypes: ['violations']});"
    " return r.violations.map(x => [x.id, x.impact, `${x.impact} ${x.id} (${x.help}): `"
    " + x.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')]); }")


@needs_browser
def test_axe_without_the_quiet_rules_finds_the_same(matrix_tabs: Tabs,
                                                     matrix_axe: str) -> None:
    """The matrix's axe run leaves out the rules axe-core's own metadata says can only be
    minor or moderate; on a page breaking rules of every impact it reports exactly the
    serious and critical violations a run of every rule reports, and the rules it left
    out are ones that run found only minor or moderate violations of."""
    p = matrix_tabs.tab("phone", True)[1]
    p.set_content(EVERY_IMPACT)
    v = Visit(p, 200, "about:blank", [])
    axe(v, matrix_axe)
    full = p.evaluate(FULL_AXE_JS)
    quiet = set(p.evaluate("() => Object.keys(" + QUIET_RULES_JS + ")"))
    serious = sorted("axe " + line for _id, imp, line in full if imp in ("serious", "critical"))
    assert sorted(v.problems) == serious, (v.problems, serious)
    assert {"label", "image-alt", "color-contrast", "list"} <= {i for i, _x, _l in full}
    left_out = {(i, imp) for i, imp, _l in full if i in quiet}
    assert {i for i, _x in left_out} >= {"region", "heading-order", "page-has-heading-one",
                                         "empty-table-header"}, (left_out, full)
    assert all(imp in ("minor", "moderate") for _i, imp in left_out), left_out
    assert "color-contrast" not in quiet and "label" not in quiet
