"""Team fights (issue 20, RULES.md §3.16): the rules on real ledgers with real signatures.

Genesis (team parameters recorded only when set, BR-TEAM-1, AMB-B30 for single
elimination), team registration (BR-TEAM-1…4, refused events write nothing), the team
result derived from the seats (AMB-B30 §11: more individual wins; equal is a draw in
Swiss, a double loss in DE; single elimination by the organizer's rule) and the audit
re-deriving it (a forged, re-signed team result is a ``result_mismatch``).
"""

from __future__ import annotations

import hashlib
import tempfile
from fractions import Fraction
from pathlib import Path
from typing import Any

import msgspec
import pytest

import ledger.formats.registry  # noqa: F401
from audit.verify import audit_leaves, verify_ledger
from ledger.errors import RuleError
from ledger.formats.bushiroad.team_results import derive
from ledger.formats.bushiroad.teams import SeatResultRecorded
from ledger.formats.match.events import ResultRecorded
from ledger.formats.match.model import DecidedBy, Outcome, Phase
from ledger.formats.match.team_model import SeatResult
from ledger.formats.registry import make_format
from ledger.formats.simulation import demo_key, simulate
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.events import Role, open_leaf, seal
from ledger.wire.keys import PublicKey
from tests.helpers.team_event import HJ, SK, _event, _paired_trio, _team

JUDGE = demo_key("team", "judge")


# -- genesis ------------------------------------------------------------------------------
def test_individual_genesis_records_no_team_parameter() -> None:
    """Individual events keep their genesis bytes: team parameters are optional."""
    plain = make_format("bushiroad-swiss", 0, None)
    assert not {"team_mode", "team_communication", "team_result_rule"} & set(plain.params)


def test_team_genesis_records_the_team_parameters() -> None:
    spec = make_format("bushiroad-swiss", 0, {"team_mode": "tag"})
    assert (spec.params["team_mode"], spec.params["team_communication"],
            spec.params["team_result_rule"]) == ("tag", "not_allowed", "more_wins")


@pytest.mark.parametrize("fmt,cut", [("single-elim", 0), ("bushiroad-swiss", 4),
                                     ("bushiroad-de", 2)])
def test_single_elimination_needs_the_organizers_rule(fmt: str, cut: int) -> None:
    """AMB-B30: organizers MUST specify the rule for single elimination (a top cut too)."""
    with pytest.raises(RuleError) as err:
        make_format(fmt, cut, {"team_mode": "trio"})
    assert err.value.rule == "AMB-B30"
    make_format(fmt, cut, {"team_mode": "trio",
                           "team_result_rule": "more_wins_then_last_seat"})


def test_team_parameters_need_a_team_mode() -> None:
    with pytest.raises(RuleError) as err:
        make_format("bushiroad-swiss", 0, {"team_communication": "allowed"})
    assert err.value.rule == "BR-TEAM-1"


# -- registration -------------------------------------------------------------------------
@pytest.mark.parametrize("members,kw,rule", [
    ([1, 2], {}, "BR-TEAM-1"),                        # a trio team of 2
    ([1, 2, 3, 4], {}, "BR-TEAM-1"),                  # a trio team of 4
    ([1, 1, 2], {}, "BR-TEAM-2"),                     # a duplicate order position
    ([1, 2, 99], {}, "BR-TEAM-1"),                    # an unregistered member
    ([1, 2, 3], {"representative": 7}, "BR-TEAM-3"),  # a representative off the team
    ([1, 2, 3], {"name": " "}, "BR-TEAM-4"),          # an empty name
    ([1, 2, 3], {"name": "Shit Happens"}, "BR-TEAM-4"),  # an offensive name
])
def test_bad_teams_are_refused_and_write_nothing(members: list[int], kw: dict[str, Any],
                                                 rule: str) -> None:
    d = Path(tempfile.mkdtemp())
    led, _ = _event(d)
    before = led.load("e").version
    with pytest.raises(RuleError) as err:
        _team(led, members, **kw)
    assert err.value.rule == rule
    assert led.load("e").version == before


def test_one_team_each_and_a_fixed_order() -> None:
    """BR-TEAM-1: a fighter on one team only; BR-TEAM-2: the order is not changed."""
    d = Path(tempfile.mkdtemp())
    led, _ = _event(d)
    _team(led, [1, 2, 3], name="Blue Wings")
    with pytest.raises(RuleError) as err:
        _team(led, [3, 4, 5])
    assert err.value.rule == "BR-TEAM-1"
    with pytest.raises(RuleError) as err:
        _team(led, [3, 2, 1])
    assert err.value.rule == "BR-TEAM-2"
    with pytest.raises(RuleError) as err:
        _team(led, [4, 5, 6], name="blue wings")
    assert err.value.rule == "BR-TEAM-4"


def test_representative_defaults_to_the_last_position() -> None:
    """BR-TEAM-3: the third of a trio unless stated; the team is entered as its number."""
    d = Path(tempfile.mkdtemp())
    led, _ = _event(d)
    _team(led, [1, 2, 3])
    _team(led, [4, 5, 6], representative=4)
    teams = led.load("e").state.fmt.teams.teams
    assert sorted(teams) == [3, 4]
    assert teams[3].members == [1, 2, 3] and teams[4].members == [4, 5, 6]


def test_registration_does_not_close_with_a_fighter_on_no_team() -> None:
    d = Path(tempfile.mkdtemp())
    led, _ = _event(d, fighters=10, swiss_rounds=2)
    for first in (1, 4, 7):
        _team(led, [first, first + 1, first + 2])
    with pytest.raises(RuleError) as err:
        led.write("e", lambda t, now: t.close_registration(HJ, now))
    assert err.value.rule == "BR-TEAM-1" and "[10]" in err.value.message


def test_records_are_the_teams_after_registration_closes() -> None:
    d = Path(tempfile.mkdtemp())
    led, _ = _event(d, swiss_rounds=2)
    for first in (1, 4, 7):
        _team(led, [first, first + 1, first + 2])
    led.write("e", lambda t, now: t.close_registration(HJ, now))
    assert sorted(led.load("e").state.fmt.records) == [3, 6, 9]


# -- the team result (AMB-B30) ------------------------------------------------------------
class _Fake:
    """A minimal state for ``derive``: its teams and its format's parameters."""

    def __init__(self, fmt: str, rule: str = "more_wins") -> None:
        from ledger.formats.match.model import MatchState
        from ledger.formats.match.team_model import Team, TeamState

        self.format = make_format(fmt, 0, {"team_mode": "trio", "team_result_rule": rule}
                                  if fmt != "single-elim" or rule != "more_wins" else
                                  {"team_mode": "trio",
                                   "team_result_rule": "more_wins_then_last_seat"})
        if fmt == "single-elim" and rule == "more_wins":
            self.format = msgspec.structs.replace(
                self.format, params={**self.format.params, "team_result_rule": "more_wins"})
        self.fmt = MatchState(teams=TeamState(size=3, teams={
            3: Team(number=3, members=[1, 2, 3]), 6: Team(number=6, members=[4, 5, 6])}))


def _seats(*winners: int | None) -> list[SeatResult]:
    return [SeatResult(seat=k, seq=k, winner=w, losers=[]) for k, w in
            enumerate(winners, start=1)]


def test_more_individual_wins_win_the_team_match() -> None:
    got = derive(_Fake("bushiroad-swiss"), Phase.SWISS, [3, 6], _seats(1, 5, 6))  # type: ignore[arg-type]
    assert (got["winner"], got["losers"], got["outcome"], got["games"]) == \
        (6, [3], Outcome.WIN, [1, 2, 0])


def test_a_drawn_seat_with_equal_wins_is_a_team_draw_in_swiss() -> None:
    """TC: 1 win each and one drawn seat (time-up, BR-SWISS-5) → a team draw (AMB-B30)."""
    got = derive(_Fake("bushiroad-swiss"), Phase.SWISS, [3, 6], _seats(1, 5, None))  # type: ignore[arg-type]
    assert (got["winner"], got["outcome"], got["games"]) == (None, Outcome.DRAW, [1, 1, 1])
    more = derive(_Fake("bushiroad-swiss"), Phase.SWISS, [3, 6], _seats(1, None, None))  # type: ignore[arg-type]
    assert more["winner"] == 3      # one win to none: more individual wins


def test_equal_wins_are_a_double_loss_in_double_elimination() -> None:
    got = derive(_Fake("bushiroad-de"), Phase.SWISS, [3, 6], _seats(1, 5, None))  # type: ignore[arg-type]
    assert (got["winner"], got["losers"], got["outcome"], got["decided_by"]) == \
        (None, [3, 6], Outcome.DOUBLE_LOSS, DecidedBy.DOUBLE_LOSS)


def test_single_elimination_uses_the_organizers_rule() -> None:
    se = _Fake("single-elim", "more_wins_then_last_seat")
    assert derive(se, Phase.TOP_CUT, [3, 6], _seats(1, 5, 6))["winner"] == 6  # type: ignore[arg-type]
    assert derive(se, Phase.TOP_CUT, [3, 6], _seats(1, None, 3))["winner"] == 3  # type: ignore[arg-type]
    tied = derive(se, Phase.TOP_CUT, [3, 6], _seats(1, 5, None))  # type: ignore[arg-type]
    assert tied["outcome"] is Outcome.DOUBLE_LOSS
    with pytest.raises(RuleError) as err:
        derive(_Fake("single-elim"), Phase.TOP_CUT, [3, 6], _seats(1, 5, None))  # type: ignore[arg-type]
    assert err.value.rule == "AMB-B30"


# -- whole simulated team events, and a forged team result ---------------------------------
def _simulated(fmt: str, cut: int, **params: Any) -> tuple[Path, Location]:
    d = Path(tempfile.mkdtemp())
    loc = Location(str(d / "t.db"))
    with Ledger(loc, create=True) as led:
        simulate(led, log="p", players=21, seed_text="team", cut=cut,
                 timeouts=Fraction(1, 3), drops=Fraction(1, 10), checkpoints=d / "cp",
                 format_id=fmt, params=params)
    return d, loc


def test_the_audit_rederives_and_flags_a_forged_team_result() -> None:
    d, loc = _simulated("bushiroad-swiss", 0, team_mode="trio", swiss_rounds=3)
    assert verify_ledger(loc, "p", d / "cp").ok
    with Ledger(loc, readonly=True) as led:
        events = [open_leaf(leaf) for _, leaf in led.raw_leaves("p")]
    target = next(e for e in events if isinstance(e.body, ResultRecorded)
                  and e.body.winner is not None)
    body = target.body
    assert isinstance(body, ResultRecorded)
    loser = body.losers[0]
    forged = msgspec.structs.replace(body, winner=loser, losers=[body.winner])
    assert "result_mismatch" in _forged_codes(events, target.seq, forged)
    assert any(isinstance(e.body, SeatResultRecorded) for e in events)


def _forged_codes(events: list[Any], at: int, forged: Any) -> set[str]:
    """Re-sign the log with ``forged`` at seq ``at`` (valid signatures and chain): the
    audit's error codes at that seq."""
    keys = {k.key_id: k for k in (demo_key("team", r) for r in ("head-judge", "scorekeeper"))}
    leaves, prev = [], "0" * 64
    for ev in events:
        leaf = ev.leaf if ev.seq < at else seal(
            log=ev.log, seq=ev.seq, prev=prev, time=ev.time,
            body=forged if ev.seq == at else ev.body, signer=keys[ev.actor]).leaf
        leaves.append((ev.seq, leaf))
        prev = hashlib.sha256(leaf).hexdigest()
    report = audit_leaves(leaves, [], log="p")
    assert not report.ok
    return {f.code for f in report.findings if f.seq == at and f.severity == "error"}


def test_the_audit_flags_a_seat_result_for_fighters_not_at_that_seat() -> None:
    """BR-TEAM-2: position k plays position k; a seat result naming another seat's fighter
    is refused by the audit, re-signed or not."""
    d, loc = _simulated("bushiroad-swiss", 0, team_mode="tag", swiss_rounds=3)
    with Ledger(loc, readonly=True) as led:
        events = [open_leaf(leaf) for _, leaf in led.raw_leaves("p")]
    target = next(e for e in events if isinstance(e.body, SeatResultRecorded)
                  and e.body.seat == 1 and e.body.winner is not None)
    body = target.body
    assert isinstance(body, SeatResultRecorded)
    forged = msgspec.structs.replace(body, seat=2)     # the same fighters, the wrong seat
    assert _forged_codes(events, target.seq, forged)


def test_a_loss_of_match_given_to_a_team_loses_its_team_match() -> None:
    """PG §4.5 last example: communication in a no-communication team event → the team is
    penalised; BR-TEAM-6: the penalty applies to each member, so the team match is lost
    (given to the team's number; the audit checks the cited loss)."""
    from ledger.formats.officiating.catalogue import Penalty
    from ledger.formats.officiating.commands import issue_penalty

    d = Path(tempfile.mkdtemp())
    led = _paired_trio(d)
    tab = led.load("e").state.fmt.rounds[-1].tables[0]
    team, other = tab.players
    led.write("e", lambda t, now: issue_penalty(
        t, HJ, now, number=team, section="4.5", penalty=Penalty.LOSS_OF_MATCH,
        description="C advised D during the round", justification="team communication"))
    res = led.load("e").state.fmt.rounds[-1].tables[0].result
    assert res is not None and res.winner == other and res.losers == [team]
    assert res.outcome is Outcome.PENALTY
    led.close()
    assert verify_ledger(Location(str(d / "t.db")), "e", None).ok


def test_a_disqualified_team_leaves_and_a_member_drop_is_the_teams() -> None:
    """BR-DROP-4: a team whose member cannot continue drops; a disqualification of the
    team ends its match in progress as a loss (AMB-B24)."""
    from ledger.formats.officiating.commands import disqualify

    d = Path(tempfile.mkdtemp())
    led = _paired_trio(d)
    tabs = led.load("e").state.fmt.rounds[-1].tables
    led.write("e", lambda t, now: disqualify(t, HJ, now, number=tabs[0].players[0],
                                             section="4.5", reason="repeated advice"))
    member = tabs[1].players[1] - 1             # the second position of the other team
    led.write("e", lambda t, now: t.drop_player(SK, now, member, "ill"))
    st = led.load("e").state
    recs = st.fmt.records
    assert recs[tabs[0].players[0]].status.value == "disqualified"
    assert recs[tabs[1].players[1]].status.value == "dropped"
    assert all(t.result is not None for t in st.fmt.rounds[-1].tables)
    with pytest.raises(RuleError) as err:
        led.write("e", lambda t, now: t.drop_player(SK, now, 99, "ill"))
    assert err.value.rule == "BR-DROP-4"
    led.close()
    assert verify_ledger(Location(str(d / "t.db")), "e", None).ok


def test_a_judge_corrects_a_seat_and_the_team_result_follows() -> None:
    """A seat's correction re-derives the team result (AMB-B30), corrected with it; a team
    result corrected by hand is refused (BR-TEAM-7); the audit re-derives both."""
    d = Path(tempfile.mkdtemp())
    led = _paired_trio(d)
    led.write("e", lambda t, now: t.add_official(PublicKey(JUDGE.public_key_raw, JUDGE.name),
                                                 Role.JUDGE, JUDGE.name, HJ, now))
    tab = led.load("e").state.fmt.rounds[-1].tables[0]
    a, b = tab.players
    ma, mb = [a - 2, a - 1, a], [b - 2, b - 1, b]
    for k, w in ((1, ma[0]), (2, ma[1]), (3, mb[2])):
        led.write("e", lambda t, now, k=k, w=w: t.record_result(
            SK, now, round_no=1, table=tab.table, seat=k, outcome=Outcome.WIN, winner=w))
    res = led.load("e").state.fmt.rounds[-1].tables[0].result
    assert res is not None and res.winner == a and res.games == [2, 1, 0]
    with pytest.raises(RuleError) as err:
        led.write("e", lambda t, now: t.correct_result(
            JUDGE, now, round_no=1, table=tab.table, outcome=Outcome.WIN, winner=b,
            reason="typed"))
    assert err.value.rule == "BR-TEAM-7"
    led.write("e", lambda t, now: t.correct_result(
        JUDGE, now, round_no=1, table=tab.table, seat=2, outcome=Outcome.WIN, winner=mb[1],
        reason="slip misread"))
    res = led.load("e").state.fmt.rounds[-1].tables[0].result
    assert res is not None and res.winner == b and res.games == [1, 2, 0]
    led.close()
    assert verify_ledger(Location(str(d / "t.db")), "e", None).ok


def test_a_sheet_reissue_names_the_team_not_a_member_and_late_entry_is_refused() -> None:
    """In a team event a re-issued score sheet is the team's (refused naming a member,
    with the team to name; a member's own penalty is allowed, ADR 0026); a late fighter
    alone would be on no team (BR-TEAM-1).  Nothing written."""
    from ledger.formats.officiating.catalogue import Penalty
    from ledger.formats.officiating.commands import issue_penalty, reissue_sheet
    from ledger.formats.officiating.correction_commands import add_late

    d = Path(tempfile.mkdtemp())
    led = _paired_trio(d)
    before = led.load("e").version
    with pytest.raises(RuleError) as err:
        led.write("e", lambda t, now: reissue_sheet(t, HJ, now, number=2, reason="found"))
    assert err.value.rule == "BR-TEAM-6" and "#3" in (err.value.hint or "")
    with pytest.raises(RuleError) as err:
        led.write("e", lambda t, now: add_late(t, HJ, now, name="Late", byes=0, losses=1,
                                               reason="train"))
    assert err.value.rule == "BR-TEAM-1"
    assert led.load("e").version == before
    led.write("e", lambda t, now: issue_penalty(t, HJ, now, number=3, section="4.5",
                                                penalty=Penalty.WARNING,
                                                description="advice"))
    led.close()


def test_a_tag_double_elimination_to_one_undefeated_team() -> None:
    """Tag DE (BR-DE, AMB-B30): the lower-numbered team wins both seats, except round 1
    table 1 whose seats split 1-1 — equal individual wins, a double loss for both teams.
    By hand: the undefeated team at the end is the lowest-numbered team not at that
    split table; it is the champion, every other team has at least one loss."""
    d = Path(tempfile.mkdtemp())
    led, _ = _event(d, fmt="bushiroad-de", fighters=8, team_mode="tag")
    for first in (1, 3, 5, 7):
        _team(led, [first, first + 1])
    led.write("e", lambda t, now: t.close_registration(HJ, now))
    split: list[int] = []
    for n in range(1, 8):
        st = led.load("e").state
        if st.fmt.champion is not None:
            break
        led.write("e", lambda t, now, n=n: t.pair_round(HJ, now, material=f"r{n}",
                                                         source="dice"))
        rnd = led.load("e").state.fmt.rounds[-1]
        for tab in rnd.tables:
            a, b = sorted(tab.players)
            if n == 1 and tab.table == 1:
                split = [a, b]
                winners = [a - 1, b]           # seat 1 to a's first, seat 2 to b's second
            else:
                winners = [a - 1, a]
            for k, w in enumerate(winners, start=1):
                led.write("e", lambda t, now, tab=tab, k=k, w=w, rnd=rnd: t.record_result(
                    SK, now, round_no=rnd.number, table=tab.table, seat=k,
                    outcome=Outcome.WIN, winner=w))
    st = led.load("e").state
    first_round = [r for r in st.fmt.records.values() if r.number in split]
    assert all(r.losses >= 1 for r in first_round)           # the double loss
    champion = min(n for n in (2, 4, 6, 8) if n not in split)
    assert st.fmt.champion == champion
    assert [r.number for r in st.fmt.records.values() if r.losses == 0] == [champion]
    led.close()
    assert verify_ledger(Location(str(d / "t.db")), "e", None).ok


def test_a_team_member_is_not_withdrawn() -> None:
    """BR-TEAM-2: a team's members and order are fixed once registered."""
    d = Path(tempfile.mkdtemp())
    led, _ = _event(d)
    _team(led, [1, 2, 3])
    before = led.load("e").version
    with pytest.raises(RuleError) as err:
        led.write("e", lambda t, now: t.withdraw_player(2, "left", SK, now))
    assert err.value.rule == "BR-TEAM-2"
    assert led.load("e").version == before
    led.close()


def test_void_and_override_of_a_team_round() -> None:
    """A team round is voided or overridden before any result, seats included
    (LEDGER-RES-1); the round paired again is seated again; the audit is clean."""
    from ledger.formats.officiating.correction_commands import override_pairing, void_pairing

    d = Path(tempfile.mkdtemp())
    led = _paired_trio(d)
    led.write("e", lambda t, now: void_pairing(t, HJ, now, reason="wrong field"))
    led.write("e", lambda t, now: t.record_seed(material="again", source="dice",
                                                ctx="e/R1/v1", reason="re-pair",
                                                signer=HJ, time=now))
    led.write("e", lambda t, now: t.pair_round(HJ, now))
    led.write("e", lambda t, now: override_pairing(t, HJ, now, pairs=[[3, 6], [9, 12]],
                                                   reason="family members apart"))
    led.write("e", lambda t, now: t.record_result(SK, now, round_no=1, table=1, seat=1,
                                                  outcome=Outcome.WIN, winner=1))
    before = led.load("e").version
    with pytest.raises(RuleError) as err:
        led.write("e", lambda t, now: void_pairing(t, HJ, now, reason="again"))
    assert err.value.rule == "LEDGER-RES-1" and led.load("e").version == before
    for k, w in ((2, 2), (3, 6)):
        led.write("e", lambda t, now, k=k, w=w: t.record_result(
            SK, now, round_no=1, table=1, seat=k, outcome=Outcome.WIN, winner=w))
    res = led.load("e").state.fmt.rounds[-1].tables[0].result
    assert res is not None and res.winner == 3 and res.games == [2, 1, 0]
    led.close()
    assert verify_ledger(Location(str(d / "t.db")), "e", None).ok


def test_a_members_disqualification_drops_the_team() -> None:
    """BR-DROP-4: the member is disqualified, the team drops and loses its match in
    progress by the drop (BR-DROP-2); the team's standing is not revoked; audit clean."""
    from ledger.formats.officiating.commands import disqualify

    d = Path(tempfile.mkdtemp())
    led = _paired_trio(d)
    tab = led.load("e").state.fmt.rounds[-1].tables[0]
    team, other = tab.players
    member = team - 1                                   # the second position
    evs = led.write("e", lambda t, now: disqualify(t, HJ, now, number=member,
                                                   section="4.5", reason="marked cards"))
    assert [e.kind for e in evs][:2] == ["player_disqualified", "player_dropped"]
    st = led.load("e").state
    assert st.fmt.records[team].status.value == "dropped"
    assert member in st.fmt.officiating.dq
    res = st.fmt.rounds[-1].tables[0].result
    assert res is not None and res.winner == other and res.losers == [team]
    led.close()
    assert verify_ledger(Location(str(d / "t.db")), "e", None).ok


def test_tc02_as_a_trio_swiss_of_seven_teams() -> None:
    """RULES.md TC-02 (7 entrants, 3 rounds, one bye a round) played by 7 trio teams, its
    pairings set by the head judge's override around the engine's byes, each team match
    won 2-0 with a drawn third seat (BR-SWISS-5) and a team Warning on the way
    (BR-TEAM-6).  By hand (TC-02): order G, C, A, F, E, B, D; A has MW 0.66, OMW 11/25,
    OOMW 149/225."""
    from ledger.formats.bushiroad.mw import mw_str
    from ledger.formats.bushiroad.standing_rows import br_standings
    from ledger.formats.officiating.catalogue import Penalty
    from ledger.formats.officiating.commands import issue_penalty
    from ledger.formats.officiating.correction_commands import override_pairing

    d = Path(tempfile.mkdtemp())
    led, _ = _event(d, fighters=21, swiss_rounds=3)
    for first in range(1, 22, 3):
        _team(led, [first, first + 1, first + 2])
    led.write("e", lambda t, now: t.close_registration(HJ, now))

    def play(n: int, pairs: list[list[int]]) -> None:
        led.write("e", lambda t, now: override_pairing(t, HJ, now, pairs=pairs,
                                                       reason="TC-02"))
        for table, (w, _lo) in enumerate(pairs, start=1):
            seats = ((1, w - 2), (2, w - 1), (3, None))   # w wins seats 1-2, seat 3 drawn
            for k, winner in seats:
                kw: dict[str, Any] = ({"outcome": Outcome.WIN, "winner": winner}
                                      if winner else {"outcome": Outcome.TIMEOUT,
                                                      "games": [0, 0, 1]})
                led.write("e", lambda t, now, k=k, kw=kw, table=table: t.record_result(
                    SK, now, round_no=n, table=table, seat=k, **kw))

    led.write("e", lambda t, now: t.pair_round(HJ, now, material="r1", source="dice"))
    r1 = led.load("e").state.fmt.rounds[-1]
    g = r1.bye
    p1 = [sorted(t.players) for t in r1.tables]          # winner first: the lower number
    play(1, p1)
    led.write("e", lambda t, now: t.pair_round(HJ, now, material="r2", source="dice"))
    f = led.load("e").state.fmt.rounds[-1].bye             # an R1 loser (lowest points)
    ef = next(p for p in p1 if f in p)
    ab, cd = [p for p in p1 if p is not ef]
    a, b, c, dd, e = ab[0], ab[1], cd[0], cd[1], ef[0]
    assert ef[1] == f
    led.write("e", lambda t, now: issue_penalty(t, HJ, now, number=a, section="4.5",
                                                penalty=Penalty.WARNING,
                                                description="teammates talked"))
    play(2, [[c, a], [g, e], [b, dd]])
    led.write("e", lambda t, now: t.pair_round(HJ, now, material="r3", source="dice"))
    assert led.load("e").state.fmt.rounds[-1].bye == dd    # forced: D alone on 0 points
    play(3, [[g, c], [a, e], [f, b]])
    st = led.load("e").state
    rows = br_standings(st)
    assert [r.number for r in rows] == [g, c, a, f, e, b, dd]
    ra = next(r for r in rows if r.number == a)
    assert (ra.omw, ra.oomw) == (Fraction(11, 25), Fraction(149, 225))
    assert mw_str(ra.mw) == "0.66"
    led.close()
    assert verify_ledger(Location(str(d / "t.db")), "e", None).ok


def test_a_seat_in_an_individual_event_is_refused() -> None:
    """--seat / a slip's seat column only in team events (BR-TEAM-2)."""
    d = Path(tempfile.mkdtemp())
    loc = Location(str(d / "t.db"))
    with Ledger(loc, create=True) as led:
        simulate(led, log="p", players=6, seed_text="solo", cut=0, checkpoints=d / "cp",
                 format_id="round-robin", params=None)
        t = led.load("p")
        from ledger.formats.bushiroad.teams import seat_fighters
        with pytest.raises(RuleError) as err:
            seat_fighters(t.state, [1, 2], 1)
        assert err.value.rule == "BR-TEAM-2" and "team events" in err.value.message
