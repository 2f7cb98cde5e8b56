"""The officiating rulebook and how a format merges it (ADR 0011).

Owns: ``with_officiating`` — ``Rulebook.merged`` of a format's books plus the officiating
book (``ledger.formats.officiating.book_table``: ``OFFICIATING_BOOK``, ``GUARDS``), with each
guard run before the format's own check of that kind — and ``officiating_transitions`` (its
transitions alone, for a fold that checks nothing).  It imports the rule modules that fill
the book; they import only the tables.

May import: ``ledger.core.plugin``, ``ledger.formats.officiating.*``.
"""

from __future__ import annotations

from typing import Any

from ledger.core.plugin import Checker, Rulebook
from ledger.formats.officiating.book_table import GUARDS, OFFICIATING_BOOK


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
    from ledger.formats.officiating import deck_rules as _deck  # noqa: F401  (fills the book)
    from ledger.formats.officiating import deck_submit_rules as _submit  # noqa: F401  (fills the book)
    from ledger.formats.officiating import decklist_rules as _lists  # noqa: F401  (fills the book)
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
    from ledger.formats.officiating import deck_rules as _deck  # noqa: F401  (fills the book)
    from ledger.formats.officiating import deck_submit_rules as _submit  # noqa: F401  (fills the book)
    from ledger.formats.officiating import decklist_rules as _lists  # noqa: F401  (fills the book)
    from ledger.formats.officiating import floor_rules as _floor  # noqa: F401  (fills the book)
    from ledger.formats.officiating import void as _void  # noqa: F401  (fills the book)

    out = Rulebook.merged(*books, OFFICIATING_BOOK)
    for body_type, fns in GUARDS.items():
        out.checkers[body_type] = _chain(fns, out.checkers.get(body_type))
    return out
