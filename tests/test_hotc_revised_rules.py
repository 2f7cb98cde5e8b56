"""HOTC_2013_R2 (issue 13, RULES.md §11 "§2 HotC", ADR 0010) on real signed ledgers:
the revision recorded at genesis, the stop rule at pairing time (TC-08 as revised), entrants
equal to the cut, tiny cuts, invitations, slow-play calls as events (TC-11 as revised) and
the bye of HOTC-BYE-5 as revised (TC-10(b)/(c)).  Each R2 case is paired with the
HOTC_2013 behaviour it keeps for old ledgers.  Every ledger is audited from its raw rows."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from ledger.errors import ExitCode, RuleError, TourneyError, UsageError
from ledger.formats.hotc.bye import bye_by_pairing, pairing_counts
from ledger.formats.hotc.events import NoChampionRuled, SlowPlayCalled, SlowPlayRuled
from ledger.formats.hotc.revision import DEFAULTS_2013, DEFAULTS_R2
from ledger.formats.hotc.slow_play import call_slow_play, rule_slow_play
from ledger.formats.match.events import ChampionDeclared, ResultRecorded, RoundPaired
from ledger.formats.match.model import LossReason, Outcome, Status
from ledger.formats.match.pairing import Entrant, bye_candidates, pair_swiss
from ledger.formats.registry import make_format
from ledger.wire.events import PlayerRegistered
from tests.helpers.hotc_event import HJ, JUDGE, SK, HotcEvent

OLD = {"rules": "HOTC_2013"}
R2 = {"rules": "HOTC_2013_R2"}


def refused(ev: HotcEvent, fn: object, rule: str) -> TourneyError:
    """The command is refused naming ``rule`` and the ledger file is unchanged."""
    before = ev.bytes()
    with pytest.raises(TourneyError) as info:
        fn()  # type: ignore[operator]
    assert ev.bytes() == before
    assert isinstance(info.value, RuleError | UsageError)
    if isinstance(info.value, RuleError):
        assert info.value.rule == rule, info.value.message
        assert info.value.exit_code is ExitCode.REFUSED
    return info.value


def clean(ev: HotcEvent) -> None:
    report = ev.audit()
    assert report.ok, [(f.code, f.seq, f.message) for f in report.findings]
    assert not [f for f in report.findings if f.severity.value == "error"]


# -- the revision at genesis ---------------------------------------------------------------

def test_new_tournaments_default_to_r2_with_every_parameter() -> None:
    # the newest revision (R3, issue 17: a loss by penalty cited) is R2 and one parameter
    assert make_format("hotc-swiss-de", 8).params == {**DEFAULTS_R2, "rules": "HOTC_2013_R3",
                                                      "penalty_results": "cited"}
    assert DEFAULTS_R2["bye_priority"] == "least_wins"
    assert DEFAULTS_R2["invitation_required"] is False
    # an R2 genesis records exactly what it did before R3
    assert make_format("hotc-swiss-de", 8, {"rules": "HOTC_2013_R2"}).params == DEFAULTS_R2
    # a HOTC_2013 genesis records exactly what it always did (the sample's bytes)
    assert make_format("hotc-swiss-de", 8, OLD).params == DEFAULTS_2013


def test_penalty_results_is_not_a_parameter_of_earlier_revisions() -> None:
    for rules in ("HOTC_2013", "HOTC_2013_R2"):
        with pytest.raises(RuleError, match=f"not of {rules}"):
            make_format("hotc-swiss-de", 8, {"rules": rules, "penalty_results": "cited"})


def test_invitation_required_is_not_a_hotc_2013_parameter() -> None:
    with pytest.raises(RuleError, match="not of HOTC_2013"):
        make_format("hotc-swiss-de", 8, {**OLD, "invitation_required": True})


# -- HOTC-STOP-1 at pairing time (TC-08 as revised) ----------------------------------------

def sixteen_after_round_one(tmp_path: Path, params: dict[str, object]) -> HotcEvent:
    ev = HotcEvent(tmp_path / "t.db", 16, cut=8, params=params)  # type: ignore[arg-type]
    ev.pair()
    ev.play()                      # every match decisive: 8 undefeated
    assert len(ev.undefeated()) == 8
    assert ev.state.fmt.swiss_over is False      # 8 is not < 8 when round 1 closes
    return ev


def test_tc08_undefeated_drop_between_rounds_ends_the_swiss_r2(tmp_path: Path) -> None:
    ev = sixteen_after_round_one(tmp_path, R2)
    dropped = ev.undefeated()[0]
    ev.drop(dropped)
    assert len(ev.undefeated()) == 7
    err = refused(ev, ev.pair, "HOTC-STOP-1")
    assert "tourney cut" in (err.hint or "")
    # later drops are in the cut window (HOTC-DROP-1)
    one_loss = next(r.number for r in ev.state.fmt.records.values()
                    if r.status is Status.ACTIVE and r.losses == 1)
    assert ev.drop(one_loss)[0].body.timing.value == "cut_window"  # type: ignore[union-attr]
    x0 = ev.undefeated()
    cut = ev.cut()[-1].body
    assert cut.undefeated == x0  # type: ignore[union-attr]
    assert cut.spots == 1 and len(cut.cut) == 8  # type: ignore[union-attr]
    assert dropped not in cut.cut and one_loss not in cut.cut  # type: ignore[union-attr]
    clean(ev)


def test_tc08_undefeated_drop_between_rounds_hotc_2013_keeps_pairing(tmp_path: Path) -> None:
    """The old revision judged the stop rule only at the close: round 2 is still paired,
    and that ledger keeps auditing clean under HOTC_2013."""
    ev = sixteen_after_round_one(tmp_path, OLD)
    ev.drop(ev.undefeated()[0])
    paired = ev.pair()[-1].body
    assert isinstance(paired, RoundPaired) and paired.round == 2
    clean(ev)


@pytest.mark.parametrize("params", [R2, OLD], ids=["R2", "HOTC_2013"])
def test_tc08_correction_to_a_double_loss_before_pairing_ends_the_swiss(
        tmp_path: Path, params: dict[str, object]) -> None:
    ev = sixteen_after_round_one(tmp_path, params)
    rnd = ev.state.fmt.rounds[-1]
    tab = rnd.tables[0]
    ev.write(lambda t, now: t.correct_result(HJ, now, round_no=1, table=tab.table,
                                             outcome=Outcome.TIMEOUT, reason="slips"))
    assert len(ev.undefeated()) == 7
    refused(ev, ev.pair, "HOTC-STOP-1")
    assert len(ev.cut()[-1].body.cut) == 8  # type: ignore[union-attr]
    clean(ev)


def test_tc08_eight_entrants_for_a_top_eight_play_round_one_r2(tmp_path: Path) -> None:
    ev = HotcEvent(tmp_path / "t.db", 8, cut=8, params=R2)
    refused(ev, ev.cut, "HOTC-STOP-1")
    assert ev.pair()[-1].body.round == 1  # type: ignore[union-attr]
    ev.play()
    assert len(ev.undefeated()) == 4
    refused(ev, ev.pair, "HOTC-STOP-1")          # 4 < 8 after round 1
    assert ev.cut()[-1].body.spots == 4  # type: ignore[union-attr]
    clean(ev)


def test_tc08_eight_entrants_hotc_2013_skip_the_swiss(tmp_path: Path) -> None:
    ev = HotcEvent(tmp_path / "t.db", 8, cut=8, params=OLD)
    refused(ev, ev.pair, "AMB-H6")
    assert len(ev.cut()[-1].body.cut) == 8  # type: ignore[union-attr]
    clean(ev)


@pytest.mark.parametrize("params", [R2, OLD], ids=["R2", "HOTC_2013"])
def test_tc08_seven_entrants_go_straight_to_the_bracket(tmp_path: Path,
                                                        params: dict[str, object]) -> None:
    ev = HotcEvent(tmp_path / "t.db", 7, cut=8, params=params)  # type: ignore[arg-type]
    refused(ev, ev.pair, "AMB-H6")
    assert len(ev.cut()[-1].body.cut) == 7  # type: ignore[union-attr]
    ev.bracket()
    slots = ev.state.fmt.slots
    assert slots is not None and slots[7] is None and slots[6] is not None
    assert ev.state.fmt.rounds[-1].advances == [slots[6]]
    clean(ev)


# -- tiny cuts (AMB-H9, HOTC-TOP-3) ---------------------------------------------------------

def four_after_round_one(tmp_path: Path, params: dict[str, object],
                         timeouts: frozenset[int]) -> HotcEvent:
    ev = HotcEvent(tmp_path / "t.db", 4, cut=2, params=params)  # type: ignore[arg-type]
    ev.pair()
    ev.play(timeouts=timeouts)
    return ev


def test_cut_of_one_is_the_champion_with_no_match_r2(tmp_path: Path) -> None:
    ev = four_after_round_one(tmp_path, R2, frozenset({2}))
    [winner] = ev.undefeated()
    loser = next(r.number for r in ev.state.fmt.records.values()
                 if r.status is Status.ACTIVE and r.loss_reasons == [LossReason.PLAY])
    ev.drop(loser)                          # the only eligible one-loss player leaves
    out = ev.cut()
    assert [e.kind for e in out][-2:] == ["cut_made", "champion_declared"]
    assert out[-1].body == ChampionDeclared(number=winner, round=1)
    assert ev.state.fmt.champion == winner
    refused(ev, ev.bracket, "HOTC-TOP-3")
    clean(ev)


def test_cut_of_one_hotc_2013_has_no_champion(tmp_path: Path) -> None:
    ev = four_after_round_one(tmp_path, OLD, frozenset({2}))
    loser = next(r.number for r in ev.state.fmt.records.values()
                 if r.status is Status.ACTIVE and r.loss_reasons == [LossReason.PLAY])
    ev.drop(loser)
    assert [e.kind for e in ev.cut()][-1] == "cut_made"
    assert ev.state.fmt.champion is None     # the old rules crown nobody
    clean(ev)


def test_cut_of_zero_needs_the_head_judges_ruling_r2(tmp_path: Path) -> None:
    ev = four_after_round_one(tmp_path, R2, frozenset({1, 2}))
    assert ev.undefeated() == []
    err = refused(ev, ev.cut, "AMB-H9")
    assert "--no-champion" in (err.hint or "")
    refused(ev, lambda: ev.cut(no_champion="   "), "AMB-H9")
    out = ev.cut(no_champion="every remaining player lost on time")
    assert [e.kind for e in out][-2:] == ["cut_made", "no_champion_ruled"]
    assert out[-1].body == NoChampionRuled(cut_seq=out[-2].seq,
                                           reason="every remaining player lost on time")
    st = ev.state
    assert st.fmt.final and st.fmt.champion is None and st.fmt.cut == []
    refused(ev, ev.bracket, "HOTC-TOP-3")
    clean(ev)


def test_no_champion_reason_is_refused_when_the_cut_has_players(tmp_path: Path) -> None:
    ev = four_after_round_one(tmp_path, R2, frozenset({2}))
    err = refused(ev, lambda: ev.cut(no_champion="why not"), "")
    assert isinstance(err, UsageError) and "--no-champion" in err.message


def test_cut_of_zero_hotc_2013_bracket_is_refused_cleanly(tmp_path: Path) -> None:
    """Was "internal error: StopIteration"; the old revision still has no rule to end the
    event, so the bracket is refused with a clear message."""
    ev = four_after_round_one(tmp_path, OLD, frozenset({1, 2}))
    assert ev.cut()[-1].body.cut == []  # type: ignore[union-attr]
    refused(ev, ev.bracket, "AMB-H9")
    clean(ev)


def test_a_single_entrant_is_the_champion_r2(tmp_path: Path) -> None:
    ev = HotcEvent(tmp_path / "t.db", 2, cut=8, params=R2)
    ev.drop(2)
    out = ev.cut()
    assert out[-1].body == ChampionDeclared(number=1, round=0)
    clean(ev)


# -- HOTC-ENTRY-1 ---------------------------------------------------------------------------

def test_invitation_required_refuses_a_player_without_one(tmp_path: Path) -> None:
    ev = HotcEvent(tmp_path / "t.db", 0, params={"invitation_required": True},
                   register=False)
    err = refused(ev, lambda: ev.write(lambda t, now: t.register_player("Ada", SK, now)),
                  "HOTC-ENTRY-1")
    assert "--invitation" in (err.hint or "")
    refused(ev, lambda: ev.write(lambda t, now: t.register_player(
        "Ada", SK, now, invitation=" ")), "HOTC-ENTRY-1")
    got = ev.write(lambda t, now: t.register_player("Ada", SK, now, invitation="NQ-2013-17"))
    assert isinstance(got.body, PlayerRegistered) and got.body.invitation == "NQ-2013-17"
    assert b'"invitation":"NQ-2013-17"' in got.leaf
    clean(ev)


def test_no_invitation_field_when_none_is_given(tmp_path: Path) -> None:
    ev = HotcEvent(tmp_path / "t.db", 3, params=R2)
    regs = [e for e in ev.events() if e.kind == "player_registered"]
    assert regs and all(b"invitation" not in e.leaf for e in regs)


# -- slow-play calls as events (HOTC-SLOW-1/2, TC-11 as revised) ---------------------------

def paired_four(tmp_path: Path, params: dict[str, object]) -> tuple[HotcEvent, int, int]:
    ev = HotcEvent(tmp_path / "t.db", 4, cut=2, params=params)  # type: ignore[arg-type]
    ev.pair()
    p, q = ev.state.fmt.rounds[-1].tables[0].players
    return ev, p, q


def call(ev: HotcEvent, caller: int, called: int, table: int = 1) -> int:
    return int(ev.write(lambda t, now: call_slow_play(t, JUDGE, now, round_no=1, table=table,
                                                      caller=caller, called=called)).seq)


def rule(ev: HotcEvent, seq: int, upheld: bool, minutes: int = 0) -> int:
    return int(ev.write(lambda t, now: rule_slow_play(t, JUDGE, now, call_seq=seq,
                                                      upheld=upheld,
                                                      minutes_added=minutes)).seq)


def test_tc11b_upheld_call_is_recorded_and_the_result_cites_it(tmp_path: Path) -> None:
    ev, p, q = paired_four(tmp_path, R2)
    refused(ev, lambda: ev.result(1, 1, outcome=Outcome.SLOW_PLAY, slow_play=[p]),
            "HOTC-SLOW-2")                     # no recorded call yet
    seq = call(ev, q, p)
    refused(ev, lambda: call(ev, q, p), "HOTC-SLOW-2")   # the first is not ruled yet
    rule(ev, seq, upheld=True)
    refused(ev, lambda: rule(ev, seq, upheld=False), "HOTC-SLOW-2")   # ruled once
    refused(ev, lambda: ev.result(1, 1, outcome=Outcome.TIMEOUT), "HOTC-TIME-2")
    res = ev.result(1, 1, outcome=Outcome.SLOW_PLAY)[0].body
    assert isinstance(res, ResultRecorded)
    assert (res.winner, res.losers, res.slow_play, res.slow_play_call) == (q, [p], [p], seq)
    assert res.loss_reasons == [LossReason.TIMEOUT_SLOW_PLAY]
    refused(ev, lambda: call(ev, p, q), "HOTC-SLOW-1")   # after the fact
    clean(ev)


def test_call_not_upheld_adds_time_and_a_timeout_is_a_double_loss(tmp_path: Path) -> None:
    ev, p, q = paired_four(tmp_path, R2)
    seq = call(ev, p, q)
    refused(ev, lambda: rule(ev, seq, upheld=True, minutes=3), "HOTC-SLOW-2")
    refused(ev, lambda: rule(ev, seq, upheld=False, minutes=41), "HOTC-SLOW-2")
    ruled = ev.events()[-1]
    rule(ev, seq, upheld=False, minutes=4)
    assert ev.events()[-1].body == SlowPlayRuled(call_seq=seq, upheld=False, minutes_added=4)
    assert ruled.seq < ev.events()[-1].seq
    res = ev.result(1, 1, outcome=Outcome.TIMEOUT)[0].body
    assert isinstance(res, ResultRecorded)
    assert res.losers == sorted([p, q]) and res.slow_play == []
    assert res.slow_play_call is msgspec.UNSET
    clean(ev)


def test_tc11d_both_calls_upheld_is_supervised_to_a_natural_result(tmp_path: Path) -> None:
    ev, p, q = paired_four(tmp_path, R2)
    rule(ev, call(ev, q, p), upheld=True)
    rule(ev, call(ev, p, q), upheld=True)
    refused(ev, lambda: ev.result(1, 1, outcome=Outcome.TIMEOUT), "HOTC-TIME-3")
    refused(ev, lambda: ev.result(1, 1, outcome=Outcome.SLOW_PLAY, slow_play=[p]),
            "HOTC-TIME-3")
    res = ev.result(1, 1, outcome=Outcome.WIN, winner=q)[0].body
    assert isinstance(res, ResultRecorded) and res.slow_play == sorted([p, q])
    clean(ev)


def test_calls_must_name_the_players_of_a_match_in_progress(tmp_path: Path) -> None:
    ev, p, q = paired_four(tmp_path, R2)
    other = ev.state.fmt.rounds[-1].tables[1].players[0]
    refused(ev, lambda: call(ev, p, other), "HOTC-SLOW-1")
    refused(ev, lambda: call(ev, p, q, table=9), "HOTC-SLOW-1")
    # a scorekeeper does not record calls
    with pytest.raises(TourneyError, match="signed by head_judge or judge"):
        ev.write(lambda t, now: t.record(SlowPlayCalled(round=1, table=1, caller=p,
                                                        called=q), SK, now))


def test_hotc_2013_keeps_the_flag_on_the_result(tmp_path: Path) -> None:
    ev, p, q = paired_four(tmp_path, OLD)
    refused(ev, lambda: call(ev, q, p), "HOTC-SLOW-2")
    res = ev.result(1, 1, outcome=Outcome.SLOW_PLAY, slow_play=[p])[0]
    assert b"slow_play_call" not in res.leaf
    clean(ev)


# -- the bye (HOTC-BYE-2/3/5 as revised, TC-10) ---------------------------------------------

A, B, C, D, E, F, G = range(1, 8)


def tc10b_before_r3() -> list[Entrant]:
    return [Entrant(number=A, wins=2, opponents=frozenset({B, E})),
            Entrant(number=C, wins=2, opponents=frozenset({D, F})),
            Entrant(number=E, wins=1, byes=1, opponents=frozenset({A}))]


def test_tc10b_least_wins_gives_e_a_second_bye() -> None:
    field = tc10b_before_r3()
    assert bye_candidates(field, "least_wins") == [E]
    assert bye_by_pairing(field, [E], "higher") == E
    pairs, _ = pair_swiss([e for e in field if e.number != E], [A, C])
    assert [(p.high, p.low, p.rematch, p.cross) for p in pairs] in (
        [(A, C, False, False)], [(C, A, False, False)])


@pytest.mark.parametrize("order", [[A, C], [C, A]])
def test_tc10b_no_repeat_gives_the_bye_to_a_whatever_the_order(order: list[int]) -> None:
    field = tc10b_before_r3()
    assert bye_candidates(field, "no_repeat") == [A, C]
    assert pairing_counts(field, C, "higher") == (1, 0)      # A–E again
    assert pairing_counts(field, A, "higher") == (0, 0)      # C–E, C paired down
    assert bye_by_pairing(field, order, "higher") == A


def tc10c_before_r3() -> list[Entrant]:
    return [Entrant(number=4, wins=2, pair_downs=1, opponents=frozenset({2, 9})),
            Entrant(number=10, wins=2, opponents=frozenset({3, 7})),
            Entrant(number=1, wins=1, opponents=frozenset({5, 2})),
            Entrant(number=7, wins=1, opponents=frozenset({11, 10})),
            Entrant(number=11, wins=1, opponents=frozenset({7, 3}))]


def test_tc10c_the_bye_that_avoids_a_second_pair_down() -> None:
    field = tc10c_before_r3()
    assert bye_candidates(field, "least_wins") == [1, 7, 11]
    assert pairing_counts(field, 1, "higher") == (0, 1)
    assert pairing_counts(field, 7, "higher") == (0, 0)
    assert pairing_counts(field, 11, "higher") == (0, 0)
    assert bye_by_pairing(field, [1, 11, 7], "higher") == 11
    assert bye_by_pairing(field, [1, 7, 11], "higher") == 7
    others = [e for e in field if e.number != 11]
    pairs, _ = pair_swiss(others, [4, 10, 1, 7])
    assert sorted(tuple(sorted((p.high, p.low))) for p in pairs) == [(1, 7), (4, 10)]
    assert not any(p.rematch or p.cross for p in pairs)


def test_tc10c_hotc_2013_took_the_first_drawn_candidate() -> None:
    """HOTC_2013 gives the bye to the first drawn candidate: #1 with that order, which
    forces #4's second pair-down (the behaviour old ledgers keep)."""
    field = tc10c_before_r3()
    others = [e for e in field if e.number != 1]
    pairs, _ = pair_swiss(others, [4, 10, 7, 11])
    assert not any(p.rematch for p in pairs)
    assert sorted((p.high, p.low) for p in pairs) == [(4, 7), (10, 11)]
    assert pairing_counts(field, 1, "higher") == (0, 1)     # #4 paired down twice


def final_of_two(tmp_path: Path) -> tuple[HotcEvent, int, int, int]:
    """Two entrants for a top 2 (R2: round 1 is played), then the final."""
    ev = HotcEvent(tmp_path / "t.db", 2, cut=2, params=R2)
    ev.pair()
    ev.play()
    assert len(ev.cut()[-1].body.cut) == 2  # type: ignore[union-attr]
    ev.bracket()
    rnd = ev.state.fmt.rounds[-1]
    p, q = rnd.tables[0].players
    return ev, rnd.number, p, q


def test_tc11e_top_cut_timeout_turn_player_loses_r2(tmp_path: Path) -> None:
    ev, n, p, q = final_of_two(tmp_path)
    out = ev.result(n, 1, outcome=Outcome.TIMEOUT, turn_player=q)
    assert ev.state.fmt.champion == p
    assert out[0].body.loss_reasons == [LossReason.TIMEOUT_TURN_PLAYER]  # type: ignore[union-attr]
    clean(ev)


def test_tc11f_top_cut_upheld_call_beats_the_turn_player_rule_r2(tmp_path: Path) -> None:
    ev, n, p, q = final_of_two(tmp_path)
    seq = int(ev.write(lambda t, now: call_slow_play(t, JUDGE, now, round_no=n, table=1,
                                                     caller=q, called=p)).seq)
    ev.write(lambda t, now: rule_slow_play(t, HJ, now, call_seq=seq, upheld=True))
    refused(ev, lambda: ev.result(n, 1, outcome=Outcome.TIMEOUT, turn_player=q),
            "HOTC-TIME-2")
    res = ev.result(n, 1, outcome=Outcome.SLOW_PLAY, turn_player=q)[0].body
    assert isinstance(res, ResultRecorded)
    assert (res.winner, res.losers, res.slow_play_call) == (q, [p], seq)
    assert ev.state.fmt.champion == q
    clean(ev)
