"""BR-SWISS-ROUNDS-1..3 and AMB-B28: the recommended-rounds tables (RULES.md TC-04)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ledger.formats.bushiroad.rounds import ROUND_ROBIN, RoundRange, recommended_swiss_rounds


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
