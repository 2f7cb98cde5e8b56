"""A team member's own penalty and disqualification (issue 20; BR-TEAM-6, PG §4.5,
BR-DROP-4, ADR 0026) on real ledgers with real signatures, and the audit's view of them.

The seed (002 FR §5.2.2.3) makes a penalty *given to a team* apply to each member; any
other penalty is the fighter's own (PG §4.6: "any participant").  A member's Loss of Match
loses that member's seat, and the team result is derived from the seats (BR-TEAM-7,
AMB-B30); a team's earlier penalties are the member's priors (BR-PEN-RANK-6).  The
representative's own penalty or disqualification carries ``member`` (their number also
names the team); the team's does not.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import msgspec
import pytest

import ledger.formats.registry  # noqa: F401
from ledger.errors import RuleError
from ledger.formats.bushiroad.teams import SeatResultRecorded
from ledger.formats.match import history
from ledger.formats.match.events import ResultRecorded
from ledger.formats.match.model import Outcome
from ledger.formats.officiating.catalogue import Penalty
from ledger.formats.officiating.commands import apply_pending, disqualify, issue_penalty
from ledger.formats.officiating.events import PenaltyIssued
from ledger.storage.store import Ledger
from ledger.wire.events import SignedEvent
from tests.helpers.team_event import HJ, SK, _paired_trio
from tests.helpers.team_penalties import _audit_ok, _forged, _lom


def _seat(led: Ledger, table: int, k: int, winner: int) -> Any:
    return led.write("e", lambda t, now: t.record_result(
        SK, now, round_no=1, table=table, seat=k, outcome=Outcome.WIN, winner=winner))


def test_a_members_loss_of_match_loses_only_that_members_seat() -> None:
    """BR-TEAM-6 / ADR 0026: #2 (second position of team #3) gets a LoM during round 1:
    seat 2 is lost by the penalty (citing it); the other seats are played; the team
    result is derived (AMB-B30) — team #3 wins 2-1 here; the audit agrees."""
    d = Path(tempfile.mkdtemp())
    led = _paired_trio(d)
    tab = led.load("e").state.fmt.rounds[-1].tables[0]
    a, b = tab.players
    evs = _lom(led, a - 1)
    assert [e.kind for e in evs] == ["penalty_issued", "seat_result_recorded"]
    seat = evs[1].body
    assert isinstance(seat, SeatResultRecorded) and seat.seat == 2
    assert seat.losers == [a - 1] and seat.winner == b - 1
    assert seat.outcome is Outcome.PENALTY and seat.penalty_seq == evs[0].seq
    assert evs[0].body.member is msgspec.UNSET          # another member's number: implied
    assert led.load("e").state.fmt.rounds[-1].tables[0].result is None   # seats remain
    _seat(led, tab.table, 1, a - 2)
    _seat(led, tab.table, 3, a)
    res = led.load("e").state.fmt.rounds[-1].tables[0].result
    assert res is not None and res.winner == a and res.games == [2, 1, 0]
    _audit_ok(led, d)


def test_the_representatives_own_loss_of_match_is_told_from_the_teams() -> None:
    """``member`` (issue 20): the representative's own LoM loses seat 3 only; the same
    number without it is the team's penalty (the whole team match, BR-TEAM-6)."""
    d = Path(tempfile.mkdtemp())
    led = _paired_trio(d)
    t1, t2 = led.load("e").state.fmt.rounds[-1].tables[:2]
    a, b = t1.players
    evs = _lom(led, a, member=True)
    assert evs[0].body.member is True and evs[1].body.seat == 3
    assert evs[1].body.losers == [a]
    team = _lom(led, t2.players[0])                    # the team's own: no ``member``
    assert team[0].body.member is msgspec.UNSET
    res = led.load("e").state.fmt.rounds[-1].tables[1].result
    assert res is not None and res.losers == [t2.players[0]]
    _seat(led, t1.table, 1, b - 2)
    _seat(led, t1.table, 2, a - 1)
    res = led.load("e").state.fmt.rounds[-1].tables[0].result
    assert res is not None and res.winner == b and res.games == [1, 2, 0]
    _audit_ok(led, d)


def test_a_members_loss_of_match_for_the_next_match_binds_at_the_pairing() -> None:
    """Given between rounds, a member's LoM takes the member's next seat (BR-PEN-RANK-8):
    recorded by the pairing command itself; the team's other seats are played."""
    d = Path(tempfile.mkdtemp())
    led = _paired_trio(d)
    for tab in led.load("e").state.fmt.rounds[-1].tables:
        x, y = tab.players
        for k in (1, 2, 3):
            _seat(led, tab.table, k, x - 3 + k)
    assert led.load("e").state.fmt.rounds[-1].closed_seq is not None
    evs = _lom(led, 4)
    assert evs[0].body.applies_to.value == "next_match" and len(evs) == 1
    paired = led.write("e", lambda t, now: t.pair_round(HJ, now, material="r2",
                                                        source="dice")
                       + apply_pending(t, HJ, now))          # as 'tourney round pair'
    assert all(isinstance(e, SignedEvent) for e in paired)
    seats = [e.body for e in paired if isinstance(e.body, SeatResultRecorded)]
    assert len(seats) == 1 and seats[0].losers == [4] and seats[0].seat == 1
    assert seats[0].penalty_seq == evs[0].seq
    _audit_ok(led, d)


def test_a_teams_penalties_are_each_members_priors_not_the_reverse() -> None:
    """BR-TEAM-6 with BR-PEN-RANK-6: a team's Warning is a prior of each member's penalty
    in the group; a member's own is not the team's prior."""
    d = Path(tempfile.mkdtemp())
    led = _paired_trio(d)

    def warn(n: int, **kw: Any) -> PenaltyIssued:
        evs = led.write("e", lambda t, now: issue_penalty(
            t, HJ, now, number=n, section="4.5", penalty=Penalty.WARNING,
            description="advice", **kw))
        assert isinstance(evs[0].body, PenaltyIssued)
        return evs[0].body

    assert warn(3).prior == []                       # team #3's own Warning
    team_seq = led.load("e").state.fmt.officiating.penalties[0].seq
    assert warn(1).prior == [team_seq]               # member #1: the team's is a prior
    member_seq = led.load("e").state.fmt.officiating.penalties[1].seq
    assert warn(2).prior == [team_seq]               # not member #1's own
    assert warn(3, member=True).prior == [team_seq]          # the representative's own
    assert warn(3).prior == [team_seq]                       # the team: not its members'
    assert member_seq not in warn(6).prior
    _audit_ok(led, d)


def test_the_representatives_own_disqualification_drops_the_team() -> None:
    """``member`` on the representative's disqualification: the fighter is disqualified,
    the team drops (BR-DROP-4; its standing stands), its match lost by the drop."""
    d = Path(tempfile.mkdtemp())
    led = _paired_trio(d)
    tab = led.load("e").state.fmt.rounds[-1].tables[0]
    team, other = tab.players
    evs = led.write("e", lambda t, now: disqualify(t, HJ, now, number=team, section="4.5",
                                                   reason="marked cards", member=True))
    assert [e.kind for e in evs] == ["player_disqualified", "player_dropped",
                                     "result_recorded"]
    st = led.load("e").state
    assert st.fmt.records[team].status.value == "dropped"
    assert team not in st.fmt.officiating.dq and st.fmt.teams.own_dq == {team: evs[0].seq}
    res = st.fmt.rounds[-1].tables[0].result
    assert res is not None and res.winner == other
    before = led.load("e").version
    with pytest.raises(RuleError) as err:
        _lom(led, team, member=True)
    assert err.value.rule == "BR-PEN-RANK-9" and led.load("e").version == before
    _audit_ok(led, d)


def test_member_is_refused_where_the_number_already_names_the_fighter() -> None:
    """``member`` is recorded only for a representative (one encoding per meaning): the
    audit flags a forged ``member`` on another member's penalty (re-signed)."""
    d = Path(tempfile.mkdtemp())
    led = _paired_trio(d)
    evs = led.write("e", lambda t, now: issue_penalty(
        t, HJ, now, number=2, section="4.5", penalty=Penalty.WARNING, description="x"))
    body = evs[0].body
    assert _forged(led, evs[0].seq, msgspec.structs.replace(body, member=True)) == {
        "penalty_mismatch"}
    led.close()


def test_the_audit_flags_a_seat_that_ignores_a_members_loss_of_match() -> None:
    """TC-21 for seats: a forged seat result won by the penalised member, or a team loss
    citing the representative's own LoM, is flagged (re-signed)."""
    d = Path(tempfile.mkdtemp())
    led = _paired_trio(d)
    tab = led.load("e").state.fmt.rounds[-1].tables[0]
    a, b = tab.players
    evs = _lom(led, a - 1)
    seat = evs[1].body
    assert isinstance(seat, SeatResultRecorded)
    won = msgspec.structs.replace(seat, winner=a - 1, losers=[b - 1],
                                  outcome=Outcome.CONCESSION, penalty_seq=msgspec.UNSET)
    assert _forged(led, evs[1].seq, won) & {"penalty_not_applied", "result_mismatch"}
    own = _lom(led, b, member=True)
    team_loss = ResultRecorded(round=1, table=tab.table, winner=a, losers=[b],
                               outcome=Outcome.PENALTY, loss_reasons=own[1].body.loss_reasons,
                               games=[0, 0], decided_by=own[1].body.decided_by,
                               penalty_seq=own[0].seq)
    assert "result_mismatch" in _forged(led, own[1].seq, team_loss)
    led.close()


# -- result amend of a seat in an earlier round (BR-PEN-3.10.2-AMEND-3, BR-TEAM-7) ------
def _round_one_played(d: Path) -> Ledger:
    """Round 1 of a trio Swiss: the lower-numbered team's members win every seat; round 2
    is paired (round 1 is now an earlier round)."""
    led = _paired_trio(d)
    for tab in led.load("e").state.fmt.rounds[-1].tables:
        x = min(tab.players)
        for k in (1, 2, 3):
            _seat(led, tab.table, k, x - 3 + k)
    led.write("e", lambda t, now: t.pair_round(HJ, now, material="r2", source="dice"))
    return led


def test_a_seat_of_an_earlier_round_is_amended_and_the_team_result_follows() -> None:
    from ledger.formats.officiating.correction_commands import amend_result

    d = Path(tempfile.mkdtemp())
    led = _round_one_played(d)
    tab = history.get(led.load("e").state.fmt.officiating, 1, 1)
    assert tab is not None and tab.winner == min(tab.players)
    a, b = sorted(tab.players)
    for k in (1, 2):              # 3-0 → 2-1 (games amended) → 1-2 (the winner turns)
        evs, _report = led.write("e", lambda t, now, k=k: amend_result(
            t, HJ, now, round_no=1, table=1, reason="slips swapped",
            entry={"seat": k, "outcome": Outcome.WIN, "winner": b - 3 + k}))
        assert [e.kind for e in evs] == ["seat_result_amended", "result_amended"]
        assert evs[1].body.winner == (a if k == 1 else b)
    amended = evs[1].body
    assert amended.winner == b and amended.losers == [a]
    assert amended.games == ([1, 2, 0] if tab.players[0] == a else [2, 1, 0])
    st = led.load("e").state
    assert (st.fmt.records[a].wins, st.fmt.records[b].wins) == (0, 1)
    before = led.load("e").version
    with pytest.raises(RuleError) as err:          # a typed team result: never (BR-TEAM-7)
        led.write("e", lambda t, now: amend_result(t, HJ, now, round_no=1, table=1,
                                                   winner=a, reason="typed"))
    assert err.value.rule == "BR-TEAM-7" and led.load("e").version == before
    with pytest.raises(RuleError) as err:          # the newest round: a judge corrects it
        led.write("e", lambda t, now: amend_result(
            t, HJ, now, round_no=2, table=1, reason="x",
            entry={"seat": 1, "outcome": Outcome.WIN, "winner": 1}))
    assert err.value.rule == "LEDGER-RES-1" and led.load("e").version == before
    _audit_ok(led, d)


def test_the_audit_flags_an_amended_team_result_that_is_not_derived() -> None:
    """BR-TEAM-7: an earlier round's team result follows its seats; a re-signed
    ``result_amended`` that names another winner is a ``result_mismatch``."""
    from ledger.formats.officiating.correction_commands import amend_result

    d = Path(tempfile.mkdtemp())
    led = _round_one_played(d)
    tab = history.get(led.load("e").state.fmt.officiating, 1, 1)
    assert tab is not None
    a, b = sorted(tab.players)
    evs, _ = led.write("e", lambda t, now: amend_result(
        t, HJ, now, round_no=1, table=1, reason="slips swapped",
        entry={"seat": 3, "outcome": Outcome.WIN, "winner": b}))
    assert [e.kind for e in evs] == ["seat_result_amended", "result_amended"]
    body = evs[1].body
    assert body.winner == a                                  # 2-1 still
    forged = msgspec.structs.replace(body, winner=b, losers=[a])
    assert "result_mismatch" in _forged(led, evs[1].seq, forged)
    led.close()
