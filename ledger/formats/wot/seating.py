"""Seating of the first Game of the first Cycle (WOTOLD-PAIR-1, WOTOLD-BYE-1, WOT01-PAIR-1,
WOT01-BYE-1, WOTOLD-ORDER-1 step 2, LEDGER-RAND-1).

Owns: ``shuffle_sheets`` (the Judge's shuffle of the signed score sheets as one DRAW-v1 draw
over the player numbers, pre-ordered by number) and ``seat_first_game`` (table order,
Hero/Villain, the odd player's bye counted as Hero) from the recorded shuffled order.  The
command side records the draw; the audit re-runs both functions.

May import: the standard library, ``ledger.core.draw``, ``ledger.errors``,
``ledger.formats.wot.model``, ``ledger.formats.wot.pairing`` (the ``Pairing`` result type).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ledger.core.draw import draw_v1
from ledger.errors import RuleError
from ledger.formats.wot.model import Revision, Side, rule_id
from ledger.formats.wot.pairing import Pairing, PairingKind, Table

__all__ = ["SEATING_CONTEXT", "seat_first_game", "shuffle_sheets"]

#: DRAW-v1 context of the score-sheet shuffle (one draw per event).
SEATING_CONTEXT = "wot/game-1/seating"


def shuffle_sheets(seed: bytes, players: Iterable[int], ctx: str = SEATING_CONTEXT) -> list[int]:
    """The shuffled pile of score sheets: DRAW-v1 over the numbers pre-ordered by number."""
    return draw_v1(seed, ctx, players)


def seat_first_game(revision: Revision, order: Sequence[int]) -> Pairing:
    """Game 1 from the shuffled order: sheets 1 and 2 at table 1 (Hero, Villain), 3 and 4 at
    table 2, …; with an odd count the last sheet has the bye, counted as Hero."""
    if len(set(order)) != len(order):
        raise RuleError(rule_id(revision, "PAIR-1"), "the shuffled score sheets name a player "
                        "twice", hint="shuffle each registered player's sheet once")
    if len(order) < 2:
        raise RuleError(rule_id(revision, "GAME-1"), f"a Game needs at least 2 players, got "
                        f"{len(order)}", hint="register more players before seating Game 1")
    tables = tuple(Table(table=i // 2 + 1, hero=order[i], villain=order[i + 1])
                   for i in range(0, len(order) - 1, 2))
    bye = order[-1] if len(order) % 2 else None
    return Pairing(game=1, kind=PairingKind.SEATING, tables=tables, bye=bye,
                   bye_side=Side.HERO if bye is not None else None,
                   order=(tuple(order), ()))
