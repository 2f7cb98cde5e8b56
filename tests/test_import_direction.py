"""docs/DESIGN.md §2 and docs/adr/0039-layering-layers-and-rule-ids.md: the layers as tests.

Between the top-level packages, lowest first (``bench.import_graph.PACKAGE_LAYERS``)::

    ledger < projections < {audit, usecases} < server < cli

``audit`` and ``usecases`` sit side by side and never import each other; ``server`` needs no
``audit`` (it serves pages, it does not re-verify a log); nothing imports ``server`` but
``cli`` (``tourney serve``).  Inside ledger/ (``LEDGER_LAYERS``)::

    errors, standings_view < wire < core < storage < proofs < randomness < formats

the wire format (bytes, keys, the tree hashes) below the state and rules that fold it; the
stores below the proofs kept in them; the verifiable randomness above the proofs it reads
(checkpoints, cosignatures) — its rules plug into the core's (``ledger.core.rule_plugins``).
Inside ledger/formats/ (``FORMATS_LAYERS``)::

    match < officiating < {hotc, bushiroad, wot} < registry < simulation

Every import counts, lazy and type-only ones too (``bench.import_graph``).
"""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.import_graph import (
    Edge,
    build_graph,
    module_cycles,
    package_cycles,
    upward,
)
from tests.helpers.imports import _module_imports

ROOT = Path(__file__).resolve().parents[1]
ALLOWED = {
    "ledger": {"ledger"},
    "projections": {"ledger", "projections"},
    "audit": {"ledger", "projections", "audit"},
    # issue 28 item 2: the use cases, each once, for the CLI and the server (another branch
    # creates the package; until then its test is skipped)
    "usecases": {"ledger", "projections", "usecases"},
    "server": {"ledger", "projections", "usecases", "server"},
    "cli": {"ledger", "projections", "audit", "usecases", "server", "cli"},
}

#: Arrows that break the layers today, each with why it stays for now: (file, package).
#: A ratchet: none may be added; an entry whose arrow is gone may be deleted.
KNOWN_UPWARD: dict[tuple[str, str], str] = {}

#: Module circles that stay for now, each with why (a ratchet: a circle found must lie
#: inside one of these; a smaller one is fine, a new one fails).  None is left: the last
#: three went with issue 28 (the QR page moved into server/, the routes became module-level
#: endpoints, and what closing a round prints moved to cli.round_closing).
KNOWN_CYCLES: dict[frozenset[str], str] = {}
KNOWN_PACKAGE_CYCLES: dict[frozenset[str], str] = {}


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
    if not (ROOT / package).is_dir():
        pytest.skip(f"{package}/ does not exist yet")
    bad = {}
    for p in (ROOT / package).rglob("*.py"):
        rel = str(p.relative_to(ROOT))
        wrong = sorted(m for m in _imports(p) - ALLOWED[package]
                       if (rel, m) not in KNOWN_UPWARD)
        if wrong:
            bad[rel] = wrong
    assert bad == {}


def _project_files(but: set[str]) -> Iterator[Path]:
    """Every ``.py`` file of the checkout's own directories but those named ``but``: not a
    hidden one (a ``.venv`` made in the checkout, as the README's install line does, holds
    thousands of files that are not the project's; parsing them was most of this test's
    time in CI)."""
    for top in sorted(ROOT.iterdir()):
        if top.is_dir() and not top.name.startswith(".") and top.name not in but:
            yield from top.rglob("*.py")


def test_nothing_but_cli_imports_server() -> None:
    importers = {p.parts[len(ROOT.parts)]
                 for p in _project_files(but={"server", "tests", "bench"})
                 if "server" in _imports(p)}
    assert importers <= {"cli"}


@pytest.fixture(scope="module")
def graph() -> tuple[dict[str, Path], set[Edge]]:
    return build_graph(ROOT)


def test_no_arrow_up_the_layers(graph: tuple[dict[str, Path], set[Edge]]) -> None:
    """Between the packages and inside ledger/ and ledger/formats/ (the orders above): the
    core names no proof and no randomness, storage names no proof, the match layer names no
    officiating module."""
    _, edges = graph
    bad = [f"{e.source} -> {e.target} ({why}, {e.kind})" for e, why in upward(edges)
           if (str(Path(*e.source.split(".")).with_suffix(".py")), e.target.split(".")[0])
           not in KNOWN_UPWARD]
    assert bad == []


def test_match_and_officiating_import_in_one_direction(
        graph: tuple[dict[str, Path], set[Edge]]) -> None:
    """Issue 28 item 4: ledger/formats/officiating/ builds on the match layer, never the other
    way round (the officiating record the match state carries is
    ``ledger.formats.match.officiating_model``)."""
    _, edges = graph
    up = sorted(f"{e.source} -> {e.target}" for e in edges
                if e.source.startswith("ledger.formats.match.")
                and e.target.startswith("ledger.formats.officiating"))
    assert up == []
    assert any(e.source.startswith("ledger.formats.officiating.")
               and e.target.startswith("ledger.formats.match.") for e in edges)


def test_every_match_format_still_adds_the_head_judges_pairings() -> None:
    """The match layer no longer names officiating's kinds; every match format adds them, so
    the posting gate (ADR 0023) still reads an override as a pairing and a void as none."""
    from ledger.formats import registry
    from ledger.formats.match.events import RoundPaired
    from ledger.formats.match.plugin import MatchRules
    from ledger.formats.officiating.events import PairingOverridden, PairingVoided

    match = [p for p in registry.FORMATS.values() if isinstance(p.rules, MatchRules)]
    assert len(match) == 5
    for plugin in match:
        assert plugin.rules.pairing_bodies == (RoundPaired, PairingOverridden), plugin.id
        assert plugin.rules.unpairing_bodies == (PairingVoided,), plugin.id


def test_no_new_module_cycle(graph: tuple[dict[str, Path], set[Edge]]) -> None:
    """No circle of modules in ledger/ (none at all) nor elsewhere but those listed, with
    their reasons, in ``KNOWN_CYCLES``."""
    modules, edges = graph
    new = [c for c in module_cycles(modules, edges)
           if c[0].startswith("ledger.") or not any(set(c) <= k for k in KNOWN_CYCLES)]
    assert new == []


def test_no_new_package_cycle(graph: tuple[dict[str, Path], set[Edge]]) -> None:
    modules, edges = graph
    new = [c for c in package_cycles(modules, edges)
           if not any(set(c) <= k for k in KNOWN_PACKAGE_CYCLES)]
    assert new == []


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return tmp_path


def test_the_graph_script_finds_circles_and_upward_arrows(tmp_path: Path) -> None:
    """``bench.import_graph`` on a small tree: a lazy and a type-only import close a circle;
    the core naming a proof is an arrow up; the same arrow down is none."""
    root = _tree(tmp_path, {
        "ledger/__init__.py": "",
        "ledger/core/__init__.py": "",
        "ledger/core/state.py": "from ledger.proofs import merkle\n",
        "ledger/core/rules.py": """
            from typing import TYPE_CHECKING
            if TYPE_CHECKING:
                from ledger.core.state import State
            """,
        "ledger/core/aggregate.py": """
            import ledger.core.rules
            def f():
                from ledger.core import aggregate_help
            """,
        "ledger/core/aggregate_help.py": "from ledger.core.aggregate import f\n",
        "ledger/proofs/__init__.py": "",
        "ledger/proofs/merkle.py": "from ledger.wire.keys import k\n",
        "ledger/proofs/witness.py": "from ledger.core.state import State\n",
        "ledger/wire/keys.py": "",
        "cli/main.py": "from ledger.core import state\n",
    })
    modules, edges = build_graph(root)
    assert Edge("ledger.core.rules", "ledger.core.state", "typing") in edges
    assert Edge("ledger.core.aggregate", "ledger.core.aggregate_help", "lazy") in edges
    assert module_cycles(modules, edges) == [["ledger.core.aggregate",
                                              "ledger.core.aggregate_help"]]
    assert package_cycles(modules, edges) == [["ledger.core", "ledger.proofs"]]
    assert [(f"{e.source}>{e.target}", why) for e, why in upward(edges)] == [
        ("ledger.core.state>ledger.proofs.merkle", "ledger.core -> ledger.proofs")]


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
            "draw.py", "merkle.py", "checkpoint.py", "keys.py", "canonical.py",
            "tree_hash.py", "rule_plugins.py"} <= names


@pytest.mark.parametrize("path", sorted((ROOT / "ledger" / "formats").rglob("*.py")),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_format_imports_no_other_format(path: Path) -> None:
    """A format folder imports the core, the shared layers under ledger/formats/ (files
    directly in it, ``match/`` and ``officiating/``) and itself — never another format's
    folder."""
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
