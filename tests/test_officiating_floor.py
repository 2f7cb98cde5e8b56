"""The floor on the log (issue 9 §4–§6, §8): rulings and the challenge count (TC-22), the
time-keeper's clock and extension caps (BR-TIME-5, BR-EXT-1, AMB-B27, TC-25(g)(h)), the
001 end-of-match procedures (TC-25), deck registration and checks (BR-DECK-1..3), and the
audit's findings on forged floor events."""

from __future__ import annotations

from pathlib import Path

import pytest

from audit.verify import verify_ledger
from ledger.errors import RuleError
from ledger.formats.match.model import DecidedBy, Outcome
from ledger.formats.match.plan import open_round
from ledger.formats.officiating.eom import Board, nse_match, overtime_turns, se_decide
from ledger.formats.officiating.floor import ChallengeRaised
from ledger.formats.officiating.floor_commands import (
    call_time,
    check_deck,
    decide_challenge,
    decide_eom,
    extend,
    make_ruling,
    raise_challenge,
    register_deck,
    start_round,
)
from ledger.formats.officiating.floor_rules import deck_hash, remaining
from ledger.wire.events import Role
from ledger.wire.keys import Signer
from tests.conftest import HJ, JUDGE, SCOREKEEPER, public
from tests.helpers.officiating import LOG, _append_forged, _codes, pair, setup

TK = Signer.from_seed(bytes([9]) * 32, "Time Keeper")


def _tk(led: object) -> None:
    led.write(LOG, lambda t, now: t.add_official(  # type: ignore[attr-defined]
        public(TK), Role.TIME_KEEPER, "Tim", HJ, now))


# -- TC-22: challenge count ------------------------------------------------------------------
def test_tc22_challenge_count(tmp_path: Path) -> None:
    loc, led = setup(tmp_path, players=4, swiss_rounds=2, challenge_limit=2)
    pair(led)
    rnd = open_round(led.load(LOG).state)
    assert rnd is not None
    f, g = rnd.tables[0].players

    def ruling(n: int) -> int:
        return led.write(LOG, lambda t, now: make_ruling(
            t, JUDGE, now, round_no=1, table=1, question=f"q{n}", ruling=f"r{n}")).seq

    def challenge(r: int, players: list[int]) -> object:
        return led.write(LOG, lambda t, now: raise_challenge(t, JUDGE, now, ruling_seq=r,
                                                             players=players))

    def decide(c: int, same: bool) -> None:
        led.write(LOG, lambda t, now: decide_challenge(t, HJ, now, challenge_seq=c,
                                                       ruling="hj", same_as_first=same))

    def left(p: int) -> int | None:
        return remaining(led.load(LOG).state, p)

    c1 = challenge(ruling(1), [f])
    decide(c1.seq, True)                       # 1. agrees with r1: F 2 → 1
    assert left(f) == 1
    c2 = challenge(ruling(2), [f])
    decide(c2.seq, False)                      # 2. overturned: F stays at 1
    assert left(f) == 1
    c3 = challenge(ruling(3), [f, g])
    decide(c3.seq, True)                       # 3. joint, agrees: F 1 → 0, G 2 → 1
    assert (left(f), left(g)) == (0, 1)
    c4 = challenge(ruling(4), [f])             # 4. recorded and refused; r4 stands
    assert c4.body.refused == [f]
    with pytest.raises(RuleError) as err:
        decide(c4.seq, False)
    assert err.value.finding == "challenge_limit_exceeded"
    assert left(f) == 0
    led.close()
    assert verify_ledger(loc, LOG, None).ok
    seq = _append_forged(loc, ChallengeRaised(ruling_seq=c4.body.ruling_seq, players=[f]),
                         JUDGE)                 # a challenge beyond the limit, not refused
    assert seq in _codes(loc)["challenge_limit_exceeded"]


def test_only_the_match_players_may_appeal(tmp_path: Path) -> None:
    _loc, led = setup(tmp_path, players=4, swiss_rounds=2)
    pair(led)
    rnd = open_round(led.load(LOG).state)
    assert rnd is not None
    other = rnd.tables[1].players[0]
    r = led.write(LOG, lambda t, now: make_ruling(t, JUDGE, now, round_no=1, table=1,
                                                  question="q", ruling="r"))
    with pytest.raises(RuleError, match="only the fighters"):
        led.write(LOG, lambda t, now: raise_challenge(t, JUDGE, now, ruling_seq=r.seq,
                                                      players=[other]))


# -- time --------------------------------------------------------------------------------------
def test_time_keeper_clock_and_extension_cap(tmp_path: Path) -> None:
    loc, led = setup(tmp_path, players=4, swiss_rounds=2, judge_extension_cap_minutes=5,
                     extra_turns=1)
    _tk(led)
    pair(led)
    with pytest.raises(RuleError) as err:             # a scorekeeper is no time-keeper
        led.write(LOG, lambda t, now: start_round(t, SCOREKEEPER, now))
    assert err.value.finding == "role_not_permitted"
    ev = led.write(LOG, lambda t, now: start_round(t, TK, now))
    assert ev.body.minutes == 30
    with pytest.raises(RuleError, match="already started"):
        led.write(LOG, lambda t, now: start_round(t, TK, now))
    led.write(LOG, lambda t, now: extend(t, JUDGE, now, round_no=1, table=1, minutes=3,
                                         turns=0, reason="ruling took 4 minutes"))
    with pytest.raises(RuleError, match="cap is 5"):  # TC-25(h): 3 + 3 > 5
        led.write(LOG, lambda t, now: extend(t, JUDGE, now, round_no=1, table=1,
                                             minutes=3, turns=0, reason="again"))
    with pytest.raises(RuleError, match="cap is 5"):  # TC-25(g): 6 > 5 on another table
        led.write(LOG, lambda t, now: extend(t, JUDGE, now, round_no=1, table=2,
                                             minutes=6, turns=0, reason="long"))
    called = led.write(LOG, lambda t, now: call_time(t, TK, now))
    assert called.body.extra_turns == 1
    st = led.load(LOG).state
    assert st.fmt.officiating.clock[1].called_seq == called.seq
    assert verify_ledger(loc, LOG, None).ok


# -- TC-25: 001 end of match ----------------------------------------------------------------------
def test_tc25_pure_steps() -> None:
    a, b = 1, 2
    assert overtime_turns(False) == ["turn 0", "turn 1", "turn 2", "turn 3"]      # (a)
    assert nse_match(a, b, 1, 0).winner == a                                      # (a)
    assert nse_match(a, b, 1, 1).winner is None                                   # (b)
    c = se_decide(a, b, 0, 0, Board(30, 10, 0, 0), Board(25, 4, 0, 0))           # (c)
    assert (c.winner, c.decided_by, c.compared, c.games) == (
        b, DecidedBy.EOM_STEP_2, [[20], [21]], (0, 1))
    d = se_decide(a, b, 0, 0, Board(20, 0, 7, 0), Board(25, 5, 5, 0))            # (d)
    assert (d.winner, d.decided_by) == (a, DecidedBy.EOM_STEP_3)
    e = se_decide(a, b, 0, 0, Board(20, 0, 5, 12), Board(20, 0, 5, 15))           # (e)
    assert (e.winner, e.decided_by) == (b, DecidedBy.EOM_STEP_4)
    e2 = se_decide(a, b, 0, 0, Board(20, 0, 5, 12, True), Board(20, 0, 5, 12))    # (e)
    assert e2.winner == a and e2.compared == [[12, 1], [12, 0]]
    f = se_decide(a, b, 1, 0, Board(1, 0, 0, 0), Board(30, 0, 9, 40))            # (f)
    assert (f.winner, f.decided_by) == (a, DecidedBy.EOM_STEP_1)
    with pytest.raises(ValueError, match="AMB-E3"):
        se_decide(a, b, 1, 1, None, None)


def test_tc25_eom_on_the_log_fixes_the_result(tmp_path: Path) -> None:
    loc, led = setup(tmp_path, players=4, swiss_rounds=2, end_of_match="eom_001")
    _tk(led)
    pair(led)
    led.write(LOG, lambda t, now: start_round(t, TK, now))
    with pytest.raises(RuleError, match="time has not been called"):
        led.write(LOG, lambda t, now: decide_eom(t, JUDGE, now, round_no=1, table=1,
                                                 games=[1, 0]))
    led.write(LOG, lambda t, now: call_time(t, TK, now))
    rnd = open_round(led.load(LOG).state)
    assert rnd is not None
    a, b = rnd.tables[0].players
    ev = led.write(LOG, lambda t, now: decide_eom(t, JUDGE, now, round_no=1, table=1,
                                                  games=[1, 0]))       # TC-25(a): A wins
    assert (ev.body.winner, ev.body.decided_by) == (a, DecidedBy.EOM_STEP_1)
    with pytest.raises(RuleError) as err:
        led.write(LOG, lambda t, now: t.record_result(
            SCOREKEEPER, now, round_no=1, table=1, outcome=Outcome.WIN, winner=b))
    assert err.value.finding == "result_mismatch"
    led.write(LOG, lambda t, now: t.record_result(SCOREKEEPER, now, round_no=1, table=1,
                                                  outcome=Outcome.WIN, winner=a))
    assert verify_ledger(loc, LOG, None).ok


# -- decks ---------------------------------------------------------------------------------------
def test_deck_registration_is_immutable_and_checked(tmp_path: Path) -> None:
    loc, led = setup(tmp_path, players=4, swiss_rounds=2)
    deck = "4 Alpha\n4 Beta\n"
    ev = led.write(LOG, lambda t, now: register_deck(t, SCOREKEEPER, now, number=1,
                                                     text=deck))
    assert ev.body.sha256 == deck_hash(deck)
    with pytest.raises(RuleError, match="immutable"):
        led.write(LOG, lambda t, now: register_deck(t, SCOREKEEPER, now, number=1,
                                                    text="4 Gamma\n"))
    with pytest.raises(RuleError) as err:      # deck checks: organizer / head judge only
        led.write(LOG, lambda t, now: check_deck(t, JUDGE, now, number=1, matches=True))
    assert err.value.finding == "role_not_permitted"
    with pytest.raises(RuleError, match="no registered deck"):
        led.write(LOG, lambda t, now: check_deck(t, HJ, now, number=2, matches=True))
    led.write(LOG, lambda t, now: check_deck(t, HJ, now, number=1, matches=False,
                                             note="one card short", minutes=4))
    led.write(LOG, lambda t, now: register_deck(t, SCOREKEEPER, now, number=2,
                                                sha256="ab" * 32))   # hash only
    assert verify_ledger(loc, LOG, None).ok
