"""Property tests over random small team events (issue 20): tag and trio, Swiss, DE,
single elimination and round robin, tiny fields, drawn seats and team drops.

For every simulated event: the audit is clean; every Swiss pairing seats every active team
exactly once (or gives it the bye) and has the fewest rematches any perfect matching of
the field reaches (BR-SWISS-3, AMB-B7 — over teams as over fighters); each seat is position
k of each team (BR-TEAM-2); every team result equals an independent reading of AMB-B30
over its seats (more individual wins; equal: Swiss/RR draw, DE double loss, SE the last
seat); and the standings' points and W-L-D of each team equal a brute-force count over
the log's team results and byes.
"""

from __future__ import annotations

import os
import tempfile
from collections import defaultdict
from fractions import Fraction
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ledger.formats.registry  # noqa: F401
from audit.verify import verify_ledger
from ledger.core.state import TournamentState, apply_event
from ledger.formats.bushiroad.standing_rows import br_standings
from ledger.formats.bushiroad.teams import SeatResultRecorded, TeamRegistered
from ledger.formats.match.events import PlayerDropped, ResultRecorded, RoundPaired
from ledger.formats.match.model import MatchState, Phase, Status
from ledger.formats.simulation import simulate
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.events import open_leaf
from tests.helpers.rematches import _min_rematches

EXAMPLES = int(os.environ.get("TOURNEY_PROPERTY_EXAMPLES", "12"))
SE_RULE = {"team_result_rule": "more_wins_then_last_seat"}
FORMATS = st.sampled_from([("bushiroad-swiss", 0, {"swiss_rounds": 3}),
                           ("bushiroad-swiss", 2, {"swiss_rounds": 2, **SE_RULE}),
                           ("bushiroad-de", 0, {}), ("single-elim", 0, SE_RULE),
                           ("round-robin", 0, {})])


def _expected(kind: str, phase: Phase, a: int, b: int, members: dict[int, list[int]],
              seats: list[Any]) -> tuple[int | None, list[int]]:
    """AMB-B30 read independently: (winner, losers) of a team match."""
    wa = sum(1 for s in seats if s.winner in members[a])
    wb = sum(1 for s in seats if s.winner in members[b])
    if wa != wb:
        return (a, [b]) if wa > wb else (b, [a])
    if phase is Phase.TOP_CUT or kind == "single-elim":
        last = max(seats, key=lambda s: s.seat)
        if last.winner is None:
            return None, sorted([a, b])
        return (a, [b]) if last.winner in members[a] else (b, [a])
    if kind == "bushiroad-de":
        return None, sorted([a, b])
    return None, []


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fmt=FORMATS, mode=st.sampled_from(["tag", "trio"]),
       teams=st.integers(min_value=3, max_value=8),
       seed=st.text(alphabet="abcdefgh", min_size=1, max_size=5),
       timeouts=st.sampled_from([Fraction(0), Fraction(1, 3), Fraction(2, 3)]),
       drops=st.sampled_from([Fraction(0), Fraction(1, 8)]))
def test_random_team_events(fmt: tuple[str, int, dict[str, Any]], mode: str, teams: int,
                            seed: str, timeouts: Fraction, drops: Fraction) -> None:
    kind, cut, params = fmt
    size = 2 if mode == "tag" else 3
    if kind == "round-robin":
        teams = min(teams, 6)
    if cut and teams < 4:
        teams = 4
    d = Path(tempfile.mkdtemp(prefix="team-prop-"))
    loc = Location(str(d / "t.db"))
    with Ledger(loc, create=True) as led:
        simulate(led, log="p", players=teams * size, seed_text=seed, cut=cut,
                 timeouts=timeouts, drops=drops, checkpoints=d / "cp", format_id=kind,
                 params={"team_mode": mode, **params})
        final = led.load("p").state
        leaves = [leaf for _, leaf in led.raw_leaves("p")]
    report = verify_ledger(loc, "p", d / "cp")
    assert report.ok, [f for f in report.findings if f.severity == "error"]

    state = TournamentState()
    members: dict[int, list[int]] = {}
    met: dict[int, set[int]] = defaultdict(set)
    seats: dict[tuple[int, int], list[Any]] = defaultdict(list)
    tables: dict[tuple[int, int], tuple[Phase, list[int]]] = {}
    tally: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])   # W, L, D (Swiss stage)
    for leaf in leaves:
        ev = open_leaf(leaf)
        body = ev.body
        if isinstance(body, TeamRegistered):
            assert len(body.members) == size and body.number == body.members[-1]
            members[body.number] = list(body.members)
        elif isinstance(body, RoundPaired):
            for t in body.tables:
                tables[(body.round, t.table)] = (body.phase, list(t.players))
            if body.phase is Phase.SWISS:
                if body.bye is not None:
                    tally[body.bye][0] += 1
                m: MatchState = state.fmt
                active = sorted(r.number for r in m.records.values()
                                if r.status is Status.ACTIVE)
                seated = [p for t in body.tables for p in t.players]
                assert len(seated) == len(set(seated))
                if kind != "round-robin":
                    assert sorted(seated + ([body.bye] if body.bye else [])) == active
                    field = [p for p in active if p != body.bye]
                    rematches = sum(1 for t in body.tables if t.players[1] in met[
                        t.players[0]])
                    assert rematches == _min_rematches(field, met)
                for t in body.tables:
                    met[t.players[0]].add(t.players[1])
                    met[t.players[1]].add(t.players[0])
        elif isinstance(body, SeatResultRecorded):
            _phase, (a, b) = tables[(body.round, body.table)]
            k = body.seat
            who = {p for p in (body.winner, *body.losers) if p is not None}
            assert who <= {members[a][k - 1], members[b][k - 1]}    # BR-TEAM-2
            seats[(body.round, body.table)].append(body)
        elif isinstance(body, ResultRecorded) and body.decided_by not in ("drop",
                                                                           "penalty"):
            phase, (a, b) = tables[(body.round, body.table)]
            assert (body.winner, sorted(body.losers)) == _expected(
                kind, phase, a, b, members, seats[(body.round, body.table)])
        if isinstance(body, ResultRecorded) and tables[(body.round, body.table)][0] \
                is Phase.SWISS:
            if body.winner is not None:
                tally[body.winner][0] += 1
            for p in body.losers:
                tally[p][1] += 1
            if body.winner is None and not body.losers:
                for p in tables[(body.round, body.table)][1]:
                    tally[p][2] += 1
        assert not isinstance(body, PlayerDropped) or body.number in members
        apply_event(state, ev)
    assert sorted(final.fmt.records) == sorted(members)
    if kind != "single-elim" and not cut:
        for row in br_standings(final):
            w, lo, dr = tally[row.number]
            assert (row.wins, row.losses, row.draws) == (w, lo, dr), row
