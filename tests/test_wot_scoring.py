"""WoT scoring: RULES.md TC-13, TC-14 (classic), TC-15 (2001), TC-16 (both revisions), the
AMB-W3 / AMB-W15 flags, the Judge's ``tbp_overridden`` and the refusal of results whose
fields do not fit their outcome code."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from ledger.errors import RuleError
from ledger.formats.wot.model import Revision, Side, format_tbp, parse_tbp
from ledger.formats.wot.results import WotResult
from ledger.formats.wot.scoring import PlayerScore, TbpOverride, score_game

H, V = Side.HERO, Side.VILLAIN
OLD, NEW = Revision.WOT_OLD, Revision.WOT_2001


def res(table: int, outcome: str, hero: int, villain: int, *, winner: int | None = None,
        lb: bool = True, support: dict[int, int] | None = None,
        pattern: dict[int, int] | None = None, neutral: int | None = None,
        conceded_by: int | None = None) -> WotResult:
    return WotResult(table=table, outcome=outcome, sides={hero: H, villain: V},
                     last_battle=lb, winner=winner, support=support or {},
                     pattern=pattern or {}, neutral=neutral, conceded_by=conceded_by)


def pairs(scores: dict[int, PlayerScore]) -> dict[int, tuple[int, F]]:
    return {p: s.pair for p, s in scores.items()}


# TC-13 players: H1..H7 = 11..17, V1..V7 = 21..27, B8 = 8.
TC13 = [
    res(1, "O1", 11, 21, winner=11, support={11: 7, 21: 3}),
    res(2, "O1", 12, 22, winner=22, support={12: 1, 22: 6}),
    res(3, "O2", 13, 23, winner=13, support={13: 2}),
    res(4, "O4", 14, 24, winner=14, lb=False),
    res(5, "O7", 15, 25, lb=False),
    res(6, "O6", 16, 26, support={16: 3, 26: 4}),
    res(7, "O8", 17, 27),
]


def test_tc13_one_classic_game_all_outcome_types() -> None:
    got = score_game(OLD, TC13, {}, bye=8, bye_side=H)
    assert pairs(got) == {
        11: (2, F(4)), 21: (0, F(-4)), 22: (2, F(5)), 12: (0, F(-5)),
        13: (2, F(2)), 23: (0, F(-2)), 14: (2, F(2)), 24: (-1, F(-2)),
        15: (-1, F(-11, 3)), 25: (-1, F(-11, 3)), 16: (0, F(-4)), 26: (0, F(-3)),
        17: (1, F(0)), 27: (1, F(0)), 8: (2, F(2)),
    }
    # A_side(H4) over Hero {H1: 4, H3: 2}; A_all(H5, V5) over {5, 4, 2}; A_side(B8, Hero).
    assert got[14].inputs == (F(4), F(2), F(0))
    assert got[15].inputs == (F(5), F(4), F(2))
    assert got[8].code == "O9" and got[8].inputs == (F(4), F(2), F(0))
    assert got[8].table is None and got[8].side is H


def test_tc13_bye_counted_as_villain_uses_villain_values() -> None:
    got = score_game(OLD, TC13, {}, bye=8, bye_side=V)
    assert got[8].pair == (2, F(5, 3))          # Villain {V2: 5} → (5 + 0 + 0) / 3


TC14 = [
    res(1, "O1", 11, 21, winner=11, support={11: 8, 21: 2}),
    res(2, "O1", 12, 22, winner=22, support={12: 4, 22: 5}),
    res(3, "O3", 13, 23, winner=13, support={13: 3}, conceded_by=23),
    res(4, "O5", 14, 24, winner=24, lb=False, conceded_by=14),
]


def test_tc14_classic_concessions() -> None:
    assert pairs(score_game(OLD, TC14, {})) == {
        11: (2, F(6)), 21: (0, F(-6)), 22: (2, F(1)), 12: (0, F(-1)),
        13: (2, F(3)), 23: (0, F(-3)), 24: (2, F(1, 3)), 14: (-1, F(-1, 3)),
    }


@pytest.mark.parametrize(("case", "result", "expected"), [
    ("a Q1", res(1, "Q1", 1, 2, winner=1, pattern={1: 7, 2: 5}), {1: (2, 7), 2: (0, 5)}),
    ("b Q1 clamp", res(1, "Q1", 1, 2, winner=1, pattern={1: 17, 2: 1}),
     {1: (2, 16), 2: (0, 1)}),
    ("c Q2 tie", res(1, "Q2", 1, 2, pattern={1: 6, 2: 4}), {1: (1, 6), 2: (1, 4)}),
    ("d Q3 both lose", res(1, "Q3", 1, 2, pattern={1: 3, 2: 5}), {1: (0, 3), 2: (0, 5)}),
    ("e Q4 early kill", res(1, "Q4", 1, 2, winner=1, lb=False, pattern={1: 3, 2: 4},
                            neutral=5), {1: (2, 9), 2: (0, 4)}),
    ("f Q5 concession", res(1, "Q5", 1, 2, winner=1, pattern={1: 6, 2: 5}, neutral=2,
                            conceded_by=2), {1: (2, 11), 2: (0, 0)}),
    ("g Q5 clamp", res(1, "Q5", 1, 2, winner=1, pattern={1: 3, 2: 0}, neutral=0,
                       conceded_by=2), {1: (2, 16), 2: (0, 0)}),
    ("i both killed before the LB", res(1, "Q4", 1, 2, lb=False, pattern={1: 2, 2: 5},
                                        neutral=4), {1: (0, 9), 2: (0, 12)}),
])
def test_tc15_2001_scoring_by_outcome(case: str, result: WotResult,
                                      expected: dict[int, tuple[int, int]]) -> None:
    got = score_game(NEW, [result], {})
    assert pairs(got) == {p: (gp, F(t)) for p, (gp, t) in expected.items()}, case


def test_amb_w4_flag_gives_the_early_kill_loser_zero() -> None:
    early = res(1, "Q4", 1, 2, winner=1, lb=False, pattern={1: 3, 2: 4}, neutral=5)
    got = score_game(NEW, [early], {"wot_early_kill_loser_tbp": "zero"})
    assert pairs(got) == {1: (2, F(9)), 2: (0, F(0))}
    both = res(1, "Q4", 1, 2, lb=False, pattern={1: 2, 2: 5}, neutral=4)
    assert pairs(score_game(NEW, [both], {"wot_early_kill_loser_tbp": "zero"})) == \
        {1: (0, F(9)), 2: (0, F(12))}                      # both-killed case unchanged


def test_tc15h_2001_bye_is_two_gp_and_eight_tbp() -> None:
    got = score_game(NEW, [res(1, "Q1", 1, 2, winner=1, pattern={1: 7, 2: 5})], {},
                     bye=3, bye_side=H)
    assert got[3].pair == (2, F(8)) and got[3].code == "Q6"


def test_tc15_q5_conceder_gets_zero_even_with_pattern() -> None:
    got = score_game(NEW, [res(1, "Q5", 1, 2, winner=2, lb=True, pattern={1: 9, 2: 1},
                               neutral=3, conceded_by=1)], {})
    assert pairs(got) == {1: (0, F(0)), 2: (2, F(6))}   # max(1, 18 - (9 + 3))


def test_tc16_same_outcome_under_both_revisions() -> None:
    # Pre-LB kill at table 1 (killer Hero 1 v Villain 2); another Hero (3) has direct TBP 3.
    other_old = res(2, "O1", 3, 4, winner=3, support={3: 5, 4: 2})
    old = score_game(OLD, [res(1, "O4", 1, 2, winner=1, lb=False), other_old], {})
    assert old[1].pair == (2, F(1)) and old[2].pair == (-1, F(-1))
    new = score_game(NEW, [res(1, "Q4", 1, 2, winner=1, lb=False, pattern={1: 2, 2: 6},
                               neutral=4)], {})
    assert new[1].pair == (2, F(8)) and new[2].pair == (0, F(6))


def test_scoring_is_independent_of_result_order() -> None:
    a = score_game(OLD, TC13, {}, bye=8, bye_side=H)
    b = score_game(OLD, list(reversed(TC13)), {}, bye=8, bye_side=H)
    assert a == b


# --------------------------------------------------------------- AMB-W3: winner value <= 0

def test_amb_w3_formula_default_lets_a_winner_go_negative_and_feed_the_loser() -> None:
    # O1 with S_l > S_w (AMB-W3): winner -2, loser +2; the loser's +2 is a direct positive
    # value and feeds the Villain average of an early kill at another table.
    games = [res(1, "O1", 1, 2, winner=1, support={1: 5, 2: 7}),
             res(2, "O4", 3, 4, winner=4, lb=False)]
    got = score_game(OLD, games, {})
    assert pairs(got) == {1: (2, F(-2)), 2: (0, F(2)), 4: (2, F(2, 3)), 3: (-1, F(-2, 3))}
    clamped = score_game(OLD, games, {"wot_classic_tbp_sign": "clamp_to_sign"})
    assert pairs(clamped) == {1: (2, F(0)), 2: (0, F(0)), 4: (2, F(0)), 3: (-1, F(0))}


def test_amb_w3_o2_with_zero_support_is_zero_both_ways() -> None:
    got = score_game(OLD, [res(1, "O2", 1, 2, winner=2, support={2: 0})], {})
    assert pairs(got) == {1: (0, F(0)), 2: (2, F(0))}


# --------------------------------------------------------------- tbp_overridden

def ov(number: int, table: int, old: F, new: F, round_: int = 1) -> TbpOverride:
    return TbpOverride(round=round_, table=table, number=number, old=old, new=new,
                       method="review of the game state at the concession",
                       reason="conceded to lower the opponent's TBP")


def test_override_replaces_only_that_players_tbp_by_default_amb_w15() -> None:
    # TC-14 with the Judge raising H3's O3 value from 3 to 7 (WOTOLD-FORF-2).  H3 is a Hero
    # direct input; a Hero bye (A_side) does not move under the default flag.
    before = score_game(OLD, TC14, {}, bye=9, bye_side=H)
    after = score_game(OLD, TC14, {}, bye=9, bye_side=H, overrides=[ov(13, 3, F(3), F(7))],
                       round_no=1)
    assert after[13].tbp == F(7) and after[13].derived_tbp == F(3)
    assert after[13].overrides[0].new == F(7)
    assert {p: s for p, s in pairs(after).items() if p != 13} == \
        {p: s for p, s in pairs(before).items() if p != 13}
    assert before[9].tbp == F(6 + 3, 3)                   # Hero {H1: 6, H3: 3}
    flagged = score_game(OLD, TC14, {"wot_override_in_averages": True}, bye=9, bye_side=H,
                         overrides=[ov(13, 3, F(3), F(7))])
    assert flagged[9].tbp == F(7 + 6, 3)
    assert flagged[23].tbp == F(-3)                       # the conceder's value is derived


def test_override_of_an_early_concession_winner_and_a_chain_of_overrides() -> None:
    got = score_game(OLD, TC14, {}, overrides=[ov(24, 4, F(1, 3), F(2)), ov(24, 4, F(2), F(1))])
    assert got[24].tbp == F(1) and got[24].derived_tbp == F(1, 3)
    assert got[14].tbp == F(-1, 3)
    assert len(got[24].overrides) == 2


@pytest.mark.parametrize(("override", "rule"), [
    (ov(13, 3, F(2), F(7)), "WOTOLD-FORF-2"),          # stale old value
    (ov(11, 1, F(6), F(7)), "WOTOLD-FORF-2"),          # opponent did not concede
    (ov(23, 3, F(-3), F(0)), "WOTOLD-FORF-2"),         # the conceder himself
    (ov(13, 4, F(3), F(7)), "WOTOLD-FORF-2"),          # wrong table
    (ov(13, 3, F(3), F(7), round_=2), "WOTOLD-FORF-2"),  # wrong Game
    (TbpOverride(round=1, table=3, number=13, old=F(3), new=F(7), method=" ", reason="x"),
     "WOTOLD-FORF-2"),
])
def test_invalid_overrides_are_refused(override: TbpOverride, rule: str) -> None:
    with pytest.raises(RuleError) as err:
        score_game(OLD, TC14, {}, overrides=[override], round_no=1)
    assert err.value.rule == rule


def test_2001_override_stays_within_the_clamp() -> None:
    game = [res(1, "Q5", 1, 2, winner=1, pattern={1: 6, 2: 5}, neutral=2, conceded_by=2)]
    assert score_game(NEW, game, {}, overrides=[ov(1, 1, F(11), F(14))])[1].tbp == F(14)
    with pytest.raises(RuleError) as err:
        score_game(NEW, game, {}, overrides=[ov(1, 1, F(11), F(17))])
    assert err.value.rule == "WOT01-SCORE-7"


# --------------------------------------------------------------- refusals

@pytest.mark.parametrize(("revision", "result", "rule"), [
    (OLD, res(1, "O9", 1, 2, winner=1), "WOTOLD-SCORE-5"),             # bye code in a result
    (NEW, res(1, "Q6", 1, 2, winner=1), "WOT01-SCORE-10"),
    (NEW, res(1, "O1", 1, 2, winner=1, support={1: 5, 2: 0}), "WOT01-SCORE-10"),
    (OLD, res(1, "O1", 1, 2, support={1: 5, 2: 0}), "WOTOLD-SCORE-5"),  # no winner
    (OLD, res(1, "O1", 1, 2, winner=3, support={1: 5, 2: 0}), "WOTOLD-SCORE-5"),
    (OLD, res(1, "O1", 1, 2, winner=1, support={1: 4, 2: 0}), "WOTOLD-SCORE-3"),  # < 5
    (OLD, res(1, "O1", 1, 2, winner=1, support={1: 5}), "WOTOLD-SCORE-5"),  # loser's S missing
    (OLD, res(1, "O2", 1, 2, winner=1, support={1: 5, 2: 1}), "WOTOLD-SCORE-5"),  # extra S
    (OLD, res(1, "O2", 1, 2, winner=1, support={1: -1}), "WOTOLD-SCORE-5"),
    (OLD, res(1, "O4", 1, 2, winner=1, lb=True), "WOTOLD-SCORE-5"),     # phase mismatch
    (OLD, res(1, "O6", 1, 2, lb=False, support={1: 1, 2: 1}), "WOTOLD-SCORE-5"),
    (OLD, res(1, "O7", 1, 2, winner=1, lb=False), "WOTOLD-SCORE-5"),    # winner on double loss
    (OLD, res(1, "O3", 1, 2, winner=1, support={1: 3}), "WOTOLD-SCORE-5"),  # no conceded_by
    (OLD, res(1, "O3", 1, 2, winner=1, support={1: 3}, conceded_by=1), "WOTOLD-SCORE-5"),
    (OLD, res(1, "O1", 1, 2, winner=1, support={1: 5, 2: 0}, conceded_by=2),
     "WOTOLD-SCORE-5"),
    (OLD, res(1, "O8", 1, 2, pattern={1: 1, 2: 1}), "WOTOLD-SCORE-5"),
    (NEW, res(1, "Q1", 1, 2, winner=1, pattern={1: 1}), "WOT01-SCORE-10"),
    (NEW, res(1, "Q1", 1, 2, winner=1, pattern={1: 1, 2: 1}, support={1: 5, 2: 0}),
     "WOT01-SCORE-10"),
    (NEW, res(1, "Q1", 1, 2, winner=1, pattern={1: 1, 2: 2}, neutral=1), "WOT01-SCORE-10"),
    (NEW, res(1, "Q4", 1, 2, winner=1, lb=False, pattern={1: 1, 2: 2}), "WOT01-SCORE-10"),
    (NEW, res(1, "Q2", 1, 2, lb=False, pattern={1: 1, 2: 2}), "WOT01-SCORE-10"),
    (NEW, res(1, "Q5", 1, 2, winner=1, pattern={1: 1, 2: 2}, neutral=-1, conceded_by=2),
     "WOT01-SCORE-10"),
])
def test_inconsistent_results_are_refused(revision: Revision, result: WotResult,
                                          rule: str) -> None:
    with pytest.raises(RuleError) as err:
        score_game(revision, [result], {})
    assert err.value.rule == rule
    assert f"[{rule}]" in err.value.cli_message()


def test_sides_must_be_one_hero_one_villain_and_equal_the_pairing() -> None:
    bad = WotResult(table=1, outcome="O8", sides={1: H, 2: H}, last_battle=True)
    with pytest.raises(RuleError, match="one hero and one villain"):
        score_game(OLD, [bad], {})
    good = res(1, "O8", 1, 2)
    with pytest.raises(RuleError, match="pairing seated them as villain"):
        score_game(OLD, [good], {}, sides={1: V, 2: H})
    assert score_game(OLD, [good], {}, sides={1: H, 2: V})[1].pair == (1, F(0))


def test_a_player_twice_a_table_twice_or_a_bye_without_side_is_refused() -> None:
    with pytest.raises(RuleError, match="plays twice"):
        score_game(OLD, [res(1, "O8", 1, 2), res(2, "O8", 1, 3)], {})
    with pytest.raises(RuleError, match="two results"):
        score_game(OLD, [res(1, "O8", 1, 2), res(1, "O8", 3, 4)], {})
    with pytest.raises(RuleError, match="plays twice"):
        score_game(OLD, [res(1, "O8", 1, 2)], {}, bye=2, bye_side=H)
    with pytest.raises(RuleError) as err:
        score_game(OLD, [res(1, "O8", 1, 2)], {}, bye=3)
    assert err.value.rule == "WOTOLD-BYE-7"
    with pytest.raises(RuleError, match="also seated"):
        score_game(OLD, [], {}, bye=2, bye_side=H, sides={1: H, 2: V})


def test_unknown_or_wrong_revision_parameters_are_refused() -> None:
    with pytest.raises(RuleError, match="no parameter"):
        score_game(NEW, [], {"wot_classic_tbp_sign": "formula"})
    with pytest.raises(RuleError, match="not allowed"):
        score_game(OLD, [], {"wot_classic_tbp_sign": "clamp"})


def test_tbp_text_round_trips_exactly() -> None:
    for v in (F(-11, 3), F(0), F(4), F(1, 3), F(-2)):
        assert parse_tbp(format_tbp(v)) == v
    assert format_tbp(F(-11, 3)) == "-11/3" and format_tbp(F(8)) == "8"
    for bad in ("1.5", "+1", "2/4", "3/1", " 1", "-0", "1/0", "x"):
        with pytest.raises(ValueError):
            parse_tbp(bad)
