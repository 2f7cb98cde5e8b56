"""The tiebreaker percentages every match format shares: MW%, E(f), OMW% and OOMW%.

Owns: ``FLOOR_HUNDREDTHS`` and ``mw_hundredths`` (MW% truncated to hundredths and floored
at 0.33, BR-SWISS-TB-3 / BR-DE-TB-3), ``effective_rounds`` (E(f) of BR-DE-TB-4, AMB-B11,
AMB-B24) and ``opponent_keys`` (OMW% and OOMW% as exact means, one term per match,
BR-SWISS-TB-4/5, AMB-B3, 0 for a fighter without opponents, AMB-B6).  One implementation,
called by the Bushiroad formats (``bushiroad/mw.py``, ``bushiroad/columns.py``) and by the
HotC standings read model (``ledger/formats/hotc/standings.py``, AMB-H15: BR-DE-TB over the Swiss
phase), so the command side, the projections and the audit compute the same numbers.

Integer arithmetic only, no ``Fraction`` in the loop: MW% is an integer number of
hundredths; with L = lcm(opponent counts) every OMW% is an integer over 100·L and every
OOMW% an integer over 100·L² (docs/adr/0013), so sorting and grouping compare integers.
The functions are total: checking the inputs (and the ``RuleError`` a format raises for a
history that cannot be) is the caller's business.

May import: the standard library.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from math import lcm
from typing import Final

#: The floor of MW%: 0.33, in hundredths (BR-SWISS-TB-3, BR-DE-TB-3).
FLOOR_HUNDREDTHS: Final = 33


def mw_hundredths(points: int, max_points: int) -> int:
    """MW% in hundredths: ``max(floor(100·points / max_points), 33)`` (BR-SWISS-TB-3,
    BR-DE-TB-3).

    Truncated ("round down to two decimal places"), never rounded, then floored at 0.33;
    the order does not matter.  ``max_points`` = rounds × M (Swiss) or E(f) × M (double
    elimination).  A denominator ≤ 0 (no round counted yet) has no ratio and gets the floor
    (AMB-B1).
    """
    if max_points <= 0:
        return FLOOR_HUNDREDTHS
    return max(100 * points // max_points, FLOOR_HUNDREDTHS)


def effective_rounds(total_rounds: int, second_loss_round: int | None,
                     withdrawals: Iterable[tuple[int, int]] = ()) -> int:
    """E(f) = min(r2, rd, R_total) (BR-DE-TB-4; TC-05, TC-06, TC-06b).

    r2 = ``second_loss_round`` (∞ when ``None``).  Each withdrawal is (d, L): the fighter
    left after d completed rounds holding L losses; L ∈ {0, 1} gives rd = d + (2 − L), a
    fighter already holding two losses adds nothing.  A drop after the pairings of round
    d+1 gives the same E whether it is counted at d or at d+1 with the forced loss
    (AMB-B11).  Which withdrawals count (a disqualification as a drop, AMB-B24) is the
    caller's choice.
    """
    e = total_rounds
    if second_loss_round is not None:
        e = min(e, second_loss_round)
    for after_round, losses in withdrawals:
        if 0 <= losses < 2:
            e = min(e, after_round + 2 - losses)
    return e


def opponent_keys(fighters: Sequence[int], mw: Sequence[int],
                  opponents: Sequence[Sequence[int]]) -> tuple[list[int], list[int], int]:
    """(OMW% numerators over 100·L, OOMW% numerators over 100·L², L) in column order.

    ``mw[i]`` is the MW% of ``fighters[i]`` in hundredths and ``opponents[i]`` its
    opponents, one per match (byes left out), each one of ``fighters``.  OMW%(f) = mean of
    MW%(o) over f's opponents; OOMW%(f) = mean of OMW%(o) over the same opponents; 0 for a
    fighter with no opponent (BR-SWISS-TB-4/5, AMB-B3, AMB-B6).  L = lcm of the opponent
    counts (1 when nobody has one).
    """
    lens = [len(o) for o in opponents]
    scale = lcm(1, *{n for n in lens if n})
    mw_of = dict(zip(fighters, mw, strict=True)).__getitem__
    omw = [sum(map(mw_of, o)) * (scale // n) if n else 0
           for o, n in zip(opponents, lens, strict=True)]
    omw_of = dict(zip(fighters, omw, strict=True)).__getitem__
    oomw = [sum(map(omw_of, o)) * (scale // n) if n else 0
            for o, n in zip(opponents, lens, strict=True)]
    return omw, oomw, scale


__all__ = ["FLOOR_HUNDREDTHS", "effective_rounds", "mw_hundredths", "opponent_keys"]
