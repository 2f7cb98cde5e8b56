"""WoT seating and pairing: WOTOLD-PAIR-1..10, BYE-1..6 with RULES.md TC-17, TC-17b, TC-18
(and its variant), AMB-W7 (c)/(e), AMB-W8, AMB-W9 and AMB-W10, played through the real
scoring (``score_game``) and standings (``next_entrants``) functions."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from ledger.core.draw import draw_v1, seed_from_material
from ledger.errors import RuleError
from ledger.formats.wot.model import Revision, Side
from ledger.formats.wot.pairing import (
    Entrant,
    Pairing,
    PairingKind,
    Rematch,
    Table,
    game_kind,
    needs_tie_order,
    pair_game,
    tie_context,
)
from ledger.formats.wot.ranking import final_ranking, next_entrants, totals
from ledger.formats.wot.results import WotResult
from ledger.formats.wot.scoring import PlayerScore, score_game
from ledger.formats.wot.seating import SEATING_CONTEXT, seat_first_game, shuffle_sheets

H, V = Side.HERO, Side.VILLAIN
OLD, NEW = Revision.WOT_OLD, Revision.WOT_2001


def tables(p: Pairing) -> list[tuple[int, int]]:
    return [(t.hero, t.villain) for t in p.tables]


def play_2001(p: Pairing, wins: dict[int, tuple[int, int, int]]) -> dict[int, PlayerScore]:
    """Score a 2001 Game: ``wins[table] = (winner, P(winner), P(loser))`` as Q1 results."""
    results = []
    for t in p.tables:
        w, pw, pl = wins[t.table]
        lo = t.villain if w == t.hero else t.hero
        results.append(WotResult(table=t.table, outcome="Q1", sides={t.hero: H, t.villain: V},
                                 last_battle=True, winner=w, pattern={w: pw, lo: pl}))
    return score_game(NEW, results, {}, bye=p.bye, bye_side=p.bye_side, sides=p.sides)


# --------------------------------------------------------------- Game 1 (WOTOLD-PAIR-1)

def test_first_game_seating_from_the_shuffled_sheets() -> None:
    even = seat_first_game(OLD, [4, 2, 3, 1])
    assert tables(even) == [(4, 2), (3, 1)] and even.bye is None and even.bye_side is None
    assert even.kind is PairingKind.SEATING and even.sides == {1: V, 2: V, 3: H, 4: H}
    odd = seat_first_game(NEW, [3, 1, 5, 2, 4])
    assert tables(odd) == [(3, 1), (5, 2)]
    assert (odd.bye, odd.bye_side) == (4, H)                 # WOTOLD-BYE-1: counted as Hero


def test_shuffle_is_the_recorded_draw_v1_over_numbers_pre_ordered() -> None:
    seed = seed_from_material("wot seating test")
    order = shuffle_sheets(seed, [5, 3, 1, 4, 2])
    assert order == draw_v1(seed, SEATING_CONTEXT, [1, 2, 3, 4, 5])
    assert order == shuffle_sheets(seed, [1, 2, 3, 4, 5])    # input order does not matter
    assert sorted(order) == [1, 2, 3, 4, 5]


def test_seating_refuses_duplicates_and_a_single_player() -> None:
    with pytest.raises(RuleError) as err:
        seat_first_game(OLD, [1, 2, 1])
    assert err.value.rule == "WOTOLD-PAIR-1"
    with pytest.raises(RuleError) as err:
        seat_first_game(NEW, [7])
    assert err.value.rule == "WOT01-GAME-1"


def test_game_kinds() -> None:
    assert [game_kind(g) for g in (1, 2, 3, 4, 5)] == [
        PairingKind.SEATING, PairingKind.PILES, PairingKind.LIST, PairingKind.PILES,
        PairingKind.LIST]
    with pytest.raises(RuleError):
        pair_game(OLD, 1, [Entrant(1, 0, F(0), H), Entrant(2, 0, F(1), V)], [])


# --------------------------------------------------------------- TC-17 / TC-17b

def test_tc17_and_tc17b_byes_over_four_games_2001_scoring() -> None:
    g1 = seat_first_game(NEW, [3, 1, 5, 2, 4])
    assert tables(g1) == [(3, 1), (5, 2)] and (g1.bye, g1.bye_side) == (4, H)
    s1 = play_2001(g1, {1: (3, 6, 4), 2: (5, 5, 3)})
    assert {p: s.pair for p, s in s1.items()} == {
        3: (2, F(6)), 1: (0, F(4)), 5: (2, F(5)), 2: (0, F(3)), 4: (2, F(8))}

    pairings, scores = [g1], [s1]
    g2 = pair_game(NEW, 2, next_entrants(pairings, scores), g1.tables)
    assert g2.order == ((4, 3, 5), (1, 2))                   # piles
    assert (g2.bye, g2.bye_side) == (5, V)                   # lowest Hero, counted Villain
    assert tables(g2) == [(1, 4), (2, 3)]                    # P4 (V) v P1 (H); P3 (V) v P2 (H)
    assert g2.rematches == () and g2.deck_repeats == ()
    s2 = play_2001(g2, {1: (1, 7, 2), 2: (3, 9, 1)})
    pairings.append(g2)
    scores.append(s2)
    assert totals(scores) == {3: (4, F(15)), 5: (4, F(13)), 1: (2, F(11)), 4: (2, F(10)),
                              2: (0, F(4))}

    history = [*g1.tables, *g2.tables]
    g3 = pair_game(NEW, 3, next_entrants(pairings, scores), history)
    assert g3.kind is PairingKind.LIST and g3.order == ((3, 5, 1, 4, 2), ())
    assert (g3.bye, g3.bye_side) == (3, H)                   # P4, P5 had byes → P3
    assert tables(g3) == [(5, 1), (4, 2)] and g3.rematches == ()
    s3 = play_2001(g3, {1: (5, 6, 3), 2: (4, 5, 2)})
    pairings.append(g3)
    scores.append(s3)
    assert totals(scores) == {3: (6, F(23)), 5: (6, F(19)), 4: (4, F(15)), 1: (2, F(14)),
                              2: (0, F(6))}

    # TC-17b: the whole Hero group had a bye → the bye goes to the other pile.
    history += g3.tables
    g4 = pair_game(NEW, 4, next_entrants(pairings, scores), history)
    assert g4.order == ((3, 5, 4), (1, 2))
    assert (g4.bye, g4.bye_side) == (2, H)
    assert tables(g4) == [(1, 3), (4, 5)]                    # P3 (V) v P1 (H); P5 (V) v P4 (H)
    assert g4.sides == {1: H, 3: V, 4: H, 5: V}
    assert g4.deck_repeats == (4,)                           # P4 repeats Hero (AMB-W10 surplus)
    assert g4.rematches == (Rematch(table=1, hero=1, villain=3, same_deck=False),)
    assert g4.method == "no_same_deck"                       # AMB-W8 second run
    s4 = play_2001(g4, {1: (1, 5, 5), 2: (5, 6, 1)})
    assert s4[2].pair == (2, F(8))
    byes = [p.bye for p in [*pairings, g4]]
    assert byes == [4, 5, 3, 2] and len(set(byes)) == 4      # no second bye


# --------------------------------------------------------------- TC-18

@pytest.mark.parametrize("revision", [OLD, NEW])  # WOT01-PAIR-7 is as WOTOLD-PAIR-7
def test_tc18_same_deck_rematch_moves_the_lower_player_down(revision: Revision) -> None:
    a, b, c, d = 1, 2, 3, 4
    history = [Table(1, a, b), Table(2, c, d), Table(1, d, a), Table(2, b, c)]
    ents = [Entrant(a, 4, F(0), V), Entrant(b, 3, F(0), H), Entrant(c, 2, F(0), V),
            Entrant(d, 1, F(0), H)]
    g3 = pair_game(revision, 3, ents, history)
    assert tables(g3) == [(a, c), (b, d)]
    assert g3.rematches == () and g3.method == "no_rematch" and g3.moves == 1


@pytest.mark.parametrize("revision", [OLD, NEW])  # WOT01-PAIR-7 is as WOTOLD-PAIR-7
def test_tc18_variant_swapped_deck_rematches_are_avoided_too(revision: Revision) -> None:
    a, b, c, d = 1, 2, 3, 4
    history = [Table(1, b, a), Table(2, d, c), Table(1, a, d), Table(2, c, b)]
    ents = [Entrant(a, 4, F(0), H), Entrant(b, 3, F(0), V), Entrant(c, 2, F(0), H),
            Entrant(d, 1, F(0), V)]
    g3 = pair_game(revision, 3, ents, history)
    assert tables(g3) == [(a, c), (b, d)] and g3.rematches == ()


# --------------------------------------------------------------- AMB-W9 ties

def test_exact_ties_need_the_recorded_order_and_follow_it() -> None:
    ents = [Entrant(1, 2, F(3), H), Entrant(2, 2, F(3), H), Entrant(3, 0, F(1), V),
            Entrant(4, 0, F(0), V)]
    assert needs_tie_order(ents)
    with pytest.raises(RuleError) as err:
        pair_game(OLD, 2, ents, [])
    assert err.value.rule == "WOTOLD-PAIR-8"
    with pytest.raises(RuleError, match="every active player"):
        pair_game(OLD, 2, ents, [], tie_order=[2, 1, 3])
    first = pair_game(OLD, 2, ents, [], tie_order=[2, 4, 1, 3])
    assert first.order == ((2, 1), (3, 4)) and tables(first) == [(3, 2), (4, 1)]
    second = pair_game(OLD, 2, ents, [], tie_order=[1, 2, 3, 4])
    assert second.order == ((1, 2), (3, 4)) and tables(second) == [(3, 1), (4, 2)]


def test_bye_tie_for_lowest_is_decided_by_the_recorded_order_amb_w7b() -> None:
    ents = [Entrant(1, 2, F(5), H), Entrant(2, 0, F(0), H), Entrant(3, 0, F(0), H),
            Entrant(4, 0, F(1), V), Entrant(5, 0, F(2), V)]
    assert pair_game(OLD, 2, ents, [], tie_order=[1, 2, 3, 4, 5]).bye == 3
    assert pair_game(OLD, 2, ents, [], tie_order=[3, 1, 2, 4, 5]).bye == 2


# --------------------------------------------------------------- byes, removals

def test_second_bye_only_when_everyone_had_one() -> None:
    ents = [Entrant(1, 4, F(0), H, 1), Entrant(2, 3, F(0), H, 1), Entrant(3, 2, F(0), H, 1),
            Entrant(4, 1, F(0), V, 1), Entrant(5, 0, F(0), V, 1)]
    g = pair_game(OLD, 4, ents, [])
    assert (g.bye, g.bye_side) == (3, V)                     # lowest Hero, second bye


def test_bye_created_by_a_removal_comes_from_the_larger_pile_amb_w7e() -> None:
    # Six players paired in Game 1 (no bye); player 6 (Villain) is removed → 3 Heroes, 2
    # Villains: the bye comes from the Hero pile, the piles are then equal.
    ents = [Entrant(1, 2, F(4), H), Entrant(2, 2, F(2), H), Entrant(3, 0, F(-1), H),
            Entrant(4, 2, F(1), V), Entrant(5, 0, F(-2), V)]
    g = pair_game(OLD, 2, ents, [Table(1, 1, 6), Table(2, 2, 4), Table(3, 3, 5)])
    assert (g.bye, g.bye_side) == (3, V)
    assert tables(g) == [(4, 1), (5, 2)] and g.deck_repeats == ()


def test_removals_leave_piles_unequal_surplus_players_meet_amb_w10() -> None:
    # Two Villains removed from six: Hero pile 1, 2, 3, 4; Villain pile 5, 6.
    ents = [Entrant(1, 4, F(0), H), Entrant(2, 3, F(0), H), Entrant(3, 2, F(0), H),
            Entrant(4, 1, F(0), H), Entrant(5, 2, F(1), V), Entrant(6, 0, F(0), V)]
    g = pair_game(NEW, 2, ents, [])
    assert tables(g) == [(5, 1), (6, 2), (4, 3)]             # 3 switches to Villain, 4 repeats
    assert g.deck_repeats == (4,) and g.bye is None


def test_a_first_game_of_a_cycle_never_repeats_a_deck_and_higher_is_hero() -> None:
    ents = [Entrant(p, 10 - p, F(0), H if p % 2 else V) for p in range(1, 7)]
    g = pair_game(NEW, 5, ents, [])
    assert tables(g) == [(1, 2), (3, 4), (5, 6)] and g.deck_repeats == ()


def test_exact_guard_when_the_move_down_procedure_cycles() -> None:
    # List of four, A met B and C, C met D: moving down cycles A-B / A-C / swap; the only
    # rematch-free pairing is A-D, B-C, which the exact guard finds (WOTOLD-PAIR-6).
    a, b, c, d = 1, 2, 3, 4
    history = [Table(1, a, b), Table(2, c, d), Table(1, c, a), Table(2, b, d)]
    ents = [Entrant(a, 4, F(0), V), Entrant(b, 3, F(0), H), Entrant(c, 2, F(0), H),
            Entrant(d, 1, F(0), V)]
    g = pair_game(OLD, 3, ents, history)
    assert sorted(map(frozenset, tables(g))) == sorted([frozenset((a, d)), frozenset((b, c))])
    assert g.rematches == ()


def test_revision_ids_and_game_numbers() -> None:
    assert OLD.format_id == "wot-classic" and NEW.format_id == "wot-2001"
    assert Revision.from_format_id("wot-2001") is NEW
    with pytest.raises(ValueError):
        Revision.from_format_id("hotc-swiss-de")
    with pytest.raises(ValueError):
        game_kind(0)


def test_pairing_refusals() -> None:
    with pytest.raises(RuleError, match="listed twice"):
        pair_game(OLD, 2, [Entrant(1, 0, F(0), H), Entrant(1, 1, F(0), V)], [])
    with pytest.raises(RuleError) as err:
        pair_game(NEW, 3, [Entrant(1, 0, F(0), H)], [])
    assert err.value.rule == "WOT01-GAME-1"
    with pytest.raises(RuleError) as err:
        pair_game(NEW, 2, [Entrant(1, 0, F(0), H, -1), Entrant(2, 1, F(0), V)], [])
    assert err.value.rule == "WOT01-BYE-5"


@pytest.mark.parametrize("revision", [OLD, NEW])
def test_nine_players_two_cycles_each_deck_once_per_cycle_and_distinct_byes(
        revision: Revision) -> None:
    """The issue's 9-player, 2-Cycle event at the rule level: seated from a recorded
    shuffle, results drawn from DRAW-v1 streams, every Game paired by the real functions."""
    seed = seed_from_material(f"nine players {revision.value}")
    pairings = [seat_first_game(revision, shuffle_sheets(seed, range(1, 10)))]
    scores: list[dict[int, PlayerScore]] = []
    history: list[Table] = []
    for g in range(1, 5):
        p = pairings[-1]
        results = []
        for t in p.tables:
            w, lo = draw_v1(seed, f"sim/{g}/{t.table}", t.players)
            sup = draw_v1(seed, f"sim/{g}/{t.table}/amount", range(13))[:2]
            if revision is OLD:
                results.append(WotResult(table=t.table, outcome="O1",
                                         sides={t.hero: H, t.villain: V}, last_battle=True,
                                         winner=w, support={w: 5 + sup[0] % 8, lo: sup[1]}))
            else:
                results.append(WotResult(table=t.table, outcome="Q1",
                                         sides={t.hero: H, t.villain: V}, last_battle=True,
                                         winner=w, pattern={w: sup[0], lo: sup[1]}))
        scores.append(score_game(revision, results, {}, bye=p.bye, bye_side=p.bye_side,
                                 sides=p.sides))
        history += p.tables
        if g == 4:
            break
        ents = next_entrants(pairings, scores)
        order = draw_v1(seed, tie_context(g + 1), [e.number for e in ents]) \
            if needs_tie_order(ents) else None
        pairings.append(pair_game(revision, g + 1, ents, history, tie_order=order))
    byes = [p.bye for p in pairings]
    assert None not in byes and len(set(byes)) == 4
    for c in (0, 2):                                         # each Cycle: Games c+1, c+2
        first, second = pairings[c], pairings[c + 1]
        side1, side2 = dict(first.sides), dict(second.sides)
        if first.bye is not None and first.bye_side is not None:
            side1[first.bye] = first.bye_side
        if second.bye is not None and second.bye_side is not None:
            side2[second.bye] = second.bye_side
        repeats = {p for p in range(1, 10) if side1[p] is side2[p]}
        assert repeats == set(second.deck_repeats) == set()  # WOTOLD-CYCLE-1
    ranking = final_ranking(totals(scores))
    assert sorted(x.number for x in ranking) == list(range(1, 10))
    assert sum(s.gp for game in scores for s in game.values()) == sum(
        x.gp for x in ranking)
