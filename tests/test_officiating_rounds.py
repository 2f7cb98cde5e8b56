"""Three officiating cases on the real aggregate and SQLite store (issue 9, ADR 0011):

* an earlier round whose pairing the head judge overrode (AMB-B7) reads back as played —
  the override's tables with their current results — after later rounds are paired, from
  the state's table history (the same transitions the audit folds), with the engine's
  pairing named as the one replaced;
* a Loss of Match for the next match of a player whose next round gives them the bye is
  bound to the bye round (BR-PEN-RANK-8 with BR-SWISS-7): the bye is a loss worth 0; a
  void gives the bye back and the LoM binds again; a Loss of Game waits for a match with
  games; two players who both owe their next match to a LoM and are paired together lose
  it both (a double loss by penalty recorded with the pairing);
* the wrong-table amendment (BR-PEN-3.10.2-AMEND, AMB-B25, TC-12) in a Bushiroad format
  when neither assigned fighter showed at a table: a double loss with no game, accepted
  only after both fighters' 3.10.2 penalties; a forged one is reported by the audit."""

from __future__ import annotations

from pathlib import Path

import pytest

from audit.verify import verify_ledger
from ledger.errors import RuleError
from ledger.formats.bushiroad.standing_rows import br_standings
from ledger.formats.match import history
from ledger.formats.match.events import ResultCorrected, ResultRecorded
from ledger.formats.match.model import DecidedBy, LossReason, Outcome
from ledger.formats.match.officiating_model import AppliesTo
from ledger.formats.match.plan import open_round
from ledger.formats.officiating.amend import Played
from ledger.formats.officiating.catalogue import Penalty
from ledger.formats.officiating.correction_commands import (
    amend_result,
    override_pairing,
    void_pairing,
    wrong_table,
)
from projections.report import round_doc
from projections.rounds import bye_lost, load_round, override_of
from tests.conftest import HJ, SCOREKEEPER
from tests.helpers.fold_counts import scenarios_keep_the_counts
from tests.helpers.officiating import (
    LOG,
    _append_forged,
    _codes,
    _rows,
    finish_round,
    pair,
    penalize,
    setup,
)


# -- an overridden round, read back after later rounds ----------------------------------------
def test_overridden_round_shows_the_played_tables_after_later_rounds(tmp_path: Path) -> None:
    loc, led = setup(tmp_path, players=6, swiss_rounds=3)
    pair(led)
    rnd = open_round(led.load(LOG).state)
    assert rnd is not None
    engine = [list(t.players) for t in rnd.tables]
    (a, b), (c, d), (e, f) = engine
    [ov] = led.write(LOG, lambda t, now: override_pairing(
        t, HJ, now, pairs=[[a, c], [b, d], [e, f]], reason="siblings at one table"))
    finish_round(led)                       # the first player of each table wins
    played = [[a, c], [b, d], [e, f]]
    for later in (2, 3):
        pair(led)
        st = led.load(LOG).state
        one = load_round(led, LOG, st, 1)
        assert one is not None and one.closed_seq is not None
        assert [t.players for t in one.tables] == played, f"after round {later} paired"
        assert [t.result.winner for t in one.tables if t.result] == [a, b, e]
        assert all(t.result.winner in t.players for t in one.tables if t.result)
        o = override_of(led, LOG, st, one)
        assert o is not None and (o.seq, o.paired_seq) == (ov.seq, rnd.paired_seq)
        assert o.engine_tables == engine and o.reason == "siblings at one table"
        doc = round_doc(one, o)
        assert doc["overridden"]["engine_tables"][0] == {"table": 1, "players": engine[0]}
        assert [t["players"] for t in doc["tables"]] == played
        finish_round(led)
    st = led.load(LOG).state
    two = load_round(led, LOG, st, 2)
    assert two is not None and override_of(led, LOG, st, two) is None
    assert verify_ledger(loc, LOG, None).ok


def test_earlier_round_reads_its_marks_and_amended_results(tmp_path: Path) -> None:
    """The marks of an earlier round (win groups) come from its pairing; its results are
    the current ones — a head judge's amendment after later pairings included."""
    loc, led = setup(tmp_path, players=8, swiss_rounds=3)
    pair(led)
    finish_round(led)
    [paired] = [e for e in pair(led) if e.kind == "round_paired"]
    finish_round(led)
    pair(led)
    st = led.load(LOG).state
    two = load_round(led, LOG, st, 2)
    assert two is not None
    assert [(t.players, t.groups, t.pair_down) for t in two.tables] == [
        (list(t.players), list(t.groups), t.pair_down) for t in paired.body.tables]
    row = history.get(st.fmt.officiating, 1, 2)
    assert row is not None and row.winner is not None
    loser = row.losers[0]
    (ev,), _ = led.write(LOG, lambda t, now: amend_result(
        t, HJ, now, round_no=1, table=2, winner=loser, reason="slip swapped"))
    one = load_round(led, LOG, led.load(LOG).state, 1)
    assert one is not None and one.tables[1].result is not None
    assert (one.tables[1].result.seq, one.tables[1].result.winner) == (ev.seq, loser)
    assert verify_ledger(loc, LOG, None).ok


# -- a Loss of Match for the next match, and the bye ------------------------------------------
def _loser_of_round_1(tmp_path: Path, fmt: str = "bushiroad-swiss") -> tuple[object, object,
                                                                               int, int]:
    """Three players: round 1 is one table and a bye; its loser is the only fighter on the
    lowest points without a bye, so round 2's bye is theirs."""
    loc, led = setup(tmp_path, fmt, players=3, tournament_level=2,
                     **({"swiss_rounds": 3} if fmt == "bushiroad-swiss" else {}))
    pair(led)
    rnd = open_round(led.load(LOG).state)
    assert rnd is not None and rnd.bye is not None
    finish_round(led)
    return loc, led, rnd.tables[0].players[1], rnd.bye


@pytest.mark.parametrize("fmt", ["bushiroad-swiss", "bushiroad-de"])
def test_lom_for_the_next_match_binds_to_the_bye(tmp_path: Path, fmt: str) -> None:
    loc, led, loser, _ = _loser_of_round_1(tmp_path, fmt)
    [lom] = penalize(led, loser, "3.9.2", Penalty.LOSS_OF_MATCH, description="not seated")
    assert lom.body.applies_to is AppliesTo.NEXT_MATCH
    events = pair(led)
    assert [e.kind for e in events][-1] == "round_paired"      # no result: nobody to beat
    st = led.load(LOG).state
    r2 = open_round(st)
    assert r2 is not None and r2.bye == loser and bye_lost(st, r2)
    [pending] = st.fmt.officiating.pending
    assert (pending.seq, pending.round) == (lom.seq, 2)
    rec = st.fmt.records[loser]
    assert (rec.wins, rec.losses, rec.byes, rec.played) == (0, 2, 1, "LN")
    assert rec.loss_reasons[-1] is LossReason.PENALTY
    assert len(rec.opponents) == 1                 # the bye still adds no opponent (AMB-B1)
    if fmt == "bushiroad-swiss":
        row = next(r for r in br_standings(st) if r.number == loser)
        assert (row.points, row.wins, row.losses) == (0, 0, 2)
    else:
        assert rec.status.value == "eliminated"            # DE: the second loss (BR-DE-1)
    assert verify_ledger(loc, LOG, None).ok


def test_void_gives_the_bye_back_and_the_lom_binds_again(tmp_path: Path) -> None:
    loc, led, loser, _ = _loser_of_round_1(tmp_path)
    [lom] = penalize(led, loser, "3.9.2", Penalty.LOSS_OF_MATCH, description="not seated")
    pair(led)
    led.write(LOG, lambda t, now: void_pairing(t, HJ, now, reason="posted too early"))
    st = led.load(LOG).state
    rec = st.fmt.records[loser]
    assert (rec.wins, rec.losses, rec.byes, rec.played) == (0, 1, 0, "L")
    assert rec.loss_reasons == [LossReason.PLAY]
    assert st.fmt.officiating.pending[0].round is None
    pair(led)                                                  # attempt 2: a fresh seed
    st = led.load(LOG).state
    r2 = open_round(st)
    assert r2 is not None and r2.bye == loser and bye_lost(st, r2)
    assert st.fmt.records[loser].played == "LN"
    assert st.fmt.officiating.pending[0].seq == lom.seq
    finish_round(led)
    assert verify_ledger(loc, LOG, None).ok


def test_loss_of_game_waits_for_a_match_with_games(tmp_path: Path) -> None:
    """A LoG for the first game of the next match does not bind to a bye (it has no
    game): the bye stays a win and the LoG decides the player's next real match (BO1)."""
    loc, led, loser, _ = _loser_of_round_1(tmp_path)
    [log_] = penalize(led, loser, "3.5.4", Penalty.LOSS_OF_GAME, description="x",
                      justification="repeat")
    assert log_.body.applies_to is AppliesTo.FIRST_GAME_OF_NEXT_MATCH
    pair(led)
    st = led.load(LOG).state
    r2 = open_round(st)
    assert r2 is not None and r2.bye == loser and not bye_lost(st, r2)
    assert st.fmt.records[loser].played == "LB"
    assert st.fmt.officiating.pending[0].round is None
    finish_round(led)
    events = pair(led)                    # round 3: the loser plays, the LoG decides it
    [res] = [e.body for e in events if e.kind == "result_recorded"]
    # a loss by penalty, citing the LoG (BO1: the game is the match; issue 17, R2 rules)
    assert (res.round, res.losers, res.outcome, res.penalty_seq) == \
        (3, [loser], Outcome.PENALTY, log_.seq)
    assert verify_ledger(loc, LOG, None).ok


@pytest.mark.parametrize(("fmt", "players"), [("bushiroad-swiss", 4), ("hotc-swiss-de", 8)])
def test_both_players_of_a_table_owe_it_to_a_lom(tmp_path: Path, fmt: str,
                                                 players: int) -> None:
    """Every round-1 loser gets a LoM for the next match; round 2 pairs them with each
    other (the lowest group), so each such table is a double loss by penalty, recorded
    with the pairing (BR-DROP-2 / BR-PEN-RANK-8: both lose; Swiss 0 points each)."""
    loc, led = setup(tmp_path, fmt, players=players, tournament_level=2,
                     **({"swiss_rounds": 3} if fmt == "bushiroad-swiss" else {}))
    pair(led)
    rnd = open_round(led.load(LOG).state)
    assert rnd is not None
    finish_round(led)
    losers = sorted(t.players[1] for t in rnd.tables)
    for p in losers:
        penalize(led, p, "3.9.2", Penalty.LOSS_OF_MATCH, description="left the venue")
    events = pair(led)
    doubles = [e.body for e in events if e.kind == "result_recorded"]
    assert doubles and all(b.winner is None and b.outcome is Outcome.DOUBLE_LOSS and
                           b.loss_reasons == [LossReason.PENALTY] * 2 for b in doubles)
    assert sorted(p for b in doubles for p in b.losers) == losers
    st = led.load(LOG).state
    for p in losers:
        assert st.fmt.records[p].played == "LX" and st.fmt.records[p].losses == 2
    if fmt == "bushiroad-swiss":
        points = {r.number: r.points for r in br_standings(st)}
        assert all(points[p] == 0 for p in losers)
        led.write(LOG, lambda t, now: void_pairing(t, HJ, now, reason="posted too early"))
        assert all(led.load(LOG).state.fmt.records[p].played == "L" for p in losers)
        again = [e for e in pair(led) if e.kind == "result_recorded"]
        assert sorted(p for e in again for p in e.body.losers) == losers
    assert verify_ledger(loc, LOG, None).ok


# -- wrong-table amendment: neither assigned fighter showed (Bushiroad) ---------------------------
def _three_tables(tmp_path: Path, fmt: str) -> tuple[object, object, list[list[int]]]:
    loc, led = setup(tmp_path, fmt, players=6, tournament_level=2,
                     **({"swiss_rounds": 3} if fmt == "bushiroad-swiss" else {}))
    pair(led)
    rnd = open_round(led.load(LOG).state)
    assert rnd is not None
    finish_round(led)
    return loc, led, [list(t.players) for t in rnd.tables]


@pytest.mark.parametrize("fmt", ["bushiroad-swiss", "bushiroad-de"])
def test_wrong_table_neither_showed_is_a_double_loss(tmp_path: Path, fmt: str) -> None:
    """Assigned T1 a-b, T2 x-y, T3 m-n; played T1 m-x, T2 a-y, T3 b-n: nobody of T1 sat at
    T1, so a and b both lose (AMB-B25: Swiss 0 points, DE a loss each); y and n showed."""
    loc, led, [[a, b], [x, y], [m, n]] = _three_tables(tmp_path, fmt)
    events = led.write(LOG, lambda t, now: wrong_table(t, HJ, now, round_no=1, played=[
        Played(1, (m, x), m), Played(2, (a, y), a), Played(3, (b, n), b)], reason="chaos"))
    kinds = [e.kind for e in events]
    assert kinds[:6] == ["penalty_issued"] * 6 and kinds.count("result_corrected") == 3
    first = next(e.body for e in events if e.kind == "result_corrected")
    assert (first.table, first.winner, first.losers, first.outcome, first.games,
            first.decided_by) == (1, None, sorted([a, b]), Outcome.DOUBLE_LOSS, [0, 0, 0],
                                  DecidedBy.DOUBLE_LOSS)
    st = led.load(LOG).state
    assert [history.get(st.fmt.officiating, 1, k).winner  # type: ignore[union-attr]
            for k in (1, 2, 3)] == [None, y, n]
    for p in (a, b):
        rec = st.fmt.records[p]
        assert (rec.wins, rec.losses, rec.played) == (0, 1, "X")
    if fmt == "bushiroad-swiss":
        points = {r.number: r.points for r in br_standings(st)}
        assert points[a] == points[b] == 0 and points[y] == points[n] == 1
    assert verify_ledger(loc, LOG, None).ok


def test_no_show_double_loss_needs_the_wrong_table_penalties(tmp_path: Path) -> None:
    loc, led, [[a, b], _, _] = _three_tables(tmp_path, "bushiroad-swiss")
    before = _rows(loc)
    with pytest.raises(RuleError, match="wrong-table") as err:
        led.write(LOG, lambda t, now: t.correct_result(
            HJ, now, round_no=1, table=1, outcome=Outcome.DOUBLE_LOSS, reason="both late"))
    assert err.value.finding == "result_mismatch"
    assert _rows(loc) == before                                  # nothing written


def test_audit_flags_a_forged_no_show_double_loss(tmp_path: Path) -> None:
    loc, led, [[a, b], _, _] = _three_tables(tmp_path, "bushiroad-swiss")
    corrects = history.get(led.load(LOG).state.fmt.officiating, 1, 1)
    assert corrects is not None and corrects.seq is not None
    led.close()
    fields = dict(winner=None, losers=sorted([a, b]), outcome=Outcome.DOUBLE_LOSS,
                  loss_reasons=[LossReason.DOUBLE_LOSS] * 2, games=[0, 0, 0],
                  decided_by=DecidedBy.DOUBLE_LOSS)
    seq = _append_forged(loc, ResultCorrected(round=1, table=1, corrects_seq=corrects.seq,
                                              reason="no 3.10.2 penalties", **fields), HJ)
    assert seq in _codes(loc)["result_mismatch"]


def test_audit_flags_a_no_show_double_loss_recorded_as_a_result(tmp_path: Path) -> None:
    loc, led = setup(tmp_path, players=4, swiss_rounds=3)
    pair(led)
    rnd = open_round(led.load(LOG).state)
    assert rnd is not None
    a, b = rnd.tables[0].players
    led.close()
    seq = _append_forged(loc, ResultRecorded(
        round=1, table=1, winner=None, losers=sorted([a, b]), outcome=Outcome.DOUBLE_LOSS,
        loss_reasons=[LossReason.DOUBLE_LOSS] * 2, games=[0, 0, 0],
        decided_by=DecidedBy.DOUBLE_LOSS), SCOREKEEPER)
    assert seq in _codes(loc)["result_mismatch"]


# -- the same scenarios with the fold's counts checked after every event (issue 22) ----
test_scenarios_keep_the_counts = scenarios_keep_the_counts(globals())
