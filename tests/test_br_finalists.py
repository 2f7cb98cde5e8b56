"""BR-FIN-2..7 and AMB-B15/B16/B34/B35: selecting finalists (RULES.md TC-24)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ledger.errors import RuleError
from ledger.formats.bushiroad.finalists import (
    ChosenBy,
    DrawHandling,
    Exclusion,
    GroupMethod,
    OverflowChoice,
    PendingDraw,
    QualifierRecord,
    remaining_finalists,
    select_by_group,
    select_by_ranking,
)

A, B, C, D, E, F, G, P = (ord(c) for c in "ABCDEFGP")


# ---------------------------------------------------------------- TC-24(a)

def test_tc24a_ranking_with_a_declined_fighter_and_no_refill() -> None:
    ranking = list(range(1, 17))
    sel = select_by_ranking(ranking, 8, {3: Exclusion.DECLINED})
    assert sel.finalists == (1, 2, 4, 5, 6, 7, 8, 9)
    assert sel.skipped == ((3, Exclusion.DECLINED),)
    assert sel.unfilled == 0
    assert all(p.chosen_by is ChosenBy.RANKING for p in sel.picks)
    after = remaining_finalists(sel.finalists, [5])       # 5th-ranked disqualified later
    assert after == (1, 2, 4, 6, 7, 8, 9)
    assert len(after) == 7
    with pytest.raises(RuleError, match="not finalists"):
        remaining_finalists(sel.finalists, [10])


def test_ranking_small_field_leaves_spots_unfilled() -> None:
    sel = select_by_ranking([1, 2, 3], 4, {2: Exclusion.NO_INTENT})
    assert (sel.finalists, sel.unfilled) == ((1, 3), 2)
    with pytest.raises(RuleError, match="twice"):
        select_by_ranking([1, 1], 1)
    with pytest.raises(RuleError, match="≥ 0"):
        select_by_ranking([1], -1)


# ---------------------------------------------------------------- TC-24(b), (c)

def tc24_records(two_loss_fg: bool) -> list[QualifierRecord]:
    fg_losses = 2 if two_loss_fg else 1
    return [QualifierRecord(A, 5, 0, group="T1"), QualifierRecord(B, 5, 0, group="T2"),
            QualifierRecord(C, 4, 1, group="T1"), QualifierRecord(D, 4, 1, group="T3"),
            QualifierRecord(E, 4, 1, group="T2"),
            QualifierRecord(F, 5 - fg_losses, fg_losses, group="T4"),
            QualifierRecord(G, 5 - fg_losses, fg_losses, group="T3")]


RANKING = [A, B, C, D, E, F, G]


def test_tc24b_title_overflow_by_ranking() -> None:
    sel = select_by_group(tc24_records(False), RANKING, 4, method=GroupMethod.TITLE)
    assert set(sel.finalists) == {A, B, D, F}
    assert [(p.fighter, p.step, p.chosen_by) for p in sel.picks] == [
        (A, 1, ChosenBy.ALL), (B, 1, ChosenBy.ALL),
        (D, 2, ChosenBy.RANKING), (F, 2, ChosenBy.RANKING)]
    step2 = sel.steps[1]
    assert (step2.full_win_users, step2.candidates, step2.selected) == (0, (D, F, G), (D, F))
    assert sel.warnings == () and sel.unfilled == 0


def test_tc24c_title_step3() -> None:
    sel = select_by_group(tc24_records(True), RANKING, 4, method=GroupMethod.TITLE)
    assert sel.finalists == (A, B, D, C)
    assert [(s.step, s.candidates, s.selected) for s in sel.steps] == [
        (1, (A, B), (A, B)), (2, (D,), (D,)), (3, (C, E), (C,))]


def test_tc24b_random_overflow_needs_a_recorded_draw() -> None:
    first = select_by_group(tc24_records(False), RANKING, 4, method=GroupMethod.TITLE,
                            overflow=OverflowChoice.RANDOM)
    assert first.pending_draw == PendingDraw(2, (D, F, G), 2)     # pre-ordered by number
    assert first.finalists == (A, B)
    done = select_by_group(tc24_records(False), RANKING, 4, method=GroupMethod.TITLE,
                           overflow=OverflowChoice.RANDOM, draw_orders={2: (G, D, F)})
    assert done.finalists == (A, B, G, D) and done.pending_draw is None
    assert done.picks[-1].chosen_by is ChosenBy.RANDOM
    with pytest.raises(RuleError, match="permutation"):
        select_by_group(tc24_records(False), RANKING, 4, method=GroupMethod.TITLE,
                        overflow=OverflowChoice.RANDOM, draw_orders={2: (G, D)})


# ---------------------------------------------------------------- TC-24(d)

def tc24d_records() -> tuple[list[QualifierRecord], list[int]]:
    recs = [QualifierRecord(A, 5, 0, group="N1"), QualifierRecord(P, 4, 0, 1, group="N2"),
            QualifierRecord(C, 4, 1, group="N1"), QualifierRecord(D, 4, 1, group="N3"),
            QualifierRecord(E, 4, 1, group="N2")]
    return recs, [A, P, C, D, E]


def test_tc24d_literal_draw_handling() -> None:
    recs, ranking = tc24d_records()
    sel = select_by_group(recs, ranking, 4)
    assert set(sel.finalists) == {A, C, D, E}
    assert [(s.step, s.selected) for s in sel.steps] == [(1, (A,)), (2, (D, E)), (3, (C,))]
    assert P not in sel.finalists
    assert len(sel.warnings) == 1 and "AMB-B34" in sel.warnings[0] and str(P) in sel.warnings[0]


def test_tc24d_unbeaten_as_full_win() -> None:
    recs, ranking = tc24d_records()
    sel = select_by_group(recs, ranking, 4, draw_handling=DrawHandling.UNBEATEN_AS_FULL_WIN)
    assert set(sel.finalists) == {A, C, D, P}
    assert [(s.step, s.candidates, s.selected) for s in sel.steps] == [
        (1, (A, P), (A, P)), (2, (D,), (D,)), (3, (C, E), (C,))]
    assert "AMB-B34" in sel.warnings[0]


# ---------------------------------------------------------------- AMB-B35, BR-FIN-2 in steps

def test_amb_b35_excluded_full_win_fighter_counting() -> None:
    """B (T2, full wins) declines: by default T2 counts as unused, so E is a step-2 fighter."""
    recs = tc24_records(True)
    default = select_by_group(recs, RANKING, 3, {B: Exclusion.DECLINED},
                              method=GroupMethod.TITLE)
    assert default.finalists == (A, D, E)
    assert default.skipped == ((B, Exclusion.DECLINED),)
    counted = select_by_group(recs, RANKING, 3, {B: Exclusion.DECLINED},
                              method=GroupMethod.TITLE, count_excluded_full_wins=True)
    assert counted.finalists == (A, D, C)                 # C and E both in step 3: ranking


def test_steps_leave_spots_unfilled_with_a_warning() -> None:
    recs = [QualifierRecord(1, 3, 0, group="X"), QualifierRecord(2, 1, 2, group="X")]
    sel = select_by_group(recs, [1, 2], 4)
    assert sel.finalists == (1,) and sel.unfilled == 3
    assert any("unfilled" in w for w in sel.warnings)


def test_group_selection_refusals() -> None:
    with pytest.raises(RuleError, match="different fighters"):
        select_by_group([QualifierRecord(1, 1, 0, group="X")], [1, 2], 1)
    with pytest.raises(RuleError, match="nation/clan"):
        select_by_group([QualifierRecord(1, 1, 0), QualifierRecord(2, 0, 1, group="X")],
                        [1, 2], 2)
    with pytest.raises(RuleError, match="title"):
        select_by_group([QualifierRecord(1, 1, 0, group="X"), QualifierRecord(2, 0, 1)],
                        [1, 2], 2, method=GroupMethod.TITLE)


def test_step1_overflow_by_ranking() -> None:
    recs = [QualifierRecord(f, 3, 0, group="X") for f in (1, 2, 3)]
    sel = select_by_group(recs, [3, 1, 2], 2)
    assert sel.finalists == (3, 1) and sel.steps[0].chosen_by is ChosenBy.RANKING


@given(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 1), st.sampled_from("XYZ")),
                min_size=1, max_size=12),
       st.integers(0, 8), st.sets(st.integers(0, 11)))
def test_group_selection_properties(rows: list[tuple[int, int, str]], spots: int,
                                    excl: set[int]) -> None:
    """Finalists are distinct, not excluded, at most ``spots``, each with 0 or 1 loss;
    steps never go back (a later step's fighter never outranks the rule), and the
    selection by ranking with the same exclusions is a prefix of the non-excluded field."""
    recs = [QualifierRecord(i, 3 - losses, losses, draws, group=g)
            for i, (losses, draws, g) in enumerate(rows)]
    ranking = [r.fighter for r in recs]
    excluded = {f: Exclusion.DECLINED for f in excl if f < len(recs)}
    sel = select_by_group(recs, ranking, spots, excluded)
    assert len(set(sel.finalists)) == len(sel.finalists) <= spots
    assert not set(sel.finalists) & set(excluded)
    assert sel.unfilled == spots - len(sel.finalists)
    assert [p.step for p in sel.picks] == sorted(p.step for p in sel.picks)
    by = {r.fighter: r for r in recs}
    for p in sel.picks:
        assert by[p.fighter].losses == (0 if p.step == 1 else 1)
    plain = select_by_ranking(ranking, spots, excluded)
    field = [f for f in ranking if f not in excluded]
    assert plain.finalists == tuple(field[:spots])
