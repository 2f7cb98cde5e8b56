"""Recommended number of Swiss rounds (BR-SWISS-ROUNDS-1..4, AMB-B28; TC-04).

Owns: ``recommended_swiss_rounds``, the two tables of 002 FR §3.2.1.1 as data.  The
recommendation is advice for ``tourney init``: the organizer may set any number of rounds or
an announced stop rule instead (BR-SWISS-ROUNDS-4), and outside the tables there is no
default, so the organizer MUST set it (AMB-B28).

May import: the standard library.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final


class RoundRobin(str, Enum):
    """The recommendation for 2–4 fighters: a round robin instead of Swiss (BR-SWISS-ROUNDS-1)."""

    RECOMMENDED = "round_robin"


ROUND_ROBIN: Final = RoundRobin.RECOMMENDED


@dataclass(frozen=True)
class RoundRange:
    """A recommended number of rounds: ``low`` to ``high`` inclusive (equal without a cut)."""

    low: int
    high: int

    @property
    def exact(self) -> int | None:
        return self.low if self.low == self.high else None

    def __str__(self) -> str:
        return str(self.low) if self.low == self.high else f"{self.low}-{self.high}"


#: (first fighter count, last fighter count, rounds) — BR-SWISS-ROUNDS-2, no top cut.
NO_CUT: Final = ((5, 8, 3), (9, 16, 4), (17, 32, 5), (33, 64, 6), (65, 128, 7),
                 (129, 256, 8), (257, 512, 9), (513, 1024, 10))
#: (first, last, low, high) — BR-SWISS-ROUNDS-3, with a top cut.
WITH_CUT: Final = ((9, 64, 3, 5), (65, 128, 4, 6), (129, 256, 5, 7), (257, 512, 6, 8),
                   (513, 1024, 7, 9))


def recommended_swiss_rounds(fighters: int, *, top_cut: bool) -> RoundRange | RoundRobin | None:
    """The recommended Swiss rounds for a field (BR-SWISS-ROUNDS-1/2/3, AMB-B28; TC-04).

    2–4 fighters: a round robin is recommended, with or without a cut (BR-SWISS-ROUNDS-1).
    Otherwise the row of the matching table; ``None`` where no row exists (fewer than 5
    fighters without a cut, fewer than 9 or more than 1024 with one, more than 1024
    without): the organizer must set the rounds or a stop rule (AMB-B28).
    """
    if 2 <= fighters <= 4:
        return ROUND_ROBIN
    if top_cut:
        for first, last, low, high in WITH_CUT:
            if first <= fighters <= last:
                return RoundRange(low, high)
        return None
    for first, last, rounds in NO_CUT:
        if first <= fighters <= last:
            return RoundRange(rounds, rounds)
    return None
