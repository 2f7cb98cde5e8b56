"""How a match-layer result reads in words (``round show``, ``log``, slips, pages).

Owns: ``result_words`` — one short phrase for a table's result, numbers only (the names
stand beside it on every line that shows one).  A format on the shared match layer
reaches it through its plug-in's ``describe_result``; nothing under ``cli/`` or
``projections/`` builds result words of its own (issue 17).

May import: ``ledger.formats.match.model``.
"""

from __future__ import annotations

from ledger.formats.match.model import Outcome, ResultState


def games_text(games: list[int] | None) -> str:
    """``2-1`` or ``1-1-1`` (drawn games shown only when there are any)."""
    if games is None:
        return ""
    return "-".join(str(g) for g in (games if games[2:] != [0] else games[:2]))


def result_words(res: ResultState | None) -> str:
    """One short phrase for a table's result."""
    if res is None:
        return "-"
    score = "" if res.games is None else " " + games_text(list(res.games))
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
