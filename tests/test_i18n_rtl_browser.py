"""The player pages in Arabic, right to left, in headless chromium at 390×844 (issue 31
item 5; ADR 0057): ``lang="ar" dir="rtl"`` on every page (from the locale's CLDR
character order), nothing wider than the phone, every player's name in its own
``<bdi>`` (Latin, Japanese and Arabic names side by side keep their order), the
standings' name column stuck to the start edge (the right, in Arabic) while the table
is swiped (``inset-inline-start``, a logical property), and axe-core 0 serious or
critical violations.  Screenshots: ``test-artifacts/serve/i18n-ar-*.png``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.helpers.browser import PHONE, _fits, _shot, _skip_reason, launched
from tests.helpers.live import running
from tests.helpers.page_checks import Visit, axe
from tests.helpers.page_matrix_run import axe_read, skip_reason
from tests.helpers.standings_play import pair, play, record, start

pytestmark = pytest.mark.skipif(skip_reason() is not None or _skip_reason() is not None,
                                reason=skip_reason() or _skip_reason() or "")

NAMES = ["محمد عبد الله", "Ann Lee-Smith", "山田 花子", "ليلى بن يوسف الطويلة الاسم جدا",
         "Nguyễn Văn An", "O'Brien 3rd", "Bo Chan", "سارة", "Cy Diaz", "Di Eng", "Ed Fox",
         "Fay Gil"]

#: text nodes of the page's body that hold a player's name outside any <bdi>
UNISOLATED = """names => {
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest('bdi, script, style, footer, input, textarea')) continue;
    for (const name of names) if (n.data.includes(name)) out.push(name + ' in <' +
      el.tagName.toLowerCase() + '>');
  }
  return out;
}"""

#: the standings' name cell swiped to the table's far end: still inside the scroller?
STICKY = """() => {
  const box = document.querySelector('.scroll');
  const cell = document.querySelector('table.standings tbody td:nth-child(3)');
  if (!box || !cell || box.scrollWidth <= box.clientWidth) return 'not scrollable';
  box.scrollLeft = -(box.scrollWidth);          // right to left: the far end is negative
  const b = box.getBoundingClientRect(), c = cell.getBoundingClientRect();
  const inside = c.left >= b.left - 1 && c.right <= b.right + 1;
  const atStart = Math.abs(c.right - b.right) <= 2;
  return inside && atStart ? 'ok' : `name cell ${c.left}-${c.right} in ${b.left}-${b.right}`;
}"""


def _visit(page: Any, base: str, path: str) -> list[str]:
    page.goto(base + path)
    problems = []
    if page.get_attribute("html", "lang") != "ar" or page.get_attribute("html", "dir") != "rtl":
        problems.append("not lang=ar dir=rtl")
    if not _fits(page):
        problems.append("wider than the phone")
    problems += [f"name not isolated: {x}" for x in page.evaluate(UNISOLATED, NAMES)]
    return problems


def test_arabic_pages_right_to_left_on_a_phone(tmp_path: Path) -> None:
    fmt = "hotc-swiss-de"
    cli, _log = start(tmp_path, fmt, NAMES)
    play(cli, fmt, 1, pair(cli, fmt, 1))        # the tiebreaker columns: a wide table
    doc = pair(cli, fmt, 2)
    record(cli, fmt, 2, doc["tables"][0])
    source = axe_read()
    problems: list[str] = []
    with running(cli.ledger) as (base, _hub), launched() as b:
        ctx = b.new_context(viewport=PHONE, locale="ar-EG", bypass_csp=True)
        page = ctx.new_page()
        for path in ("/", "/pairings", "/round/2", "/standings", "/p/1", "/p/4",
                     "/find?q=%D9%85%D8%AD%D9%85%D8%AF", "/find?q=yamada"):
            found = _visit(page, base, path)
            v = Visit(page=page, status=200, url=path, problems=[])
            axe(v, source)
            _shot(page, "i18n-ar-" + (path.strip("/").split("?")[0].replace("/", "-")
                                      or "home"))
            problems += [f"{path}: {p}" for p in found + v.problems]
        page.goto(base + "/standings")
        sticky = page.evaluate(STICKY)
        ctx.close()
    assert problems == []
    assert sticky == "ok", sticky
