"""One line of a table's result and a player's label, as every command prints them.

Owns: ``label`` (``#7 Ada Lovelace``).  Kept apart from ``cli.round_cmd`` so that
recording a result does not import the round-display module for it (issue 22 item 6); a
result's words are its format's (``projections.result_words.describe``).

May import: ``ledger.core.state`` (types).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ledger.core.state import TournamentState


def label(state: TournamentState, number: int | None) -> str:
    """``#7 Ada Lovelace`` (``-`` for nobody)."""
    if number is None:
        return "-"
    player = state.players.get(number)
    return f"#{number} {player.name}" if player is not None else f"#{number}"
