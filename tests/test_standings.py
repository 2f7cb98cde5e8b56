"""HotC standings read model: BR-DE-TB-3/4, BR-SWISS-TB-4/5, AMB-B1/B3/B6/B11, AMB-H15.

Rule cases from RULES.md §10 (TC-01, TC-02, TC-03, TC-05, TC-06) plus hand-built HotC states
whose expected values are worked out below with exact Fractions.
"""

from __future__ import annotations

import csv
import io
from fractions import Fraction as F
from typing import Any

import msgspec
import pytest

from ledger.core.state import Player, TournamentState
from ledger.formats.hotc.standings import (
    COLUMNS,
    effective_rounds,
    mw_de,
    standings,
    standings_csv,
    standings_json,
)
from ledger.formats.match.model import (
    HotcState,
    LossReason,
    Outcome,
    Phase,
    PlayerRecord,
    ResultState,
    RoundState,
    Status,
    TableState,
)

# --- builders -----------------------------------------------------------------------------

Match = tuple[int, int, int | None]  # (a, b, winner); winner None = double loss


def _round(number: int, matches: list[Match], bye: int | None = None,
           phase: Phase = Phase.SWISS, open_tables: int = 0) -> RoundState:
    tables = []
    for i, (a, b, w) in enumerate(matches, start=1):
        losers = [a, b] if w is None else [b if w == a else a]
        reason = LossReason.TIMEOUT_DOUBLE if w is None else LossReason.PLAY
        res = ResultState(seq=100 * number + i, winner=w, losers=losers,
                          loss_reasons=[reason] * len(losers),
                          outcome=Outcome.TIMEOUT if w is None else Outcome.WIN)
        tables.append(TableState(table=i, players=[a, b], groups=[0, 0],
                                 result=None if i > len(matches) - open_tables else res))
    return RoundState(number=number, phase=phase, paired_seq=100 * number, tables=tables,
                      bye=bye, closed_seq=100 * number + 99)


def _state(names: dict[int, str], rounds: list[RoundState], records: dict[int, PlayerRecord],
           swiss_rounds: int, cut: list[int] | None = None,
           champion: int | None = None) -> TournamentState:
    players = {n: Player(number=n, name=name, registered_seq=n) for n, name in names.items()}
    recs = {n: records.get(n) or PlayerRecord(number=n) for n in names}
    _fold_rounds(recs, rounds)
    return TournamentState(players=players, fmt=HotcState(
        records=recs, rounds=rounds, swiss_rounds=swiss_rounds, cut=cut, champion=champion,
        swiss_over=cut is not None))


def _fold_rounds(recs: dict[int, PlayerRecord], rounds: list[RoundState]) -> None:
    """Tally hand-built rounds into the records the way the ledger's fold does (wins incl.
    byes, losses, Swiss opponents, top-cut tallies and knock-out round), unless a test
    already set the record's tallies itself."""
    manual = {n for n, r in recs.items() if r.wins or r.losses or r.opponents}
    recs = {n: r for n, r in recs.items() if n not in manual}
    for rnd in rounds:
        top = rnd.phase is Phase.TOP_CUT
        if rnd.bye in recs:
            recs[rnd.bye].wins += 1  # type: ignore[index]
            recs[rnd.bye].byes += 1  # type: ignore[index]
        for t in rnd.tables:
            a, b = t.players
            if not top and a in recs and b in recs:
                recs[a].opponents.append(b)
                recs[b].opponents.append(a)
            if t.result is None:
                continue
            if t.result.winner in recs:
                recs[t.result.winner].wins += 1  # type: ignore[index]
                recs[t.result.winner].top_wins += int(top)  # type: ignore[index]
            for loser in t.result.losers:
                if loser in recs:
                    recs[loser].losses += 1
                    recs[loser].top_losses += int(top)
                    if top and recs[loser].cut_finish is None:
                        recs[loser].cut_finish = rnd.number


def _by_number(state: TournamentState) -> dict[int, Any]:
    return {s.number: s for s in standings(state)}


# --- TC-01: MW% truncation and the 0.33 floor (BR-SWISS-TB-3 / BR-DE-TB-3) -----------------

@pytest.mark.parametrize(("points", "r_total", "m", "expected"), [
    (2, 3, 1, F(66, 100)),   # rounding would give 0.67
    (5, 7, 1, F(71, 100)),
    (7, 8, 1, F(87, 100)),   # rounding would give 0.88
    (1, 3, 1, F(33, 100)),   # truncates to exactly 0.33
    (1, 4, 1, F(33, 100)),   # floor
    (0, 4, 1, F(33, 100)),   # floor
    (6, 5, 3, F(40, 100)),   # 3-point wins: 2 wins out of 5
    (9, 4, 3, F(75, 100)),
])
def test_tc01_br_de_tb_3_mw_truncation_and_floor(points: int, r_total: int, m: int,
                                                 expected: F) -> None:
    assert mw_de(points, r_total, m) == expected


def test_br_de_tb_3_zero_effective_rounds_gets_the_floor() -> None:
    assert mw_de(0, 0) == F(33, 100)
    assert mw_de(3, 0) == F(33, 100)


# --- TC-05 / TC-06: effective rounds (BR-DE-TB-4, AMB-B11) ---------------------------------

def _rec(wins: int, losses: int, *, r2: int | None = None, dropped_after: int | None = None,
         dropped_losses: int | None = None) -> PlayerRecord:
    return PlayerRecord(
        number=1, wins=wins, losses=losses, second_loss_round=r2,
        status=Status.DROPPED if dropped_after is not None else
        (Status.ELIMINATED if losses >= 2 else Status.ACTIVE),
        dropped_after_rounds=dropped_after, dropped_losses=dropped_losses)


TC05 = [  # (fighter, record, R_total, E, MW%)
    ("P WWWW", _rec(4, 0), 4, 4, F(100, 100)),
    ("Q WLWL", _rec(2, 2, r2=4), 4, 4, F(50, 100)),
    ("R LL", _rec(0, 2, r2=2), 4, 2, F(33, 100)),
    ("S WL drop<R3", _rec(1, 1, dropped_after=2, dropped_losses=1), 4, 3, F(33, 100)),
    ("U WW drop<R3", _rec(2, 0, dropped_after=2, dropped_losses=0), 4, 4, F(50, 100)),
    ("V W drop<R2", _rec(1, 0, dropped_after=1, dropped_losses=0), 4, 3, F(33, 100)),
    ("X WWW drop<R4", _rec(3, 0, dropped_after=3, dropped_losses=0), 4, 4, F(75, 100)),
    ("Y LWW drop<R4", _rec(2, 1, dropped_after=3, dropped_losses=1), 4, 4, F(50, 100)),
    # second block, R_total = 6
    ("WWW drop<R4", _rec(3, 0, dropped_after=3, dropped_losses=0), 6, 5, F(60, 100)),
    ("WWWWW drop<R6", _rec(5, 0, dropped_after=5, dropped_losses=0), 6, 6, F(83, 100)),
    ("WWL drop<R4", _rec(2, 1, dropped_after=3, dropped_losses=1), 6, 4, F(50, 100)),
]


@pytest.mark.parametrize(("fighter", "rec", "r_total", "e", "mw"), TC05,
                         ids=[row[0] for row in TC05])
def test_tc05_br_de_tb_4_effective_rounds(fighter: str, rec: PlayerRecord, r_total: int,
                                          e: int, mw: F) -> None:
    assert effective_rounds(rec, r_total) == e
    assert mw_de(rec.wins, e) == mw


def test_tc06_amb_b11_drop_after_pairings_same_e_under_both_readings() -> None:
    # Z: W W L, drops after R4 pairings; the forced R4 loss is the 2nd loss.
    z_model = _rec(2, 2, r2=4, dropped_after=3, dropped_losses=1)   # what the fold records
    z_reading1 = _rec(2, 2, r2=4)                                     # forced loss only
    z_reading2 = _rec(2, 1, dropped_after=3, dropped_losses=1)       # drop at 3 rounds, L=1
    for rec in (z_model, z_reading1, z_reading2):
        assert effective_rounds(rec, 4) == 4
        assert mw_de(2, effective_rounds(rec, 4)) == F(1, 2)
    # Z2: W W, drops after R3 pairings; the forced R3 loss is the 1st loss.
    z2_model = _rec(2, 1, dropped_after=2, dropped_losses=0)
    z2_reading1 = _rec(2, 1, dropped_after=3, dropped_losses=1)      # (k+1) + 1
    for rec in (z2_model, z2_reading1):
        assert effective_rounds(rec, 4) == 4
        assert mw_de(2, effective_rounds(rec, 4)) == F(1, 2)


def test_br_de_tb_4_eliminated_player_who_drops_has_no_rd() -> None:
    assert effective_rounds(_rec(1, 2, r2=3, dropped_after=4, dropped_losses=2), 6) == 3


# --- TC-02: OMW% / OOMW% exact values, byes excluded (BR-SWISS-TB-4/5, AMB-B1/B3) ----------

def test_tc02_br_swiss_tb_4_5_omw_oomw_exact() -> None:
    a, b, c, d, e, f, g = range(1, 8)
    rounds = [
        _round(1, [(a, b, a), (c, d, c), (e, f, e)], bye=g),
        _round(2, [(a, c, c), (e, g, g), (b, d, b)], bye=f),
        _round(3, [(c, g, g), (a, e, a), (b, f, f)], bye=d),
    ]
    # TC-02 is a plain Swiss: every E is R_total = 3, so the records carry no 2nd-loss round.
    st = _state(dict(zip(range(1, 8), "ABCDEFG", strict=True)), rounds, {}, swiss_rounds=3)
    s = _by_number(st)
    expected = {  # fighter: (MW%, OMW%, OOMW%) from RULES.md TC-02 (proposal)
        a: (F(66, 100), F(11, 25), F(149, 225)),
        b: (F(33, 100), F(11, 20), F(253, 600)),
        c: (F(66, 100), F(199, 300), F(143, 300)),
        d: (F(33, 100), F(99, 200), F(91, 150)),
        e: (F(33, 100), F(58, 75), F(253, 600)),
        f: (F(66, 100), F(33, 100), F(397, 600)),
        g: (F(100, 100), F(99, 200), F(431, 600)),
    }
    assert {n: (x.mw, x.omw, x.oomw) for n, x in s.items()} == expected
    assert [x.number for x in standings(st)] == [g, c, a, f, e, b, d]
    assert [x.rank for x in standings(st)] == [1, 2, 3, 4, 5, 6, 7]


def test_tc03_amb_b6_no_opponents_gives_zero() -> None:
    # H (#1) has a bye in R1 and drops before R2 pairings; R_total = 3.
    rounds = [_round(1, [(2, 3, 2)], bye=1), _round(2, [(2, 3, 3)]), _round(3, [(2, 3, 2)])]
    recs = {1: PlayerRecord(number=1, wins=1, byes=1, status=Status.DROPPED, dropped_round=1,
                            dropped_after_rounds=1, dropped_losses=0)}
    s = _by_number(_state({1: "H", 2: "I", 3: "J"}, rounds, recs, swiss_rounds=3))
    assert (s[1].omw, s[1].oomw) == (F(0), F(0))
    assert s[1].mw == F(33, 100)        # 1 / min(1 + 2, 3) = 0.333… → 0.33
    assert (s[2].omw, s[3].omw) == (s[3].mw, s[2].mw)   # nobody counts H


# --- a HotC event: Swiss with effective rounds, top cut, drop, DQ (AMB-H15) --------------

A, B, C, D, E, F_, G = range(1, 8)
NAMES = dict(zip(range(1, 8), "ABCDEFG", strict=True))


def _hotc_event() -> TournamentState:
    """7 players, 2 Swiss rounds, top 4 (R3 semifinals, R4 final).

    R1: A>B, C>D, E>F, bye G.   R2: A>C, G>E, B–D double loss, bye F.
    After R2: A, G 2-0; C, E, F 1-1; B, D 0-2 (eliminated, r2 = 2).  2 X-0 < 4: stop.
    E drops in the cut window (d = 2, L = 1).  Cut: A, C, F, G.
    R3: A>F, G>C.  R4: G>A — G champion.  B is disqualified afterwards.
    """
    rounds = [
        _round(1, [(A, B, A), (C, D, C), (E, F_, E)], bye=G),
        _round(2, [(A, C, A), (E, G, G), (B, D, None)], bye=F_),
        _round(3, [(A, F_, A), (G, C, G)], phase=Phase.TOP_CUT),
        _round(4, [(G, A, G)], phase=Phase.TOP_CUT),
    ]
    recs = {  # as the fold leaves them: wins/losses include the top cut (top_* apart),
        # opponents are the Swiss ones (Rule A is Swiss-only)
        A: PlayerRecord(number=A, wins=3, losses=1, top_wins=1, top_losses=1,
                        opponents=[B, C], status=Status.CUT, cut_finish=4),
        B: PlayerRecord(number=B, losses=2, opponents=[A, D], status=Status.DISQUALIFIED,
                        second_loss_round=2),
        C: PlayerRecord(number=C, wins=1, losses=2, top_losses=1, opponents=[D, A],
                        status=Status.CUT, cut_finish=3),
        D: PlayerRecord(number=D, losses=2, opponents=[C, B], status=Status.ELIMINATED,
                        second_loss_round=2),
        E: PlayerRecord(number=E, wins=1, losses=1, opponents=[F_, G], status=Status.DROPPED,
                        dropped_round=2, dropped_after_rounds=2, dropped_losses=1),
        F_: PlayerRecord(number=F_, wins=1, losses=2, top_losses=1, byes=1, opponents=[E],
                         status=Status.CUT, cut_finish=3),
        G: PlayerRecord(number=G, wins=4, top_wins=2, byes=1, opponents=[E],
                        status=Status.CHAMPION),
    }
    return _state(NAMES, rounds, recs, swiss_rounds=2, cut=[A, C, F_, G], champion=G)


def test_amb_h15_mw_omw_oomw_over_the_swiss_phase_only() -> None:
    s = _by_number(_hotc_event())
    # MW% with R_total = 2: A 2/2, B 0/2 (E = r2 = 2), C 1/2, D 0/2, E 1/min(2+1, 2),
    # F 1/2 (the bye is a win), G 2/2 (bye + win).
    mw = {A: F(1), B: F(33, 100), C: F(1, 2), D: F(33, 100), E: F(1, 2), F_: F(1, 2),
          G: F(1)}
    assert {n: x.mw for n, x in s.items()} == mw
    # Swiss opponents only (A's top-cut opponents F and G do not count); byes add none.
    opp = {A: [B, C], B: [A, D], C: [D, A], D: [C, B], E: [F_, G], F_: [E], G: [E]}
    omw = {n: sum((mw[o] for o in os), F(0)) / len(os) for n, os in opp.items()}
    assert omw == {A: F(83, 200), B: F(133, 200), C: F(133, 200), D: F(83, 200),
                   E: F(3, 4), F_: F(1, 2), G: F(1, 2)}
    oomw = {n: sum((omw[o] for o in os), F(0)) / len(os) for n, os in opp.items()}
    assert {n: x.omw for n, x in s.items()} == omw
    assert {n: x.oomw for n, x in s.items()} == oomw
    # Swiss wins/losses, not the fold's totals with top-cut matches.
    assert {n: (x.wins, x.losses, x.byes) for n, x in s.items()} == {
        A: (2, 0, 0), B: (0, 2, 0), C: (1, 1, 0), D: (0, 2, 0), E: (1, 1, 0), F_: (1, 1, 1),
        G: (2, 0, 1)}


def test_amb_h15_order_champion_finalist_semifinalists_rest_dq_by_record() -> None:
    rows = standings(_hotc_event())
    assert [(x.number, x.rank, x.status) for x in rows] == [
        (G, 1, "champion"),
        (A, 2, "cut"),          # lost the final (cut_finish 4)
        (C, 3, "cut"),          # semifinal losers: equal wins, OMW% 133/200 > 1/2
        (F_, 4, "cut"),
        (E, 5, "dropped"),      # dropped players rank among the rest: 1 win
        (B, 6, "disqualified"),  # standing not revoked (no revocation recorded): kept
        (D, 7, "eliminated"),   # 0 wins, OMW% 83/200 < B's 133/200 (AMB-B24)
    ]
    assert [x.cut_finish for x in rows] == [None, 4, 3, 3, None, None, None]


def test_amb_h15_tied_semifinal_losers_share_third() -> None:
    # R1: 1>2, 3>4 (Swiss, R_total 1); cut of all 4; R2: 1>4, 3>2; R3: 3>1.
    rounds = [
        _round(1, [(1, 2, 1), (3, 4, 3)]),
        _round(2, [(1, 4, 1), (3, 2, 3)], phase=Phase.TOP_CUT),
        _round(3, [(3, 1, 3)], phase=Phase.TOP_CUT),
    ]
    recs = {1: PlayerRecord(number=1, status=Status.CUT, cut_finish=3),
            2: PlayerRecord(number=2, status=Status.CUT, cut_finish=2),
            3: PlayerRecord(number=3, status=Status.CHAMPION),
            4: PlayerRecord(number=4, status=Status.CUT, cut_finish=2)}
    st = _state({1: "A", 2: "B", 3: "C", 4: "D"}, rounds, recs, swiss_rounds=1,
                cut=[1, 2, 3, 4], champion=3)
    assert [(x.number, x.rank) for x in standings(st)] == [(3, 1), (1, 2), (2, 3), (4, 3)]


def test_amb_h15_cut_players_still_in_the_bracket_rank_above_knocked_out() -> None:
    rounds = [_round(1, [(1, 2, 1), (3, 4, 3)]),
              _round(2, [(1, 4, 1), (3, 2, 3)], phase=Phase.TOP_CUT)]
    recs = {1: PlayerRecord(number=1, status=Status.CUT),
            2: PlayerRecord(number=2, status=Status.CUT, cut_finish=2),
            3: PlayerRecord(number=3, status=Status.CUT),
            4: PlayerRecord(number=4, status=Status.CUT, cut_finish=2)}
    st = _state({1: "A", 2: "B", 3: "C", 4: "D"}, rounds, recs, swiss_rounds=1, cut=[1, 2, 3, 4])
    assert [(x.number, x.rank) for x in standings(st)] == [(1, 1), (3, 1), (2, 3), (4, 3)]


def test_br_de_tb_1_wins_then_omw_then_oomw() -> None:
    # R1: 1>2, 3>4, 5>6.  R2: 1>3, 2>5, 4 v 6 double loss.  R_total 2.
    rounds = [_round(1, [(1, 2, 1), (3, 4, 3), (5, 6, 5)]),
              _round(2, [(1, 3, 1), (2, 5, 2), (4, 6, None)])]
    recs = {4: PlayerRecord(number=4, second_loss_round=2),
            6: PlayerRecord(number=6, second_loss_round=2)}
    st = _state({n: f"P{n}" for n in range(1, 7)}, rounds, recs, swiss_rounds=2)
    s = _by_number(st)
    # MW%: 1 → 1, 2/3/5 → 1/2, 4/6 → 0.33.  OMW%: 2 = (1 + 1/2)/2 = 3/4, 3 = (33/100 + 1)/2,
    # 5 = (33/100 + 1/2)/2; all three have 1 win → 2, 3, 5.  4 and 6 (0 wins) share OMW%
    # (MW3 + MW6)/2 = (MW5 + MW4)/2 = 83/200; OOMW% 4 = (OMW3 + OMW6)/2 = (133 + 83)/400 =
    # 27/50 > 6 = (OMW5 + OMW4)/2 = 83/200.
    assert (s[2].omw, s[3].omw, s[5].omw) == (F(3, 4), F(133, 200), F(83, 200))
    assert (s[4].omw, s[6].omw) == (F(83, 200), F(83, 200))
    assert (s[4].oomw, s[6].oomw) == (F(27, 50), F(83, 200))
    assert [(x.number, x.rank) for x in standings(st)] == [
        (1, 1), (2, 2), (3, 3), (5, 4), (4, 5), (6, 6)]


def test_br_de_tb_1_exact_ties_share_a_rank_1_1_3_3() -> None:
    # Two identical pods: 1>2, 3>4 → (1, 3) tied and (2, 4) tied: ranks 1, 1, 3, 3.
    st = _state({1: "A", 2: "B", 3: "C", 4: "D"}, [_round(1, [(1, 2, 1), (3, 4, 3)])], {},
                swiss_rounds=1)
    assert [(x.number, x.rank) for x in standings(st)] == [(1, 1), (3, 1), (2, 3), (4, 3)]


def test_br_de_tb_1_oomw_breaks_equal_wins_and_omw() -> None:
    # R1: 4>3, 1>6, 2>5.  R2: 3>5, 2>1, 6>4.  R_total 2.
    rounds = [_round(1, [(3, 4, 4), (6, 1, 1), (5, 2, 2)]),
              _round(2, [(3, 5, 3), (1, 2, 2), (4, 6, 6)])]
    st = _state({n: f"P{n}" for n in range(1, 7)}, rounds,
                {5: PlayerRecord(number=5, second_loss_round=2)}, swiss_rounds=2)
    # MW%: 2 → 1; 1, 3, 4, 6 → 1/2; 5 → 0.33 (0-2).
    # OMW%: 1 = (MW6 + MW2)/2 = 3/4; 6 = (MW1 + MW4)/2 = 1/2; 4 = (MW3 + MW6)/2 = 1/2;
    #       3 = (MW4 + MW5)/2 = 83/200; 2 = (MW5 + MW1)/2 = 83/200; 5 = (MW2 + MW3)/2 = 3/4.
    # OOMW%: 6 = (3/4 + 1/2)/2 = 5/8 > 4 = (83/200 + 1/2)/2 = 183/400 → 6 above 4.
    s = _by_number(st)
    assert (s[6].wins, s[6].omw, s[6].oomw) == (1, F(1, 2), F(5, 8))
    assert (s[4].wins, s[4].omw, s[4].oomw) == (1, F(1, 2), F(183, 400))
    assert [(x.number, x.rank) for x in standings(st)] == [
        (2, 1), (1, 2), (6, 3), (4, 4), (3, 5), (5, 6)]


def test_br_swiss_tb_4_bye_rounds_add_no_opponent() -> None:
    # R1: 1>2, bye 3.  R2: 3>1, bye 2.  3's only opponent is 1; 2's only opponent is 1.
    rounds = [_round(1, [(1, 2, 1)], bye=3), _round(2, [(3, 1, 3)], bye=2)]
    s = _by_number(_state({1: "A", 2: "B", 3: "C"}, rounds, {}, swiss_rounds=2))
    assert s[1].mw == s[2].mw == F(1, 2) and s[3].mw == F(1)
    assert s[3].omw == s[1].mw            # divisor 1, not 2
    assert s[2].omw == s[1].mw
    assert s[1].omw == (s[2].mw + s[3].mw) / 2
    assert (s[2].byes, s[3].byes) == (1, 1)


def test_drop_after_own_result_in_an_open_round_counts_that_round() -> None:
    # R1: 1>2.  R2 (open): 2>1 recorded, then 1 drops (AFTER_RESULT): d = 2, L = 1 → rd = 3.
    # The fold counts the player's own completed (still open) round: d = 2, not 1.
    r2 = _round(2, [(2, 1, 2), (3, 4, None)], open_tables=1)
    r2.closed_seq = None
    rounds = [_round(1, [(1, 2, 1), (3, 4, 3)]), r2, _round(3, [(2, 3, 2)])]
    recs = {1: PlayerRecord(number=1, wins=1, losses=1, opponents=[2, 2],
                            status=Status.DROPPED, dropped_round=2,
                            dropped_after_rounds=2, dropped_losses=1)}
    s = _by_number(_state({n: f"P{n}" for n in range(1, 5)}, rounds, recs, swiss_rounds=3))
    assert s[1].mw == F(33, 100)          # 1 / 3, not 1 / 2 = 0.50


# --- JSON / CSV (docs/DESIGN.md §4: no floats) ------------------------------------------------

def _no_floats(x: Any) -> bool:
    if isinstance(x, float):
        return False
    if isinstance(x, dict):
        return all(_no_floats(v) for v in x.values())
    if isinstance(x, list):
        return all(_no_floats(v) for v in x)
    return True


def test_standings_json_contract() -> None:
    doc = standings_json(_hotc_event())
    assert doc["rounds"] == 2 and doc["champion"] == G
    assert _no_floats(doc)
    rows = {r["number"]: r for r in doc["players"]}
    assert [r["number"] for r in doc["players"]] == [G, A, C, F_, E, B, D]
    assert set(rows[A]) == set(COLUMNS)
    assert rows[G]["name"] == "G" and rows[G]["status"] == "champion"
    # the same kind of value, the same form (issue 7 trap 8): four decimals each
    assert (rows[G]["mw"], rows[G]["mw_percent"]) == ("1/1", "1.0000")
    assert (rows[B]["mw"], rows[B]["mw_percent"]) == ("33/100", "0.3300")
    # W-L is the Swiss record; the top cut's is its own pair of fields
    assert rows[G]["top_cut_wins"] >= 1 and rows[G]["top_cut_losses"] == 0
    assert (rows[C]["omw"], rows[C]["omw_percent"]) == ("133/200", "0.6650")
    # OOMW%(A) = (133/200 + 133/200) / 2 = 133/200; OOMW%(F) = OMW%(E) = 3/4.
    assert (rows[A]["oomw"], rows[A]["oomw_percent"]) == ("133/200", "0.6650")
    assert rows[F_]["oomw_percent"] == "0.7500"


def test_tc02_display_truncates_to_four_decimals() -> None:
    a, b, c, d, e, f, g = range(1, 8)
    rounds = [
        _round(1, [(a, b, a), (c, d, c), (e, f, e)], bye=g),
        _round(2, [(a, c, c), (e, g, g), (b, d, b)], bye=f),
        _round(3, [(c, g, g), (a, e, a), (b, f, f)], bye=d),
    ]
    rows = {r["number"]: r for r in standings_json(
        _state(dict(zip(range(1, 8), "ABCDEFG", strict=True)), rounds, {}, 3))["players"]}
    assert rows[c]["omw"] == "199/300" and rows[c]["omw_percent"] == "0.6633"
    assert rows[a]["mw_percent"] == "0.6600"        # 2/3 truncated to 0.66, not 0.67
    assert rows[b]["oomw_percent"] == "0.4216"      # 253/600 = 0.42166…
    assert rows[e]["omw_percent"] == "0.7733"


def test_standings_csv_same_rows_as_json() -> None:
    st = _hotc_event()
    parsed = list(csv.reader(io.StringIO(standings_csv(st))))
    assert parsed[0] == list(COLUMNS)
    doc = standings_json(st)["players"]
    assert len(parsed) == 1 + len(doc)
    for line, row in zip(parsed[1:], doc, strict=True):
        assert line == ["" if row[c] is None else str(row[c]) for c in COLUMNS]


def test_empty_state() -> None:
    st = TournamentState()
    assert standings(st) == []
    assert standings_json(st) == {"players": [], "rounds": 0, "champion": None}
    assert standings_csv(st) == ",".join(COLUMNS) + "\n"


def test_amb_h15_cut_player_who_drops_in_the_bracket_goes_out_that_round() -> None:
    # Cut of 4 after R1 (1>2, 3>4).  R2 semifinals: 1>4 played; 2 drops after pairings and
    # loses 3 v 2 by drop (status dropped, no cut_finish in the record).  R3: 1>3.
    r2 = _round(2, [(1, 4, 1), (3, 2, 3)], phase=Phase.TOP_CUT)
    r2.tables[1].result.outcome = Outcome.DROP  # type: ignore[union-attr]
    rounds = [_round(1, [(1, 2, 1), (3, 4, 3)]), r2,
              _round(3, [(1, 3, 1)], phase=Phase.TOP_CUT)]
    recs = {1: PlayerRecord(number=1, status=Status.CHAMPION),
            2: PlayerRecord(number=2, status=Status.DROPPED, dropped_round=2,
                            dropped_after_rounds=1, dropped_losses=1),
            3: PlayerRecord(number=3, status=Status.CUT, cut_finish=3),
            4: PlayerRecord(number=4, status=Status.CUT, cut_finish=2)}
    st = _state({1: "A", 2: "B", 3: "C", 4: "D"}, rounds, recs, swiss_rounds=1,
                cut=[1, 2, 3, 4], champion=1)
    rows = [(x.number, x.rank, x.status, x.cut_finish) for x in standings(st)]
    # 2 and 4 both went out in round 2; equal Swiss wins (0); OMW% of both = MW%(1 or 3) = 1.
    assert rows == [(1, 1, "champion", None), (3, 2, "cut", 3), (2, 3, "dropped", 2),
                    (4, 3, "cut", 2)]


def test_standings_json_encodes_canonically() -> None:
    doc = standings_json(_hotc_event())
    assert msgspec.json.decode(msgspec.json.encode(doc, order="sorted")) == doc
