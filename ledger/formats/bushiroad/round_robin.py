"""Round-robin schedule by the circle method (BR-SWISS-ROUNDS-1, format ``round-robin``).

Owns: ``schedule`` — every fighter meets every other fighter exactly once; with an odd
number of fighters one fighter has a bye in each round (each fighter exactly once).  The
schedule is a pure function of the order it is given: the caller passes the field
pre-ordered by fighter number, or a DRAW-v1 shuffle of it recorded as its own event.
Standings use BR-SWISS-TB with R_total = the number of rounds of the schedule
(``tiebreak.rank(kind=SWISS, total_rounds=len(schedule(...)))``).

Circle method: fix the first fighter, rotate the others one seat clockwise each round;
seat i meets seat m−1−i.  With an odd field a phantom seat is added and its opponent has the
bye.  The listed first fighter of a table has no meaning for play order (BR-MATCH-2).

May import: the standard library, ``ledger.errors``, ``ledger.formats.bushiroad.model``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ledger.errors import RuleError
from ledger.formats.bushiroad.model import FighterId


@dataclass(frozen=True)
class RoundRobinRound:
    number: int
    tables: tuple[tuple[FighterId, FighterId], ...]
    bye: FighterId | None


def rounds_needed(fighters: int) -> int:
    """n − 1 rounds for an even field, n for an odd one (each round one bye)."""
    return fighters - 1 if fighters % 2 == 0 else fighters


def schedule(order: Sequence[FighterId]) -> tuple[RoundRobinRound, ...]:
    """The full round-robin schedule for ``order`` (2 or more distinct fighters)."""
    if len(order) < 2:
        raise RuleError("BR-SWISS-ROUNDS-1", f"a round robin needs at least 2 fighters, not "
                        f"{len(order)}", hint="register more fighters")
    if len(set(order)) != len(order):
        raise RuleError("BR-SWISS-ROUNDS-1", "the round-robin order lists a fighter twice",
                        hint="pass each fighter once")
    seats: list[FighterId | None] = list(order)
    if len(seats) % 2:
        seats.append(None)
    m = len(seats)
    out: list[RoundRobinRound] = []
    for number in range(1, m):
        tables: list[tuple[FighterId, FighterId]] = []
        bye: FighterId | None = None
        for i in range(m // 2):
            x, y = seats[i], seats[m - 1 - i]
            if x is None or y is None:
                bye = y if x is None else x
            else:
                tables.append((x, y))
        out.append(RoundRobinRound(number, tuple(tables), bye))
        seats = [seats[0], seats[-1], *seats[1:-1]]
    return tuple(out)
