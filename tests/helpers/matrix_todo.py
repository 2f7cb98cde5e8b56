"""The page matrix's failures as a to-do list: each problem once, with the cells it hits.

Usage: ``python -m pytest -q -n 2 tests/test_page_matrix*.py > out.txt; python
tests/helpers/matrix_todo.py out.txt``.  Reads the failure sections pytest prints (one per
cell, each problem on a line ``  - …``), folds the numbers and names that differ from cell
to cell, and prints each problem with its pages, settings, formats and moments.

Owns: ``todo``.  May import: the standard library only (it runs without the project).
"""

from __future__ import annotations

import re
import sys
from collections import defaultdict

FORMATS = ("hotc-swiss-de", "bushiroad-swiss", "bushiroad-de", "single-elim", "round-robin",
           "wot-classic", "wot-2001", "tag", "trio")
MOMENTS = ("before-r1", "mid-round", "held-round", "after-dq", "top-cut", "over")
FOLD = [(r"#\d+ \([^)]*\)", "#N"), (r"scrollWidth \d+ > innerWidth \d+", "too wide"),
        (r"do not mark .* as disqualified", "do not mark the disqualified player"),
        (r"the opponent \(.*\) is not", "the opponent is not"),
        (r"table \(\d+\)", "table"), (r"table \d+'s report", "the table's report"),
        (r"(does not name|do not list|does not list) .*", r"\1 the player"),
        (r"searching '.*' did not land .*", "searching a surname did not land on the page"),
        (r"R\d+-", "R<seq>-")]


def _cell(cid: str) -> tuple[str, str, str]:
    for f in FORMATS:
        for m in MOMENTS:
            if cid.startswith(f"{f}-{m}-"):
                return f, m, cid[len(f) + len(m) + 2:]
    raise ValueError(f"not a matrix cell: {cid}")


def todo(text: str) -> str:
    causes: dict[str, set[tuple[str, str, str, str]]] = defaultdict(set)
    cell = None
    for line in text.splitlines():
        head = re.match(r"^_+ test_\w+\[(.+)\] _+$", line)
        if head:
            cell = _cell(head.group(1))
        elif cell and line.startswith("  - "):
            problem, where = line[4:], "phone"
            tagged = re.match(r"^\[(desktop|phone), JavaScript (on|off)\] (.*)", problem)
            if tagged:
                where = "desktop" if tagged.group(1) == "desktop" else "phone, no JS"
                problem = tagged.group(3)
            for rx, to in FOLD:
                problem = re.sub(rx, to, problem)
            causes[problem].add((*cell, where))
    out = []
    for problem, cells in sorted(causes.items(), key=lambda kv: -len(kv[1])):
        out.append(f"* {problem} ({len(cells)} views)")
        by: dict[tuple[str, str], dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
        for f, m, page, where in cells:
            by[(page, where)][f].add(m)
        for (page, where), fm in sorted(by.items()):
            same: dict[tuple[str, ...], list[str]] = defaultdict(list)
            for f, ms in fm.items():
                same[tuple(x for x in MOMENTS if x in ms)].append(f)
            parts = [f"{'every format' if len(fs) == len(FORMATS) else ', '.join(sorted(fs))}"
                     f" at {', '.join(ms)}" for ms, fs in same.items()]
            out.append(f"    - {page} ({where}): " + "; ".join(parts))
    return "\n".join(out)


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as f:
        print(todo(f.read()))
