"""TC-23 with the §11 correction: both players of a table leave after the pairing
(BR-DROP-2, AMB-B17, AMB-B24) — the table has no winner (Swiss: 0 points each; DE and
HotC: a loss each), in every format that plays matches, through the real aggregate and
SQLite store; the audit re-derives it (``ledger.formats.match.departure``) and flags a
forged double loss or a scorekeeper's correction that is not one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from audit.verify import verify_ledger
from ledger.errors import RuleError
from ledger.formats.bushiroad.standing_rows import br_standings
from ledger.formats.match.events import DropTiming, ResultCorrected, ResultRecorded
from ledger.formats.match.model import DecidedBy, LossReason, Outcome, Status
from ledger.formats.match.plan import open_round
from ledger.formats.officiating.commands import disqualify
from tests.conftest import HJ, JUDGE, SCOREKEEPER
from tests.helpers.fold_counts import scenarios_keep_the_counts
from tests.helpers.officiating import LOG, _append_forged, _codes, finish_round, pair, setup


def _first_table(led: Any) -> tuple[int, int, int, int]:
    rnd = open_round(led.load(LOG).state)
    assert rnd is not None
    v, w = rnd.tables[0].players
    return rnd.number, rnd.tables[0].table, v, w


def _drop(led: Any, number: int, signer: Any = SCOREKEEPER) -> list[Any]:
    return led.write(LOG, lambda t, now: t.drop_player(signer, now, number))


@pytest.mark.parametrize("fmt", ["bushiroad-swiss", "bushiroad-de", "hotc-swiss-de"])
def test_tc23_double_drop_after_pairing_has_no_winner(tmp_path: Path, fmt: str) -> None:
    """V and W, paired in R2, both drop after the pairing: R2 is a loss for both
    (drop_after_pairing) and nobody wins it; a scorekeeper records both drops."""
    loc, led = setup(tmp_path, fmt, players=8,
                     **({"swiss_rounds": 3} if fmt == "bushiroad-swiss" else {}))
    pair(led)
    finish_round(led)
    pair(led)
    rnd_no, table, v, w = _first_table(led)
    before = {p: (r.wins, r.losses) for p, r in led.load(LOG).state.fmt.records.items()}
    first = _drop(led, v)
    assert first[0].body.timing is DropTiming.AFTER_PAIRING
    res = first[1].body
    assert isinstance(res, ResultRecorded) and (res.winner, res.losers) == (w, [v])
    second = _drop(led, w)
    assert [e.kind for e in second] == ["player_dropped", "result_corrected"]
    assert second[0].body.timing is DropTiming.AFTER_PAIRING
    fix = second[1].body
    assert isinstance(fix, ResultCorrected) and fix.corrects_seq == first[1].seq
    assert (fix.winner, fix.losers) == (None, sorted([v, w]))
    assert fix.loss_reasons == [LossReason.DROP_AFTER_PAIRING] * 2
    assert "BR-DROP-2" in fix.reason
    st = led.load(LOG).state
    for p in (v, w):
        rec = st.fmt.records[p]
        assert (rec.wins, rec.losses) == (before[p][0], before[p][1] + 1)   # a loss each
        assert rec.played[rnd_no - 1] == "X" and rec.status is Status.DROPPED
    if fmt.startswith("bushiroad"):
        rows = {r.number: r for r in br_standings(st)}
        assert rows[w].points == before[w][0] and rows[v].points == before[v][0]  # 0 each
    finish_round(led)
    assert verify_ledger(loc, LOG, None).ok


def test_winner_dropping_after_the_round_closed_keeps_the_win(tmp_path: Path) -> None:
    """Ledger order decides (AMB-B17): once the round is closed, W's drop is before the
    next pairing and the win by V's drop stands."""
    loc, led = setup(tmp_path, players=4, swiss_rounds=3)
    pair(led)
    _rnd, _t, v, w = _first_table(led)
    _drop(led, v)
    finish_round(led)
    evs = _drop(led, w)
    assert [e.kind for e in evs] == ["player_dropped"]
    assert evs[0].body.timing is DropTiming.BEFORE_PAIRING
    assert led.load(LOG).state.fmt.records[w].wins == 1
    assert verify_ledger(loc, LOG, None).ok


def test_a_played_win_stands_when_the_loser_drops_then_the_winner(tmp_path: Path) -> None:
    """A beat B by play; B drops after the result, then A: A's win was played, not a
    forfeit, so A keeps it (the drop is after the result)."""
    _loc, led = setup(tmp_path, players=6, swiss_rounds=3)
    pair(led)
    rnd_no, table, a, b = _first_table(led)
    led.write(LOG, lambda t, now: t.record_result(SCOREKEEPER, now, round_no=rnd_no,
                                                  table=table, outcome=Outcome.WIN, winner=a))
    assert _drop(led, b)[0].body.timing is DropTiming.AFTER_RESULT
    evs = _drop(led, a)
    assert [e.kind for e in evs] == ["player_dropped"]
    assert evs[0].body.timing is DropTiming.AFTER_RESULT
    assert led.load(LOG).state.fmt.records[a].wins == 1


def test_disqualifying_the_winner_of_a_forfeit_leaves_no_winner(tmp_path: Path) -> None:
    """AMB-B24: a DQ after pairings is handled like a drop — V dropped, then W is
    disqualified in the same round: no winner (the head judge signs the correction)."""
    loc, led = setup(tmp_path, "bushiroad-de", players=8)
    pair(led)
    _rnd, _t, v, w = _first_table(led)
    _drop(led, v)
    evs = led.write(LOG, lambda t, now: disqualify(t, HJ, now, number=w, section="4.1",
                                                   reason="marked cards"))
    assert [e.kind for e in evs] == ["player_disqualified", "result_corrected"]
    assert (evs[1].body.winner, evs[1].body.losers) == (None, sorted([v, w]))
    assert "disqualified" in evs[1].body.reason
    finish_round(led)
    assert verify_ledger(loc, LOG, None).ok


def test_a_drop_after_a_lom_forfeit_leaves_no_winner(tmp_path: Path) -> None:
    """BR-DROP-2: the opponent 'received a Loss of Match for that round', then the
    winner by that LoM drops: both lose."""
    from ledger.formats.officiating.catalogue import Penalty
    from ledger.formats.officiating.commands import issue_penalty
    loc, led = setup(tmp_path, players=6, swiss_rounds=3, tournament_level=2)
    pair(led)
    _rnd, _t, v, w = _first_table(led)
    led.write(LOG, lambda t, now: issue_penalty(t, JUDGE, now, number=v, section="3.9.2",
                                                penalty=Penalty.LOSS_OF_MATCH,
                                                description="absent"))
    evs = _drop(led, w)
    assert [e.kind for e in evs] == ["player_dropped", "result_corrected"]
    assert evs[1].body.losers == sorted([v, w])
    finish_round(led)
    assert verify_ledger(loc, LOG, None).ok


def test_a_scorekeeper_correction_other_than_the_double_drop_is_refused(
        tmp_path: Path) -> None:
    """The scorekeeper may sign result_corrected only for the BR-DROP-2 double loss: any
    other correction is role_not_permitted, at the command and in the audit."""
    loc, led = setup(tmp_path, players=4, swiss_rounds=3)
    pair(led)
    rnd_no, table, a, b = _first_table(led)
    led.write(LOG, lambda t, now: t.record_result(SCOREKEEPER, now, round_no=rnd_no,
                                                  table=table, outcome=Outcome.WIN, winner=a))
    size = led.load(LOG).state.size
    with pytest.raises(RuleError) as err:
        led.write(LOG, lambda t, now: t.correct_result(
            SCOREKEEPER, now, round_no=rnd_no, table=table, outcome=Outcome.WIN, winner=b,
            reason="slip"))
    assert err.value.finding == "role_not_permitted"
    assert led.load(LOG).state.size == size                     # nothing written
    cur = led.load(LOG).state.fmt.rounds[-1].tables[table - 1].result
    assert cur is not None
    led.close()
    forged = ResultCorrected(round=rnd_no, table=table, winner=b, losers=[a],
                             outcome=Outcome.WIN, loss_reasons=[LossReason.PLAY],
                             corrects_seq=cur.seq, reason="slip", games=[0, 1, 0],
                             decided_by=DecidedBy.PLAYED)
    seq = _append_forged(loc, forged, SCOREKEEPER)
    assert seq in _codes(loc)["role_not_permitted"]


def test_audit_flags_a_double_loss_by_drop_when_the_winner_did_not_leave(
        tmp_path: Path) -> None:
    """A forged correction turning V's drop into a double loss while W is still in."""
    loc, led = setup(tmp_path, players=4, swiss_rounds=3)
    pair(led)
    rnd_no, table, v, w = _first_table(led)
    evs = _drop(led, v)
    led.close()
    forged = ResultCorrected(round=rnd_no, table=table, winner=None, losers=sorted([v, w]),
                             outcome=Outcome.DOUBLE_LOSS,
                             loss_reasons=[LossReason.DROP_AFTER_PAIRING] * 2,
                             corrects_seq=evs[1].seq, reason="both gone", games=[0, 0, 0],
                             decided_by=DecidedBy.DROP)
    seq = _append_forged(loc, forged, JUDGE)
    codes = _codes(loc)
    assert seq in codes["rule_violation"]


def _lom(led: Any, number: int) -> list[Any]:
    from ledger.formats.officiating.catalogue import Penalty
    from ledger.formats.officiating.commands import issue_penalty
    return led.write(LOG, lambda t, now: issue_penalty(
        t, JUDGE, now, number=number, section="3.9.2", penalty=Penalty.LOSS_OF_MATCH,
        description="not at the table"))


@pytest.mark.parametrize(("fmt", "first"), [
    ("bushiroad-swiss", "lom"), ("bushiroad-de", "drop"), ("hotc-swiss-de", "lom")])
def test_lom_for_both_players_of_a_table(tmp_path: Path, fmt: str, first: str) -> None:
    """BR-DROP-2: the winner by the opponent's LoM (or drop) then receives a LoM for that
    match too: both lose, no winner, loss reasons ``penalty``; the judge signs it."""
    from ledger.formats.match.officiating_model import AppliesTo
    loc, led = setup(tmp_path, fmt, players=8, tournament_level=2,
                     **({"swiss_rounds": 3} if fmt == "bushiroad-swiss" else {}))
    pair(led)
    _rnd, _t, v, w = _first_table(led)
    if first == "lom":
        _lom(led, v)
    else:
        _drop(led, v)
    evs = _lom(led, w)
    assert [e.kind for e in evs] == ["penalty_issued", "result_corrected"]
    assert evs[0].body.applies_to is AppliesTo.CURRENT_MATCH
    fix = evs[1].body
    assert (fix.winner, fix.losers) == (None, sorted([v, w]))
    assert fix.loss_reasons == [LossReason.PENALTY] * 2
    st = led.load(LOG).state
    assert st.fmt.records[v].played[0] == st.fmt.records[w].played[0] == "X"
    finish_round(led)
    assert verify_ledger(loc, LOG, None).ok


def test_audit_flags_a_double_loss_by_penalty_without_the_second_lom(
        tmp_path: Path) -> None:
    loc, led = setup(tmp_path, players=4, swiss_rounds=3, tournament_level=2)
    pair(led)
    rnd_no, table, v, w = _first_table(led)
    evs = _lom(led, v)
    led.close()
    forged = ResultCorrected(round=rnd_no, table=table, winner=None, losers=sorted([v, w]),
                             outcome=Outcome.DOUBLE_LOSS,
                             loss_reasons=[LossReason.PENALTY] * 2,
                             corrects_seq=evs[1].seq, reason="both penalised",
                             games=[0, 0, 0], decided_by=DecidedBy.PENALTY)
    seq = _append_forged(loc, forged, JUDGE)
    assert seq in _codes(loc)["rule_violation"]


# -- the same scenarios with the fold's counts checked after every event (issue 22) ----
test_scenarios_keep_the_counts = scenarios_keep_the_counts(globals())
