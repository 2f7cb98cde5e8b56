"""Issue 21, items 16–21: officiating and corrections that gave wrong results — each test
is named after the defect it pins (and failed on the main it was written against).

Events go through the real aggregate and SQLite store; what the command refuses, a rogue
writer's re-signed leaf (``_append_forged``) must make the audit report with its seq."""

from __future__ import annotations

from pathlib import Path

import pytest

from audit.verify import verify_ledger
from ledger.errors import RuleError
from ledger.formats.match.events import ResultCorrected
from ledger.formats.match.model import DecidedBy, LossReason, Outcome
from ledger.formats.officiating.commands import disqualify
from ledger.formats.officiating.correction_commands import amend_result
from ledger.formats.officiating.events import ResultAmended
from tests.conftest import HJ, JUDGE
from tests.test_officiating import LOG, _append_forged, _codes, _rows, finish_round, pair, \
    setup, table_of


# -- item 16: a DQ's forced loss stays a loss ---------------------------------------------------
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
    from ledger.formats.officiating import history
    row = history.get(st.fmt.officiating, 1, tab.table)
    assert row is not None and row.seq is not None
    led.close()
    body = ResultAmended(round=1, table=tab.table, corrects_seq=row.seq, winner=1,
                         losers=[opp], outcome=Outcome.WIN, loss_reasons=[LossReason.PLAY],
                         reason="forged")
    seq = _append_forged(loc, body, HJ)
    assert seq in _codes(loc)["penalty_not_applied"]
    del rnd
