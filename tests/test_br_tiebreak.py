"""BR-SWISS-TB, BR-DE-TB and AMB-B1..B4, B6, B10, B24 against RULES.md TC-01..TC-06b."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from fractions import Fraction as F

import pytest

from ledger.errors import RuleError
from ledger.formats.bushiroad.model import History, Outcome, RoundEntry, Withdrawal
from ledger.formats.bushiroad.mw import (
    MwDenominator,
    de_effective_rounds,
    de_mw_hundredths,
    fraction_str,
    mw_hundredths,
    mw_str,
    swiss_mw_hundredths,
)
from ledger.formats.bushiroad.tiebreak import (
    H2HGroup,
    H2HPosition,
    StandingsKind,
    Territory,
    TiebreakParams,
    head_to_head,
    opponent_averages,
    rank,
    resolve_ties,
)

W, L, D, DL = Outcome.WIN, Outcome.LOSS, Outcome.DRAW, Outcome.DOUBLE_LOSS

# Letters stand for fighter numbers, as in RULES.md.
A, B, C, E, G, H, P, Q, R, S, U, V, X, Y, Z = (ord(c) for c in "ABCEGHPQRSUVXYZ")
DD, FF = ord("D"), ord("F")


def event(rounds: Iterable[Iterable[tuple[int, ...]]],
          extra: Iterable[int] = ()) -> dict[int, History]:
    """Histories from rounds of (winner, loser), (a, b, 'draw'/'dl') or (bye,)."""
    entries: dict[int, list[RoundEntry]] = {f: [] for f in extra}
    for number, matches in enumerate(rounds, start=1):
        for m in matches:
            if len(m) == 1:
                entries.setdefault(m[0], []).append(RoundEntry(number, None, W))
                continue
            a, b = m[0], m[1]
            oa, ob = (W, L) if len(m) == 2 else ((D, D) if m[2] == 0 else (DL, DL))
            entries.setdefault(a, []).append(RoundEntry(number, b, oa))
            entries.setdefault(b, []).append(RoundEntry(number, a, ob))
    return {f: History(f, tuple(es)) for f, es in entries.items()}


# ---------------------------------------------------------------- TC-01

@pytest.mark.parametrize(("points", "rounds", "m", "expected"), [
    (2, 3, 1, "0.66"), (5, 7, 1, "0.71"), (7, 8, 1, "0.87"), (1, 3, 1, "0.33"),
    (1, 4, 1, "0.33"), (0, 4, 1, "0.33"), (6, 5, 3, "0.40"), (9, 4, 3, "0.75"),
])
def test_tc01_truncation_and_floor(points: int, rounds: int, m: int, expected: str) -> None:
    assert mw_str(F(mw_hundredths(points, rounds * m), 100)) == expected


def test_tc01_through_a_history_with_three_point_wins() -> None:
    h = History(1, (RoundEntry(1, None, W), RoundEntry(2, None, W), RoundEntry(3, 2, L),
                    RoundEntry(4, 3, L), RoundEntry(5, 4, L)))
    assert swiss_mw_hundredths(h, total_rounds=5, points_per_win=3) == 40


def test_mw_refuses_impossible_inputs() -> None:
    with pytest.raises(RuleError, match="exceed"):
        mw_hundredths(5, 4)
    with pytest.raises(RuleError, match="non-negative"):
        mw_hundredths(-1, 4)
    with pytest.raises(RuleError, match="points per win"):
        swiss_mw_hundredths(History(1), total_rounds=3, points_per_win=0)
    assert mw_hundredths(0, 0) == 33          # AMB-B1: shown as the floor


# ---------------------------------------------------------------- TC-02

TC02 = [
    [(A, B), (C, DD), (E, FF), (G,)],
    [(C, A), (G, E), (B, DD), (FF,)],
    [(G, C), (A, E), (FF, B), (DD,)],
]

TC02_EXPECTED = {  # fighter: (MW%, OMW%, OOMW%) under the proposal (bye_in_own_mw = true)
    A: ("0.66", F(11, 25), F(149, 225)),
    B: ("0.33", F(11, 20), F(253, 600)),
    C: ("0.66", F(199, 300), F(143, 300)),
    DD: ("0.33", F(99, 200), F(91, 150)),
    E: ("0.33", F(58, 75), F(253, 600)),
    FF: ("0.66", F(33, 100), F(397, 600)),
    G: ("1.00", F(99, 200), F(431, 600)),
}


def test_tc02_full_swiss_proposal() -> None:
    ranking = rank(event(TC02).values(), kind=StandingsKind.SWISS, total_rounds=3)
    got = {r.fighter: (mw_str(r.mw), r.omw, r.oomw) for r in ranking.rows}
    assert got == TC02_EXPECTED
    assert ranking.order() == (G, C, A, FF, E, B, DD)
    assert [r.points for r in ranking.rows] == [3, 2, 2, 2, 1, 1, 1]
    assert [r.place for r in ranking.rows] == [1, 2, 3, 4, 5, 6, 7]
    assert ranking.unresolved == ()


def test_tc02_opponent_averages_directly() -> None:
    hs = event(TC02)
    mw = {f: swiss_mw_hundredths(h, total_rounds=3) for f, h in hs.items()}
    omw, oomw = opponent_averages(hs, mw)
    assert omw[B] == F(55, 100)              # (0.66 + 0.33 + 0.66) / 3
    assert omw[DD] == F(495, 1000)           # the R3 bye is not in the divisor
    assert oomw[A] == F(149, 225)


def test_tc02_alternative_bye_not_in_own_mw() -> None:
    params = TiebreakParams(bye_in_own_mw=False)
    ranking = rank(event(TC02).values(), kind=StandingsKind.SWISS, total_rounds=3,
                   params=params)
    by = {r.fighter: r for r in ranking.rows}
    assert mw_str(by[FF].mw) == "0.50"
    assert mw_str(by[G].mw) == "1.00"
    assert mw_str(by[DD].mw) == "0.33"
    assert by[B].omw == F(149, 300)
    assert by[E].omw == F(18, 25)
    assert by[A].oomw == F(47, 75)
    assert ranking.order() == (G, C, A, FF, E, B, DD)
    assert by[G].points == 3                # the bye is still worth M points


def test_tc02_json_contract_strings() -> None:
    ranking = rank(event(TC02).values(), kind=StandingsKind.SWISS, total_rounds=3)
    assert ranking.rows[0].contract() == {"number": G, "rank": 1, "points": 3, "mw": "1.00",
                                          "omw": "99/200", "oomw": "431/600"}
    assert fraction_str(F(0)) == "0/1"


def test_territory_japan_drops_oomw_from_the_chain() -> None:
    """Two fighters equal on points and OMW%, different OOMW%: only outside Japan splits."""
    rounds = [[(1, 2), (3, 4), (5, 6), (7, 8)],
              [(1, 3), (2, 4), (5, 7), (6, 8)],
              [(1, 5), (2, 6), (3, 7), (4, 8)]]
    hs = list(event(rounds).values())
    outside = rank(hs, kind=StandingsKind.SWISS, total_rounds=3)
    japan = rank(hs, kind=StandingsKind.SWISS, total_rounds=3,
                 params=TiebreakParams(territory=Territory.JAPAN))
    assert len(japan.unresolved) >= len(outside.unresolved)
    for group in japan.unresolved:   # inside Japan, ties are split only by points, OMW%, h2h
        rows = [r for r in japan.rows if r.fighter in group]
        assert len({(r.points, r.omw) for r in rows}) == 1


# ---------------------------------------------------------------- TC-02b

@pytest.mark.parametrize(("mode", "bc", "pieces"), [
    (H2HGroup.DOMINANCE, None, ((A,), (B, C))),
    (H2HGroup.DOMINANCE, (B, C), ((A,), (B,), (C,))),
    (H2HGroup.DOMINANCE, (B, C, 0), ((A,), (B, C))),
    (H2HGroup.PAIRS_ONLY, None, ((A, B, C),)),
    (H2HGroup.PAIRS_ONLY, (B, C), ((A, B, C),)),
])
def test_tc02b_head_to_head(mode: H2HGroup, bc: tuple[int, ...] | None,
                            pieces: tuple[tuple[int, ...], ...]) -> None:
    hs = {A: History(A, (RoundEntry(1, B, W), RoundEntry(2, C, W))),
          B: History(B, (RoundEntry(1, A, L),) + (() if bc is None else (
              RoundEntry(3, C, W if len(bc) == 2 else D),))),
          C: History(C, (RoundEntry(2, A, L),) + (() if bc is None else (
              RoundEntry(3, B, L if len(bc) == 2 else D),)))}
    assert head_to_head((A, B, C), hs, mode) == pieces


def test_tc02b_through_rank() -> None:
    """In the whole-field ranking the three tie on points, OMW% and OOMW%; A goes first."""
    hs = {A: History(A, (RoundEntry(1, B, W), RoundEntry(2, C, W))),
          B: History(B, (RoundEntry(1, A, L), RoundEntry(2, 9, W))),
          C: History(C, (RoundEntry(1, 9, W), RoundEntry(2, A, L))),
          9: History(9, (RoundEntry(1, C, L), RoundEntry(2, B, L)))}
    # A 2 wins; B and C 1 win each: tie only between B and C, who never met
    ranking = rank(hs.values(), kind=StandingsKind.SWISS, total_rounds=2)
    assert ranking.order()[0] == A
    assert ranking.unresolved == ((B, C),)
    assert [r.place for r in ranking.rows] == [1, 2, 2, 4]
    final = resolve_ties(ranking, {(B, C): (C, B)})
    assert final.order() == (A, C, B, 9)
    assert [r.place for r in final.rows] == [1, 2, 3, 4]
    assert final.unresolved == ()


def test_head_to_head_cycle_and_pair() -> None:
    cyc = event([[(1, 2)], [(2, 3)], [(3, 1)]])
    assert head_to_head((1, 2, 3), cyc) == ((1, 2, 3),)
    assert head_to_head((1, 2), cyc) == ((1,), (2,))
    assert head_to_head((2, 1), cyc, H2HGroup.PAIRS_ONLY) == ((1,), (2,))
    assert head_to_head((1,), cyc) == ((1,),)
    dl = event([[(1, 2, 1)]])
    assert head_to_head((1, 2), dl) == ((1, 2),)         # a double loss has no winner


def test_h2h_position_after_omw_beats_oomw() -> None:
    """h2h after OMW%: a head-to-head winner ranks above a better OOMW% (BR-SWISS-TB-8)."""
    rounds = [[(4, 8), (3, 5), (6, 1), (7, 2)],
              [(7, 5), (8, 1), (2, 6), (4, 3)],      # 4 beats 3
              [(3, 8), (5, 2), (1, 4), (7, 6)]]
    hs = list(event(rounds).values())
    base = rank(hs, kind=StandingsKind.SWISS, total_rounds=3)
    rows = {r.fighter: r for r in base.rows}
    assert (rows[3].points, rows[3].omw) == (rows[4].points, rows[4].omw)
    assert rows[3].oomw > rows[4].oomw
    assert base.order().index(3) < base.order().index(4)          # after_oomw: OOMW% first
    after = rank(hs, kind=StandingsKind.SWISS, total_rounds=3,
                 params=TiebreakParams(h2h_position=H2HPosition.AFTER_OMW))
    assert after.order().index(4) < after.order().index(3)        # after_omw: 4 beat 3
    japan = rank(hs, kind=StandingsKind.SWISS, total_rounds=3,
                 params=TiebreakParams(territory=Territory.JAPAN))
    assert japan.order().index(4) < japan.order().index(3)        # no OOMW% in Japan


# ---------------------------------------------------------------- TC-03

def test_tc03_no_opponents() -> None:
    hs = event([[(H,), (1, 2)], [(1, 2, 0)], [(2, 1)]])
    hs[H] = History(H, hs[H].rounds, drop=Withdrawal(after_round=1))
    ranking = rank(hs.values(), kind=StandingsKind.SWISS, total_rounds=3)
    by = {r.fighter: r for r in ranking.rows}
    assert by[H].omw == 0 and by[H].oomw == 0
    assert by[H].mw == F(33, 100)                     # 1/3 → 0.33
    assert by[1].omw == F(33, 100)         # opponent 2 in all three rounds: 1 win / 3 → 0.33
    assert H not in {o for r in ranking.rows for o in hs[r.fighter].opponents()}


# ---------------------------------------------------------------- AMB-B2 / TC-23

def test_tc23_swiss_drop_denominator() -> None:
    x = History(X, (RoundEntry(1, None, W), RoundEntry(2, None, W), RoundEntry(3, None, L)),
                drop=Withdrawal(3))
    assert swiss_mw_hundredths(x, total_rounds=5) == 40
    assert swiss_mw_hundredths(x, total_rounds=5,
                               denominator=MwDenominator.ROUNDS_PLAYED) == 66


def test_zero_denominator_shows_floor() -> None:
    only_byes = History(1, (RoundEntry(1, None, W),))
    assert swiss_mw_hundredths(only_byes, total_rounds=1, bye_in_own_mw=False,
                               denominator=MwDenominator.ROUNDS_PLAYED) == 33


# ---------------------------------------------------------------- TC-05 / TC-06 / TC-06b

def de_history(results: str, *, drop_after: int | None = None,
               dq_after: int | None = None) -> History:
    outcomes = {"W": W, "L": L}
    entries = tuple(RoundEntry(i, None, outcomes[c]) for i, c in enumerate(results, 1))
    return History(1, entries,
                   drop=None if drop_after is None else Withdrawal(drop_after),
                   dq=None if dq_after is None else Withdrawal(dq_after))


@pytest.mark.parametrize(("results", "drop_after", "total", "e", "mw"), [
    ("WWWW", None, 4, 4, "1.00"),   # P
    ("WLWL", None, 4, 4, "0.50"),   # Q
    ("LL", None, 4, 2, "0.33"),     # R
    ("WL", 2, 4, 3, "0.33"),        # S
    ("WW", 2, 4, 4, "0.50"),        # U
    ("W", 1, 4, 3, "0.33"),         # V
    ("WWW", 3, 4, 4, "0.75"),       # X
    ("LWW", 3, 4, 4, "0.50"),       # Y
    ("WWW", 3, 6, 5, "0.60"),
    ("WWWWW", 5, 6, 6, "0.83"),
    ("WWL", 3, 6, 4, "0.50"),
    # TC-06: drops after pairings, both readings give the same E
    ("WWLL", 3, 4, 4, "0.50"),      # Z, reading 2 (drop counted at 3 rounds, 1 loss)
    ("WWLL", 4, 4, 4, "0.50"),      # Z, reading 1 (the forced R4 loss is the 2nd)
    ("WWL", 2, 4, 4, "0.50"),       # Z2, reading 2: 2 + 2
    ("WWL", 3, 4, 4, "0.50"),       # Z2, reading 1: 3 + 1
])
def test_tc05_tc06_effective_rounds(results: str, drop_after: int | None, total: int,
                                    e: int, mw: str) -> None:
    h = de_history(results, drop_after=drop_after)
    assert de_effective_rounds(h, total_rounds=total) == e
    assert mw_str(F(de_mw_hundredths(h, total_rounds=total), 100)) == mw


@pytest.mark.parametrize(("results", "dq_after", "as_drop", "e", "mw"), [
    ("WWL", 3, True, 4, "0.50"),     # K
    ("WWL", 3, False, 6, "0.33"),
    ("WWW", 3, True, 5, "0.60"),     # K2
    ("WWW", 3, False, 6, "0.50"),
    ("WLL", 3, True, 3, "0.33"),     # K3
    ("WLL", 3, False, 3, "0.33"),
])
def test_tc06b_disqualified(results: str, dq_after: int, as_drop: bool, e: int,
                            mw: str) -> None:
    h = de_history(results, dq_after=dq_after)
    assert de_effective_rounds(h, total_rounds=6, dq_as_drop=as_drop) == e
    assert mw_str(F(de_mw_hundredths(h, total_rounds=6, dq_as_drop=as_drop), 100)) == mw


def test_de_refuses_results_after_elimination() -> None:
    with pytest.raises(RuleError, match="eliminated in round 2"):
        de_effective_rounds(de_history("LLW"), total_rounds=4)


def test_de_rank_wins_then_optional_losses() -> None:
    """AMB-B10: 3-1 and 3-2 tie on wins by default; the flag ranks fewer losses higher."""
    hs = [de_history("WWWL"), replace(de_history("WWLWL"), fighter=2),
          replace(de_history("WWWW"), fighter=3), replace(de_history("LL"), fighter=4)]
    ranking = rank(hs, kind=StandingsKind.DOUBLE_ELIM, total_rounds=5)
    assert ranking.order()[0] == 3
    assert ranking.unresolved == ((1, 2),)       # 3-1 and 3-2 tie on wins (literal)
    flagged = rank(hs, kind=StandingsKind.DOUBLE_ELIM, total_rounds=5,
                   params=TiebreakParams(de_rank_losses_secondary=True))
    assert flagged.order() == (3, 1, 2, 4)
    assert flagged.unresolved == ()
    by = {r.fighter: r for r in flagged.rows}
    assert mw_str(by[1].mw) == "0.60" and mw_str(by[2].mw) == "0.60"   # E = 5 for both
    assert mw_str(by[4].mw) == "0.33"                                   # E = 2


def test_rank_refuses_inconsistent_histories() -> None:
    one_sided = {1: History(1, (RoundEntry(1, 2, W),)), 2: History(2, (RoundEntry(1, 1, W),))}
    with pytest.raises(RuleError, match="mirrored"):
        rank(one_sided.values(), kind=StandingsKind.SWISS, total_rounds=1)
    with pytest.raises(RuleError, match="two histories"):
        rank([History(1), History(1)], kind=StandingsKind.SWISS, total_rounds=1)
    with pytest.raises(RuleError, match="outside 1..1"):
        rank([History(1, (RoundEntry(2, None, W),))], kind=StandingsKind.SWISS, total_rounds=1)
    with pytest.raises(RuleError, match="after leaving"):
        rank([History(1, (RoundEntry(1, None, W), RoundEntry(3, None, W)),
                      drop=Withdrawal(1))], kind=StandingsKind.SWISS, total_rounds=3)


def test_omitted_fighter_still_counts_for_opponents() -> None:
    """AMB-B24: a revoked standing leaves the rows, not the opponents' OMW%."""
    hs = list(event(TC02).values())
    full = {r.fighter: r for r in rank(hs, kind=StandingsKind.SWISS, total_rounds=3).rows}
    without_g = rank(hs, kind=StandingsKind.SWISS, total_rounds=3, omit=[G])
    assert G not in without_g.order()
    assert without_g.order() == (C, A, FF, E, B, DD)
    assert [r.place for r in without_g.rows] == [1, 2, 3, 4, 5, 6]
    assert all(r.omw == full[r.fighter].omw for r in without_g.rows)


def test_resolve_ties_refuses_bad_orders() -> None:
    hs = event([[(1, 2)], [(3, 4)]])
    ranking = rank(hs.values(), kind=StandingsKind.SWISS, total_rounds=2)
    assert ranking.unresolved            # 1 and 3 tie: never met, same OMW%
    group = ranking.unresolved[0]
    with pytest.raises(RuleError, match="not a permutation"):
        resolve_ties(ranking, {group: group[:1]})
    with pytest.raises(RuleError, match="not a tied group"):
        resolve_ties(ranking, {(98, 99): (99, 98)})
    partial = resolve_ties(ranking, {})
    assert partial == ranking


def test_de_standings_refuse_drawn_matches() -> None:
    """BR-DE-3: a DE tie is a double loss, never a draw."""
    hs = event([[(1, 2, 0)]])
    with pytest.raises(RuleError, match="BR-DE-3"):
        rank(hs.values(), kind=StandingsKind.DOUBLE_ELIM, total_rounds=1)
    assert rank(hs.values(), kind=StandingsKind.SWISS, total_rounds=1).unresolved == ((1, 2),)
