"""Rules of the core's own kinds that live above the core, named where they live (issue 28).

Owns: ``register_rules`` (a module, by dotted name, whose import registers checks with
``ledger.core.rules``: nothing is imported then), ``load_rules`` (import every module named
and not imported yet; whether any was), ``stand_in`` (the check that holds a kind's place in
the core's table until its module, loaded by the first call, registers the real one),
``draw_checks`` / ``plugged_draw_checks`` (the rules every ``draw_made`` also obeys) and
``RulesNotLoaded`` (nothing named the module: the kind is refused, never passed unchecked).
``ledger.formats.registry`` names ``ledger.randomness.rules`` (the seed, commitment and
draw-hygiene rules, DESIGN-6) and ``ledger.formats.officiating.deck_rules`` (what a
deck-check draw is, DECK-DRAW-1); ``ledger.core.rules`` loads it the first time it meets a kind
whose rule is not plugged in yet.  So the core names no layer above it, and a read command,
which plugs the formats in but checks nothing, imports no rule
(docs/adr/0039-layering-layers-and-rule-ids.md) — the way the formats plug in
(``ledger.core.format_socket.register_lazy``).

May import: ``importlib``, ``ledger.wire.events``; ``ledger.core.state`` (types only).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, MutableMapping
from typing import TYPE_CHECKING, Any

from ledger.wire.events import Body, DrawMade

if TYPE_CHECKING:
    from ledger.core.state import TournamentState

Checker = Callable[["TournamentState", Any, str], None]
DrawCheck = Callable[["TournamentState", DrawMade], None]
_DRAW_CHECKS: dict[str, DrawCheck] = {}

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


class RulesNotLoaded(RuntimeError):
    """A rule of the core's kinds that lives above the core was never plugged in."""

    def __init__(self, what: str) -> None:
        super().__init__(f"the rules of {what} are not plugged in: import "
                         "ledger.formats.registry (it names ledger.randomness.rules)")


def stand_in(table: MutableMapping[type[Body], Checker], body_type: type[Body]) -> Checker:
    """Holds ``body_type``'s place in ``table`` until its module, loaded by the first call,
    registers the real check over it; then calls that."""
    def check_when_plugged(state: TournamentState, body: Any, actor: str) -> None:
        load_rules()
        fn = table.get(body_type)
        if fn is None or fn is check_when_plugged:
            raise RulesNotLoaded(body_type.KIND.value)
        fn(state, body, actor)
    return check_when_plugged


def draw_checks(fn: DrawCheck) -> DrawCheck:
    """Register a rule ``draw_made`` also obeys, run before the draw is recomputed."""
    _DRAW_CHECKS[f"{fn.__module__}.{fn.__qualname__}"] = fn
    return fn


def plugged_draw_checks() -> list[DrawCheck]:
    """The rules every ``draw_made`` also obeys, their modules loaded on first use."""
    if not _DRAW_CHECKS:
        load_rules()
    if not _DRAW_CHECKS:
        raise RulesNotLoaded(DrawMade.KIND.value)
    return list(_DRAW_CHECKS.values())
