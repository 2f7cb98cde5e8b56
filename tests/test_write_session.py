"""``Ledger.session``: many commands from one process, other writers in between (issue 7).

Two sessions on one SQLite ledger (two connections, as two stations): each catches up with
the other's events before deciding, so an identical slip is ``Unchanged`` and a different
one is refused naming the other's seq — never decided on a stale state, never a fork.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ledger.core.aggregate import Tournament
from ledger.errors import RuleError
from ledger.formats.match.model import Outcome
from ledger.formats.registry import make_format
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.clock import FixedClock
from tests.conftest import HJ
from tests.helpers.checks import full_fold, walk_chain
from usecases.results import Unchanged, enter_result


def _event(path: Path) -> Location:
    loc = Location(str(path))
    with Ledger(loc, create=True, clock=FixedClock()) as led:
        led.create("s", lambda now: Tournament.create(
            log="s", name="Sessions", fmt=make_format("hotc-swiss-de", 4), signer=HJ, time=now))

        def register(t: Tournament, now: str) -> None:
            for i in range(8):
                t.register_player(f"P{i + 1}", HJ, now)
        led.write("s", register)
        led.write("s", lambda t, now: t.close_registration(HJ, now))
        led.write("s", lambda t, now: t.pair_round(HJ, now, material="sessions 5 9",
                                                   source="test"))
    return loc


def test_sessions_catch_up_with_each_other(tmp_path: Path) -> None:
    loc = _event(tmp_path / "s.db")
    with Ledger(loc, clock=FixedClock()) as a, Ledger(loc, clock=FixedClock()) as b:
        sa, sb = a.session("s"), b.session("s")
        tables = [(t.table, t.players) for t in sa.state.fmt.rounds[-1].tables]

        def slip(led: Ledger, table: int, winner: int):  # type: ignore[no-untyped-def]
            return lambda t, now: enter_result(t, HJ, now, lambda q: led.actor_of("s", q),
                                               round_no=1, table=table, outcome=Outcome.WIN,
                                               winner=winner)
        (t1, p1), (t2, p2), (t3, p3), (t4, p4) = tables
        first = sa.write(slip(a, t1, p1[0]))
        sb.write(slip(b, t2, p2[0]))            # b writes behind a's back
        same = sa.write(slip(a, t2, p2[0]))      # a sees it: unchanged, nothing written
        assert isinstance(same, Unchanged) and same.seq == first[0].seq + 1
        with pytest.raises(RuleError, match=f"seq {same.seq}"):
            sa.write(slip(a, t2, p2[1]))        # a different result is refused
        sb.write(slip(b, t3, p3[0]))
        sa.write(slip(a, t4, p4[0]))            # the last one closes the round
        assert sa.state.fmt.rounds[-1].closed_seq is not None
        leaves = list(a.raw_leaves("s"))
        walk_chain("s", leaves)                  # one chain, no fork
        assert full_fold(a, "s").state == sa.state
