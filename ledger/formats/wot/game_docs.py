"""Wheel of Time Games as the plain round documents the published site renders (defect 7:
``publish`` writes a page per Game, like a round of the match formats).

Owns: ``game_docs`` — every Game in the shape of ``projections.report.round_doc`` (the
Hero in ``players[0]``, the Villain in ``players[1]``, ``sides`` saying so; ``phase``
"game"), each result with
the format's own words (``words.result_words``).  Read from the folded state only.

May import: ``ledger.*``.
"""

from __future__ import annotations

from typing import Any

from ledger.core.state import TournamentState
from ledger.formats.wot import plan
from ledger.formats.wot.state import TableState
from ledger.formats.wot.words import result_words


def _result(t: TableState) -> dict[str, Any] | None:
    r = t.result
    if r is None:
        return None
    return {"seq": r.seq, "winner": r.winner, "losers": plan.losers(plan.result_of(t)),
            "outcome": r.outcome, "words": result_words(r)}


#: how each kind of Game is paired, in a player's words (the live pages, issue 18)
KIND_WORDS = {"seating": "Game 1: seats drawn from the shuffled pile of score sheets",
              "piles": "pile pairing: the Hero pile against the Villain pile, each by score",
              "list": "list pairing down the standings"}


def pairing_note(number: int) -> str:
    from ledger.formats.wot.pairing import game_kind

    return f"Cycle {(number + 1) // 2}, {KIND_WORDS[game_kind(number).value]}"


def game_docs(state: TournamentState) -> list[dict[str, Any]]:
    return [{"round": g.number, "phase": "game", "bye": g.bye, "advances": [],
             "pairing_note": pairing_note(g.number),
             "closed": plan.complete(g), "bye_lost": False, "overridden": None,
             "tables": [{"table": t.table, "players": [t.hero, t.villain], "groups": [],
                         "rematch": t.rematch, "pair_down": None, "result": _result(t),
                         "sides": [" (Hero)", " (Villain)"]}
                        for t in g.tables]}
            for g in plan.ws(state).games]
