"""The live server's modules (issue 28 item 3): no import circle among them, never an
import of the CLI (the CLI imports the server, not the reverse), each small (≲ 400 lines)
and opening with what it ``Owns:`` and ``May import:``.

Every import statement counts, at any depth (inside a function, under
``TYPE_CHECKING``): read from the syntax tree, nothing is run.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.helpers.imports import _module_imports

ROOT = Path(__file__).resolve().parents[1]
MODULES = sorted((ROOT / "server").glob("*.py"))
MAX_LINES = 400


def _name(path: Path) -> str:
    return "server" if path.stem == "__init__" else f"server.{path.stem}"


def server_graph() -> dict[str, set[str]]:
    """Each server module → the server modules it imports."""
    names = {_name(p) for p in MODULES}
    return {_name(p): {m for m in _module_imports(p) if m in names and m != "server"}
            - {_name(p)} for p in MODULES}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every import circle of ``graph`` (one path around each, as found)."""
    found: list[list[str]] = []
    state: dict[str, int] = {}          # 1: on the path, 2: done
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                found.append(path[path.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt)
        path.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)
    return found


def test_the_circle_finder_finds_a_circle() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circle_inside_the_server() -> None:
    graph = server_graph()
    assert "server.app" in graph and graph["server.app"]        # the graph was read
    assert circles(graph) == []


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_the_server_never_imports_the_cli(path: Path) -> None:
    bad = sorted(m for m in _module_imports(path) if m == "cli" or m.startswith("cli."))
    assert bad == [], f"{path.name} imports {bad}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_each_server_module_is_small_and_says_what_it_owns(path: Path) -> None:
    text = path.read_text()
    assert len(text.splitlines()) <= MAX_LINES, f"{path.name}: {len(text.splitlines())} lines"
    doc = ast.get_docstring(ast.parse(text)) or ""
    assert "Owns:" in doc and "May import:" in doc, path.name
