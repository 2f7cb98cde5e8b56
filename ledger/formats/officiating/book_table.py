"""The officiating rulebook's tables, which the rule modules fill (ADR 0011).

Owns: ``OFFICIATING_BOOK`` (permissions, checks and transitions of the officiating kinds,
filled by ``apply``, ``checks``, ``corrections``, ``floor_rules`` and ``void`` when imported)
and ``GUARDS`` / ``guards`` (rules this layer adds to the match layer's kinds: a pending LoG /
LoM or a disqualification must show in the result; a disqualified player is never paired).
Apart from ``ledger.formats.officiating.book``, which merges them into a format's book and
imports the modules that fill them, so the rule modules and the merge import each other in
one direction (docs/adr/0039-layering-layers-and-rule-ids.md).

May import: ``ledger.core.plugin``, ``ledger.wire.events``.
"""

from __future__ import annotations

from collections.abc import Callable

from ledger.core.plugin import Checker, Rulebook
from ledger.wire.events import Body

OFFICIATING_BOOK = Rulebook()
GUARDS: dict[type[Body], list[Checker]] = {}


def guards(body_type: type[Body]) -> Callable[[Checker], Checker]:
    def register(fn: Checker) -> Checker:
        GUARDS.setdefault(body_type, []).append(fn)
        return fn
    return register
