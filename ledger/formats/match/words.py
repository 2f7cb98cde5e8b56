"""How a match-layer result reads in words (``round show``, ``log``, slips, pages).

Owns: ``result_words`` — one short phrase for a table's result, numbers only (the names
stand beside it on every line that shows one).  A format on the shared match layer
reaches it through its plug-in's ``describe_result``; nothing under ``cli/`` or
``projections/`` builds result words of its own (issue 17).

May import: ``ledger.formats.match.model``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ledger.formats.match.model import LossReason, Outcome, ResultState


def games_text(games: list[int] | None) -> str:
    """``2-1`` or ``1-1-1`` (drawn games shown only when there are any)."""
    if games is None:
        return ""
    return "-".join(str(g) for g in (games if games[2:] != [0] else games[:2]))


def result_words(res: ResultState | None) -> str:
    """One short phrase for a table's result: who won, the game score, and how (a
    concession, a time-up, a slow-play call, Annex A, a loss by penalty, a drop …)."""
    if res is None:
        return "-"
    score = "" if res.games is None else " " + games_text(list(res.games))
    lost = res.losers[0] if res.losers else None
    why = res.loss_reasons[0] if res.loss_reasons else None
    if res.winner is None and not res.losers:
        return f"draw{score}"
    if res.winner is None:
        kind = {LossReason.PENALTY: "by penalty", LossReason.DROP_AFTER_PAIRING: "both left",
                LossReason.TIMEOUT_DOUBLE: "time", LossReason.TIE: "tie",
                LossReason.DOUBLE_LOSS: "tie"}.get(why) if why else None
        return f"double loss ({kind or res.outcome.value.replace('_', ' ')}){score}"
    won = f"#{res.winner} wins{score}"
    extra = {Outcome.CONCESSION: f"#{lost} conceded", Outcome.DROP: f"#{lost} dropped",
             Outcome.PENALTY: f"#{lost} loss by penalty",
             Outcome.SLOW_PLAY: f"time, #{lost} slow play",
             Outcome.TIMEOUT: "time-up, more game wins" if res.games is not None
             else f"time, #{lost} turn player"}.get(res.outcome)
    if why is LossReason.ANNEX_A:
        extra = "Annex A"
    return f"{won} ({extra})" if extra else won


def body_words(body: Mapping[str, Any]) -> str:
    """The same phrase for a recorded result body (``log``: the wire fields)."""
    try:
        res = ResultState(seq=0, winner=body.get("winner"), losers=list(body["losers"]),
                          loss_reasons=[LossReason(r) for r in body.get("loss_reasons", [])],
                          outcome=Outcome(body["outcome"]),
                          games=list(body["games"]) if body.get("games") else None)
    except (KeyError, ValueError, TypeError):
        return "?"
    return result_words(res)
