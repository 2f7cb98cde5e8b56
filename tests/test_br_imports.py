"""The Bushiroad rule modules stay pure: standard library, msgspec, ledger.errors and
ledger.core.matching only (plus each other, the match model and the shared percentages of
``ledger.formats.match.percent``, itself standard library only), so commands, projections
and the audit can all call them without import cycles."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "ledger" / "formats" / "bushiroad"
ALLOWED_PROJECT = ("ledger.errors", "ledger.core.matching", "ledger.formats.bushiroad",
                   "ledger.formats.match.model", "ledger.formats.match.percent")
#: the pure rule modules (the plug-in modules beside them wire these into the ledger)
PURE = ("annex_a", "de", "finalists", "model", "mw", "results", "round_robin", "rounds",
        "tiebreak")


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def test_bushiroad_modules_import_only_what_they_may() -> None:
    files = [PACKAGE / f"{name}.py" for name in PURE]
    assert all(f.is_file() for f in files)
    bad: dict[str, list[str]] = {}
    for path in files:
        for name in _imports(path):
            top = name.split(".")[0]
            ok = (top in sys.stdlib_module_names or top == "msgspec"
                  or any(name == p or name.startswith(p + ".") for p in ALLOWED_PROJECT))
            if not ok:
                bad.setdefault(path.name, []).append(name)
    assert bad == {}


def test_shared_percentages_import_only_the_standard_library() -> None:
    """BR-SWISS-TB-3/4/5, BR-DE-TB-3/4: the one MW% / E(f) / OMW% implementation, called by
    the Bushiroad rule modules and the HotC standings, depends on nothing of the project."""
    path = PACKAGE.parent / "match" / "percent.py"
    assert sorted(n for n in _imports(path)
                  if n.split(".")[0] not in sys.stdlib_module_names) == []
