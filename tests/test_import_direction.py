"""docs/DESIGN.md §2: dependencies point cli → audit → projections → ledger, never back."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.helpers.imports import _module_imports

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


CORE = sorted(p for p in (ROOT / "ledger").rglob("*.py")
              if "formats" not in p.relative_to(ROOT / "ledger").parts)


@pytest.mark.parametrize("path", CORE, ids=lambda p: p.name)
def test_core_module_imports_no_format(path: Path) -> None:
    """docs/DESIGN.md §10: the core (ledger/ minus ledger/formats/) never imports a format; the
    formats plug in through ledger.core.plugin, and only the application layers import the
    registry."""
    bad = sorted(m for m in _module_imports(path)
                 if m == "ledger.formats" or m.startswith("ledger.formats."))
    assert bad == [], f"{path.name} imports {bad}"


def test_core_list_is_complete() -> None:
    names = {p.name for p in CORE}
    assert {"events.py", "state.py", "rules.py", "aggregate.py", "store.py", "plugin.py",
            "draw.py", "merkle.py", "checkpoint.py", "keys.py", "canonical.py"} <= names


@pytest.mark.parametrize("path", sorted((ROOT / "ledger" / "formats").rglob("*.py")),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_format_imports_no_other_format(path: Path) -> None:
    """A format folder imports the core, the shared layers under ledger/formats/ (files
    directly in it, and ``match/``) and itself — never another format's folder."""
    rel = path.relative_to(ROOT / "ledger" / "formats").parts
    own = rel[0] if len(rel) > 1 else None
    shared = {"match", "officiating"}
    bad = []
    for m in _module_imports(path):
        parts = m.split(".")
        if parts[:2] != ["ledger", "formats"] or len(parts) < 4:
            continue
        folder = parts[2]
        if folder != own and folder not in shared and path.name != "registry.py" \
                and (own is not None or path.name not in ("simulation.py",)):
            bad.append(m)
    assert bad == [], f"{path} imports another format: {sorted(bad)}"


def test_core_import_graph_has_no_circle() -> None:
    """Issue 17: the core's modules (ledger/ minus ledger/formats/) import each other
    without a circle, type-only imports included: the format socket below the state, the
    rules and the aggregate, the plug-in base above them; the storage helpers name the
    store's Protocol (``ledger.storage.storage_handle``), never the store; the pure cosignature
    checks (``ledger.proofs.cosign``) below the witness."""
    modules = {}
    for path in (ROOT / "ledger").rglob("*.py"):
        rel = path.relative_to(ROOT).with_suffix("")
        if "formats" in rel.parts:
            continue
        name = ".".join(rel.parts).removesuffix(".__init__")
        modules[name] = path
    graph = {m: {d for d in _module_imports(p) if d in modules and d != m}
             for m, p in modules.items()}
    state: dict[str, int] = {}          # 1: on the path, 2: done
    path: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        path.append(m)
        for d in sorted(graph[m]):
            if state.get(d) == 1:
                return path[path.index(d):] + [d]
            if d not in state:
                found = visit(d)
                if found:
                    return found
        state[m] = 2
        path.pop()
        return None

    for m in sorted(graph):
        if m not in state:
            circle = visit(m)
            assert circle is None, " -> ".join(circle or [])


def test_no_test_module_imports_another() -> None:
    """Issue 33 item 3: shared test code lives in ``tests/helpers/``; a test module never
    imports another as a library (``tests.test_x`` or ``from tests import test_x``)."""
    tests = ROOT / "tests"
    names = {p.stem for p in tests.glob("test_*.py")}
    bad = {}
    for path in sorted((tests).rglob("*.py")):
        found = sorted(m for m in _module_imports(path)
                       if m.split(".")[:2] in (["tests", n] for n in names))
        if found:
            bad[str(path.relative_to(ROOT))] = found
    assert bad == {}
