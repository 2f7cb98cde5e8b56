"""Issue 17 / ADR 0021: the standings and the pages name no format.  No module under
``projections/`` — and none of the CLI modules that print standings, rounds or the site —
imports a format package (``ledger.formats.hotc`` / ``.bushiroad`` / ``.wot``) or names a
format id in code; the shared layers (``ledger.formats.match``, ``.officiating``) stay
importable.  Adding a format stays "a folder plus one registry line".
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from ledger.formats.registry import FORMAT_IDS

ROOT = Path(__file__).resolve().parents[1]
FORMAT_PACKAGES = ("ledger.formats.hotc", "ledger.formats.bushiroad", "ledger.formats.wot")
#: the CLI modules of the standings, rounds and pages (the other CLI modules still naming a
#: format — cut, slow play, the Wheel of Time Judge commands — are issue 17 §1's result
#: vocabulary work, not the standings')
CLI_VIEWS = ("standings_cmd.py", "publish_cmd.py", "round_cmd.py", "text.py")
MODULES = sorted((ROOT / "projections").rglob("*.py")) + [ROOT / "cli" / n for n in CLI_VIEWS]


def _offences(path: Path) -> list[str]:
    ids = set(FORMAT_IDS)
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        found += [n for n in names if n.startswith(FORMAT_PACKAGES)]
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and node.value in ids:
            found.append(repr(node.value))
    return found


def test_every_format_is_known_to_the_check() -> None:
    assert {"hotc-swiss-de", "bushiroad-swiss", "bushiroad-de", "single-elim",
            "round-robin", "wot-classic", "wot-2001"} <= set(FORMAT_IDS)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_standings_and_pages_name_no_format(path: Path) -> None:
    assert _offences(path) == []
