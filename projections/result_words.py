"""A table's result in words, as its format says it (issue 17: the format owns its
result vocabulary; pages and the CLI only ask).

Owns: ``describe`` — the one entry point every page, table and log line uses — and
``player_label`` (``#7 Ada Lovelace``, as every command and verdict names a player).

May import: ``ledger.core.plugin``, ``ledger.core.state``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ledger.core.plugin import plugin_for

if TYPE_CHECKING:
    from ledger.core.state import TournamentState


def describe(state: TournamentState, result: Any) -> str:
    """One short phrase for ``result`` (a table's result state, or None: "-")."""
    plugin = plugin_for(state.format.id if state.format else None)
    if plugin is None:
        return "-" if result is None else "recorded"
    return plugin.describe_result(state, result)


def player_label(state: TournamentState, number: int | None) -> str:
    """``#7 Ada Lovelace`` (``-`` for nobody)."""
    if number is None:
        return "-"
    player = state.players.get(number)
    return f"#{number} {player.name}" if player is not None else f"#{number}"
