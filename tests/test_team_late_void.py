"""A late team and a voided team pairing (issue 20, ADR 0026 decisions 15-16) on real
ledgers with real signatures, and the audit's view of forged events.

Late entry: a team enters after registration closed with its fighters, in one
``team_added_late``, under the individual late-entry rule (between qualifying rounds, the
byes and losses the organizer announced for the rounds played; DE: not eliminated on
entry) and the team rules (BR-TEAM-1…4).  Void: a seat lost to a member's own Loss of
Match given before the round (recorded with the pairing) does not make the pairing stand,
as a fighter's carried loss does not; a seat the table entered does (LEDGER-RES-1).
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ledger.formats.registry  # noqa: F401
from ledger.errors import RuleError
from ledger.formats.bushiroad.team_late import LateFighter, TeamAddedLate
from ledger.formats.bushiroad.teams import SeatResultRecorded
from ledger.formats.match.model import Outcome
from ledger.formats.officiating.commands import apply_pending
from ledger.formats.officiating.correction_commands import add_late, void_pairing
from ledger.formats.officiating.events import PairingVoided
from ledger.storage.store import Ledger
from tests.helpers.team_event import HJ, SK, _event, _paired_trio, _team
from tests.helpers.team_penalties import _audit_ok, _forged, _lom


def _seat(led: Ledger, table: int, k: int, winner: int, round_no: int = 1) -> Any:
    return led.write("e", lambda t, now: t.record_result(
        SK, now, round_no=round_no, table=table, seat=k, outcome=Outcome.WIN,
        winner=winner))


def _round_one_done(d: Path) -> Ledger:
    """A trio Swiss of 4 teams (2 rounds), round 1 played and closed."""
    led = _paired_trio(d)
    for tab in led.load("e").state.fmt.rounds[-1].tables:
        x = min(tab.players)
        for k in (1, 2, 3):
            _seat(led, tab.table, k, x - 3 + k)
    assert led.load("e").state.fmt.rounds[-1].closed_seq is not None
    return led


def _late(led: Ledger, names: list[str] | None = None, **kw: Any) -> Any:
    args: dict[str, Any] = {"byes": 0, "losses": 1, "reason": "train delay", **kw}
    return led.write("e", lambda t, now: t.plugin.teams.register_late_team(
        t, HJ, now, names=names or ["Kim", "Lou", "Max"], **args))


def _refused(led: Ledger, fn: Any) -> str:
    before = led.load("e").version
    with pytest.raises(RuleError) as err:
        fn()
    assert led.load("e").version == before           # nothing written
    return err.value.rule


# -- late entry of a team ------------------------------------------------------------------
def test_a_late_team_enters_with_its_fighters_as_a_late_fighter_would() -> None:
    """One event registers the three fighters and the team; the team's record has the
    announced loss for round 1 (``late_entry``), it is paired in round 2, audit clean."""
    d = Path(tempfile.mkdtemp())
    led = _round_one_done(d)
    evs = _late(led, name="Late Ones")
    assert [e.kind for e in evs] == ["team_added_late"]
    body = evs[0].body
    assert isinstance(body, TeamAddedLate)
    assert [f.number for f in body.fighters] == [13, 14, 15] and body.number == 15
    assert (body.rounds, body.byes, body.losses) == (1, 0, 1)
    s = led.load("e").state
    assert [s.players[n].name for n in (13, 14, 15)] == ["Kim", "Lou", "Max"]
    assert s.fmt.teams.teams[15].members == [13, 14, 15]
    assert s.fmt.teams.member_of[14] == 15 and 13 not in s.fmt.records
    rec = s.fmt.records[15]
    assert (rec.wins, rec.losses, rec.played) == (0, 1, "N")
    assert [r.value for r in rec.loss_reasons] == ["late_entry"]
    led.write("e", lambda t, now: t.pair_round(HJ, now, material="r2", source="dice"))
    seated = {p for t in led.load("e").state.fmt.rounds[-1].tables for p in t.players}
    assert 15 in seated | {led.load("e").state.fmt.rounds[-1].bye}
    _audit_ok(led, d)


def test_a_late_team_with_a_bye_and_its_own_numbers_and_representative() -> None:
    d = Path(tempfile.mkdtemp())
    led = _round_one_done(d)
    evs = _late(led, ["A", "B", "C"], numbers=[40, 41, 42], representative=40, byes=1,
                losses=0)
    assert evs[0].body.number == 40
    rec = led.load("e").state.fmt.records[40]
    assert (rec.wins, rec.byes, rec.played) == (1, 1, "B")
    _audit_ok(led, d)


@pytest.mark.parametrize("kw,rule", [
    ({"names": ["A", "B"]}, "BR-TEAM-1"),                       # a trio has 3
    ({"numbers": [3, 20, 21]}, "LEDGER-REG-1"),                 # #3 is on team #3
    ({"numbers": [20, 20, 21]}, "BR-TEAM-2"),                   # one fighter, two seats
    ({"representative": 1}, "BR-TEAM-3"),                       # not a member
    ({"name": "Nazi Crew"}, "BR-TEAM-4"),                       # offensive
    ({"byes": 1, "losses": 1}, "LEDGER-REG-2"),                 # 1 round was played
    ({"reason": " "}, "LEDGER-REG-1"),
    ({"names": ["A", " ", "C"]}, "LEDGER-REG-1"),
])
def test_a_late_team_the_rules_refuse_writes_nothing(kw: dict[str, Any], rule: str) -> None:
    d = Path(tempfile.mkdtemp())
    led = _round_one_done(d)
    names = kw.pop("names", None)
    assert _refused(led, lambda: _late(led, names, **kw)) == rule
    led.close()


def test_a_late_team_is_refused_during_a_round_before_closing_and_alone() -> None:
    """Between qualifying rounds only (LEDGER-REG-2); before registration closes a team
    is added with 'team add' (LEDGER-REG-2); a fighter alone would be on no team
    (BR-TEAM-1); a team name already taken (BR-TEAM-4)."""
    d = Path(tempfile.mkdtemp())
    led = _paired_trio(d)
    assert _refused(led, lambda: _late(led)) == "LEDGER-REG-2"          # round 1 open
    assert _refused(led, lambda: led.write("e", lambda t, now: add_late(
        t, HJ, now, name="Solo", byes=0, losses=0, reason="late"))) == "BR-TEAM-1"
    led.close()
    d2 = Path(tempfile.mkdtemp())
    led2, _ = _event(d2, fighters=6)
    _team(led2, [1, 2, 3], name="Reds")
    assert _refused(led2, lambda: _late(led2)) == "LEDGER-REG-2"        # still open
    led2.close()
    led3 = _round_one_done(Path(tempfile.mkdtemp()))
    _late(led3, name="Blues")
    assert _refused(led3, lambda: _late(led3, ["X", "Y", "Z"], name="blues")) == "BR-TEAM-4"
    led3.close()


def test_a_late_team_in_double_elimination_does_not_enter_eliminated() -> None:
    """BR-DE-1 for a late team as for a late fighter: two losses eliminate."""
    d = Path(tempfile.mkdtemp())
    led, _ = _event(d, fmt="bushiroad-de", fighters=24)
    for first in range(1, 25, 3):
        _team(led, [first, first + 1, first + 2])
    led.write("e", lambda t, now: t.close_registration(HJ, now))
    for r in (1, 2):
        led.write("e", lambda t, now, r=r: t.pair_round(HJ, now, material=f"r{r}",
                                                        source="dice"))
        for tab in led.load("e").state.fmt.rounds[-1].tables:
            x = min(tab.players)
            for k in (1, 2, 3):
                _seat(led, tab.table, k, x - 3 + k, round_no=r)
    assert _refused(led, lambda: _late(led, losses=2)) == "BR-DE-1"
    _late(led, losses=1, byes=1)
    _audit_ok(led, d)


def test_the_audit_flags_a_forged_late_team() -> None:
    """Re-signed: a late team with more missed rounds than were played, or whose fighter
    is already registered, is flagged where it stands."""
    d = Path(tempfile.mkdtemp())
    led = _round_one_done(d)
    evs = _late(led)
    body = evs[0].body
    assert _forged(led, evs[0].seq, msgspec.structs.replace(body, losses=2)) == {
        "rule_violation"}
    taken = msgspec.structs.replace(body, fighters=[LateFighter(number=1, name="Kim"),
                                                    *body.fighters[1:]])
    assert _forged(led, evs[0].seq, taken) == {"rule_violation"}
    led.close()


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(byes=st.integers(0, 2), losses=st.integers(0, 2))
def test_property_a_late_team_enters_iff_its_missed_rounds_fit(byes: int,
                                                                losses: int) -> None:
    """The individual rule, for a team: byes + losses ≤ rounds played (1 here)."""
    d = Path(tempfile.mkdtemp())
    led = _round_one_done(d)
    if byes + losses <= 1:
        _late(led, byes=byes, losses=losses)
        rec = led.load("e").state.fmt.records[15]
        assert (rec.wins, rec.losses, len(rec.played)) == (byes, losses, 1)
    else:
        assert _refused(led, lambda: _late(led, byes=byes, losses=losses)) == "LEDGER-REG-2"
    led.close()


# -- void of a round whose seats carry a penalty's loss -----------------------------------
def _member_lom_then_pair(d: Path) -> tuple[Ledger, list[Any]]:
    led = _round_one_done(d)
    _lom(led, 4)                         # member #4 (team #6), for the next match
    paired = led.write("e", lambda t, now: t.pair_round(HJ, now, material="r2",
                                                        source="dice")
                       + apply_pending(t, HJ, now))          # as 'tourney round pair'
    return led, paired


def test_a_pairing_whose_seat_carries_a_members_earlier_loss_of_match_is_voided() -> None:
    """As for fighters (ADR 0012): the loss the penalty owed binds again at the re-pair."""
    d = Path(tempfile.mkdtemp())
    led, paired = _member_lom_then_pair(d)
    seats = [e.body for e in paired if isinstance(e.body, SeatResultRecorded)]
    assert len(seats) == 1 and seats[0].losers == [4]
    evs = led.write("e", lambda t, now: void_pairing(t, HJ, now, reason="wrong sheet"))
    assert [e.kind for e in evs] == ["pairing_voided"]
    s = led.load("e").state
    assert not [k for k in s.fmt.teams.seats if k.startswith("2/")]
    assert all(x.round is None for x in s.fmt.officiating.pending if x.number == 4)
    again = led.write("e", lambda t, now: t.pair_round(HJ, now, material="r2 again",
                                                       source="dice")
                      + apply_pending(t, HJ, now))
    seats = [e.body for e in again if isinstance(e.body, SeatResultRecorded)]
    assert len(seats) == 1 and seats[0].losers == [4] and seats[0].seat == 1
    _audit_ok(led, d)


def test_a_seat_the_table_entered_makes_the_pairing_stand() -> None:
    d = Path(tempfile.mkdtemp())
    led, _ = _member_lom_then_pair(d)
    tab = next(t for t in led.load("e").state.fmt.rounds[-1].tables if 6 not in t.players)
    x = min(tab.players)
    led.write("e", lambda t, now: t.record_result(
        HJ, now, round_no=2, table=tab.table, seat=2, outcome=Outcome.WIN, winner=x - 1))
    assert _refused(led, lambda: led.write("e", lambda t, now: void_pairing(
        t, HJ, now, reason="wrong sheet"))) == "LEDGER-RES-1"
    led.close()


def test_a_pairing_whose_seats_all_carry_losses_is_voided_with_its_team_result() -> None:
    """All three members of a team owe their next seat: the seats and the team result
    derived from them are recorded with the pairing, and the void takes all back."""
    d = Path(tempfile.mkdtemp())
    led = _round_one_done(d)
    before = led.load("e").state.fmt.records[6]
    for n in (4, 5, 6):
        _lom(led, n, **({"member": True} if n == 6 else {}))
    paired = led.write("e", lambda t, now: t.pair_round(HJ, now, material="r2",
                                                        source="dice")
                       + apply_pending(t, HJ, now))
    assert "result_recorded" in [e.kind for e in paired]
    led.write("e", lambda t, now: void_pairing(t, HJ, now, reason="wrong sheet"))
    s = led.load("e").state
    assert (s.fmt.records[6].losses, s.fmt.records[6].played) == (before.losses,
                                                                  before.played)
    assert not [k for k in s.fmt.teams.seats if k.startswith("2/")]
    led.write("e", lambda t, now: t.pair_round(HJ, now, material="r2 again", source="dice")
              + apply_pending(t, HJ, now))
    _audit_ok(led, d)


def test_the_audit_flags_a_forged_void_over_a_seat_the_table_entered() -> None:
    d = Path(tempfile.mkdtemp())
    led, _ = _member_lom_then_pair(d)
    s = led.load("e").state
    rnd = s.fmt.rounds[-1]
    tab = next(t for t in rnd.tables if 6 not in t.players)
    x = min(tab.players)
    led.write("e", lambda t, now: t.record_result(
        HJ, now, round_no=2, table=tab.table, seat=1, outcome=Outcome.WIN, winner=x - 2))
    last = led.write("e", lambda t, now: t.record_result(
        HJ, now, round_no=2, table=tab.table, seat=2, outcome=Outcome.WIN, winner=x - 1))
    void = PairingVoided(round=2, paired_seq=rnd.paired_seq, reason="forged")
    assert _forged(led, last[0].seq, void) == {"rule_violation"}
    led.close()
