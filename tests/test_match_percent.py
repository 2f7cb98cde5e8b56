"""The shared tiebreaker arithmetic (ledger/formats/match/percent.py): MW% (BR-SWISS-TB-3,
BR-DE-TB-3, TC-01), E(f) (BR-DE-TB-4, TC-05, TC-06, AMB-B11) and OMW% / OOMW% (BR-SWISS-TB-4/5,
AMB-B3, AMB-B6, TC-02), and the HotC and Bushiroad readers agreeing through it."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ledger.formats.bushiroad.model import History, Outcome, RoundEntry, Withdrawal
from ledger.formats.bushiroad.mw import de_effective_rounds, de_mw_hundredths
from ledger.formats.hotc.standings import effective_rounds as hotc_effective_rounds
from ledger.formats.hotc.standings import mw_de
from ledger.formats.match.model import PlayerRecord, Status
from ledger.formats.match.percent import (
    FLOOR_HUNDREDTHS,
    effective_rounds,
    mw_hundredths,
    opponent_keys,
)


@pytest.mark.parametrize(("points", "max_points", "expected"), [
    (2, 3, 66),     # TC-01: rounding would give 67
    (7, 8, 87),     # rounding would give 88
    (1, 3, 33),     # truncates to exactly 0.33
    (1, 4, 33),     # 0.25 → the floor
    (0, 4, 33),
    (6, 15, 40),    # 3-point wins: 2 of 5
    (4, 4, 100),
    (0, 0, 33),     # no round counted: the floor (AMB-B1)
    (3, -1, 33),
])
def test_tc01_mw_hundredths(points: int, max_points: int, expected: int) -> None:
    assert mw_hundredths(points, max_points) == expected
    assert FLOOR_HUNDREDTHS == 33


@pytest.mark.parametrize(("r2", "withdrawals", "total", "e"), [
    (None, [], 4, 4),           # P: WWWW
    (2, [], 4, 2),              # R: LL
    (None, [(2, 1)], 4, 3),     # S: WL, drop before R3
    (None, [(2, 0)], 4, 4),     # U: WW, drop before R3
    (None, [(1, 0)], 4, 3),     # V: W, drop before R2
    (None, [(3, 0)], 6, 5),     # WWW drop before R4, R_total 6
    (4, [(3, 1)], 4, 4),        # TC-06 Z: both readings give 4 (AMB-B11)
    (3, [(4, 2)], 6, 3),        # an eliminated player who drops adds no rd
    (None, [(3, 1), (2, 0)], 6, 4),   # a drop and a DQ counted as one (AMB-B24): the min
])
def test_tc05_effective_rounds(r2: int | None, withdrawals: list[tuple[int, int]],
                               total: int, e: int) -> None:
    assert effective_rounds(total, r2, withdrawals) == e


def test_tc02_opponent_keys_are_the_exact_means() -> None:
    # 1 beat 2 and 3, 2 beat 3, 4 had only byes: MW% 100, 50, 33 (floor), 100 (hundredths)
    fighters, mw = [1, 2, 3, 4], [100, 50, 33, 100]
    opponents = [[2, 3], [1, 3], [1, 2], []]
    omw, oomw, scale = opponent_keys(fighters, mw, opponents)
    assert scale == 2
    assert [F(k, 100 * scale) for k in omw] == [F(83, 200), F(133, 200), F(3, 4), 0]
    omw1, omw2, omw3 = F(83, 200), F(133, 200), F(3, 4)
    assert [F(k, 100 * scale ** 2) for k in oomw] == [
        (omw2 + omw3) / 2, (omw1 + omw3) / 2, (omw1 + omw2) / 2, 0]   # AMB-B6: no opponents


@given(st.lists(st.lists(st.integers(0, 7), max_size=6), min_size=1, max_size=8),
       st.data())
def test_opponent_keys_match_fraction_means(raw: list[list[int]], data: st.DataObject) -> None:
    n = len(raw)
    opponents = [[o % n for o in row] for row in raw]
    mw = data.draw(st.lists(st.integers(33, 100), min_size=n, max_size=n))
    omw, oomw, scale = opponent_keys(list(range(n)), mw, opponents)
    exact_omw = [sum((F(mw[o], 100) for o in row), F(0)) / len(row) if row else F(0)
                 for row in opponents]
    exact_oomw = [sum((exact_omw[o] for o in row), F(0)) / len(row) if row else F(0)
                  for row in opponents]
    assert [F(k, 100 * scale) for k in omw] == exact_omw
    assert [F(k, 100 * scale * scale) for k in oomw] == exact_oomw


@given(st.text("WL", max_size=7), st.integers(0, 8), st.one_of(st.none(), st.integers(0, 7)))
def test_hotc_and_bushiroad_readers_agree(results: str, extra_rounds: int,
                                          drop_after: int | None) -> None:
    """The HotC record and the Bushiroad history of one double-elimination fighter give the
    same E(f) and MW% (BR-DE-TB-3/4): both read into ``percent``."""
    if drop_after is not None:                          # no results after the drop
        results = results[:drop_after]
        drop_after = min(drop_after, len(results))
    second = [i for i, c in enumerate(results, 1) if c == "L"][1:2]
    if second:
        results = results[:second[0]]                   # eliminated at the 2nd loss
        drop_after = None if drop_after is None else min(drop_after, second[0])
    total = len(results) + extra_rounds
    history = History(1, tuple(RoundEntry(i, 2, Outcome.WIN if c == "W" else Outcome.LOSS)
                               for i, c in enumerate(results, 1)),
                      drop=None if drop_after is None else Withdrawal(drop_after))
    wins = results.count("W")
    record = PlayerRecord(
        number=1, wins=wins, losses=results.count("L"),
        second_loss_round=second[0] if second else None,
        status=Status.DROPPED if drop_after is not None else Status.ACTIVE,
        dropped_after_rounds=drop_after,
        dropped_losses=None if drop_after is None else results[:drop_after].count("L"))
    e = de_effective_rounds(history, total_rounds=total)
    assert hotc_effective_rounds(record, total) == e
    assert mw_de(wins, e) == F(de_mw_hundredths(history, total_rounds=total), 100)
