"""The officiating rulebook and how a format merges it (ADR 0011).

Owns: ``OFFICIATING_BOOK`` (permissions, checks and transitions of the officiating kinds),
``GUARDS`` (rules this layer adds to the match layer's kinds: a pending LoG / LoM or a
disqualification must show in the result; a disqualified player is never paired) and
``with_officiating`` — ``Rulebook.merged`` of a format's books plus this one, with each
guard run before the format's own check of that kind — and ``officiating_transitions``
(its transitions alone, for a fold that checks nothing).

May import: ``ledger.core.plugin``, ``ledger.wire.events``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ledger.core.plugin import Checker, Rulebook
from ledger.wire.events import Body

OFFICIATING_BOOK = Rulebook()
GUARDS: dict[type[Body], list[Checker]] = {}


def guards(body_type: type[Body]) -> Callable[[Checker], Checker]:
    def register(fn: Checker) -> Checker:
        GUARDS.setdefault(body_type, []).append(fn)
        return fn
    return register


def _chain(first: list[Checker], then: Checker | None) -> Checker:
    def check(state: Any, body: Any, actor: str) -> None:
        for fn in first:
            fn(state, body, actor)
        if then is not None:
            then(state, body, actor)
    return check


def officiating_transitions(*books: Rulebook) -> Rulebook:
    """The state transitions of ``with_officiating(*books)`` alone (its appliers, in the
    same order), importing only the officiating modules that register transitions: what a
    fold needs (a format's ``transitions``, issue 22).  Its checks are not to be used."""
    from ledger.formats.officiating import apply as _apply  # noqa: F401  (fills the book)
    from ledger.formats.officiating import corrections as _fix  # noqa: F401  (fills the book)
    from ledger.formats.officiating import floor_rules as _floor  # noqa: F401  (fills the book)
    from ledger.formats.officiating import void as _void  # noqa: F401  (fills the book)

    out = Rulebook()
    out.appliers = Rulebook.merged(*books, OFFICIATING_BOOK).appliers
    return out


def with_officiating(*books: Rulebook) -> Rulebook:
    """A format's rulebook with officiating merged in (every format that plays matches)."""
    from ledger.formats.officiating import apply as _apply  # noqa: F401  (fills the book)
    from ledger.formats.officiating import checks as _checks  # noqa: F401  (fills the book)
    from ledger.formats.officiating import corrections as _fix  # noqa: F401  (fills the book)
    from ledger.formats.officiating import floor_rules as _floor  # noqa: F401  (fills the book)
    from ledger.formats.officiating import void as _void  # noqa: F401  (fills the book)

    out = Rulebook.merged(*books, OFFICIATING_BOOK)
    for body_type, fns in GUARDS.items():
        out.checkers[body_type] = _chain(fns, out.checkers.get(body_type))
    return out
