"""One line of a table's result and a player's label, as every command prints them.

Owns: ``label`` (``#7 Ada Lovelace``) and ``result_text`` (one short phrase for a
table's result).  Kept apart from ``cli.round_cmd`` so that recording a result does not
import the round-display module for these two (issue 22 item 6).

May import: ``ledger.formats.match.model``, ``ledger.state`` (types).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ledger.formats.match.model import ResultState
    from ledger.state import TournamentState


def label(state: TournamentState, number: int | None) -> str:
    """``#7 Ada Lovelace`` (``-`` for nobody)."""
    if number is None:
        return "-"
    player = state.players.get(number)
    return f"#{number} {player.name}" if player is not None else f"#{number}"


def result_text(res: ResultState | None) -> str:
    """One short phrase for a table's result (numbers only: the names are on the line)."""
    from ledger.formats.match.model import Outcome

    if res is None:
        return "-"
    score = "" if res.games is None else " " + "-".join(
        str(g) for g in (res.games if res.games[2:] != [0] else res.games[:2]))
    lost = res.losers[0] if res.losers else None
    if res.winner is None and not res.losers:
        return f"draw{score}"
    if res.winner is None:
        why = {Outcome.TIMEOUT: "time", Outcome.TIE: "tie",
               Outcome.DOUBLE_LOSS: "tie"}.get(res.outcome, res.outcome.value)
        return f"double loss ({why}){score}"
    won = f"#{res.winner} wins{score}"
    extra = {Outcome.CONCESSION: f"#{lost} conceded", Outcome.DROP: f"#{lost} dropped",
             Outcome.SLOW_PLAY: f"time, #{lost} slow play",
             Outcome.TIMEOUT: "time" if res.games is not None else f"time, #{lost} turn player"
             }.get(res.outcome)
    return f"{won} ({extra})" if extra else won
