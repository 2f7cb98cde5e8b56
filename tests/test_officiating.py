"""Penalties and disqualification on the log (RULES.md §4, issue 9): the Penalty Guide
catalogue, TC-20 (upgrade grouping), TC-21 (when a LoG / LoM takes effect), TC-23 (DQ),
authority (RULES.md §1.3) and the audit's findings on forged officiating events.

Events go through the real aggregate and SQLite store; forgeries are re-signed leaves the
audit must report with their seq."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from audit.verify import verify_ledger
from ledger.core.aggregate import Tournament
from ledger.errors import RuleError
from ledger.formats.bushiroad.standing_rows import br_standings
from ledger.formats.hotc.standings import standings
from ledger.formats.match.events import ResultRecorded, RoundPaired, Table
from ledger.formats.match.model import LossReason, Outcome, Phase, Status
from ledger.formats.match.officiating_model import AppliesTo, PrizePolicy
from ledger.formats.match.plan import open_round
from ledger.formats.officiating.catalogue import CATALOGUE, Penalty, group
from ledger.formats.officiating.commands import disqualify, offer
from ledger.formats.officiating.events import PenaltyIssued
from ledger.formats.registry import make_format
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.clock import FixedClock
from tests.conftest import HJ, JUDGE, SCOREKEEPER
from tests.helpers.fold_counts import scenarios_keep_the_counts
from tests.helpers.officiating import (
    LOG,
    _append_forged,
    _codes,
    finish_round,
    pair,
    penalize,
    setup,
    table_of,
)

#: the project's RULES.md beside the checkout when there is one, else the copy vendored
#: with the tests (tests/vectors/PROVENANCE.md)
_SHARED_RULES = Path(__file__).resolve().parents[2] / "shared" / "RULES.md"
RULES = _SHARED_RULES if _SHARED_RULES.is_file() else (
    Path(__file__).resolve().parent / "vectors" / "rules" / "RULES.md")


# -- the catalogue -------------------------------------------------------------------------
def test_catalogue_has_every_infraction_of_rules_4_3() -> None:
    text = RULES.read_text() if RULES.exists() else ""
    if not text:
        pytest.skip(f"{RULES} is not beside the project (the table is checked against it)")
    ids = {line.split("|")[2].strip() for line in text.splitlines()
           if line.startswith("| BR-PEN-") and line.count("|") >= 7}
    assert ids == set(CATALOGUE)
    assert len(CATALOGUE) == 54


def test_catalogue_defaults_and_groups() -> None:
    inf = CATALOGUE["3.5.3.2"]
    assert (inf.level1, inf.level2) == ((Penalty.CAUTION, Penalty.WARNING),
                                       (Penalty.WARNING, Penalty.WARNING))
    assert group("3.5.1.2") == "3.5" and group("3.9.1") == "3.9" and group("4.5") == "4.5"
    assert CATALOGUE["3.22"].by_analogy and CATALOGUE["4.6"].by_analogy
    assert CATALOGUE["3.3.3"].warning_at_level_2_and_below   # AMB-B23
    assert all(i.remedy for i in CATALOGUE.values())


# -- TC-20: upgrade grouping ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("case", "level", "first", "first_pen", "second", "eligible", "ceiling", "choice"), [
        # a: W for 3.5.1.1, then 3.5.3.2 (default W at L2): the judge may give LoG
        ("a", 2, "3.5.1.1", Penalty.WARNING, "3.5.3.2", True, Penalty.DISQUALIFICATION,
         (Penalty.LOSS_OF_GAME, True)),
        ("b", 2, "3.4", Penalty.WARNING, "3.9.1", False, None, None),
        # c: a caution for 3.2.1 at L1 (default C): the repeat may be a Warning
        ("c", 1, "3.2.1", Penalty.CAUTION, "3.2.1", True, Penalty.WARNING,
         (Penalty.WARNING, True)),
        # d: 3.8 upgrades across different acts; LoG is inside 3.8.1's W ~ LoM at L2
        ("d", 2, "3.8.1", Penalty.WARNING, "3.8.1", True, Penalty.DISQUALIFICATION,
         (Penalty.LOSS_OF_GAME, False)),
    ])
def test_tc20_upgrade_grouping(tmp_path: Path, case: str, level: int, first: str,
                               first_pen: Penalty, second: str, eligible: bool,
                               ceiling: Penalty | None,
                               choice: tuple[Penalty, bool] | None) -> None:
    _loc, led = setup(tmp_path, tournament_level=level)
    [ev] = penalize(led, 1, first, first_pen)
    t = led.load(LOG)
    a = offer(t, 1, second, Penalty.WARNING)
    assert (bool(a.prior), a.ceiling) == (eligible, ceiling)
    assert a.prior == ([ev.seq] if eligible else [])
    if choice is not None:   # the judge's choice is recorded, no justification needed
        up, upgraded = choice
        kw = ({"applies_to": AppliesTo.FIRST_GAME_OF_NEXT_MATCH, "description": "repeat"}
              if up is Penalty.LOSS_OF_GAME else {})
        [e2] = penalize(led, 1, second, up, **kw)
        b = e2.body
        assert isinstance(b, PenaltyIssued) and b.prior == [ev.seq] and b.upgrade is upgraded
        assert not b.justification
    else:          # different groups: nothing to upgrade from
        assert not offer(t, 1, second, Penalty.LOSS_OF_MATCH).upgrade


def test_tc20e_penalties_do_not_cross_tournaments(tmp_path: Path) -> None:
    _loc, led = setup(tmp_path, tournament_level=2)
    penalize(led, 1, "3.5.2", Penalty.WARNING)
    other = Location(str(tmp_path / "other.db"))
    led2 = Ledger(other, create=True, clock=FixedClock())
    led2.create("next", lambda now: Tournament.create(
        log="next", name="Next", fmt=make_format("bushiroad-swiss", 0,   # 2 fighters: the
                                                 {"tournament_level": 2,  # rounds are set
                                                  "swiss_rounds": 1}),    # (ADR 0022)
        signer=HJ, time=now))
    led2.write("next", lambda t, now: t.register_player("P1", HJ, now))
    led2.write("next", lambda t, now: t.register_player("P2", HJ, now))
    led2.write("next", lambda t, now: t.close_registration(HJ, now))
    a = offer(led2.load("next"), 1, "3.5.2", Penalty.WARNING)
    assert a.prior == [] and a.ceiling is None


def test_outside_default_needs_justification_and_analogy_always(tmp_path: Path) -> None:
    _loc, led = setup(tmp_path, tournament_level=2)
    with pytest.raises(RuleError, match="justification"):
        penalize(led, 2, "3.1.2", Penalty.LOSS_OF_MATCH, description="x",
                 applies_to=AppliesTo.NEXT_MATCH)
    with pytest.raises(RuleError, match="justification"):
        penalize(led, 2, "3.22", Penalty.WARNING)
    [ev] = penalize(led, 2, "3.22", Penalty.WARNING, justification="intentional draw "
                    "offer (AMB-B33)")
    assert ev.body.justification


def test_level_2_downgrade_to_warning_but_not_at_level_3(tmp_path: Path) -> None:
    _loc, led = setup(tmp_path, tournament_level=2)
    penalize(led, 3, "3.5.4", Penalty.WARNING)       # AMB-B23: allowed at Level 2
    _loc, led3 = setup(tmp_path / "l3", tournament_level=3) if (tmp_path / "l3").mkdir() \
        is None else (None, None)
    with pytest.raises(RuleError, match="justification"):
        penalize(led3, 3, "3.5.4", Penalty.WARNING)


# -- TC-21: when a LoG / LoM takes effect -----------------------------------------------------
def test_tc21a_log_between_matches_starts_next_match_down_a_game(tmp_path: Path) -> None:
    _loc, led = setup(tmp_path, match_format="BO3", tournament_level=2)
    pair(led)
    finish_round(led, games=[2, 0])
    [ev] = penalize(led, 1, "3.5.4", Penalty.LOSS_OF_GAME, description="drew an extra card")
    assert ev.body.applies_to is AppliesTo.FIRST_GAME_OF_NEXT_MATCH
    assert ev.body.report_to == HJ.key_id            # reported to the head judge
    pair(led)
    rnd, tab = table_of(led, 1)
    me = tab.players.index(1)
    clean = [2, 0] if me == 0 else [0, 2]            # F 2-0: ignores the lost game 1
    with pytest.raises(RuleError, match="game loss") as err:
        led.write(LOG, lambda t, now: t.record_result(
            SCOREKEEPER, now, round_no=rnd.number, table=tab.table, outcome=Outcome.WIN,
            winner=1, games=clean))
    assert err.value.finding == "penalty_not_applied"
    ok = [2, 1] if me == 0 else [1, 2]               # F came back from 0-1
    led.write(LOG, lambda t, now: t.record_result(
        SCOREKEEPER, now, round_no=rnd.number, table=tab.table, outcome=Outcome.WIN,
        winner=1, games=ok))


def test_tc21b_lom_between_rounds_is_a_loss_in_the_next_match(tmp_path: Path) -> None:
    loc, led = setup(tmp_path, tournament_level=2)
    pair(led)
    finish_round(led)
    [ev] = penalize(led, 2, "3.9.2", Penalty.LOSS_OF_MATCH, description="late 7 minutes")
    assert ev.body.applies_to is AppliesTo.NEXT_MATCH
    events = pair(led)
    res = [e.body for e in events if isinstance(e.body, ResultRecorded)]
    assert len(res) == 1 and res[0].losers == [2] and res[0].winner != 2
    assert f"seq {ev.seq}" in res[0].note
    finish_round(led)
    assert verify_ledger(loc, LOG, None).ok


def test_tc21b_result_ignoring_a_bound_lom_is_refused(tmp_path: Path) -> None:
    _loc, led = setup(tmp_path, tournament_level=2)
    pair(led)
    finish_round(led)
    penalize(led, 2, "3.9.2", Penalty.LOSS_OF_MATCH, description="late")
    led.write(LOG, lambda t, now: t.pair_round(HJ, now, material="r2", source="x"))
    rnd, tab = table_of(led, 2)
    with pytest.raises(RuleError) as err:
        led.write(LOG, lambda t, now: t.record_result(
            SCOREKEEPER, now, round_no=rnd.number, table=tab.table, outcome=Outcome.WIN,
            winner=2))
    assert err.value.finding == "penalty_not_applied"


def test_tc21c_log_in_game_two_of_bo3_levels_the_match(tmp_path: Path) -> None:
    _loc, led = setup(tmp_path, match_format="BO3", tournament_level=2)
    pair(led)
    rnd, tab = table_of(led, 1)
    events = penalize(led, 1, "3.5.4", Penalty.LOSS_OF_GAME, description="game 2")
    assert len(events) == 1 and events[0].body.applies_to is AppliesTo.CURRENT_GAME
    me = tab.players.index(1)
    # 1-1 after the penalty; F wins game 3: 2-1 stands
    g = [2, 1] if me == 0 else [1, 2]
    led.write(LOG, lambda t, now: t.record_result(
        SCOREKEEPER, now, round_no=rnd.number, table=tab.table, outcome=Outcome.WIN,
        winner=1, games=g))


def test_tc21d_log_on_next_game_after_a_lost_game_loses_the_match(tmp_path: Path) -> None:
    _loc, led = setup(tmp_path, match_format="BO3", tournament_level=2)
    pair(led)
    rnd, tab = table_of(led, 1)
    [ev] = penalize(led, 1, "3.5.4", Penalty.LOSS_OF_GAME, description="end of game 1",
                    applies_to=AppliesTo.NEXT_GAME)
    assert ev.body.report_to == HJ.key_id
    opp = next(p for p in tab.players if p != 1)
    g = [0, 2] if tab.players[0] == 1 else [2, 0]
    led.write(LOG, lambda t, now: t.record_result(
        SCOREKEEPER, now, round_no=rnd.number, table=tab.table, outcome=Outcome.WIN,
        winner=opp, games=g))


def test_bo1_log_during_the_game_ends_the_match_at_once(tmp_path: Path) -> None:
    _loc, led = setup(tmp_path, tournament_level=2)
    pair(led)
    events = penalize(led, 4, "3.5.4", Penalty.LOSS_OF_GAME, description="extra card")
    res = events[1].body
    assert isinstance(res, ResultRecorded) and res.losers == [4]


def test_log_lom_need_a_report_and_a_match(tmp_path: Path) -> None:
    _loc, led = setup(tmp_path, tournament_level=2)
    pair(led)
    with pytest.raises(RuleError, match="description"):
        penalize(led, 1, "3.9.2", Penalty.LOSS_OF_MATCH)
    with pytest.raises(RuleError, match="still has a match"):
        penalize(led, 1, "3.9.2", Penalty.LOSS_OF_MATCH, description="x",
                 applies_to=AppliesTo.NONE)
    with pytest.raises(RuleError, match="cannot apply"):
        penalize(led, 1, "3.9.2", Penalty.LOSS_OF_MATCH, description="x",
                 applies_to=AppliesTo.CURRENT_GAME)


def test_lom_during_a_match_records_the_loss_now_and_audits_clean(tmp_path: Path) -> None:
    loc, led = setup(tmp_path, "hotc-swiss-de", players=8)
    pair(led)
    events = penalize(led, 5, "3.9.2", Penalty.LOSS_OF_MATCH, description="absent")
    assert [e.kind for e in events] == ["penalty_issued", "result_recorded"]
    assert events[1].body.losers == [5]
    assert verify_ledger(loc, LOG, None).ok


# -- TC-23: disqualification ----------------------------------------------------------------
def test_tc23_dq_during_a_match(tmp_path: Path) -> None:
    loc, led = setup(tmp_path, players=6, swiss_rounds=3)
    pair(led)
    finish_round(led)
    z = 3
    st0 = led.load(LOG).state
    opponents_before = {n: list(r.opponents) for n, r in st0.fmt.records.items()}
    pair(led)
    with pytest.raises(RuleError) as err:        # a judge may not disqualify
        led.write(LOG, lambda t, now: disqualify(t, JUDGE, now, number=z, section="4.1",
                                                 reason="x"))
    assert err.value.finding == "role_not_permitted"
    events = led.write(LOG, lambda t, now: disqualify(
        t, HJ, now, number=z, section="4.1", reason="falsified slip",
        standing_revoked=True, prize_policy=PrizePolicy.VOID))
    assert events[1].body.losers == [z]          # the match in progress is lost
    st = led.load(LOG).state
    assert st.fmt.records[z].status is Status.DISQUALIFIED
    for n, opps in opponents_before.items():     # R1 results stay in every record
        assert st.fmt.records[n].opponents[:1] == opps[:1]
    finish_round(led)
    pair(led)                                    # round 3: Z is not paired
    rnd = open_round(led.load(LOG).state)
    assert rnd is not None and all(z not in t.players for t in rnd.tables) and rnd.bye != z
    finish_round(led)
    st = led.load(LOG).state
    rows = br_standings(st)
    assert z not in [r.number for r in rows]     # standing revoked
    st.fmt.officiating.dq[z].standing_revoked = False
    full = br_standings(st)                      # Z still counts for everyone's OMW%
    assert [r.omw for r in rows] == [r.omw for r in full if r.number != z]
    # void: the revoked place stays empty, nobody moves up
    assert [(r.number, r.rank) for r in rows] == [(r.number, r.rank) for r in full
                                                  if r.number != z]
    assert verify_ledger(loc, LOG, None).ok


def test_dq_pass_down_and_after_the_event(tmp_path: Path) -> None:
    loc, led = setup(tmp_path, "hotc-swiss-de", players=6)
    while not led.load(LOG).state.fmt.champion:
        st = led.load(LOG).state
        if open_round(st) is not None:
            finish_round(led)
        elif st.fmt.swiss_over and st.fmt.cut is None:
            led.write(LOG, lambda t, now: t.select_cut(HJ, now, material="c", source="x"))
        elif st.fmt.cut is not None:
            led.write(LOG, lambda t, now: t.seed_bracket(HJ, now, material="b", source="x"))
        else:
            pair(led)
    champ = led.load(LOG).state.fmt.champion
    [ev] = led.write(LOG, lambda t, now: disqualify(
        t, HJ, now, number=champ, section="4.1", reason="found after the event",
        prize_policy=PrizePolicy.PASS_DOWN))
    assert ev.body.after_event
    rows = standings(led.load(LOG).state)
    assert champ not in [r.number for r in rows] and rows[0].rank == 1
    assert verify_ledger(loc, LOG, None).ok


def test_audit_flags_a_penalty_signed_by_a_scorekeeper(tmp_path: Path) -> None:
    loc, led = setup(tmp_path)
    with pytest.raises(RuleError) as err:
        penalize(led, 1, "3.2.1", Penalty.CAUTION, signer=SCOREKEEPER)
    assert err.value.finding == "role_not_permitted"
    led.close()
    body = PenaltyIssued(number=1, infraction="3.2.1", penalty=Penalty.CAUTION, level=1,
                         round=0)
    seq = _append_forged(loc, body, SCOREKEEPER)
    assert seq in _codes(loc)["role_not_permitted"]


def test_audit_flags_a_lom_whose_result_was_not_applied(tmp_path: Path) -> None:
    loc, led = setup(tmp_path, tournament_level=2)
    pair(led)
    finish_round(led)
    penalize(led, 2, "3.9.2", Penalty.LOSS_OF_MATCH, description="late")
    led.write(LOG, lambda t, now: t.pair_round(HJ, now, material="r2", source="x"))
    rnd, tab = table_of(led, 2)
    led.close()
    opp = next(p for p in tab.players if p != 2)
    g = [1, 0] if tab.players[0] == 2 else [0, 1]
    body = ResultRecorded(round=rnd.number, table=tab.table, winner=2, losers=[opp],
                          outcome=Outcome.WIN, loss_reasons=[LossReason.PLAY], games=g)
    seq = _append_forged(loc, body, SCOREKEEPER)
    assert seq in _codes(loc)["penalty_not_applied"]


def test_audit_flags_a_disqualified_player_paired_later(tmp_path: Path) -> None:
    loc, led = setup(tmp_path, players=4, swiss_rounds=3)
    pair(led)
    finish_round(led)
    led.write(LOG, lambda t, now: disqualify(t, HJ, now, number=1, section="4.1",
                                             reason="x"))
    led.close()
    body = RoundPaired(round=2, phase=Phase.SWISS, bye=None, tables=[
        Table(table=1, players=[1, 2], groups=[0, 0]),
        Table(table=2, players=[3, 4], groups=[0, 0])])
    seq = _append_forged(loc, body, HJ)
    assert seq in _codes(loc)["disqualified_paired"]


def test_audit_flags_a_penalty_with_wrong_prior_offences(tmp_path: Path) -> None:
    loc, led = setup(tmp_path, tournament_level=2)
    penalize(led, 1, "3.5.1.1", Penalty.WARNING)
    led.close()
    body = PenaltyIssued(number=1, infraction="3.5.3.2", penalty=Penalty.WARNING, level=2,
                         round=0, prior=[])           # hides the earlier 3.5 warning
    seq = _append_forged(loc, body, JUDGE)
    assert seq in _codes(loc)["penalty_mismatch"]


# -- TC-06b: DE effective rounds of a disqualified fighter ------------------------------------
@pytest.mark.parametrize(("as_drop", "expected"), [(True, "0.50"), (False, "0.33")])
def test_tc06b_de_dq_during_round_3(tmp_path: Path, as_drop: bool, expected: str) -> None:
    """K wins R1 and R2, is disqualified during R3 (k = 3, L = 1): E = 4 → 2/4 under
    de_dq_as_drop, else E = R_total → 2/6 → 0.33 (R_total is the DE rounds played here)."""
    from ledger.formats.bushiroad.mw import mw_str
    loc, led = setup(tmp_path, "bushiroad-de", players=16, de_dq_as_drop=as_drop)
    k: int | None = None
    for _ in range(2):
        pair(led)
        rnd = open_round(led.load(LOG).state)
        assert rnd is not None
        for tab in rnd.tables:
            w = tab.players[0] if k is None or k not in tab.players else k
            led.write(LOG, lambda t, now, tab=tab, w=w, rnd=rnd: t.record_result(
                SCOREKEEPER, now, round_no=rnd.number, table=tab.table,
                outcome=Outcome.WIN, winner=w))
        if k is None:
            k = rnd.tables[0].players[0]
    pair(led)
    led.write(LOG, lambda t, now: disqualify(t, HJ, now, number=k, section="4.1",
                                             reason="x", standing_revoked=False))
    while open_round(led.load(LOG).state) is not None or \
            not led.load(LOG).state.fmt.swiss_over:
        if open_round(led.load(LOG).state) is None:
            pair(led)
        finish_round(led)
    st = led.load(LOG).state
    total = st.fmt.swiss_rounds
    row = next(r for r in br_standings(st) if r.number == k)
    if as_drop:
        assert mw_str(row.mw) == expected
    else:
        assert row.mw == (Fraction(2, total) if Fraction(2, total) > Fraction(33, 100)
                          else Fraction(33, 100))
    assert verify_ledger(loc, LOG, None).ok


def test_level_amendment_by_the_organizer_keeps_earlier_penalties(tmp_path: Path) -> None:
    """BR-LEVEL-2: a signed amendment changes the level; penalties already given keep the
    level they were given at."""
    from ledger.formats.officiating.correction_commands import amend_level
    loc, led = setup(tmp_path, tournament_level=1)
    [first] = penalize(led, 1, "3.12", Penalty.CAUTION)          # L1 default: C
    with pytest.raises(RuleError) as err:
        led.write(LOG, lambda t, now: amend_level(t, JUDGE, now, new_level=2, reason="x"))
    assert err.value.finding == "role_not_permitted"
    led.write(LOG, lambda t, now: amend_level(t, HJ, now, new_level=2,
                                              reason="announced as a qualifier"))
    with pytest.raises(RuleError, match="justification"):       # L2 default: W
        penalize(led, 2, "3.12", Penalty.CAUTION)
    [second] = penalize(led, 2, "3.12", Penalty.WARNING)
    assert (first.body.level, second.body.level) == (1, 2)
    assert verify_ledger(loc, LOG, None).ok


def test_tc23_swiss_drop_drop_after_pairing_and_dq(tmp_path: Path) -> None:
    """TC-23 (5-round Swiss, M = 1): X W-W-L drops before R4 (MW% 2/5 = 0.40, not paired
    again); Y drops after the R4 pairing (an R4 loss, drop_after_pairing, the opponent
    wins); Z is disqualified during R4 (an R4 loss; R1–R3 stay in the opponents' records;
    Z's MW% over 5 in their OMW%; with standing revoked Z leaves the final standings);
    V and W, paired in R4, both drop after its pairing (§11): no winner, 0 points each."""
    from ledger.formats.bushiroad.mw import mw_str
    loc, led = setup(tmp_path, players=8, swiss_rounds=5)
    x = 1

    def play(force: dict[int, bool]) -> None:
        rnd = open_round(led.load(LOG).state)
        assert rnd is not None
        for tab in rnd.tables:
            if tab.result is not None:
                continue
            a, b = tab.players
            w = a if force.get(a, True) and not force.get(b, False) else b
            led.write(LOG, lambda t, now, tab=tab, w=w, rnd=rnd: t.record_result(
                SCOREKEEPER, now, round_no=rnd.number, table=tab.table,
                outcome=Outcome.WIN, winner=w))

    for win in (True, True, False):
        pair(led)
        play({x: win})
    led.write(LOG, lambda t, now: t.drop_player(SCOREKEEPER, now, x))
    pair(led)
    st = led.load(LOG).state
    rnd = open_round(st)
    assert rnd is not None and all(x not in t.players for t in rnd.tables)
    y, y_opp = rnd.tables[0].players
    z, z_opp = rnd.tables[1].players
    z_before = {o: list(st.fmt.records[o].opponents) for o in st.fmt.records[z].opponents}
    v, w = rnd.tables[2].players            # §11: both drop after the R4 pairing
    led.write(LOG, lambda t, now: t.drop_player(SCOREKEEPER, now, v))
    [_drop, fix] = led.write(LOG, lambda t, now: t.drop_player(SCOREKEEPER, now, w))
    assert (fix.body.winner, fix.body.losers) == (None, sorted([v, w]))
    assert fix.body.loss_reasons == [LossReason.DROP_AFTER_PAIRING] * 2
    evs = led.write(LOG, lambda t, now: t.drop_player(SCOREKEEPER, now, y))
    res = [e.body for e in evs if isinstance(e.body, ResultRecorded)][0]
    assert (res.winner, res.losers, res.loss_reasons) == (
        y_opp, [y], [LossReason.DROP_AFTER_PAIRING])
    led.write(LOG, lambda t, now: disqualify(t, HJ, now, number=z, section="3.8.3",
                                             reason="intimidation"))
    assert open_round(led.load(LOG).state) is None        # every R4 table has its result
    pair(led)
    rnd5 = open_round(led.load(LOG).state)
    assert rnd5 is not None
    for gone in (x, y, z, v, w):
        assert all(gone not in t.players for t in rnd5.tables) and rnd5.bye != gone
    play({})
    st = led.load(LOG).state
    for o, opps in z_before.items():                   # R1–R3 stay in opponents' records
        assert st.fmt.records[o].opponents[:len(opps)] == opps
    assert st.fmt.records[z].played[3] == "L" and st.fmt.records[z_opp].played[3] == "W"
    rows = br_standings(st)
    assert mw_str(next(r for r in rows if r.number == x).mw) == "0.40"
    r4 = {r.number: r for r in rows}
    assert st.fmt.records[v].played[3] == st.fmt.records[w].played[3] == "X"
    assert r4[v].points == st.fmt.records[v].wins and r4[w].points == st.fmt.records[w].wins
    assert z not in [r.number for r in rows]
    st.fmt.officiating.dq[z].standing_revoked = False
    full = {r.number: r for r in br_standings(st)}
    z_wins = st.fmt.records[z].wins
    assert full[z].mw == max(Fraction(z_wins, 5), Fraction(33, 100)) or \
        mw_str(full[z].mw) == mw_str(Fraction(z_wins, 5))
    assert verify_ledger(loc, LOG, None).ok


def test_br_swiss_7_lom_on_the_bye_makes_the_round_a_loss(tmp_path: Path) -> None:
    """BR-SWISS-7: the bye fighter not seated gets a LoM (3.9.2): the bye round is a loss
    worth 0 points, with no opponent added."""
    loc, led = setup(tmp_path, players=5, swiss_rounds=3, tournament_level=2)
    pair(led)
    rnd = open_round(led.load(LOG).state)
    assert rnd is not None and rnd.bye is not None
    bye = rnd.bye
    [ev] = penalize(led, bye, "3.9.2", Penalty.LOSS_OF_MATCH, description="not seated")
    assert ev.body.applies_to is AppliesTo.CURRENT_MATCH
    finish_round(led)
    st = led.load(LOG).state
    rec = st.fmt.records[bye]
    assert (rec.wins, rec.losses, rec.byes, rec.played, rec.opponents) == (0, 1, 1, "N", [])
    row = next(r for r in br_standings(st) if r.number == bye)
    assert (row.points, row.wins, row.losses) == (0, 0, 1)
    assert verify_ledger(loc, LOG, None).ok


# -- the same scenarios with the fold's counts checked after every event (issue 22) ----
test_scenarios_keep_the_counts = scenarios_keep_the_counts(globals())
