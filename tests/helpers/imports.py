"""Which modules a source file imports, read from its syntax tree (no import is run).

May import: the standard library.
"""

from __future__ import annotations

import ast
from pathlib import Path


def _module_imports(path: Path) -> set[str]:
    """Every absolute module an import statement names (``from a.b import c`` → a.b, a.b.c)."""
    tree = ast.parse(path.read_text())
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found
