"""The route of a body type under a format: what of its rules is known before any event
is read (issue 28) — the roles that may sign its kind (RULES.md §1.3), whether it can cite
players' reports or be a player's own act (the fields its type has: REPORT-10, REPORT-15),
whether it is the genesis, and the format whose own ``check`` follows.

Owns: ``Route`` and ``route``: one per plug-in and body type, cached.  A format's
permissions are complete once it is registered (its rulebook is a merged copy), so a
route never changes; ``ledger.core.rules.check`` judges every event through one, and the
audit's fold so looks its rules up once per type, not once per event.

May import: ``ledger.core.signing``, ``ledger.core.state``, ``ledger.wire.events``
(``ledger.core.format_plugin`` for type hints only).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ledger.core.signing import plugin_of, roles_for_kind
from ledger.core.state import TournamentState
from ledger.wire.events import Body, TournamentCreated

if TYPE_CHECKING:
    from ledger.core.format_plugin import FormatPlugin


class Route:
    """What the rules of one body type under one format are, looked up once (the core's
    own rule of the type is read from its table at each check: a table a test may
    change)."""

    __slots__ = ("allowed", "credential", "genesis", "kind", "plugin", "reports")

    def __init__(self, plugin: FormatPlugin | None, body_type: type[Body]) -> None:
        fields = getattr(body_type, "__struct_fields__", ())
        self.plugin = plugin
        self.kind: str = body_type.KIND.value
        self.allowed = roles_for_kind(plugin, self.kind)
        self.genesis = body_type is TournamentCreated
        self.reports = "reports" in fields
        self.credential = "credential" in fields


_ROUTES: dict[tuple[FormatPlugin | None, type[Body]], Route] = {}


def route(state: TournamentState, body: Body) -> Route:
    """The rules of ``body``'s type under ``state``'s format (looked up once)."""
    key = (plugin_of(state), type(body))
    how = _ROUTES.get(key)
    if how is None:
        how = _ROUTES[key] = Route(*key)
    return how
