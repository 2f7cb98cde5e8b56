"""WoT final ranking (TC-19, WOTOLD-RANK-1/2, WOT01-RANK-1, AMB-W11/W12), forfeiture
(WOTOLD-FORF-1, AMB-W10) and the parameter sets of both revisions (RULES.md §8)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from ledger.errors import RuleError
from ledger.formats.wot.model import Revision, Side
from ledger.formats.wot.pairing import pair_game
from ledger.formats.wot.params import (
    PARAMS,
    IntRange,
    check_params,
    resolve_params,
    total_games,
)
from ledger.formats.wot.ranking import final_ranking, next_entrants, totals
from ledger.formats.wot.results import WotResult
from ledger.formats.wot.scoring import score_game
from ledger.formats.wot.seating import seat_first_game

H, V = Side.HERO, Side.VILLAIN
OLD, NEW = Revision.WOT_OLD, Revision.WOT_2001


def test_tc19_final_ranking_with_shared_places() -> None:
    t, p, q, r, s = 20, 16, 17, 18, 19
    scores = {t: (9, F(-2)), p: (8, F(20)), q: (8, F(20)), r: (8, F(15)), s: (6, F(30))}
    got = [(x.place, x.number) for x in final_ranking(scores)]
    assert got == [(1, t), (2, p), (2, q), (4, r), (5, s)]


def test_ranking_with_negative_gp_and_exact_fractions_amb_w11() -> None:
    scores = {1: (-1, F(-11, 3)), 2: (-1, F(-10, 3)), 3: (0, F(-100)), 4: (-1, F(-11, 3))}
    got = [(x.place, x.number) for x in final_ranking(scores)]
    assert got == [(1, 3), (2, 2), (3, 1), (3, 4)]


def game(revision: Revision) -> tuple[list[WotResult], dict[int, Side]]:
    g1 = seat_first_game(revision, [1, 2, 3, 4, 5])   # 1 H v 2 V, 3 H v 4 V, bye 5 (Hero)
    if revision is OLD:
        rs = [WotResult(table=1, outcome="O1", sides={1: H, 2: V}, last_battle=True,
                        winner=1, support={1: 6, 2: 1}),
              WotResult(table=2, outcome="O5", sides={3: H, 4: V}, last_battle=False,
                        winner=3, conceded_by=4)]
    else:
        rs = [WotResult(table=1, outcome="Q1", sides={1: H, 2: V}, last_battle=True,
                        winner=1, pattern={1: 6, 2: 1}),
              WotResult(table=2, outcome="Q5", sides={3: H, 4: V}, last_battle=False,
                        winner=3, pattern={3: 2, 4: 4}, neutral=3, conceded_by=4)]
    return rs, g1.sides


@pytest.mark.parametrize("revision", [OLD, NEW])
def test_forfeiture_removes_the_player_and_opponents_keep_their_points(
        revision: Revision) -> None:
    # Player 4 concedes and is declared forfeit in Game 1 (AMB-W18): removed, all points
    # lost; player 3 keeps the concession win; nobody else's Game 1 score changes.
    g1 = seat_first_game(revision, [1, 2, 3, 4, 5])
    rs, sides = game(revision)
    s1 = score_game(revision, rs, {}, bye=g1.bye, bye_side=g1.bye_side, sides=sides)
    kept = totals([s1], removed={4})
    assert 4 not in kept and kept[3] == s1[3].pair and kept[1] == s1[1].pair
    assert [x.number for x in final_ranking(kept)] == sorted(kept, key=lambda p: (
        -kept[p][0], -kept[p][1], p))
    assert 4 not in {x.number for x in final_ranking(totals([s1]), removed={4})}
    ents = next_entrants([g1], [s1], removed={4})
    assert [e.number for e in ents] == [1, 2, 3, 5]
    assert {e.number: e.last_side for e in ents} == {1: H, 2: V, 3: H, 5: H}
    assert {e.number: e.byes for e in ents} == {1: 0, 2: 0, 3: 0, 5: 1}
    # Piles now Hero {1, 3, 5} v Villain {2}: even field, the surplus Heroes meet.
    g2 = pair_game(revision, 2, ents, g1.tables, tie_order=[1, 2, 3, 5])
    assert g2.bye is None and len(g2.tables) == 2 and len(g2.deck_repeats) == 1


def test_next_entrants_needs_every_game_scored() -> None:
    g1 = seat_first_game(OLD, [1, 2])
    with pytest.raises(RuleError):
        next_entrants([g1], [])
    with pytest.raises(RuleError):
        next_entrants([], [])


# --------------------------------------------------------------- parameters (RULES.md §8)

def test_defaults_and_allowed_values_per_revision() -> None:
    old, new = resolve_params(OLD, {}), resolve_params(NEW, {})
    assert old == {"rules": "WOT_OLD", "wot_format": "constructed", "wot_game_minutes": 60,
                   "wot_cycles": 2, "wot_final_turn_call_minutes": 15,
                   "wot_classic_tbp_sign": "formula", "wot_override_in_averages": False}
    assert new == {"rules": "WOT_2001", "wot_format": "constructed", "wot_game_minutes": 60,
                   "wot_cycles": 2, "wot_final_turn_call_minutes": 15,
                   "wot_cycles_starting_characters_allowed": False,
                   "wot_early_kill_loser_tbp": "pattern"}
    assert total_games(new) == 4 and total_games({**old, "wot_cycles": 3}) == 6
    assert PARAMS[NEW]["wot_final_turn_call_minutes"][1] == IntRange(5, 15)      # AMB-W6
    assert PARAMS[OLD]["wot_final_turn_call_minutes"][1] == IntRange(15, 15)
    assert resolve_params(NEW, {"wot_format": "aiel_wars", "wot_final_turn_call_minutes": 5,
                                "wot_game_minutes": 75, "wot_cycles": 1})["wot_cycles"] == 1
    assert resolve_params(NEW, {"wot_format": "sealed",
                                "wot_cycles_starting_characters_allowed": True})
    check_params(OLD, old)


@pytest.mark.parametrize(("revision", "given", "rule"), [
    (OLD, {"wot_format": "aiel_wars"}, "RULES-8"),
    (OLD, {"wot_final_turn_call_minutes": 10}, "RULES-8"),
    (NEW, {"wot_final_turn_call_minutes": 4}, "RULES-8"),
    (NEW, {"wot_final_turn_call_minutes": 16}, "RULES-8"),
    (NEW, {"wot_game_minutes": 59}, "RULES-8"),
    (OLD, {"wot_game_minutes": 76}, "RULES-8"),
    (OLD, {"wot_cycles": 0}, "RULES-8"),
    (OLD, {"wot_cycles": True}, "RULES-8"),
    (OLD, {"wot_game_minutes": "60"}, "RULES-8"),
    (NEW, {"wot_override_in_averages": True}, "RULES-8"),
    (OLD, {"wot_cycles_starting_characters_allowed": True}, "RULES-8"),
    (OLD, {"wot_override_in_averages": 1}, "RULES-8"),
    (NEW, {"rules": "WOT_OLD"}, "RULES-8"),
    (OLD, {"wot_early_kill_loser_tbp": "zero"}, "RULES-8"),
    (NEW, {"wot_cycles_starting_characters_allowed": True}, "WOT01-DECK-1"),
])
def test_parameter_refusals(revision: Revision, given: dict[str, object], rule: str) -> None:
    with pytest.raises(RuleError) as err:
        resolve_params(revision, given)
    assert err.value.rule == rule


def test_total_games_refuses_a_bad_cycle_count() -> None:
    with pytest.raises(RuleError):
        total_games({"wot_cycles": 0})


def test_a_recorded_parameter_set_lists_every_parameter() -> None:
    with pytest.raises(RuleError, match="lack"):
        check_params(NEW, {"wot_format": "sealed"})
