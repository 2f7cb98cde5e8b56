"""Who is still in the event at a seq: the universe of player draws (THREATS T25).

Owns: ``registered`` (every registered player number, ascending), ``still_in`` (one
player: registered and not withdrawn from the event by the format's rules — dropped,
disqualified, declared forfeit) and ``roster`` (all such players, ascending: the active
roster).  The one definition the draw rules (command side and audit) use.  Who has left is
the format's knowledge: the core asks the plug-in (``FormatPlugin.has_left``).

May import: ``ledger.core.state``, ``ledger.core.format_socket``.
"""

from __future__ import annotations

from ledger.core.format_socket import plugin_for
from ledger.core.state import TournamentState


def registered(state: TournamentState) -> list[int]:
    return sorted(state.players)


def still_in(state: TournamentState, number: int) -> bool:
    """Registered, and not withdrawn from the event (O(1))."""
    if number not in state.players:
        return False
    plugin = plugin_for(state.format.id if state.format else None)
    return plugin is None or not plugin.has_left(state, number)


def roster(state: TournamentState) -> list[int]:
    """Registered players still in the event, ascending."""
    return [n for n in sorted(state.players) if still_in(state, n)]
