"""Where the suite's time goes: per-file time of a pytest run (issue 33).

Runs pytest once, without workers (``-n 0``), over the given paths (default: ``tests``),
with a JUnit XML report, and prints one row per test file: the summed time of its tests
(setup + call + teardown, so a module fixture counts in the file that builds it), its test
count and its slowest test, slowest file first.  A file over the budget (60 s) is marked.

    python bench/suite_profile.py [paths ...] [--xml out.xml] [--top 40] [--from out.xml]

``--from`` reads an earlier report instead of running pytest (to re-print a profile).
Times on a shared machine are inflated by the load; compare files side by side, in the
same run, not across runs.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

BUDGET_S = 60.0


def per_file(xml: Path) -> list[tuple[str, float, int, str, float]]:
    """(file, seconds, tests, slowest test, its seconds), slowest file first."""
    total: dict[str, float] = defaultdict(float)
    count: dict[str, int] = defaultdict(int)
    worst: dict[str, tuple[str, float]] = {}
    for case in ET.parse(xml).getroot().iter("testcase"):
        cls = case.get("classname", "")
        parts = cls.split(".")
        # tests.test_x[.Class] -> tests/test_x.py
        mod = [p for p in parts if p.startswith("test_")][:1]
        name = f"tests/{mod[0]}.py" if mod else cls
        t = float(case.get("time", "0") or 0)
        total[name] += t
        count[name] += 1
        if t > worst.get(name, ("", -1.0))[1]:
            worst[name] = (case.get("name", ""), t)
    rows = [(f, total[f], count[f], *worst[f]) for f in total]
    return sorted(rows, key=lambda r: -r[1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", default=["tests"])
    ap.add_argument("--xml", type=Path, default=None)
    ap.add_argument("--from", dest="src", type=Path, default=None)
    ap.add_argument("--top", type=int, default=40)
    args = ap.parse_args()
    xml = args.src
    if xml is None:
        xml = args.xml or Path(tempfile.mkdtemp()) / "profile.xml"
        cmd = [sys.executable, "-m", "pytest", "-q", "-n", "0", f"--junitxml={xml}", *args.paths]
        print("$", " ".join(cmd), flush=True)
        subprocess.run(cmd, check=False)
    rows = per_file(xml)
    print(f"{'file':58} {'s':>8} {'tests':>6}  slowest test (s)")
    for f, s, n, w, ws in rows[: args.top]:
        flag = " OVER" if s > BUDGET_S else ""
        print(f"{f:58} {s:8.1f} {n:6d}  {w[:48]} ({ws:.1f}){flag}")
    print(f"total {sum(r[1] for r in rows):.1f} s in {sum(r[2] for r in rows)} tests, "
          f"{len(rows)} files; over {BUDGET_S:.0f} s: "
          f"{sum(1 for r in rows if r[1] > BUDGET_S)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
