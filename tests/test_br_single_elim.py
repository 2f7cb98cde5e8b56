"""BR-SE-1 and AMB-B13: a single-elimination bracket seeded by ranking, with double losses."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ledger.errors import RuleError
from ledger.formats.bushiroad.single_elim import (
    advance,
    bracket_size,
    champion,
    round_matches,
    seeded_slots,
    standard_seed_order,
)


def test_standard_seed_order() -> None:
    assert standard_seed_order(1) == (1,)
    assert standard_seed_order(2) == (1, 2)
    assert standard_seed_order(4) == (1, 4, 2, 3)
    assert standard_seed_order(8) == (1, 8, 4, 5, 2, 7, 3, 6)
    with pytest.raises(RuleError, match="power-of-two"):
        standard_seed_order(6)


def test_top_seeds_get_the_byes() -> None:
    slots = seeded_slots([11, 12, 13, 14, 15, 16])          # 6 finalists, bracket of 8
    assert slots == (11, None, 14, 15, 12, None, 13, 16)
    rnd = round_matches(slots)
    assert rnd.matches == ((14, 15), (13, 16))
    assert rnd.walkovers == (11, 12) and rnd.empty == ()


def test_a_bracket_to_its_champion() -> None:
    slots = seeded_slots([1, 2, 3, 4, 5, 6, 7, 8])
    r2 = advance(slots, {(1, 8): 1, (4, 5): 4, (2, 7): 7, (3, 6): 3})
    assert r2 == (1, 4, 7, 3)
    final = advance(r2, {(1, 4): 1, (7, 3): 3})
    assert champion(advance(final, {(1, 3): 3})) == 3


def test_amb_b13_double_loss_lets_the_next_opponent_advance() -> None:
    r2 = advance((1, 4, 2, 3), {(1, 4): None, (2, 3): 2})    # 1 v 4: both lose at time-up
    assert r2 == (None, 2)
    final = round_matches(r2)
    assert final.matches == () and final.walkovers == (2,)
    assert champion(advance(r2, {})) == 2


def test_amb_b13_empty_branch_goes_to_the_organiser() -> None:
    r2 = advance((1, 4, 2, 3), {(1, 4): None, (2, 3): None})
    assert r2 == (None, None)
    assert round_matches(r2).empty == (0,)
    assert champion(advance(r2, {})) is None


def test_refusals() -> None:
    with pytest.raises(RuleError, match="no result"):
        advance((1, 2), {})
    with pytest.raises(RuleError, match="did not play"):
        advance((1, 2), {(1, 2): 3})
    with pytest.raises(RuleError, match="twice"):
        seeded_slots([1, 1])
    with pytest.raises(RuleError, match="do not fit"):
        seeded_slots([1, 2, 3], size=2)
    with pytest.raises(RuleError, match="even number"):
        round_matches([1, 2, 3])
    with pytest.raises(RuleError, match="still has"):
        champion([1, 2])


@given(st.integers(1, 33), st.randoms(use_true_random=False), st.floats(0, 0.3))
def test_bracket_properties(n: int, rng: random.Random, p_double: float) -> None:
    """Every fighter plays at most once per round; the champion, if any, never lost."""
    entries: tuple[int | None, ...] = seeded_slots(list(range(1, n + 1)))
    assert len(entries) == bracket_size(n) and sorted(e for e in entries if e) == list(
        range(1, n + 1))
    if n == 1:
        assert champion(entries) == 1
        return
    losers: set[int] = set()
    while len(entries) > 1:
        rnd = round_matches(entries)
        seated = [f for m in rnd.matches for f in m] + list(rnd.walkovers)
        assert len(seated) == len(set(seated))
        assert not set(seated) & losers
        results: dict[tuple[int, int], int | None] = {}
        for a, b in rnd.matches:
            w = None if rng.random() < p_double else rng.choice((a, b))
            results[(a, b)] = w
            losers.update(x for x in (a, b) if x != w)
        entries = advance(entries, results)
    winner = champion(entries)
    assert winner is None or winner not in losers
