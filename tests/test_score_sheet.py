"""BR-PEN-3.18.3 (PG §3.18.3, AMB-B21: the one automatic raise), through the real
aggregate and SQLite store: losing a score sheet is DQ; once the organizer or head judge
re-issues it the penalty is W ~ LoM; in an event that records penalties on score sheets a
fighter who continues has the Warning raised to Loss of Match at once, whatever their
earlier penalties.  The audit re-derives the raise and the re-issue each penalty cites."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest

from audit.verify import verify_ledger
from ledger.errors import RuleError
from ledger.formats.match.events import ResultRecorded
from ledger.formats.match.officiating_model import AppliesTo
from ledger.formats.officiating.catalogue import Penalty
from ledger.formats.officiating.commands import offer, reissue_sheet
from ledger.formats.officiating.events import PenaltyIssued
from tests.conftest import HJ, JUDGE, SCOREKEEPER
from tests.helpers.officiating import (
    LOG,
    _append_forged,
    _codes,
    finish_round,
    pair,
    penalize,
    setup,
)


def reissue(led: Any, number: int, signer: Any = HJ) -> Any:
    return led.write(LOG, lambda t, now: reissue_sheet(t, signer, now, number=number,
                                                       reason="scores read back from slips"))


def test_without_a_reissue_losing_the_sheet_is_a_disqualification(tmp_path: Path) -> None:
    _loc, led = setup(tmp_path, tournament_level=2)
    a = offer(led.load(LOG), 1, "3.18.3", Penalty.WARNING)
    assert a.default == "DQ" and a.needs_justification
    with pytest.raises(RuleError, match="justification"):
        penalize(led, 1, "3.18.3", Penalty.WARNING)


def test_reissue_is_the_organizer_or_head_judge(tmp_path: Path) -> None:
    _loc, led = setup(tmp_path)
    for signer in (JUDGE, SCOREKEEPER):
        with pytest.raises(RuleError) as err:
            reissue(led, 1, signer)
        assert err.value.finding == "role_not_permitted"
    [ev] = reissue(led, 1)
    with pytest.raises(RuleError, match="awaits its 3.18.3 penalty"):
        reissue(led, 1)
    assert led.load(LOG).state.fmt.officiating.reissued == {1: ev.seq}


def test_after_a_reissue_the_default_is_warning_to_lom(tmp_path: Path) -> None:
    """penalties_on_score_sheets not set: the judge's Warning stands (no raise)."""
    loc, led = setup(tmp_path, tournament_level=2)
    [re] = reissue(led, 1)
    a = offer(led.load(LOG), 1, "3.18.3", Penalty.WARNING)
    assert a.default == "W ~ LoM" and not a.needs_justification
    [ev] = penalize(led, 1, "3.18.3", Penalty.WARNING)
    b = ev.body
    assert isinstance(b, PenaltyIssued) and b.penalty is Penalty.WARNING
    assert b.reissued_seq == re.seq and b.raised_from is msgspec.UNSET
    assert led.load(LOG).state.fmt.officiating.reissued == {}      # settled
    assert offer(led.load(LOG), 1, "3.18.3", Penalty.WARNING).default == "DQ"
    assert verify_ledger(loc, LOG, None).ok


def test_warning_raised_to_lom_during_a_match(tmp_path: Path) -> None:
    """Penalties on score sheets: the Warning becomes LoM at once — the match in progress
    is lost — regardless of earlier penalties (none needed, no upgrade, no justification)."""
    loc, led = setup(tmp_path, players=6, swiss_rounds=3, penalties_on_score_sheets=True)
    pair(led)
    reissue(led, 1)
    events = penalize(led, 1, "3.18.3", Penalty.WARNING)
    b = events[0].body
    assert isinstance(b, PenaltyIssued)
    assert (b.penalty, b.raised_from, b.upgrade, b.prior) == (
        Penalty.LOSS_OF_MATCH, Penalty.WARNING, False, [])
    assert b.applies_to is AppliesTo.CURRENT_MATCH and "3.18.3" in b.description
    res = events[1].body
    assert isinstance(res, ResultRecorded) and res.losers == [1]
    finish_round(led)
    assert verify_ledger(loc, LOG, None).ok


def test_raise_between_rounds_takes_the_next_match(tmp_path: Path) -> None:
    loc, led = setup(tmp_path, players=6, swiss_rounds=3, penalties_on_score_sheets=True)
    pair(led)
    finish_round(led)
    penalize(led, 1, "3.18.2", Penalty.CAUTION)            # an earlier 3.18 penalty
    reissue(led, 1)
    [ev] = penalize(led, 1, "3.18.3", Penalty.WARNING)
    assert ev.body.penalty is Penalty.LOSS_OF_MATCH
    assert ev.body.applies_to is AppliesTo.NEXT_MATCH
    res = [e.body for e in pair(led) if isinstance(e.body, ResultRecorded)]
    assert [r.losers for r in res] == [[1]]
    finish_round(led)
    assert verify_ledger(loc, LOG, None).ok


def test_a_fighter_who_does_not_continue_keeps_the_warning(tmp_path: Path) -> None:
    """The raise is for a fighter who continues: one who dropped first is not raised."""
    loc, led = setup(tmp_path, players=6, swiss_rounds=3, penalties_on_score_sheets=True)
    pair(led)
    finish_round(led)
    reissue(led, 1)
    led.write(LOG, lambda t, now: t.drop_player(SCOREKEEPER, now, 1))
    [ev] = penalize(led, 1, "3.18.3", Penalty.WARNING)
    assert ev.body.penalty is Penalty.WARNING
    assert verify_ledger(loc, LOG, None).ok


def test_audit_flags_a_warning_that_should_have_been_raised(tmp_path: Path) -> None:
    loc, led = setup(tmp_path, players=6, swiss_rounds=3, penalties_on_score_sheets=True)
    [re] = reissue(led, 1)
    led.close()
    body = PenaltyIssued(number=1, infraction="3.18.3", penalty=Penalty.WARNING, level=1,
                         round=0, reissued_seq=re.seq)
    seq = _append_forged(loc, body, JUDGE)
    assert seq in _codes(loc)["penalty_mismatch"]


def test_audit_flags_a_raise_or_reissue_that_is_not_on_the_log(tmp_path: Path) -> None:
    loc, led = setup(tmp_path, players=6, swiss_rounds=3)
    led.close()
    forged = PenaltyIssued(number=1, infraction="3.18.3", penalty=Penalty.WARNING,
                           level=1, round=0, reissued_seq=3, justification="x")
    seq = _append_forged(loc, forged, JUDGE)
    assert seq in _codes(loc)["penalty_mismatch"]


def test_audit_flags_a_raise_without_its_conditions(tmp_path: Path) -> None:
    loc, led = setup(tmp_path, players=6, swiss_rounds=3, tournament_level=2)
    [re] = reissue(led, 1)                    # penalties are not recorded on score sheets
    led.close()
    forged = PenaltyIssued(number=1, infraction="3.18.3", penalty=Penalty.LOSS_OF_MATCH,
                           level=2, round=0, reissued_seq=re.seq,
                           raised_from=Penalty.WARNING, applies_to=AppliesTo.NEXT_MATCH,
                           description="x", report_to=HJ.key_id)
    seq = _append_forged(loc, forged, JUDGE)
    assert seq in _codes(loc)["penalty_mismatch"]
