"""Issue 21, items 16–21: officiating and corrections that gave wrong results — each test
is named after the defect it pins (and failed on the main it was written against).

Events go through the real aggregate and SQLite store; what the command refuses, a rogue
writer's re-signed leaf (``_append_forged``) must make the audit report with its seq."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from audit.verify import verify_ledger
from ledger.errors import RuleError
from ledger.formats.bushiroad.standing_rows import br_standings
from ledger.formats.match import history
from ledger.formats.match.events import ResultCorrected
from ledger.formats.match.model import DecidedBy, LossReason, Outcome, Status
from ledger.formats.officiating.commands import disqualify
from ledger.formats.officiating.correction_commands import amend_result, undrop
from ledger.formats.officiating.events import PlayerUndropped, ResultAmended
from ledger.formats.officiating.floor import ChallengeDecided, ChallengeRaised, RulingMade
from ledger.formats.officiating.floor_commands import (
    decide_challenge,
    make_ruling,
    raise_challenge,
)
from ledger.formats.officiating.floor_rules import remaining
from tests.conftest import HJ, JUDGE, SCOREKEEPER, public
from tests.helpers.officiating import (
    LOG,
    _append_forged,
    _codes,
    _rows,
    finish_round,
    pair,
    setup,
    table_of,
)


# -- item 16: a DQ's forced loss stays a loss --------------------------------------------------
def test_defect16_correction_cannot_turn_a_dq_forced_loss_into_a_win(tmp_path: Path) -> None:
    loc, led = setup(tmp_path, players=4, swiss_rounds=3)
    pair(led)
    rnd, tab = table_of(led, 1)
    events = led.write(LOG, lambda t, now: disqualify(t, HJ, now, number=1, section="4.1",
                                                      reason="marked cards"))
    forced = events[-1]
    assert forced.kind == "result_recorded" and list(forced.body.losers) == [1]
    opp = next(p for p in tab.players if p != 1)
    before = _rows(loc)
    with pytest.raises(RuleError) as err:      # BR-PEN-RANK-9(a): the command refuses
        led.write(LOG, lambda t, now: t.correct_result(
            JUDGE, now, round_no=rnd.number, table=tab.table, outcome=Outcome.WIN, winner=1,
            reason="judge's call"))
    assert err.value.rule == "BR-PEN-RANK-9" and "no correction" in err.value.message
    assert _rows(loc) == before                  # nothing written
    # a correction that keeps the loss (the score) is still allowed
    led.write(LOG, lambda t, now: t.correct_result(
        JUDGE, now, round_no=rnd.number, table=tab.table, outcome=Outcome.WIN, winner=opp,
        reason="score"))
    current = _rows(loc)[-1][0]
    led.close()
    g = [1, 0] if tab.players[0] == 1 else [0, 1]
    body = ResultCorrected(round=rnd.number, table=tab.table, corrects_seq=current, winner=1,
                           losers=[opp], outcome=Outcome.WIN, loss_reasons=[LossReason.PLAY],
                           games=g, decided_by=DecidedBy.PLAYED, reason="forged")
    seq = _append_forged(loc, body, JUDGE)
    assert seq in _codes(loc)["penalty_not_applied"]      # and the audit reports it


def test_defect16_amendment_cannot_turn_a_dq_forced_loss_into_a_win(tmp_path: Path) -> None:
    loc, led = setup(tmp_path, players=6, swiss_rounds=3)
    pair(led)
    rnd, tab = table_of(led, 1)
    led.write(LOG, lambda t, now: disqualify(t, HJ, now, number=1, section="4.1",
                                             reason="marked cards"))
    finish_round(led)
    pair(led)
    opp = next(p for p in tab.players if p != 1)
    with pytest.raises(RuleError) as err:
        led.write(LOG, lambda t, now: amend_result(t, HJ, now, round_no=1, table=tab.table,
                                                   winner=1, reason="x"))
    assert err.value.rule == "BR-PEN-RANK-9"
    st = led.load(LOG).state
    row = history.get(st.fmt.officiating, 1, tab.table)
    assert row is not None and row.seq is not None
    led.close()
    body = ResultAmended(round=1, table=tab.table, corrects_seq=row.seq, winner=1,
                         losers=[opp], outcome=Outcome.WIN, loss_reasons=[LossReason.PLAY],
                         reason="forged")
    seq = _append_forged(loc, body, HJ)
    assert seq in _codes(loc)["penalty_not_applied"]
    del rnd


# -- item 17: undecided appeals count toward the challenge limit -------------------------------
def test_defect17_challenge_limit_counts_undecided_appeals(tmp_path: Path) -> None:
    loc, led = setup(tmp_path, players=4, swiss_rounds=2, challenge_limit=1)
    pair(led)
    rnd, tab = table_of(led, 1)
    f = tab.players[0]
    r = led.write(LOG, lambda t, now: make_ruling(t, JUDGE, now, round_no=rnd.number,
                                                  table=tab.table, question="q", ruling="r"))
    raised = [led.write(LOG, lambda t, now: raise_challenge(t, JUDGE, now, ruling_seq=r.seq,
                                                            players=[f]))
              for _ in range(3)]
    assert [list(c.body.refused) for c in raised] == [[], [f], [f]]   # AMB-B26
    assert remaining(led.load(LOG).state, f) == 0                     # never "−2 left"
    # the first appeal overturned: its stake comes back (BR-APPEAL-3)
    led.write(LOG, lambda t, now: decide_challenge(t, HJ, now, challenge_seq=raised[0].seq,
                                                   ruling="hj", same_as_first=False))
    assert remaining(led.load(LOG).state, f) == 1
    assert verify_ledger(loc, LOG, None).ok
    c = led.write(LOG, lambda t, now: raise_challenge(t, JUDGE, now, ruling_seq=r.seq,
                                                      players=[f]))
    assert list(c.body.refused) == []
    led.close()
    # a rogue second appeal, accepted while the first is undecided: the audit reports it
    seq = _append_forged(loc, ChallengeRaised(ruling_seq=r.seq, players=[f]), JUDGE)
    assert seq in _codes(loc)["challenge_limit_exceeded"]


# -- item 18: the head judge's own first ruling in a multi-judge event -------------------------
def test_defect18_head_judge_cannot_rule_first_or_decide_own_ruling_appeal(
        tmp_path: Path) -> None:
    loc, led = setup(tmp_path, players=4, swiss_rounds=2)    # a judge besides the HJ
    pair(led)
    rnd, tab = table_of(led, 1)
    before = _rows(loc)
    with pytest.raises(RuleError) as err:                    # BR-APPEAL-2, BR-OFF-4
        led.write(LOG, lambda t, now: make_ruling(t, HJ, now, round_no=rnd.number,
                                                  table=tab.table, question="q", ruling="r"))
    assert err.value.rule == "BR-APPEAL-2" and "floor judge" in err.value.message
    assert _rows(loc) == before
    led.close()
    # a rogue head-judge ruling, appealed, then decided by the same head judge
    ruling = _append_forged(loc, RulingMade(round=rnd.number, table=tab.table, question="q",
                                            ruling="r"), HJ)
    appeal = _append_forged(loc, ChallengeRaised(ruling_seq=ruling,
                                                 players=[tab.players[0]]), JUDGE)
    decided = _append_forged(loc, ChallengeDecided(challenge_seq=appeal, ruling="upheld",
                                                   same_as_first=True,
                                                   decrement=[tab.players[0]]), HJ)
    codes = _codes(loc)
    assert ruling in codes["role_not_permitted"] and decided in codes["role_not_permitted"]


def test_defect18_single_judge_event_head_judge_rules_and_decides(tmp_path: Path) -> None:
    loc, led = setup(tmp_path, players=4, swiss_rounds=2)
    led.write(LOG, lambda t, now: t.revoke_official(public(JUDGE).key_id, "left", HJ, now))
    pair(led)
    rnd, tab = table_of(led, 1)
    r = led.write(LOG, lambda t, now: make_ruling(t, HJ, now, round_no=rnd.number,
                                                  table=tab.table, question="q", ruling="r"))
    c = led.write(LOG, lambda t, now: raise_challenge(t, HJ, now, ruling_seq=r.seq,
                                                      players=[tab.players[0]]))
    led.write(LOG, lambda t, now: decide_challenge(t, HJ, now, challenge_seq=c.seq,
                                                   ruling="upheld", same_as_first=True))
    assert verify_ledger(loc, LOG, None).ok


# -- item 19: undoing a drop made after the pairing --------------------------------------------
def test_defect19_undrop_after_pairing_takes_back_the_forfeit_loss(tmp_path: Path) -> None:
    loc, led = setup(tmp_path, players=4, swiss_rounds=2)
    pair(led)
    rnd, tab = table_of(led, 1)
    opp = next(p for p in tab.players if p != 1)
    dropped = led.write(LOG, lambda t, now: t.drop_player(SCOREKEEPER, now, 1))
    forfeit = next(e for e in dropped if e.kind == "result_recorded")
    st = led.load(LOG).state
    assert (st.fmt.records[1].losses, st.fmt.records[opp].wins) == (1, 1)
    events, lines = led.write(LOG, lambda t, now: undrop(t, HJ, now, number=1,
                                                         reason="wrong player marked"))
    assert events[0].body.forfeit_seq == forfeit.seq
    assert any("taken back" in line for line in lines)
    st = led.load(LOG).state
    r1, ro = st.fmt.records[1], st.fmt.records[opp]
    assert r1.status is Status.ACTIVE and (r1.wins, r1.losses) == (0, 0)
    assert (ro.wins, ro.losses) == (0, 0)
    _rnd, now_tab = table_of(led, 1)
    assert now_tab.result is None                # the match is played and recorded
    finish_round(led)
    assert verify_ledger(loc, LOG, None).ok
    pair(led)
    dropped = led.write(LOG, lambda t, now: t.drop_player(SCOREKEEPER, now, 2))
    led.close()
    # a rogue undrop citing a seq that is not the standing forfeit: the audit reports it
    seq = _append_forged(loc, PlayerUndropped(number=2, round=2, reason="x",
                                              forfeit_seq=dropped[0].seq), HJ)
    assert seq in _codes(loc)["result_mismatch"]


def test_defect19_undrop_keep_forfeit_says_the_loss_stands(tmp_path: Path) -> None:
    loc, led = setup(tmp_path, players=4, swiss_rounds=2)
    pair(led)
    led.write(LOG, lambda t, now: t.drop_player(SCOREKEEPER, now, 1))
    events, lines = led.write(LOG, lambda t, now: undrop(
        t, HJ, now, number=1, reason="came back", keep_forfeit=True))
    assert isinstance(events[0].body.forfeit_seq, msgspec.UnsetType)
    assert any("stands (BR-DROP-2" in line for line in lines)
    st = led.load(LOG).state
    assert st.fmt.records[1].losses == 1 and st.fmt.records[1].status is Status.ACTIVE
    finish_round(led)
    assert verify_ledger(loc, LOG, None).ok


# -- item 20: a DE amendment that would eliminate a fighter who played on ----------------------
def test_defect20_de_amend_eliminating_a_fighter_who_played_later_is_refused(
        tmp_path: Path) -> None:
    loc, led = setup(tmp_path, "bushiroad-de", players=8)
    for _ in range(3):
        pair(led)
        finish_round(led)
    st = led.load(LOG).state
    # a fighter who won round 1, lost round 2 and played round 3
    p = next(n for n, r in sorted(st.fmt.records.items())
             if r.played[:2] == "WL" and len(r.played) >= 3 and r.played[2] != "-")
    rows = history.round_rows(st.fmt.officiating, 1)
    table = next(t for t, row in rows.items() if p in row.players)
    opp = next(x for x in rows[table].players if x != p)
    before = _rows(loc)
    with pytest.raises(RuleError) as err:
        led.write(LOG, lambda t, now: amend_result(t, HJ, now, round_no=1, table=table,
                                                   winner=opp, reason="slip swapped"))
    assert err.value.rule == "BR-DE-1" and "played round(s) 3" in err.value.message
    assert "penalty" in (err.value.hint or "")
    assert _rows(loc) == before                               # nothing written
    assert len(br_standings(led.load(LOG).state)) == 8         # the event stays readable
    led.close()
    body = ResultAmended(round=1, table=table, corrects_seq=rows[table].seq or 0,
                         winner=opp, losers=[p], outcome=Outcome.WIN,
                         loss_reasons=[LossReason.PLAY], reason="forged")
    seq = _append_forged(loc, body, HJ)
    assert seq in _codes(loc)["rule_violation"]                # and the audit reports it
