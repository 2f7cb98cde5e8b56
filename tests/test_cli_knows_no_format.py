"""Issue 17 (ADR 0015): the CLI and the pages know no format.  No module under ``cli/``,
``projections/`` or ``usecases/`` (issue 28, ADR 0040) imports a format package
(``ledger.formats.<format>``) or names a format id; they read the format's declarations
through ``ledger.core.plugin``.  The shared layers (``ledger.formats.match``,
``ledger.formats.officiating``), the registry and the simulation driver are not formats
and may be imported."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.helpers.imports import _module_imports

ROOT = Path(__file__).resolve().parents[1]
FORMAT_PACKAGES = sorted(p.name for p in (ROOT / "ledger" / "formats").iterdir()
                         if (p / "__init__.py").exists() and p.name not in
                         ("match", "officiating"))
FORMAT_IDS = ("hotc-swiss-de", "bushiroad-swiss", "bushiroad-de", "single-elim",
              "round-robin", "wot-classic", "wot-2001")
MODULES = sorted([*(ROOT / "cli").rglob("*.py"), *(ROOT / "projections").rglob("*.py"),
                  *(ROOT / "usecases").rglob("*.py")])


def test_the_format_packages_are_found() -> None:
    assert {"hotc", "bushiroad", "wot"} <= set(FORMAT_PACKAGES)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_module_imports_no_format_package(path: Path) -> None:
    bad = sorted(m for m in _module_imports(path)
                 if any(m == f"ledger.formats.{f}" or m.startswith(f"ledger.formats.{f}.")
                        for f in FORMAT_PACKAGES))
    assert bad == [], f"{path.relative_to(ROOT)} imports {bad}"


def _strings(path: Path) -> list[str]:
    """Every string literal of the module's code, docstrings included (a module that
    documents a format's rule is a module that knows it) — less the ``Example:`` lines of
    help texts, which show a real command line a user may copy."""
    tree = ast.parse(path.read_text())
    return ["\n".join(line for line in n.value.splitlines() if "Example:" not in line)
            for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_module_names_no_format_id(path: Path) -> None:
    named = sorted({fid for s in _strings(path) for fid in FORMAT_IDS
                    if re.search(rf"(?<![\w-]){re.escape(fid)}(?![\w-])", s)})
    assert named == [], f"{path.relative_to(ROOT)} names {named}"
