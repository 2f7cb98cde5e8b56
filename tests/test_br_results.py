"""BR-MATCH, BR-SWISS-5, BR-DE-6, BR-SE-2..4, AMB-B8/B13/B14/B32: one match's result (TC-05b,
TC-26), and Annex A (BR-ANNEXA-*, TC-26 b/c)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ledger.errors import RuleError
from ledger.formats.bushiroad.annex_a import (
    Checkpoint,
    Criterion,
    Game,
    Values,
    compare,
    decide_game,
)
from ledger.formats.bushiroad.model import Outcome
from ledger.formats.bushiroad.results import (
    Ending,
    Games,
    MatchFormat,
    SeEqualGames,
    Stage,
    TimeoutPolicy,
    bye_result,
    decide_match,
    simultaneous_loss,
)
from ledger.formats.match.model import DecidedBy

A, B = 1, 2
BO1, BO3 = MatchFormat.BO1, MatchFormat.BO3


# ---------------------------------------------------------------- played out

@pytest.mark.parametrize("stage", list(Stage))
def test_bo3_two_game_wins_decide(stage: Stage) -> None:
    r = decide_match(stage, BO3, A, B, Games(1, 2))
    assert (r.winner, r.losers, r.draw, r.decided_by) == (B, (A,), False, DecidedBy.PLAYED)
    assert r.games.as_wire() == [1, 2, 0]
    assert r.outcome_for(A) is Outcome.LOSS and r.outcome_for(B) is Outcome.WIN


def test_drawn_bo1_game_outside_se_amb_b14() -> None:
    """A simultaneous loss outside SE draws the game; game wins are then equal."""
    assert simultaneous_loss(Stage.SWISS, A, B) is None
    assert simultaneous_loss(Stage.DOUBLE_ELIM, A, B) is None
    swiss = decide_match(Stage.SWISS, BO1, A, B, Games(0, 0, 1))
    assert swiss.draw and swiss.winner is None and swiss.losers == ()
    assert swiss.outcome_for(A) is Outcome.DRAW
    de = decide_match(Stage.DOUBLE_ELIM, BO1, A, B, Games(0, 0, 1))
    assert (de.draw, de.losers, de.decided_by) == (False, (A, B), DecidedBy.DOUBLE_LOSS)
    assert de.outcome_for(B) is Outcome.DOUBLE_LOSS


def test_tc26a_simultaneous_loss_in_se() -> None:
    """T's turn, both meet a losing condition: N (the non-turn fighter) wins (BR-SE-2)."""
    t, n = 7, 8
    assert simultaneous_loss(Stage.SINGLE_ELIM, t, n) == n
    r = decide_match(Stage.SINGLE_ELIM, BO1, t, n, Games(0, 1))
    assert r.winner == n and r.losers == (t,)


def test_se_played_with_equal_games_needs_extra_game() -> None:
    with pytest.raises(RuleError, match="extra game"):
        decide_match(Stage.SINGLE_ELIM, BO1, A, B, Games(0, 0, 1))


# ---------------------------------------------------------------- time-up (BR-SWISS-5, AMB-B32)

def test_swiss_bo3_time_up_more_game_wins_takes_match() -> None:
    r = decide_match(Stage.SWISS, BO3, A, B, Games(1, 0, 1), Ending.TIMEOUT)
    assert (r.winner, r.decided_by, r.draw) == (A, DecidedBy.TIMEOUT, False)


def test_swiss_time_up_equal_games_is_a_draw_worth_zero() -> None:
    r = decide_match(Stage.SWISS, BO3, A, B, Games(1, 1, 1), Ending.TIMEOUT)
    assert r.draw and r.winner is None and r.losers == ()
    assert r.decided_by is DecidedBy.TIMEOUT
    rr = decide_match(Stage.ROUND_ROBIN, BO1, A, B, Games(0, 0, 1), Ending.TIMEOUT)
    assert rr.draw


def test_tc05b_de_bo3_time_up() -> None:
    lead = decide_match(Stage.DOUBLE_ELIM, BO3, A, B, Games(1, 0, 1), Ending.TIMEOUT)
    assert (lead.winner, lead.losers, lead.games.as_wire()) == (A, (B,), [1, 0, 1])
    tied = decide_match(Stage.DOUBLE_ELIM, BO3, A, B, Games(1, 1, 1), Ending.TIMEOUT)
    assert (tied.winner, tied.losers, tied.draw) == (None, (A, B), False)
    assert tied.decided_by is DecidedBy.DOUBLE_LOSS


def test_tc26d_se_time_up_without_annex_a_both_lose_and_warn() -> None:
    r = decide_match(Stage.SINGLE_ELIM, BO1, A, B, Games(0, 0, 1), Ending.TIMEOUT)
    assert (r.winner, r.losers, r.decided_by) == (None, (A, B), DecidedBy.DOUBLE_LOSS)
    assert r.warnings and "AMB-B13" in r.warnings[0]
    quiet = decide_match(Stage.SINGLE_ELIM, BO1, A, B, Games(0, 0, 1), Ending.TIMEOUT,
                         annex_a_announced=True)
    assert quiet.warnings == ()


def test_tc26d_extra_game_alternative() -> None:
    with pytest.raises(RuleError, match="extra_game plays one further game"):
        decide_match(Stage.SINGLE_ELIM, BO1, A, B, Games(0, 0, 1), Ending.TIMEOUT,
                     se_equal_games=SeEqualGames.EXTRA_GAME)
    r = decide_match(Stage.SINGLE_ELIM, BO1, A, B, Games(0, 1, 1), Ending.EXTRA_GAME,
                     se_equal_games=SeEqualGames.EXTRA_GAME)
    assert (r.winner, r.losers, r.decided_by) == (B, (A,), DecidedBy.PLAYED)
    with pytest.raises(RuleError, match="must decide"):
        decide_match(Stage.SINGLE_ELIM, BO3, A, B, Games(1, 1, 2), Ending.EXTRA_GAME,
                     se_equal_games=SeEqualGames.EXTRA_GAME)
    with pytest.raises(RuleError, match="only in single elimination"):
        decide_match(Stage.SWISS, BO1, A, B, Games(0, 1, 1), Ending.EXTRA_GAME,
                     se_equal_games=SeEqualGames.EXTRA_GAME)
    with pytest.raises(RuleError, match="only in single elimination"):
        decide_match(Stage.SINGLE_ELIM, BO1, A, B, Games(0, 1, 1), Ending.EXTRA_GAME)


def test_se_time_up_with_a_game_lead_has_a_winner() -> None:
    r = decide_match(Stage.SINGLE_ELIM, BO3, A, B, Games(0, 1, 1), Ending.TIMEOUT)
    assert (r.winner, r.decided_by) == (B, DecidedBy.TIMEOUT)


def test_policy_override_and_refusal() -> None:
    r = decide_match(Stage.SWISS, BO1, A, B, Games(0, 0, 1), Ending.TIMEOUT,
                     policy=TimeoutPolicy.GAME_WINS_THEN_DOUBLE_LOSS)
    assert r.losers == (A, B)
    with pytest.raises(RuleError, match="no drawn"):
        decide_match(Stage.DOUBLE_ELIM, BO1, A, B, Games(1, 0), policy=TimeoutPolicy.DRAW)


# ---------------------------------------------------------------- Annex A as a match ending

def test_annex_a_decides_the_unfinished_game() -> None:
    r = decide_match(Stage.SINGLE_ELIM, BO1, A, B, Games(0, 1), Ending.ANNEX_A,
                     annex_a_announced=True)
    assert (r.winner, r.decided_by) == (B, DecidedBy.ANNEX_A)
    even = decide_match(Stage.SWISS, BO3, A, B, Games(1, 1), Ending.ANNEX_A,
                        annex_a_announced=True)
    assert even.draw and even.decided_by is DecidedBy.TIMEOUT
    with pytest.raises(RuleError, match="announced"):
        decide_match(Stage.SWISS, BO1, A, B, Games(0, 1), Ending.ANNEX_A)
    with pytest.raises(RuleError, match="at least that game"):
        decide_match(Stage.SWISS, BO3, A, B, Games(0, 0, 1), Ending.ANNEX_A,
                     annex_a_announced=True)


# ---------------------------------------------------------------- named losers

def test_concession_penalty_drop() -> None:
    c = decide_match(Stage.SWISS, BO3, A, B, Games(1, 0), Ending.CONCESSION, losers=[A])
    assert (c.winner, c.losers, c.decided_by) == (B, (A,), DecidedBy.CONCESSION)
    p = decide_match(Stage.DOUBLE_ELIM, BO3, A, B, Games(0, 0), Ending.PENALTY, losers=[B])
    assert (p.winner, p.decided_by) == (A, DecidedBy.PENALTY)
    d = decide_match(Stage.SWISS, BO1, A, B, Games(0, 0), Ending.DROP, losers=[B, A])
    assert (d.winner, d.losers, d.decided_by) == (None, (A, B), DecidedBy.DROP)
    assert d.outcome_for(A) is Outcome.DOUBLE_LOSS
    with pytest.raises(RuleError, match="conceding|losing"):
        decide_match(Stage.SWISS, BO1, A, B, Games(0, 0), Ending.CONCESSION, losers=[A, B])
    with pytest.raises(RuleError, match="losing"):
        decide_match(Stage.SWISS, BO1, A, B, Games(0, 0), Ending.DROP, losers=[3])
    with pytest.raises(RuleError, match="not by a named loser"):
        decide_match(Stage.SWISS, BO1, A, B, Games(1, 0), losers=[B])


def test_bye_results() -> None:
    bye = bye_result(5)
    assert (bye.winner, bye.decided_by, bye.outcome_for(5)) == (5, DecidedBy.BYE, Outcome.WIN)
    lom = bye_result(5, loss_of_match=True)
    assert (lom.winner, lom.losers, lom.decided_by) == (None, (5,), DecidedBy.PENALTY)
    assert lom.outcome_for(5) is Outcome.LOSS          # a bye entry is a win or a loss


@pytest.mark.parametrize(("fmt", "games", "ending"), [
    (BO3, Games(3, 0), Ending.PLAYED),
    (BO3, Games(1, 0), Ending.PLAYED),
    (BO1, Games(1, 1), Ending.PLAYED),
    (BO1, Games(0, 0, 0), Ending.TIMEOUT),
    (BO3, Games(2, 0), Ending.TIMEOUT),
    (BO3, Games(-1, 2), Ending.PLAYED),
])
def test_impossible_scores_are_refused(fmt: MatchFormat, games: Games, ending: Ending) -> None:
    with pytest.raises(RuleError):
        decide_match(Stage.SWISS, fmt, A, B, games, ending)


def test_same_fighter_twice_and_foreign_fighter() -> None:
    with pytest.raises(RuleError, match="two different"):
        decide_match(Stage.SWISS, BO1, A, A, Games(1, 0))
    with pytest.raises(RuleError, match="did not play"):
        decide_match(Stage.SWISS, BO1, A, B, Games(1, 0)).outcome_for(3)


@given(stage=st.sampled_from(list(Stage)), fmt=st.sampled_from(list(MatchFormat)),
       a=st.integers(0, 2), b=st.integers(0, 2), d=st.integers(0, 2),
       ending=st.sampled_from([Ending.PLAYED, Ending.TIMEOUT, Ending.ANNEX_A]),
       se=st.sampled_from(list(SeEqualGames)))
def test_result_invariants(stage: Stage, fmt: MatchFormat, a: int, b: int, d: int,
                           ending: Ending, se: SeEqualGames) -> None:
    """Whatever is accepted is coherent: one winner with one loser, or a draw (Swiss/RR
    only) with no loser, or a double loss; the match winner has more game wins."""
    try:
        r = decide_match(stage, fmt, A, B, Games(a, b, d), ending, se_equal_games=se,
                         annex_a_announced=True)
    except RuleError:
        return
    if r.winner is not None:
        assert len(r.losers) == 1 and r.winner not in r.losers and not r.draw
        assert (a > b) == (r.winner == A)
    elif r.draw:
        assert r.losers == () and stage in (Stage.SWISS, Stage.ROUND_ROBIN) and a == b
    else:
        assert r.losers == (A, B) and r.decided_by is DecidedBy.DOUBLE_LOSS and a == b
    assert {r.outcome_for(A), r.outcome_for(B)} in (
        {Outcome.WIN, Outcome.LOSS}, {Outcome.DRAW}, {Outcome.DOUBLE_LOSS})


# ---------------------------------------------------------------- Annex A (BR-ANNEXA-*)

def test_tc26b_ws_equal_level_more_clock_loses() -> None:
    c = compare(Game.WS, A, B, Values(level=2, clock=3), Values(level=2, clock=5))
    assert c.loser == B and c.result == "loser"
    assert c.criterion is Criterion.WS_CLOCK
    assert [(x.criterion, x.a, x.b) for x in c.compared] == [
        (Criterion.WS_LEVEL, 2, 2), (Criterion.WS_CLOCK, 3, 5)]


def test_tc26c_ws_higher_level_loses() -> None:
    c = compare(Game.WS, A, B, Values(level=3, clock=0), Values(level=2, clock=6))
    assert c.loser == A and c.criterion is Criterion.WS_LEVEL
    assert len(c.compared) == 1            # clock is not looked at


def test_ws_all_equal_continues_to_a_later_check_timing() -> None:
    d = decide_game(Game.WS, A, B, [(Values(level=1, clock=2), Values(level=1, clock=2)),
                                    (Values(level=1, clock=3), Values(level=1, clock=2))])
    assert [c.checkpoint for c in d.comparisons] == [Checkpoint.TIME_UP,
                                                     Checkpoint.CHECK_TIMING]
    assert d.comparisons[0].result == "continue"
    assert (d.loser, d.winner) == (A, B)


def test_vg_more_damage_loses_then_end_of_turn() -> None:
    assert compare(Game.VG, A, B, Values(damage=5), Values(damage=4)).loser == A
    d = decide_game(Game.VG, A, B, [(Values(damage=3), Values(damage=3)),
                                    (Values(damage=4), Values(damage=4)),
                                    (Values(damage=4), Values(damage=5))])
    assert d.loser == B and d.comparisons[-1].checkpoint is Checkpoint.END_OF_TURN
    assert d.comparisons[-1].compared[0].criterion is Criterion.VG_DAMAGE


def test_bf_less_life_loses() -> None:
    assert compare(Game.BF, A, B, Values(life=3), Values(life=5)).loser == A
    still = decide_game(Game.BF, A, B, [(Values(life=4), Values(life=4))])
    assert still.loser is None and still.winner is None
    assert still.comparisons[0].result == "continue"


def test_annex_a_refusals() -> None:
    with pytest.raises(RuleError, match="ws_clock"):
        compare(Game.WS, A, B, Values(level=1), Values(level=1))
    with pytest.raises(RuleError, match="negative"):
        compare(Game.VG, A, B, Values(damage=-1), Values(damage=0))
    with pytest.raises(RuleError, match="later checkpoint"):
        decide_game(Game.BF, A, B, [(Values(life=1), Values(life=2)),
                                    (Values(life=1), Values(life=1))])
    with pytest.raises(RuleError, match="time-up"):
        decide_game(Game.VG, A, B, [])
    with pytest.raises(RuleError, match="two different"):
        compare(Game.VG, A, A, Values(damage=1), Values(damage=2))


@given(game=st.sampled_from(list(Game)), x=st.integers(0, 7), y=st.integers(0, 7),
       cx=st.integers(0, 7), cy=st.integers(0, 7))
def test_annex_a_is_antisymmetric(game: Game, x: int, y: int, cx: int, cy: int) -> None:
    """Swapping the fighters swaps nothing but the names: the same fighter loses."""
    va = Values(damage=x, level=x, clock=cx, life=x)
    vb = Values(damage=y, level=y, clock=cy, life=y)
    one = compare(game, A, B, va, vb)
    two = compare(game, B, A, vb, va)
    assert one.loser == two.loser
    assert (one.loser is None) == all(c.a == c.b for c in one.compared)
