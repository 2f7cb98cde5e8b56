"""Rules of the core's own kinds that live above the core, named where they live (issue 28).

Owns: ``register_rules`` (a module, by dotted name, whose import registers checks with
``ledger.core.rules``: nothing is imported then) and ``load_rules`` (import every module
named and not imported yet; whether any was).  ``ledger.formats.registry`` names
``ledger.randomness.rules`` (the seed, commitment and draw-hygiene rules, DESIGN-6);
``ledger.core.rules`` loads them the first time it meets a kind whose rule is not plugged in
yet.  So the core names no layer above it, and a read command, which plugs the formats in
but checks nothing, imports no rule (docs/adr/0039-layering-layers-and-rule-ids.md) — the
same way the formats plug in (``ledger.core.format_socket.register_lazy``).

May import: ``importlib``.
"""

from __future__ import annotations

import importlib

_PENDING: list[str] = []


def register_rules(module: str) -> None:
    """Name a module that plugs rules into ``ledger.core.rules`` when imported."""
    if module not in _PENDING:
        _PENDING.append(module)


def load_rules() -> bool:
    """Import every module named and not imported yet; whether any was."""
    loaded = False
    while _PENDING:
        importlib.import_module(_PENDING[0])
        _PENDING.pop(0)
        loaded = True
    return loaded
