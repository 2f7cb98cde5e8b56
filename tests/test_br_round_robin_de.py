"""BR-SWISS-ROUNDS-1 round robin (circle method) and BR-DE-1/2/5, AMB-B9 double elimination."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ledger.errors import RuleError
from ledger.formats.bushiroad.de import EndReason, Status, end_check, status
from ledger.formats.bushiroad.model import History, Outcome, RoundEntry, Withdrawal
from ledger.formats.bushiroad.round_robin import rounds_needed, schedule
from ledger.formats.bushiroad.tiebreak import StandingsKind, rank

W, L, DL = Outcome.WIN, Outcome.LOSS, Outcome.DOUBLE_LOSS


# ---------------------------------------------------------------- round robin

def test_four_fighters_three_rounds() -> None:
    s = schedule([1, 2, 3, 4])
    assert [r.tables for r in s] == [((1, 4), (2, 3)), ((1, 3), (4, 2)), ((1, 2), (3, 4))]
    assert all(r.bye is None for r in s)


def test_three_fighters_one_bye_per_round() -> None:
    s = schedule([10, 20, 30])
    assert len(s) == 3 == rounds_needed(3)
    assert sorted(r.bye for r in s if r.bye is not None) == [10, 20, 30]
    assert [len(r.tables) for r in s] == [1, 1, 1]


def test_two_fighters_and_refusals() -> None:
    assert schedule([5, 9])[0].tables == ((5, 9),)
    with pytest.raises(RuleError, match="at least 2"):
        schedule([1])
    with pytest.raises(RuleError, match="twice"):
        schedule([1, 2, 1])


@given(st.lists(st.integers(1, 10_000), min_size=2, max_size=17, unique=True))
def test_everyone_meets_everyone_exactly_once(order: list[int]) -> None:
    s = schedule(order)
    assert len(s) == rounds_needed(len(order))
    met = [frozenset(t) for r in s for t in r.tables]
    assert sorted(met, key=sorted) == sorted((frozenset(p) for p in combinations(order, 2)),
                                             key=sorted)
    for r in s:
        seated = [f for t in r.tables for f in t] + ([r.bye] if r.bye is not None else [])
        assert sorted(seated) == sorted(order)           # nobody twice, nobody missing
    byes = [r.bye for r in s if r.bye is not None]
    assert len(byes) == (len(order) if len(order) % 2 else 0)
    assert len(set(byes)) == len(byes)
    assert schedule(order) == s                           # deterministic


def test_round_robin_standings_use_swiss_tiebreakers() -> None:
    """BR-SWISS-ROUNDS-1: R_total = rounds of the round robin; 3 fighters, one bye each."""
    s = schedule([1, 2, 3])
    winner = {frozenset((1, 2)): 1, frozenset((1, 3)): 1, frozenset((2, 3)): 2}
    entries: dict[int, list[RoundEntry]] = {1: [], 2: [], 3: []}
    for r in s:
        for a, b in r.tables:
            w = winner[frozenset((a, b))]
            entries[a].append(RoundEntry(r.number, b, W if w == a else L))
            entries[b].append(RoundEntry(r.number, a, W if w == b else L))
        assert r.bye is not None
        entries[r.bye].append(RoundEntry(r.number, None, W))
    ranking = rank([History(f, tuple(e)) for f, e in entries.items()],
                   kind=StandingsKind.SWISS, total_rounds=len(s))
    assert ranking.order() == (1, 2, 3)
    assert [r.points for r in ranking.rows] == [3, 2, 1]


# ---------------------------------------------------------------- double elimination

def h(f: int, results: str, drop: int | None = None, dq: int | None = None) -> History:
    outcomes = {"W": W, "L": L, "X": DL}
    return History(f, tuple(RoundEntry(i, None, outcomes[c]) for i, c in enumerate(results, 1)),
                   drop=None if drop is None else Withdrawal(drop),
                   dq=None if dq is None else Withdrawal(dq))


def test_status_after_each_round() -> None:
    x = h(1, "WLWL")
    assert [status(x, r) for r in range(5)] == [
        Status.UNDEFEATED, Status.UNDEFEATED, Status.ONE_LOSS, Status.ONE_LOSS,
        Status.ELIMINATED]
    assert status(h(2, "WW", drop=2), 1) is Status.UNDEFEATED
    assert status(h(2, "WW", drop=2), 2) is Status.DROPPED
    assert status(h(3, "WL", dq=2), 2) is Status.DISQUALIFIED
    assert status(h(4, "LX"), 2) is Status.ELIMINATED        # a double loss is a loss


def test_amb_b9_one_undefeated_ends_without_cut() -> None:
    field = [h(1, "WW"), h(2, "WL"), h(3, "LW"), h(4, "LL")]
    assert not end_check(field, 1).ended                       # 1 and 2 undefeated
    done = end_check(field, 2)
    assert (done.ended, done.reason, done.champion) == (True, EndReason.ONE_UNDEFEATED, 1)


def test_amb_b9_none_undefeated_continue_until_one_remains() -> None:
    field = [h(1, "WX"), h(2, "WX"), h(3, "LW"), h(4, "LL")]   # last two undefeated double-lose
    after2 = end_check(field, 2)
    assert (after2.ended, after2.undefeated, after2.active) == (False, (), (1, 2, 3))
    field3 = [h(1, "WXW"), h(2, "WXL"), h(3, "LW")]
    assert not end_check(field3, 3).ended                      # 1 and 3 still have one loss
    field4 = [h(1, "WXWW"), h(2, "WXL"), h(3, "LWL")]
    last = end_check(field4, 4)
    assert (last.ended, last.reason, last.champion) == (True, EndReason.ONE_REMAINING, 1)
    gone = end_check([h(1, "WXX"), h(2, "WXX")], 3)
    assert (gone.ended, gone.reason, gone.champion) == (True, EndReason.NONE_REMAINING, None)


def test_br_de_2_cut_stops_below_x() -> None:
    field = [h(f, "W" if f <= 4 else "L") for f in range(1, 9)]
    assert not end_check(field, 1, cut=4).ended                # 4 undefeated, not below 4
    field2 = [h(f, "WW" if f <= 3 else "WL" if f == 4 else "LW") for f in range(1, 9)]
    stop = end_check(field2, 2, cut=4)
    assert (stop.ended, stop.reason, stop.champion) == (True, EndReason.UNDEFEATED_BELOW_CUT,
                                                       None)
    assert stop.undefeated == (1, 2, 3)
    with pytest.raises(RuleError, match="cut size"):
        end_check(field, 1, cut=0)


def test_drops_leave_the_undefeated_count() -> None:
    field = [h(1, "WW"), h(2, "WW", drop=2), h(3, "LL")]
    done = end_check(field, 2)
    assert (done.reason, done.champion) == (EndReason.ONE_UNDEFEATED, 1)


@given(st.lists(st.text(alphabet="WLX", max_size=5), min_size=1, max_size=10),
       st.integers(0, 5), st.one_of(st.none(), st.integers(1, 8)))
def test_end_check_properties(results: list[str], after: int, cut: int | None) -> None:
    field = [h(i, r) for i, r in enumerate(results)]
    out = end_check(field, after, cut)
    assert set(out.undefeated) <= set(out.active)
    for f in out.undefeated:
        assert field[f].losses(upto=after) == 0
    if out.champion is not None:
        assert out.ended and out.champion in out.active and cut is None
    if cut is not None:
        assert out.ended == (len(out.undefeated) < cut)
