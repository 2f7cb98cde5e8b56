"""BR-SWISS-ROUNDS-1..4 and AMB-B28: recommended-rounds tables (RULES.md TC-04) and stop rules."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ledger.errors import RuleError
from ledger.formats.bushiroad.model import History, Outcome, RoundEntry, Withdrawal
from ledger.formats.bushiroad.rounds import (
    ROUND_ROBIN,
    RoundRange,
    StopRule,
    recommended_swiss_rounds,
    swiss_stop,
    undefeated_after,
)


@pytest.mark.parametrize(("fighters", "no_cut", "with_cut"), [
    (4, ROUND_ROBIN, ROUND_ROBIN),
    (8, RoundRange(3, 3), None),
    (16, RoundRange(4, 4), RoundRange(3, 5)),
    (17, RoundRange(5, 5), RoundRange(3, 5)),
    (70, RoundRange(7, 7), RoundRange(4, 6)),
    (1024, RoundRange(10, 10), RoundRange(7, 9)),
    (1025, None, None),
])
def test_tc04_recommended_rounds(fighters: int, no_cut: object, with_cut: object) -> None:
    assert recommended_swiss_rounds(fighters, top_cut=False) == no_cut
    assert recommended_swiss_rounds(fighters, top_cut=True) == with_cut


@pytest.mark.parametrize(("fighters", "expected"), [
    (2, ROUND_ROBIN), (3, ROUND_ROBIN), (5, RoundRange(3, 3)), (9, RoundRange(4, 4)),
    (32, RoundRange(5, 5)), (33, RoundRange(6, 6)), (64, RoundRange(6, 6)),
    (65, RoundRange(7, 7)), (128, RoundRange(7, 7)), (129, RoundRange(8, 8)),
    (256, RoundRange(8, 8)), (257, RoundRange(9, 9)), (512, RoundRange(9, 9)),
    (513, RoundRange(10, 10)), (0, None), (1, None),
])
def test_no_cut_table_boundaries(fighters: int, expected: object) -> None:
    assert recommended_swiss_rounds(fighters, top_cut=False) == expected


@pytest.mark.parametrize(("fighters", "expected"), [
    (5, None), (9, RoundRange(3, 5)), (64, RoundRange(3, 5)), (65, RoundRange(4, 6)),
    (128, RoundRange(4, 6)), (129, RoundRange(5, 7)), (256, RoundRange(5, 7)),
    (257, RoundRange(6, 8)), (512, RoundRange(6, 8)), (513, RoundRange(7, 9)), (1, None),
])
def test_cut_table_boundaries(fighters: int, expected: object) -> None:
    assert recommended_swiss_rounds(fighters, top_cut=True) == expected


@given(st.integers(min_value=5, max_value=1024))
def test_no_cut_table_is_ceil_log2(fighters: int) -> None:
    """AMB-B28: inside the table the no-cut value equals ceil(log2 n)."""
    rec = recommended_swiss_rounds(fighters, top_cut=False)
    assert isinstance(rec, RoundRange)
    assert rec.exact == math.ceil(math.log2(fighters))


def test_range_renders_for_info() -> None:
    assert str(RoundRange(3, 5)) == "3-5"
    assert str(RoundRange(4, 4)) == "4"
    assert RoundRange(3, 5).exact is None
    assert ROUND_ROBIN.value == "round_robin"


# ---------------------------------------------------------------- BR-SWISS-ROUNDS-4 stop rules

def _h(f: int, results: str, drop: int | None = None) -> History:
    out = {"W": Outcome.WIN, "L": Outcome.LOSS, "D": Outcome.DRAW}
    return History(f, tuple(RoundEntry(i, None, out[c]) for i, c in enumerate(results, 1)),
                   drop=None if drop is None else Withdrawal(drop))


def test_fixed_rounds() -> None:
    field = [_h(1, "WW"), _h(2, "LL")]
    assert not swiss_stop(field, 1, StopRule.FIXED, swiss_rounds=2).stop
    done = swiss_stop(field, 2, StopRule.FIXED, swiss_rounds=2)
    assert (done.stop, done.condition_met_after) == (True, 2)
    with pytest.raises(RuleError, match="swiss_rounds"):
        swiss_stop(field, 1, StopRule.FIXED)


def test_until_one_undefeated_with_an_extra_round() -> None:
    field = [_h(1, "WWW"), _h(2, "WLW"), _h(3, "LWW"), _h(4, "WWL")]
    # after R1: 1, 2, 4 undefeated; after R2: 1, 4; after R3: 1 → the rule holds after R3
    assert undefeated_after(field, 2) == 2
    assert not swiss_stop(field, 2, StopRule.ONE_UNDEFEATED).stop
    check = swiss_stop(field, 3, StopRule.ONE_UNDEFEATED)
    assert (check.stop, check.condition_met_after, check.undefeated) == (True, 3, 1)
    plus_one = swiss_stop(field, 3, StopRule.ONE_UNDEFEATED, extra_rounds=1)
    assert (plus_one.stop, plus_one.condition_met_after) == (False, 3)
    field4 = [_h(f, r + "W") for f, r in ((1, "WWW"), (2, "WLW"), (3, "LWW"), (4, "WWL"))]
    assert swiss_stop(field4, 4, StopRule.ONE_UNDEFEATED, extra_rounds=1).stop


def test_undefeated_below_cut_counts_draws_and_drops() -> None:
    field = [_h(1, "WW"), _h(2, "WD"), _h(3, "WW", drop=1), _h(4, "LW"), _h(5, "WL")]
    assert undefeated_after(field, 1) == 3            # 1, 2, 5 (3 dropped after R1)
    assert undefeated_after(field, 2) == 2            # 1 and 2 (a draw is not a loss)
    assert not swiss_stop(field, 1, StopRule.UNDEFEATED_BELOW_CUT, cut_size=3).stop
    stop = swiss_stop(field, 2, StopRule.UNDEFEATED_BELOW_CUT, cut_size=3)
    assert (stop.stop, stop.condition_met_after) == (True, 2)
    with pytest.raises(RuleError, match="cut_size"):
        swiss_stop(field, 2, StopRule.UNDEFEATED_BELOW_CUT)
    with pytest.raises(RuleError, match="extra rounds"):
        swiss_stop(field, 2, StopRule.ONE_UNDEFEATED, extra_rounds=-1)


@given(st.lists(st.text(alphabet="WLD", min_size=4, max_size=4), min_size=1, max_size=12),
       st.integers(1, 4), st.integers(1, 8), st.integers(0, 2))
def test_stop_rule_matches_a_direct_count(results: list[str], done: int, cut: int,
                                          extra: int) -> None:
    field = [_h(i, r) for i, r in enumerate(results)]
    direct = [sum(1 for r in results if "L" not in r[:k]) for k in range(done + 1)]
    assert [undefeated_after(field, k) for k in range(done + 1)] == direct
    check = swiss_stop(field, done, StopRule.UNDEFEATED_BELOW_CUT, cut_size=cut,
                       extra_rounds=extra)
    met = next((k for k in range(1, done + 1) if direct[k] < cut), None)
    assert check.condition_met_after == met
    assert check.stop == (met is not None and done >= met + extra)
