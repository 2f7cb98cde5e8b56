"""RULES.md cases TC-07 … TC-11 (HotC), on the same pure rule functions the commands and
the audit use."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.errors import RuleError
from ledger.formats.hotc.cut import (
    cut_spots,
    eligible_pool,
    stop_rule,
    undefeated,
)
from ledger.formats.hotc.results import decide_result
from ledger.formats.match.bracket import bracket_slots, bracket_tables
from ledger.formats.match.model import LossReason, Outcome, Phase, PlayerRecord, Status
from ledger.formats.match.pairing import Entrant, bye_candidates, pair_swiss

A, B, C, D, E, F, G, H, I, J, K, L = range(1, 13)


def rec(n: int, wins: int, reasons: list[LossReason],
        status: Status = Status.ACTIVE) -> PlayerRecord:
    return PlayerRecord(number=n, wins=wins, losses=len(reasons), loss_reasons=reasons,
                        status=status)


P, T, S = LossReason.PLAY, LossReason.TIMEOUT_DOUBLE, LossReason.TIMEOUT_SLOW_PLAY


def tc07_after_r2() -> list[PlayerRecord]:
    return [rec(A, 2, []), rec(C, 2, []), rec(E, 2, []),
            rec(B, 1, [S]), rec(D, 1, [P]), rec(F, 1, [P]), rec(I, 1, [P]), rec(L, 1, [T]),
            rec(G, 0, [P, P], Status.ELIMINATED), rec(H, 0, [P, P], Status.ELIMINATED),
            rec(J, 0, [P, P], Status.ELIMINATED), rec(K, 0, [T, P], Status.ELIMINATED)]


def test_tc07_stop_drop_window_eligibility_and_cut() -> None:
    recs = tc07_after_r2()
    assert undefeated(recs) == [A, C, E]
    assert stop_rule(3, 4)                       # 3 < 4: stop (HOTC-STOP-1)
    assert cut_spots(4, 3) == 1
    next(r for r in recs if r.number == D).status = Status.DROPPED   # drop window
    assert eligible_pool(recs) == [F, I]         # B slow play, D dropped, L time loss


@settings(max_examples=40, deadline=None)
@given(st.permutations([A, B, C, D, E, F, G, H, I, J, K, L]))
def test_tc07_round_2_pairing_avoids_rematch_with_one_pair_down(order: list[int]) -> None:
    r1 = [(A, G), (B, H), (C, I), (D, J), (E, F), (K, L)]
    opp: dict[int, set[int]] = {n: set() for n in range(1, 13)}
    for a, b in r1:
        opp[a].add(b)
        opp[b].add(a)
    winners = {A, B, C, D, E}
    ents = [Entrant(number=n, wins=1 if n in winners else 0, opponents=frozenset(opp[n]))
            for n in range(1, 13)]
    pairs, _ = pair_swiss(ents, order)
    assert not any(p.rematch for p in pairs)
    cross = [p for p in pairs if p.cross]
    assert len(cross) == 1 and cross[0].high in winners and cross[0].low not in winners
    assert {cross[0].high, cross[0].low} != {E, F}    # Rule A


@pytest.mark.parametrize(("x0", "stop"), [(8, False), (7, True), (0, True)])
def test_tc08_stop_boundary(x0: int, stop: bool) -> None:
    assert stop_rule(x0, 8) is stop
    if x0 == 0:
        assert cut_spots(8, 0) == 8


@settings(max_examples=40, deadline=None)
@given(st.permutations(range(1, 35)))
def test_tc10a_rule_b_avoids_second_pair_down(order: list[int]) -> None:
    # 9 X-0 (player 17 had the R2 pair-down) and 26 2-1 minus the bye = 25 … we keep 25
    ents = [Entrant(number=n, wins=3, pair_downs=1 if n == 17 else 0)
            for n in [17, 1, 2, 3, 4, 5, 6, 7, 8]]
    ents += [Entrant(number=n, wins=2) for n in range(9, 35) if n != 17][:25]
    nums = {e.number for e in ents}
    pairs, _ = pair_swiss(ents, [n for n in order if n in nums] +
                          [n for n in sorted(nums) if n not in order])
    down = [p.high for p in pairs if p.cross]
    assert down and 17 not in down


def test_tc10b_bye_candidates_with_earlier_byes() -> None:
    a, b, c, d, e = (Entrant(number=1, wins=3), Entrant(number=2, wins=2),
                     Entrant(number=3, wins=2, byes=1), Entrant(number=4, wins=2, byes=1),
                     Entrant(number=5, wins=2))
    assert bye_candidates([a, b, c, d, e]) == [2, 5]
    b2, e2 = Entrant(number=2, wins=2, byes=1), Entrant(number=5, wins=2, byes=1)
    assert bye_candidates([a, b2, c, d, e2]) == [1]                       # proposal
    assert bye_candidates([a, b2, c, d, e2], "least_wins") == [2, 3, 4, 5]  # flag


def test_tc11a_swiss_timeout_is_double_loss_and_time_loss() -> None:
    got = decide_result(Phase.SWISS, [1, 2], Outcome.TIMEOUT)
    assert (got.winner, got.losers) == (None, [1, 2])
    assert got.loss_reasons == [LossReason.TIMEOUT_DOUBLE] * 2


def test_tc11b_upheld_slow_play_call() -> None:
    got = decide_result(Phase.SWISS, [1, 2], Outcome.SLOW_PLAY, slow_play=[1])
    assert (got.winner, got.losers, got.loss_reasons) == (2, [1], [S])


def test_tc11c_double_loss_of_one_loss_players_eliminates_both() -> None:
    recs = [rec(1, 1, [P]), rec(2, 1, [P])]
    got = decide_result(Phase.SWISS, [1, 2], Outcome.TIMEOUT)
    for r in recs:
        r.losses += 1 if r.number in got.losers else 0
    assert all(r.losses == 2 for r in recs)


def test_tc11d_both_called_is_supervised_not_a_timeout() -> None:
    with pytest.raises(RuleError, match="HOTC-TIME-3"):
        decide_result(Phase.SWISS, [1, 2], Outcome.SLOW_PLAY, slow_play=[1, 2])
    got = decide_result(Phase.SWISS, [1, 2], Outcome.WIN, winner=2, slow_play=[1, 2])
    assert got.winner == 2


def test_tc11e_top_cut_timeout_turn_player_loses() -> None:
    got = decide_result(Phase.TOP_CUT, [1, 2], Outcome.TIMEOUT, turn_player=2)
    assert (got.winner, got.losers, got.loss_reasons) == (1, [2], [LossReason.TIMEOUT_TURN_PLAYER])


def test_tc11f_top_cut_upheld_call_beats_turn_player_rule() -> None:
    got = decide_result(Phase.TOP_CUT, [1, 2], Outcome.SLOW_PLAY, slow_play=[1])
    assert (got.winner, got.losers) == (2, [1])


def test_amb_h9_bracket_with_empty_slots() -> None:
    slots = bracket_slots([5, 3, 9, 1, 7, 2], 8)
    assert slots == [5, 3, 9, 1, 7, None, 2, None]
    matches, advances = bracket_tables(slots)
    assert matches == [[5, 3], [9, 1]] and advances == [7, 2]
    assert len(bracket_slots([1, 2, 3], 8)) == 4      # > half empty: smaller bracket


def test_hotc_penalty_loss_naming_a_player_off_the_table_cites_no_bushiroad_rule() -> None:
    """Issue 27 item 8: HotC's own result rule refused a loss by penalty naming a player
    who is not at the table citing BR-PEN-RANK-8 (a Bushiroad penalty-rank rule); it is
    the result rule every HotC result names its players by (LEDGER-RES-1)."""
    import pytest

    from ledger.errors import RuleError
    from ledger.formats.hotc.results import decide_result
    from ledger.formats.match.model import Outcome, Phase

    for loser in (3, None):
        with pytest.raises(RuleError) as exc:
            decide_result(Phase.SWISS, [1, 2], Outcome.PENALTY, loser=loser)
        assert exc.value.rule == "LEDGER-RES-1", exc.value.message
        assert "BR-" not in exc.value.message, exc.value.message
