"""Voiding a pairing before any result (issue 9 §7, ADR 0012), through the real aggregate
and SQLite store, in every format that pairs rounds: the round is taken back exactly (the
records and rounds equal those before it was paired), the previous round can be corrected
again, the round is paired anew under ``<log>/R<n>/v<k>/…`` from a seed recorded after the
void, refusals write nothing, and the audit rejects a re-pair that reuses a context, draws
out of turn or from an older seed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from audit.verify import verify_ledger
from ledger.errors import RuleError
from ledger.formats.match.events import ResultRecorded, RoundPaired
from ledger.formats.match.model import Outcome
from ledger.formats.match.plan import open_round
from ledger.formats.officiating.catalogue import Penalty
from ledger.formats.officiating.commands import issue_penalty
from ledger.wire.events import DrawMade
from projections.rounds import load_round
from tests.conftest import HJ, JUDGE, SCOREKEEPER
from tests.helpers.fold_counts import scenarios_keep_the_counts
from tests.helpers.officiating import LOG, _append_forged, _codes, finish_round, pair, setup
from tests.helpers.voids import void


def ctxs(events: list[Any]) -> list[str]:
    return [e.body.ctx for e in events if isinstance(e.body, DrawMade)]


def _bracket(led: Any) -> list[Any]:
    return led.write(LOG, lambda t, now: t.seed_bracket(HJ, now, material="b", source="x"))


@pytest.mark.parametrize(("fmt", "params", "second"), [
    ("bushiroad-swiss", {"swiss_rounds": 3}, ["R2/v1/bye", "R2/v1/pairing"]),
    ("bushiroad-de", {}, ["R2/v1/bye", "R2/v1/pairing"]),
    ("hotc-swiss-de", {}, ["R2/v1/bye", "R2/v1/pairing"]),
    ("round-robin", {}, []),                 # later rounds follow the drawn order
])
def test_void_takes_the_round_back_and_it_is_paired_again(
        tmp_path: Path, fmt: str, params: dict[str, Any], second: list[str]) -> None:
    loc, led = setup(tmp_path, fmt, players=7 if fmt != "round-robin" else 4, **params)
    pair(led)
    finish_round(led)
    before = led.load(LOG).state.fmt
    pair(led)
    [ev] = void(led)
    assert ev.kind == "pairing_voided" and ev.body.round == 2
    st = led.load(LOG).state
    assert st.fmt.records == before.records and st.fmt.rounds == before.rounds
    assert st.fmt.swiss_rounds == 1 and open_round(st) is None
    again = pair(led)
    assert [c.split("/", 1)[1] for c in ctxs(again)] == second
    finish_round(led)
    report = verify_ledger(loc, LOG, None)
    assert report.ok
    assert [f.seq for f in report.findings if f.code == "pairing_voided"] == [ev.seq]


def test_round_robin_round_1_void_draws_a_new_order(tmp_path: Path) -> None:
    loc, led = setup(tmp_path, "round-robin", players=4)
    first = pair(led)
    assert [c.split("/", 1)[1] for c in ctxs(first)] == ["order"]
    void(led)
    assert led.load(LOG).state.fmt.rounds == []
    again = pair(led)
    assert [c.split("/", 1)[1] for c in ctxs(again)] == ["R1/v1/order"]
    finish_round(led)
    assert verify_ledger(loc, LOG, None).ok


@pytest.mark.parametrize("fmt", ["single-elim", "hotc-swiss-de"])
def test_void_of_a_bracket_round(tmp_path: Path, fmt: str) -> None:
    """A bracket round follows the seeded bracket: paired again, it is the same round
    (no draw) unless someone left meanwhile — here a drop before the re-pair."""
    loc, led = setup(tmp_path, fmt, players=8)
    if fmt == "single-elim":
        _bracket(led)
    else:
        while not led.load(LOG).state.fmt.swiss_over:
            pair(led)
            finish_round(led)
        led.write(LOG, lambda t, now: t.select_cut(HJ, now, material="c", source="x"))
        _bracket(led)
    rnd = open_round(led.load(LOG).state)
    assert rnd is not None and rnd.phase.value == "top_cut"
    void(led)
    gone = rnd.tables[0].players[0]
    led.write(LOG, lambda t, now: t.drop_player(SCOREKEEPER, now, gone))
    again = pair(led)
    paired = next(e.body for e in again if isinstance(e.body, RoundPaired))
    assert paired.round == rnd.number and gone not in [p for t in paired.tables
                                                       for p in t.players]
    finish_round(led)
    assert verify_ledger(loc, LOG, None).ok


def test_the_previous_round_can_be_corrected_after_a_void(tmp_path: Path) -> None:
    """The use case: a wrong R1 result is found once R2 is posted — void R2, correct R1,
    pair R2 again from the corrected standings."""
    loc, led = setup(tmp_path, players=6, swiss_rounds=3)
    pair(led)
    finish_round(led)
    rnd1 = led.load(LOG).state.fmt.rounds[0]
    a, b = rnd1.tables[0].players
    pair(led)
    with pytest.raises(RuleError, match="final"):             # R2 is paired: too late
        led.write(LOG, lambda t, now: t.correct_result(
            JUDGE, now, round_no=1, table=1, outcome=Outcome.WIN, winner=b, reason="slip"))
    void(led)
    led.write(LOG, lambda t, now: t.correct_result(
        JUDGE, now, round_no=1, table=1, outcome=Outcome.WIN, winner=b, reason="slip"))
    st = led.load(LOG).state
    assert (st.fmt.records[a].wins, st.fmt.records[b].wins) == (0, 1)
    again = next(e.body for e in pair(led) if isinstance(e.body, RoundPaired))
    finish_round(led)
    pair(led)
    st = led.load(LOG).state                 # earlier rounds are read back from the log
    r1, r2 = load_round(led, LOG, st, 1), load_round(led, LOG, st, 2)
    assert r1 is not None and r2 is not None
    assert r1.tables[0].result is not None and r1.tables[0].result.winner == b
    assert [t.players for t in r2.tables] == [t.players for t in again.tables]
    assert verify_ledger(loc, LOG, None).ok


def test_void_is_refused_once_a_result_is_in_and_writes_nothing(tmp_path: Path) -> None:
    _loc, led = setup(tmp_path, players=6, swiss_rounds=3)
    with pytest.raises(RuleError, match="no round is open"):
        void(led)
    pair(led)
    for signer in (JUDGE, SCOREKEEPER):
        with pytest.raises(RuleError) as err:
            void(led, signer)
        assert err.value.finding == "role_not_permitted"
    with pytest.raises(RuleError, match="reason"):
        void(led, reason="  ")
    rnd = open_round(led.load(LOG).state)
    assert rnd is not None
    tab = rnd.tables[0]
    led.write(LOG, lambda t, now: t.record_result(SCOREKEEPER, now, round_no=rnd.number,
                                                  table=tab.table, outcome=Outcome.WIN,
                                                  winner=tab.players[0]))
    size = led.load(LOG).state.size
    with pytest.raises(RuleError, match="stands: table 1 has a result"):
        void(led)
    assert led.load(LOG).state.size == size


def test_a_carried_lom_does_not_block_the_void_and_binds_again(tmp_path: Path) -> None:
    """A Loss of Match given between rounds is recorded with the pairing (BR-PEN-RANK-8):
    not a result the table entered.  The void takes it back; the re-pair records it again
    at the player's new table."""
    loc, led = setup(tmp_path, players=6, swiss_rounds=3, tournament_level=2)
    pair(led)
    finish_round(led)
    before = led.load(LOG).state.fmt.records
    led.write(LOG, lambda t, now: issue_penalty(t, JUDGE, now, number=2, section="3.9.2",
                                                penalty=Penalty.LOSS_OF_MATCH,
                                                description="late"))
    first = pair(led)
    assert [e.body.losers for e in first if isinstance(e.body, ResultRecorded)] == [[2]]
    void(led)
    assert led.load(LOG).state.fmt.records == before
    again = pair(led)
    assert [e.body.losers for e in again if isinstance(e.body, ResultRecorded)] == [[2]]
    finish_round(led)
    assert verify_ledger(loc, LOG, None).ok


def test_a_second_void_moves_to_the_next_attempt(tmp_path: Path) -> None:
    loc, led = setup(tmp_path, players=7, swiss_rounds=3)
    pair(led)
    finish_round(led)
    pair(led)
    void(led)
    assert ctxs(pair(led))[-1].endswith("/R2/v1/pairing")
    void(led, reason="a second mistake")
    assert ctxs(pair(led))[-1].endswith("/R2/v2/pairing")
    finish_round(led)
    assert verify_ledger(loc, LOG, None).ok


def test_void_after_round_start_clears_the_clock(tmp_path: Path) -> None:
    from ledger.formats.officiating.floor_commands import start_round
    loc, led = setup(tmp_path, players=6, swiss_rounds=3)
    pair(led)
    led.write(LOG, lambda t, now: start_round(t, JUDGE, now, minutes=50))
    void(led)
    pair(led)
    led.write(LOG, lambda t, now: start_round(t, JUDGE, now, minutes=50))
    finish_round(led)
    assert verify_ledger(loc, LOG, None).ok


def test_the_next_attempt_needs_a_seed_recorded_after_the_void(tmp_path: Path) -> None:
    """The old round seed (ctx <log>/R2) would serve <log>/R2/v1/… by prefix: refused,
    at the command and in the audit; so is a draw of the next attempt before the void."""
    loc, led = setup(tmp_path, players=6, swiss_rounds=3)
    pair(led)
    finish_round(led)
    led.write(LOG, lambda t, now: t.record_seed(material="early", source="x", reason="r",
                                                ctx=f"{LOG}/R2/v1", signer=HJ, time=now))
    with pytest.raises(RuleError) as err:                    # out of turn: no void yet
        led.write(LOG, lambda t, now: t.make_draw(ctx=f"{LOG}/R2/v1/pairing", items=None,
                                                  signer=HJ, time=now))
    assert err.value.finding == "draw_mismatch"
    first = pair(led)
    old_seed = next(e.seq for e in first if e.kind == "seed_recorded")
    void(led)
    size = led.load(LOG).state.size
    with pytest.raises(RuleError, match="since the void"):
        led.write(LOG, lambda t, now: t.pair_round(HJ, now))
    with pytest.raises(RuleError) as err:
        led.write(LOG, lambda t, now: t.make_draw(ctx=f"{LOG}/R2/v1/pairing", items=None,
                                                  seed_seq=old_seed, signer=HJ, time=now))
    assert err.value.finding == "draw_mismatch"
    assert led.load(LOG).state.size == size
    st = led.load(LOG).state
    led.close()
    from ledger.core.draw import draw_v1
    from ledger.core.roster import roster
    seed = st.seeds[old_seed].seed
    items = sorted(roster(st))
    ctx = f"{LOG}/R2/v1/pairing"
    forged = DrawMade(ctx=ctx, algorithm="DRAW-v1", seed=seed, seed_seq=old_seed,
                      items=items, result=draw_v1(bytes.fromhex(seed), ctx, items))
    seq = _append_forged(loc, forged, HJ)
    assert seq in _codes(loc)["draw_mismatch"]


def test_audit_rejects_the_voided_pairing_recorded_again(tmp_path: Path) -> None:
    """A round_paired after the void that cites the first attempt's draws (the contexts
    <log>/R2/bye and <log>/R2/pairing, drawn once) is refused."""
    loc, led = setup(tmp_path, players=6, swiss_rounds=3)
    pair(led)
    finish_round(led)
    first = pair(led)
    body = next(e.body for e in first if isinstance(e.body, RoundPaired))
    void(led)
    led.close()
    seq = _append_forged(loc, body, HJ)
    assert seq in _codes(loc)["draw_mismatch"]


# -- the same scenarios with the fold's counts checked after every event (issue 22) ----
test_scenarios_keep_the_counts = scenarios_keep_the_counts(globals())
