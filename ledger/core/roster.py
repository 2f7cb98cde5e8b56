"""Who is still in the event at a seq: the universe of player draws (THREATS T25).

Owns: ``registered`` (every registered player number, ascending), ``still_in`` (one
player: registered and not withdrawn from the event by the format's rules — dropped,
disqualified, declared forfeit; ``not_still_in`` for many, the plug-in looked up once)
and ``roster`` (all such players, ascending: the active roster).  The one definition
the draw rules (command side and audit) use.  Who has left is the format's knowledge:
the core asks the plug-in (``FormatPlugin.has_left``).

May import: ``ledger.core.state``, ``ledger.core.format_socket``.
"""

from __future__ import annotations

from collections.abc import Iterable

from ledger.core.format_socket import plugin_for
from ledger.core.state import TournamentState


def registered(state: TournamentState) -> list[int]:
    return sorted(state.players)


def still_in(state: TournamentState, number: int) -> bool:
    """Registered, and not withdrawn from the event (O(1))."""
    return not not_still_in(state, [number])


def not_still_in(state: TournamentState, numbers: Iterable[int]) -> list[int]:
    """Those of ``numbers`` that are not ``still_in`` the event, in their order (the
    plug-in looked up once for all of them)."""
    players = state.players
    plugin = plugin_for(state.format.id if state.format else None)
    if plugin is None:
        return [n for n in numbers if n not in players]
    left = plugin.rules.has_left
    return [n for n in numbers if n not in players or left(state, n)]


def roster(state: TournamentState) -> list[int]:
    """Registered players still in the event, ascending."""
    numbers = sorted(state.players)
    gone = set(not_still_in(state, numbers))
    return [n for n in numbers if n not in gone] if gone else numbers
