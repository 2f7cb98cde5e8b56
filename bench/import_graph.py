"""The module import graph of the tree, its circles and its arrows up the declared layers.

    python -m bench.import_graph [--root DIR] [--edges]

Owns: reading every ``import`` of ledger/ projections/ audit/ usecases/ server/ cli/ from the
syntax tree (no module is run), the strongly connected components of that graph (of modules,
and of packages: a module's folder), and the arrows that point up the declared layer order
(``PACKAGE_LAYERS`` between the top-level packages, ``LEDGER_LAYERS`` inside ledger/,
``FORMATS_LAYERS`` inside ledger/formats/; docs/adr/0039-layering-layers-and-rule-ids.md).
Every import counts, the ones under ``if TYPE_CHECKING:`` and inside functions too: a circle
drawn only for the type checker or hidden in a function body is still a circle in the design.
``from a.b import c`` is an arrow to ``a.b.c`` when that is a module, else to ``a.b``; the
implicit import of a parent package's ``__init__`` is not an arrow.

May import: the standard library only (tests/test_import_direction.py imports it).

Prints ``IMPORT-GRAPH modules=… edges=… module_cycles=… package_cycles=… upward=…`` and then
each circle and each upward arrow, one a line.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

ROOTS = ("ledger", "projections", "audit", "usecases", "server", "cli")

# Top-level layers, lowest first; packages of one layer may not import each other.
PACKAGE_LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"ledger"}),
    frozenset({"projections"}),
    frozenset({"audit", "usecases"}),
    frozenset({"server"}),
    frozenset({"cli"}),
)

# Inside ledger/, lowest first (by the module's first folder under ledger/; a file directly in
# ledger/ is named by its stem): the leaves, the wire format, the core (state, rules, socket),
# the stores, the proofs over them, the verifiable randomness (it reads checkpoints and
# cosignatures), the formats. Groups of one layer may not import each other.
LEDGER_LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"__init__", "errors", "standings_view"}),
    frozenset({"wire"}),
    frozenset({"core"}),
    frozenset({"storage"}),
    frozenset({"proofs"}),
    frozenset({"randomness"}),
    frozenset({"formats"}),
)

# Inside ledger/formats/: the shared match layer, the officiating layer above it, the formats,
# the registry that lists them and the simulation that plays them (docs/DESIGN.md §10).
FORMATS_LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"__init__"}),
    frozenset({"match"}),
    frozenset({"officiating"}),
    frozenset({"hotc", "bushiroad", "wot"}),
    frozenset({"registry"}),
    frozenset({"simulation"}),
)

#: a package whose children are layered: its dotted name, then its layers, lowest first
NESTED_LAYERS: tuple[tuple[str, tuple[frozenset[str], ...]], ...] = (
    ("ledger.formats", FORMATS_LAYERS),
    ("ledger", LEDGER_LAYERS),
)


@dataclass(frozen=True)
class Edge:
    """One import: ``source`` names ``target``; ``kind`` is top (module level), typing (under
    ``if TYPE_CHECKING:``) or lazy (inside a function)."""

    source: str
    target: str
    kind: str


def module_name(path: Path, root: Path) -> str:
    rel = path.relative_to(root).with_suffix("")
    return ".".join(rel.parts).removesuffix(".__init__")


def collect_modules(root: Path, roots: Iterable[str] = ROOTS) -> dict[str, Path]:
    modules: dict[str, Path] = {}
    for top in roots:
        base = root / top
        if not base.is_dir():
            continue
        for path in sorted(base.rglob("*.py")):
            if "__pycache__" not in path.parts:
                modules[module_name(path, root)] = path
    return modules


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _named(node: ast.Import | ast.ImportFrom, here: str, is_package: bool) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level:                       # relative: resolve against this module's package
        parts = here.split(".") if is_package else here.split(".")[:-1]
        parts = parts[:len(parts) - node.level + 1]
        base = ".".join(parts + ([node.module] if node.module else []))
    else:
        base = node.module or ""
    return [base] + [f"{base}.{alias.name}" for alias in node.names]


def module_edges(name: str, path: Path, modules: Mapping[str, Path]) -> set[Edge]:
    """The arrows from one module to the modules of ``modules`` it names."""
    tree = ast.parse(path.read_text(), filename=str(path))
    is_package = path.name == "__init__.py"
    found: set[Edge] = set()

    def visit(node: ast.AST, kind: str) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.body:
                visit(child, "typing")
            for child in node.orelse:
                visit(child, kind)
            return
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            kind = "lazy" if kind == "top" else kind
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            named = _named(node, name, is_package)
            if isinstance(node, ast.ImportFrom):
                base, subs = named[0], named[1:]
                hits = [s for s in subs if s in modules]
                if base in modules and len(hits) < len(subs):
                    hits.append(base)        # some names are attributes of ``base`` itself
            else:
                hits = [m for m in named if m in modules]
            found.update(Edge(name, t, kind) for t in hits if t != name)
            return
        for sub in ast.iter_child_nodes(node):
            visit(sub, kind)

    visit(tree, "top")
    return found


def build_graph(root: Path, roots: Iterable[str] = ROOTS) -> tuple[dict[str, Path], set[Edge]]:
    modules = collect_modules(root, roots)
    edges: set[Edge] = set()
    for name, path in modules.items():
        edges |= module_edges(name, path, modules)
    return modules, edges


def strongly_connected(nodes: Iterable[str], arrows: Mapping[str, set[str]]) -> list[list[str]]:
    """Tarjan's components of more than one node (a self-arrow is not a circle), each sorted,
    the list sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

    def visit(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(arrows.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return sorted(found)


def arrows_of(edges: Iterable[Edge], kinds: frozenset[str] | None = None) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for e in edges:
        if kinds is None or e.kind in kinds:
            out.setdefault(e.source, set()).add(e.target)
    return out


def package_of(module: str, modules: Mapping[str, Path]) -> str:
    """A module's package: the dotted name of its folder."""
    path = modules[module]
    return module if path.name == "__init__.py" else module.rpartition(".")[0] or module


def module_cycles(modules: Mapping[str, Path], edges: Iterable[Edge]) -> list[list[str]]:
    return strongly_connected(modules, arrows_of(edges))


def package_cycles(modules: Mapping[str, Path], edges: Iterable[Edge]) -> list[list[str]]:
    arrows: dict[str, set[str]] = {}
    for e in edges:
        a, b = package_of(e.source, modules), package_of(e.target, modules)
        if a != b:
            arrows.setdefault(a, set()).add(b)
    return strongly_connected({package_of(m, modules) for m in modules}, arrows)


def _rank(layers: tuple[frozenset[str], ...], group: str) -> int | None:
    for i, layer in enumerate(layers):
        if group in layer:
            return i
    return None


def _group(module: str, package: str) -> str | None:
    """The child of ``package`` that ``module`` lies in (``__init__`` for the package itself),
    or None when it lies outside."""
    if module == package:
        return "__init__"
    if not module.startswith(package + "."):
        return None
    return module[len(package) + 1:].split(".")[0]


def upward(edges: Iterable[Edge]) -> list[tuple[Edge, str]]:
    """Every arrow to a higher layer or to another group of the same layer, with its reason:
    between the top-level packages, then inside the innermost layered package (of
    ``NESTED_LAYERS``) holding both ends."""
    found: list[tuple[Edge, str]] = []
    for e in sorted(edges, key=lambda e: (e.source, e.target)):
        a, b = e.source.split(".")[0], e.target.split(".")[0]
        if a != b:
            ra, rb = _rank(PACKAGE_LAYERS, a), _rank(PACKAGE_LAYERS, b)
            if ra is not None and rb is not None and rb >= ra:
                found.append((e, f"{a} -> {b}"))
            continue
        for package, layers in NESTED_LAYERS:
            ga, gb = _group(e.source, package), _group(e.target, package)
            if ga is None or gb is None:
                continue
            if ga != gb:
                ra, rb = _rank(layers, ga), _rank(layers, gb)
                if ra is None or rb is None or rb >= ra:
                    found.append((e, f"{package}.{ga} -> {package}.{gb}"))
            break
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--edges", action="store_true", help="also list every arrow")
    args = parser.parse_args(argv)
    modules, edges = build_graph(args.root)
    mod_cycles = module_cycles(modules, edges)
    top_cycles = strongly_connected(modules, arrows_of(edges, frozenset({"top"})))
    pkg_cycles = package_cycles(modules, edges)
    up = upward(edges)
    print(f"IMPORT-GRAPH modules={len(modules)} edges={len(edges)} "
          f"module_cycles={len(mod_cycles)} "
          f"modules_in_cycles={sum(len(c) for c in mod_cycles)} "
          f"module_cycles_top_level_only={len(top_cycles)} "
          f"package_cycles={len(pkg_cycles)} upward={len(up)}")
    for c in mod_cycles:
        print("module-cycle", len(c), " ".join(c))
    for c in pkg_cycles:
        print("package-cycle", len(c), " ".join(c))
    for e, why in up:
        print("upward", why, f"{e.source} -> {e.target} ({e.kind})")
    if args.edges:
        for e in sorted(edges, key=lambda e: (e.source, e.target)):
            print("edge", e.source, e.target, e.kind)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
