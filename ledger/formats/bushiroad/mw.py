"""A fighter's own match-win percentage: Swiss MW% and double-elimination MW% with E(f).

Owns: the Bushiroad checks on MW% (BR-SWISS-TB-3: ``RuleError`` for an impossible history),
the Swiss denominator and bye flags (AMB-B1, AMB-B2), reading r2 and the withdrawals of a
``History`` for the DE effective rounds (BR-DE-TB-3/4, AMB-B24) and the two-decimal
rendering of docs/DESIGN.md §11.  MW% is always a multiple of 1/100, so it is kept as an integer
number of hundredths (``mw_hundredths``) and exposed as an exact ``Fraction``.  The
arithmetic itself (truncation and 0.33 floor, E(f) = min(r2, rd, R_total)) is the shared
``ledger.formats.match.percent``, which the HotC standings call too.

May import: the standard library, ``ledger.errors``, ``ledger.formats.bushiroad.model``,
``ledger.formats.match.percent``.
"""

from __future__ import annotations

from enum import Enum
from fractions import Fraction

import ledger.formats.match.percent as percent
from ledger.errors import RuleError
from ledger.formats.bushiroad.model import History


class MwDenominator(str, Enum):
    """``swiss_mw_denominator`` (AMB-B2): R_total of the event, or the rounds the fighter played."""

    TOTAL_ROUNDS = "total_rounds"
    ROUNDS_PLAYED = "rounds_played"


def mw_hundredths(points: int, max_points: int) -> int:
    """MW% in hundredths: ``max(floor(100·points / max_points), 33)`` (BR-SWISS-TB-3).

    The arithmetic is ``percent.mw_hundredths`` (truncation, then the 0.33 floor);
    ``max_points`` = rounds × M.  A zero denominator gives the floor, which is only ever
    displayed (AMB-B1).  Negative counts, or more points than available, are refused.
    """
    if points < 0 or max_points < 0:
        raise RuleError("BR-SWISS-TB-3", f"MW% needs non-negative points and rounds, not "
                        f"{points}/{max_points}", hint="check the history")
    if points > max_points > 0:
        raise RuleError("BR-SWISS-TB-3", f"{points} points exceed the {max_points} available",
                        hint="check the rounds and points per win", finding="inconsistent_history")
    return percent.mw_hundredths(points, max_points)


def _check_m(points_per_win: int) -> None:
    if points_per_win < 1:
        raise RuleError("BR-SWISS-4", f"points per win must be ≥ 1, not {points_per_win}",
                        hint="M is 1 or 3")


def swiss_mw_hundredths(h: History, *, total_rounds: int, points_per_win: int = 1,
                        bye_in_own_mw: bool = True,
                        denominator: MwDenominator = MwDenominator.TOTAL_ROUNDS) -> int:
    """Swiss (and round-robin) MW% of one fighter, in hundredths (BR-SWISS-TB-3).

    points / (R × M), R = ``total_rounds`` (AMB-B2 default: drops lower MW%) or the number
    of rounds the fighter was paired or given a bye in (``rounds_played``).  A bye is worth
    M points; with ``bye_in_own_mw = false`` each bye won is removed from both the points
    and R (AMB-B1).  A bye lost to a Loss of Match is an ordinary lost round (BR-SWISS-7).
    """
    _check_m(points_per_win)
    rounds = total_rounds if denominator is MwDenominator.TOTAL_ROUNDS else len(h.rounds)
    wins = h.wins()
    if not bye_in_own_mw:
        rounds -= h.byes()
        wins -= h.byes()
    return mw_hundredths(wins * points_per_win, rounds * points_per_win)


def second_loss_round(h: History) -> int | None:
    """r2(f): the round of the fighter's second loss, or ``None`` (BR-DE-TB-4)."""
    losses = 0
    for e in sorted(h.rounds, key=lambda e: e.round):
        if e.outcome.is_loss:
            losses += 1
            if losses == 2:
                return e.round
    return None


def de_effective_rounds(h: History, *, total_rounds: int, dq_as_drop: bool = True) -> int:
    """E(f) = min(r2, rd, R_total) of one ``History`` (BR-DE-TB-4; TC-05, TC-06, TC-06b),
    computed by ``percent.effective_rounds``.

    rd = d + (2 − L) for a drop after d completed rounds holding L ∈ {0, 1} losses (L is
    counted from the history up to round d).  Under ``de_dq_as_drop = true`` (AMB-B24) a
    disqualification is a drop at the moment it is given; ``false`` is the literal reading,
    in which a disqualification adds no criterion.  A drop sequenced after the pairings of
    round d+1 gives the same E whether it is counted at d or at d+1 with the forced loss
    (AMB-B11).
    """
    r2 = second_loss_round(h)
    late = [e.round for e in h.rounds if r2 is not None and e.round > r2]
    if late:
        raise RuleError("BR-DE-1", f"fighter {h.fighter} was eliminated in round {r2} but "
                        f"has results in round(s) {late}", hint="check the history",
                        finding="inconsistent_history")
    withdrawals = [(w.after_round, h.losses(upto=w.after_round))
                   for w in (h.drop, h.dq if dq_as_drop else None) if w is not None]
    return percent.effective_rounds(total_rounds, r2, withdrawals)


def de_mw_hundredths(h: History, *, total_rounds: int, points_per_win: int = 1,
                     dq_as_drop: bool = True) -> int:
    """Double-elimination MW% in hundredths: points / (E(f) × M) (BR-DE-TB-3)."""
    _check_m(points_per_win)
    e = de_effective_rounds(h, total_rounds=total_rounds, dq_as_drop=dq_as_drop)
    return mw_hundredths(h.wins() * points_per_win, e * points_per_win)


def as_fraction(hundredths: int) -> Fraction:
    return Fraction(hundredths, 100)


def mw_str(mw: Fraction) -> str:
    """MW% for the JSON contract: exactly two decimals, ``"0.33"``, ``"1.00"`` (DESIGN §11)."""
    cents = mw * 100
    if cents.denominator != 1 or cents < 0:
        raise ValueError(f"MW% {mw} is not a non-negative multiple of 1/100")
    n = cents.numerator
    return f"{n // 100}.{n % 100:02d}"


def fraction_str(x: Fraction) -> str:
    """OMW% / OOMW% for the JSON contract: exact ``"num/den"`` in lowest terms (DESIGN §11)."""
    return f"{x.numerator}/{x.denominator}"
