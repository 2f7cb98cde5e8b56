"""Property: in random small trio Swiss events whose seats are recorded with random
outcomes (wins, drawn seats) and then randomly corrected by a judge, every team result
on the table equals AMB-B30 read independently over the seats as they stand (more
individual wins; equal: a team draw in Swiss), and the audit re-derives all of it clean
(issue 20: the team result is derived, never typed, and follows its seats' corrections).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ledger.formats.registry  # noqa: F401
from audit.verify import verify_ledger
from ledger.core.aggregate import Tournament
from ledger.formats.match.model import Outcome
from ledger.formats.registry import make_format
from ledger.formats.simulation import demo_key
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.events import Role
from ledger.wire.keys import PublicKey

EXAMPLES = int(os.environ.get("TOURNEY_PROPERTY_EXAMPLES", "10"))
HJ, SK, JUDGE = (demo_key("tc", r) for r in ("head-judge", "scorekeeper", "judge"))


def _kw(choice: int, fighters: list[int]) -> dict[str, object]:
    if choice == 2:
        return {"outcome": Outcome.TIMEOUT, "games": [0, 0, 1]}     # a drawn seat
    return {"outcome": Outcome.WIN, "winner": fighters[choice]}


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(teams=st.integers(min_value=2, max_value=5), data=st.data())
def test_team_results_follow_their_seats_through_corrections(teams: int,
                                                             data: st.DataObject) -> None:
    d = Path(tempfile.mkdtemp(prefix="team-fix-"))
    loc = Location(str(d / "t.db"))
    with Ledger(loc, create=True) as led:
        spec = make_format("bushiroad-swiss", 0, {"team_mode": "trio", "swiss_rounds": 2})
        led.create("e", lambda now: Tournament.create(log="e", name="Fix", fmt=spec,
                                                      signer=HJ, time=now))
        for key, role in ((SK, Role.SCOREKEEPER), (JUDGE, Role.JUDGE)):
            led.write("e", lambda t, now, key=key, role=role: t.add_official(
                PublicKey(key.public_key_raw, key.name), role, key.name, HJ, now))
        for i in range(1, 3 * teams + 1):
            led.write("e", lambda t, now, i=i: t.register_player(f"F{i}", SK, now, number=i))
        for first in range(1, 3 * teams + 1, 3):
            led.write("e", lambda t, now, first=first: t.plugin.teams.register_team(
                t, SK, now, members=[first, first + 1, first + 2]))
        led.write("e", lambda t, now: t.close_registration(HJ, now))
        for n in (1, 2):
            led.write("e", lambda t, now, n=n: t.pair_round(HJ, now, material=f"r{n}",
                                                             source="dice"))
            tables = led.load("e").state.fmt.rounds[-1].tables
            for tab in tables:
                a, b = tab.players
                for k in (1, 2, 3):
                    pair = [a - 3 + k, b - 3 + k]
                    kw = _kw(data.draw(st.integers(0, 2)), pair)
                    led.write("e", lambda t, now, tab=tab, k=k, kw=kw, n=n: t.record_result(
                        SK, now, round_no=n, table=tab.table, seat=k, **kw))
            for tab in tables:                 # random corrections while the round is newest
                if not data.draw(st.booleans()):
                    continue
                a, b = tab.players
                k = data.draw(st.integers(1, 3))
                kw = _kw(data.draw(st.integers(0, 2)), [a - 3 + k, b - 3 + k])
                led.write("e", lambda t, now, tab=tab, k=k, kw=kw, n=n: t.correct_result(
                    JUDGE, now, round_no=n, table=tab.table, seat=k, reason="slip", **kw))
            st_now = led.load("e").state
            for tab in st_now.fmt.rounds[-1].tables:
                a, b = tab.players
                seats = st_now.fmt.teams.seats[f"{n}/{tab.table}"]
                wa = sum(1 for s in seats if s.winner is not None and a - 3 < s.winner <= a)
                wb = sum(1 for s in seats if s.winner is not None and b - 3 < s.winner <= b)
                res = tab.result
                assert res is not None
                want = a if wa > wb else b if wb > wa else None
                assert res.winner == want and list(res.games or []) == [wa, wb, 3 - wa - wb]
    assert verify_ledger(loc, "e", None).ok
