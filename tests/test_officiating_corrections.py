"""Corrections real events need (issue 9 §7), through the aggregate and the real store:
an earlier round's result amended by the head judge (with its effect on later rounds),
the wrong-table amendment (TC-12), a manual pairing override (an audit notice, not an
error), an undone drop and a late registration; refusals write nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from audit.verify import verify_ledger
from ledger.errors import RuleError
from ledger.formats.bushiroad.standing_rows import br_standings
from ledger.formats.match import history
from ledger.formats.match.model import Outcome, Status
from ledger.formats.match.plan import open_round
from ledger.formats.officiating.amend import Played, amend
from ledger.formats.officiating.correction_commands import (
    add_late,
    amend_result,
    override_pairing,
    undrop,
    wrong_table,
)
from tests.conftest import HJ, JUDGE, SCOREKEEPER
from tests.helpers.fold_counts import scenarios_keep_the_counts
from tests.helpers.officiating import LOG, finish_round, pair, setup


# -- TC-12: the amendment rule ----------------------------------------------------------------
def test_tc12a_source_example_1() -> None:
    A, B, X, Y = 1, 2, 3, 4
    got = amend({1: (A, B), 2: (X, Y)}, [Played(1, (A, Y), A), Played(2, (X, B), B)])
    assert [(a.table, a.winner, a.losers) for a in got] == [(1, A, [B]), (2, X, [Y])]


def test_tc12b_right_pairs_wrong_tables_stand() -> None:
    A, B, X, Y = 1, 2, 3, 4
    got = amend({1: (A, B), 2: (X, Y)}, [Played(1, (X, Y), Y), Played(2, (A, B), A)])
    assert [(a.winner, a.losers, a.stands) for a in got] == [(A, [B], True), (Y, [X], True)]


def test_tc12c_general_rule_three_tables() -> None:
    A, B, X, Y, M, N = 1, 2, 3, 4, 5, 6
    got = amend({1: (A, B), 2: (X, Y), 3: (M, N)},
                [Played(1, (A, Y), Y), Played(2, (X, N), N), Played(3, (M, B), B)])
    assert [(a.winner, a.losers) for a in got] == [(A, [B]), (X, [Y]), (M, [N])]


def test_neither_showed_both_lose() -> None:
    got = amend({1: (1, 2), 2: (3, 4)}, [Played(3, (1, 3), 1), Played(4, (2, 4), 2)])
    assert [(a.winner, a.losers) for a in got] == [(None, [1, 2]), (None, [3, 4])]


def test_tc12_wrong_table_before_next_pairing_corrects_and_penalises(tmp_path: Path) -> None:
    loc, led = setup(tmp_path, tournament_level=2, players=4, swiss_rounds=2)
    pair(led)
    rnd = open_round(led.load(LOG).state)
    assert rnd is not None
    (a, b), (x, y) = rnd.tables[0].players, rnd.tables[1].players
    # played: T1 a v y (a won), T2 x v b (b won): recorded as the assigned tables said
    led.write(LOG, lambda t, now: t.record_result(SCOREKEEPER, now, round_no=1, table=1,
                                                  outcome=Outcome.WIN, winner=b))
    led.write(LOG, lambda t, now: t.record_result(SCOREKEEPER, now, round_no=1, table=2,
                                                  outcome=Outcome.WIN, winner=y))
    events = led.write(LOG, lambda t, now: wrong_table(
        t, HJ, now, round_no=1, played=[Played(1, (a, y), a), Played(2, (x, b), b)],
        reason="seats swapped"))
    kinds = [e.kind for e in events]
    assert kinds.count("result_corrected") == 2 and kinds.count("penalty_issued") == 4
    st = led.load(LOG).state
    assert [t.result.winner for t in st.fmt.rounds[0].tables] == [a, x]
    pens = [e.body for e in events if e.kind == "penalty_issued"]
    assert {p.number for p in pens} == {a, b, x, y}
    assert all(p.infraction == "3.10.2" and p.penalty.value == "warning" for p in pens)
    assert verify_ledger(loc, LOG, None).ok


def test_tc12d_after_the_next_pairing_is_a_head_judge_amendment(tmp_path: Path) -> None:
    loc, led = setup(tmp_path, players=4, swiss_rounds=3)
    pair(led)
    rnd = open_round(led.load(LOG).state)
    assert rnd is not None
    (a, b), (x, y) = rnd.tables[0].players, rnd.tables[1].players
    finish_round(led)            # a and x "won" as recorded
    pair(led)                    # the next round's matching is done
    events = led.write(LOG, lambda t, now: wrong_table(
        t, HJ, now, round_no=1, played=[Played(1, (b, x), b), Played(2, (a, y), a)],
        reason="found after round 2 was paired"))
    # the 3.10.2 penalties first (a no-show double loss cites them), then the amendments
    assert [e.kind for e in events] == ["penalty_issued"] * 4 + ["result_amended"] * 2
    st = led.load(LOG).state
    assert (history.get(st.fmt.officiating, 1, 1).winner,  # type: ignore[union-attr]
            history.get(st.fmt.officiating, 1, 2).winner) == (b, y)  # type: ignore[union-attr]
    assert verify_ledger(loc, LOG, None).ok


# -- an earlier round amended by the head judge --------------------------------------------------
def test_earlier_round_amendment_reports_its_effect(tmp_path: Path) -> None:
    loc, led = setup(tmp_path, "hotc-swiss-de", players=16)
    pair(led)
    finish_round(led)
    pair(led)
    finish_round(led)
    pair(led)
    st = led.load(LOG).state
    row = history.get(st.fmt.officiating, 1, 1)
    assert row is not None
    w, lost = row.winner, row.losers[0]
    before = {n: (r.wins, r.losses) for n, r in st.fmt.records.items()}
    with pytest.raises(RuleError, match="head_judge"):     # a judge may not amend
        led.write(LOG, lambda t, now: amend_result(t, JUDGE, now, round_no=1, table=1,
                                                   winner=lost, reason="x"))
    with pytest.raises(RuleError, match="newest round"):
        led.write(LOG, lambda t, now: amend_result(t, HJ, now, round_no=3, table=1,
                                                   winner=lost, reason="x"))
    events, report = led.write(LOG, lambda t, now: amend_result(
        t, HJ, now, round_no=1, table=1, winner=lost, reason="slip was swapped"))
    assert events[0].body.corrects_seq == row.seq
    after = led.load(LOG).state.fmt.records
    assert (after[w].wins, after[w].losses) == (before[w][0] - 1, before[w][1] + 1)
    assert (after[lost].wins, after[lost].losses) == (before[lost][0] + 1, before[lost][1] - 1)
    assert any("pairings stand" in line for line in report)
    assert after[w].played[0] == "L" and after[lost].played[0] == "W"
    assert verify_ledger(loc, LOG, None).ok


# -- manual pairing override ----------------------------------------------------------------------
def test_override_is_recorded_beside_the_engine_pairing(tmp_path: Path) -> None:
    loc, led = setup(tmp_path, players=6, swiss_rounds=3)
    pair(led)
    st = led.load(LOG).state
    rnd = open_round(st)
    assert rnd is not None
    (a, b), (c, d), (e, f) = (t.players for t in rnd.tables)
    with pytest.raises(RuleError, match="exactly the players"):
        led.write(LOG, lambda t, now: override_pairing(t, HJ, now, pairs=[[a, c], [b, d]],
                                                       reason="x"))
    with pytest.raises(RuleError, match="head_judge"):
        led.write(LOG, lambda t, now: override_pairing(
            t, JUDGE, now, pairs=[[a, c], [b, d], [e, f]], reason="family"))
    [ev] = led.write(LOG, lambda t, now: override_pairing(
        t, HJ, now, pairs=[[a, c], [b, d], [e, f]], reason="siblings at one table"))
    st = led.load(LOG).state
    assert [t.players for t in st.fmt.rounds[-1].tables] == [[a, c], [b, d], [e, f]]
    assert st.fmt.records[a].opponents == [c]
    finish_round(led)
    report = verify_ledger(loc, LOG, None)
    notes = [f for f in report.findings if f.code == "pairing_overridden"]
    assert report.ok and len(notes) == 1 and notes[0].seq == ev.seq
    assert notes[0].severity.value == "info" and "siblings" in notes[0].message


# -- undrop and late registration --------------------------------------------------------------
def test_undrop_before_the_next_pairing_only(tmp_path: Path) -> None:
    loc, led = setup(tmp_path, players=6, swiss_rounds=3)
    pair(led)
    finish_round(led)
    led.write(LOG, lambda t, now: t.drop_player(SCOREKEEPER, now, 3))
    led.write(LOG, lambda t, now: undrop(t, HJ, now, number=3, reason="wrong player"))
    assert led.load(LOG).state.fmt.records[3].status is Status.ACTIVE
    led.write(LOG, lambda t, now: t.drop_player(SCOREKEEPER, now, 4))
    pair(led)
    with pytest.raises(RuleError, match="a later round was paired"):
        led.write(LOG, lambda t, now: undrop(t, HJ, now, number=4, reason="late"))
    finish_round(led)
    assert verify_ledger(loc, LOG, None).ok


def test_late_registration_after_round_one(tmp_path: Path) -> None:
    loc, led = setup(tmp_path, players=5, swiss_rounds=3)
    pair(led)
    finish_round(led)
    with pytest.raises(RuleError, match="fit"):
        led.write(LOG, lambda t, now: add_late(t, HJ, now, name="Kim", byes=1, losses=1,
                                               reason="x"))
    [ev] = led.write(LOG, lambda t, now: add_late(t, HJ, now, name="Kim", byes=0, losses=1,
                                                  reason="train delay"))
    n = ev.body.number
    st = led.load(LOG).state
    assert n in st.players and st.fmt.records[n].played == "N"
    pair(led)
    rnd = open_round(led.load(LOG).state)
    assert rnd is not None and any(n in t.players for t in rnd.tables) or rnd.bye == n
    finish_round(led)
    rows = {r.number: r for r in br_standings(led.load(LOG).state)}
    assert rows[n].losses >= 1
    assert verify_ledger(loc, LOG, None).ok


def test_history_packs_every_outcome_and_reason() -> None:
    """The packed table history round-trips every outcome and loss reason (codes are
    explicit and append-only; an unlisted enum value still gets a distinct code)."""
    from ledger.formats.match.model import LossReason
    from ledger.formats.match.officiating_model import OfficiatingState

    o = OfficiatingState()
    history.put_round(o, 3, True, [[5, 9], [2, 7]])
    for oc in Outcome:
        for reason in LossReason:
            history.put_result(o, 3, 2, seq=41, winner=7, losers=[2],
                               loss_reasons=[reason.value], outcome=oc.value, games=[2, 1])
            row = history.get(o, 3, 2)
            assert row is not None and (row.outcome, row.loss_reasons) == (oc.value,
                                                                           [reason.value])
    assert (row.players, row.winner, row.losers, row.games) == ([2, 7], 7, [2], [2, 1])
    assert history.get(o, 3, 1).seq is None and history.get(o, 3, 3) is None  # type: ignore[union-attr]


# -- the same scenarios with the fold's counts checked after every event (issue 22) ----
test_scenarios_keep_the_counts = scenarios_keep_the_counts(globals())
