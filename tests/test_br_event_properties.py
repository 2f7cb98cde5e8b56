"""Property tests over whole random small Bushiroad events (every format, tiny fields, cuts,
time-ups and drops at every round), replayed event by event.

For every simulated event: it finishes (a champion, or final standings), the audit is
clean, and at every qualifying round the pairing is complete (every active fighter is at
exactly one table or holds the bye), no fighter gets a second bye while another active
fighter on the lowest points has none (AMB-B1), and the number of rematches equals the
minimum an exhaustive search over all perfect matchings of that round's field reaches
(BR-SWISS-3 / AMB-B7: a rematch only when unavoidable).
"""

from __future__ import annotations

import os
import tempfile
from fractions import Fraction
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ledger.formats.registry  # noqa: F401
from audit.verify import verify_ledger
from ledger.core.state import TournamentState, apply_event
from ledger.formats.match.events import RoundPaired
from ledger.formats.match.model import MatchState, Phase, Status
from ledger.formats.simulation import simulate
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.events import open_leaf
from tests.helpers.rematches import _min_rematches

FORMATS = st.sampled_from([("bushiroad-swiss", 0), ("bushiroad-swiss", 2),
                           ("bushiroad-swiss", 4), ("bushiroad-de", 0), ("bushiroad-de", 2),
                           ("single-elim", 0), ("round-robin", 0)])


EXAMPLES = int(os.environ.get("TOURNEY_PROPERTY_EXAMPLES", "25"))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fmt=FORMATS, players=st.integers(min_value=4, max_value=11),
       seed=st.text(alphabet="abcdefgh", min_size=1, max_size=6),
       timeouts=st.sampled_from([Fraction(0), Fraction(1, 5), Fraction(1, 2)]),
       drops=st.sampled_from([Fraction(0), Fraction(1, 10), Fraction(1, 4)]))
def test_random_small_events_finish_audit_clean_and_pair_optimally(
        fmt: tuple[str, int], players: int, seed: str, timeouts: Fraction,
        drops: Fraction) -> None:
    d = Path(tempfile.mkdtemp(prefix="br-prop-"))
    format_id, cut = fmt
    if format_id == "round-robin":
        players = min(players, 7)
    loc = Location(str(d / "t.db"))
    with Ledger(loc, create=True) as led:
        params = {"swiss_rounds": 3} if format_id == "bushiroad-swiss" else None
        res = simulate(led, log="p", players=players, seed_text=seed, cut=cut,
                       timeouts=timeouts, drops=drops, checkpoints=d / "cp",
                       format_id=format_id, params=params)
        final = led.load("p").state
        leaves = [leaf for _, leaf in led.raw_leaves("p")]
    h: MatchState = final.fmt
    # a champion, final standings, or (AMB-B13) a bracket whose last fighters all lost
    assert res.champion is not None or h.final or (h.entries is not None
                                                   and len(h.entries) < 2)
    report = verify_ledger(loc, "p", d / "cp")
    assert report.ok, [f for f in report.findings if f.severity == "error"]

    state = TournamentState()
    met: dict[int, set[int]] = {}
    byes: dict[int, int] = {}
    for leaf in leaves:
        ev = open_leaf(leaf)
        body = ev.body
        if isinstance(body, RoundPaired) and body.phase is Phase.SWISS:
            m: MatchState = state.fmt
            active = sorted(r.number for r in m.records.values() if r.status is Status.ACTIVE)
            seated = [p for t in body.tables for p in t.players]
            if format_id != "round-robin":
                assert sorted(seated + ([body.bye] if body.bye else [])) == active
                if body.bye is not None:
                    assert byes.get(body.bye, 0) == 0 or not [
                        n for n in active if byes.get(n, 0) == 0], "avoidable second bye"
                field = [p for p in active if p != body.bye]
                rematches = sum(1 for t in body.tables if t.players[1] in met.get(
                    t.players[0], set()))
                assert rematches == _min_rematches(field, met)
            else:
                assert len(seated) == len(set(seated))
            for t in body.tables:
                a, b = t.players
                met.setdefault(a, set()).add(b)
                met.setdefault(b, set()).add(a)
            if body.bye is not None:
                byes[body.bye] = byes.get(body.bye, 0) + 1
        apply_event(state, ev)
