"""BR-SE-1 and AMB-B13 on the shared match layer's bracket: seeding by ranking (top seeds
take the byes) and advancing when both fighters of a match lose at time-up."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from ledger.formats.match.apply import next_entries
from ledger.formats.match.bracket import bracket_tables, ranked_order
from ledger.formats.match.model import (
    Outcome,
    Phase,
    ResultState,
    RoundState,
    TableState,
)


def closed_round(results: dict[tuple[int, int], int | None]) -> RoundState:
    """A bracket round whose tables carry the given winners (None = both lost, AMB-B13)."""
    tables = [TableState(table=i, players=[a, b], groups=[0, 0], result=ResultState(
        seq=i, winner=w, losers=[x for x in (a, b) if x != w], loss_reasons=[],
        outcome=Outcome.WIN if w is not None else Outcome.DOUBLE_LOSS))
        for i, ((a, b), w) in enumerate(results.items(), start=1)]
    return RoundState(number=1, phase=Phase.TOP_CUT, paired_seq=0, tables=tables)


def test_ranked_order_standard_seeding_and_byes() -> None:
    assert ranked_order([1, 2, 3, 4, 5, 6, 7, 8], 8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert ranked_order([11, 12, 13, 14, 15, 16], 8) == [11, None, 14, 15, 12, None, 13, 16]
    matches, advances = bracket_tables(ranked_order([11, 12, 13, 14, 15, 16], 8))
    assert matches == [[14, 15], [13, 16]] and advances == [11, 12]


def test_amb_b13_double_loss_next_opponent_advances() -> None:
    entries: list[int | None] = [1, 4, 2, 3]
    after = next_entries(entries, closed_round({(1, 4): None, (2, 3): 2}))
    assert after == [None, 2]
    matches, advances = bracket_tables(after)
    assert matches == [] and advances == [2]            # 2 reaches the title unplayed


def test_amb_b13_empty_branch() -> None:
    after = next_entries([1, 4, 2, 3], closed_round({(1, 4): None, (2, 3): None}))
    assert after == [None, None]
    assert bracket_tables(after) == ([], [])            # nobody left: the organiser decides


@given(st.integers(2, 33), st.randoms(use_true_random=False), st.floats(0, 0.4))
def test_bracket_runs_to_at_most_one_unbeaten_champion(n: int, rng: random.Random,
                                                       p_double: float) -> None:
    size = 1
    while size < n:
        size *= 2
    entries: list[int | None] = ranked_order(list(range(1, n + 1)), size)
    assert sorted(e for e in entries if e is not None) == list(range(1, n + 1))
    losers: set[int] = set()
    while len(entries) > 1:
        matches, advances = bracket_tables(entries)
        seated = [f for m in matches for f in m] + advances
        assert len(seated) == len(set(seated)) and not set(seated) & losers
        results: dict[tuple[int, int], int | None] = {}
        for a, b in matches:
            w = None if rng.random() < p_double else rng.choice((a, b))
            results[(a, b)] = w
            losers.update(x for x in (a, b) if x != w)
        entries = next_entries(entries, closed_round(results))
    assert entries[0] is None or entries[0] not in losers
