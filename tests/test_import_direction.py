"""DESIGN.md §2: dependencies point cli → audit → projections → ledger, never back."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ALLOWED = {
    "ledger": {"ledger"},
    "projections": {"ledger", "projections"},
    "audit": {"ledger", "projections", "audit"},
    "cli": {"ledger", "projections", "audit", "cli"},
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found & set(ALLOWED)


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_package_imports_only_downward(package: str) -> None:
    bad = {str(p.relative_to(ROOT)): sorted(_imports(p) - ALLOWED[package])
           for p in (ROOT / package).rglob("*.py")}
    assert {k: v for k, v in bad.items() if v} == {}
