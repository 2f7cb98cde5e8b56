"""A format's rulebook (docs/DESIGN.md §10): the dispatch tables its rules are filled from.

Owns: ``Rulebook`` (a format's dispatch tables: state transitions, checks, permissions,
filled by decorators at import) and its entry types ``Applier`` / ``Checker``.  The
format plug-in itself (identity and facets) is ``ledger.core.format_plugin``; the socket
that finds it is ``ledger.core.format_socket``; the ``rules`` facet that reads a rulebook
is ``ledger.core.rules_facet``.

May import: ``ledger.wire.events`` (``ledger.core.state_model`` for type hints only).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ledger.wire.events import Body, Role, SignedEvent

if TYPE_CHECKING:
    from ledger.core.state_model import TournamentState

Applier = Callable[["TournamentState", SignedEvent, Any], None]
Checker = Callable[["TournamentState", Any, str], None]


class Rulebook:
    """One format's (or one shared layer's) dispatch tables, filled by decorators at import.

    A format may be built from several books (``merged``): e.g. the shared match layer's
    book plus the format's own.  Transitions of one body type run in registration order.
    """

    def __init__(self) -> None:
        self.appliers: dict[type[Body], list[Applier]] = {}
        self.checkers: dict[type[Body], Checker] = {}
        self.permissions: dict[str, frozenset[Role]] = {}

    def applies(self, body_type: type[Body]) -> Callable[[Applier], Applier]:
        def register(fn: Applier) -> Applier:
            self.appliers.setdefault(body_type, []).append(fn)
            return fn
        return register

    def checks(self, body_type: type[Body]) -> Callable[[Checker], Checker]:
        def register(fn: Checker) -> Checker:
            self.checkers[body_type] = fn
            return fn
        return register

    def permit(self, kind: str, roles: frozenset[Role]) -> None:
        self.permissions[kind] = roles

    @staticmethod
    def merged(*books: Rulebook) -> Rulebook:
        out = Rulebook()
        for book in books:
            for t, fns in book.appliers.items():
                out.appliers.setdefault(t, []).extend(fns)
            out.checkers.update(book.checkers)
            out.permissions.update(book.permissions)
        return out
