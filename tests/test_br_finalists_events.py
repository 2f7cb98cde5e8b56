"""Finalists by nation/clan and by title on the ledger (BR-FIN-6/7, AMB-B15/B34/B35):
the steps, the recorded draw of an overflowing step, and the audit re-deriving them.

A 12-fighter ``bushiroad-swiss`` of 3 rounds with a top cut of 3 (step 2 then has two
candidates for one spot: ranking, or a recorded draw under ``random``); clans (the registered
``clan``) or titles (the registered ``deck``, declared at registration, before round 1).
Results are scripted: the lower player number wins, so the standings are known.
"""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from audit.verify import verify_ledger
from ledger.core.aggregate import Tournament
from ledger.formats.bushiroad.events import FinalistsDecided
from ledger.formats.bushiroad.finalists import (
    GroupMethod,
    QualifierRecord,
    select_by_group,
)
from ledger.formats.bushiroad.standings import final_order
from ledger.formats.match.model import Outcome
from ledger.formats.match.plan import open_round
from ledger.formats.registry import make_format
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.clock import FixedClock
from ledger.wire.events import Role, open_leaf, seal
from tests.conftest import HJ, SCOREKEEPER, public

CLANS = ["Royal", "Dark", "Star", "Dragon", "Royal", "Dark", "Star", "Dragon", "Royal",
         "Dark", "Star", "Dragon"]


def _event(tmp: Path, method: str, overflow: str) -> tuple[Location, Tournament]:
    loc = Location(str(tmp / "t.db"))
    with Ledger(loc, create=True, clock=FixedClock()) as led:
        led.create("fin", lambda now: Tournament.create(
            log="fin", name="Clan Fight", signer=HJ, time=now,
            fmt=make_format("bushiroad-swiss", 3, {
                "swiss_rounds": 3, "finalist_method": method,
                "step_overflow_choice": overflow})))
        led.write("fin", lambda t, now: t.add_official(
            public(SCOREKEEPER), Role.SCOREKEEPER, "Sam", HJ, now))
        for i, clan in enumerate(CLANS, start=1):
            kw = {"clan": clan} if method == "nation_clan" else {"deck": clan}
            led.write("fin", lambda t, now, i=i, kw=kw: t.register_player(
                f"F{i}", SCOREKEEPER, now, **kw))
        led.write("fin", lambda t, now: t.close_registration(HJ, now))
        for n in range(1, 4):
            led.write("fin", lambda t, now, n=n: t.pair_round(
                HJ, now, material=f"fin R{n}", source="test"))
            rnd = open_round(led.load("fin").state)
            assert rnd is not None
            for tab in rnd.tables:
                led.write("fin", lambda t, now, tab=tab, n=n: t.record_result(
                    SCOREKEEPER, now, round_no=n, table=tab.table, outcome=Outcome.WIN,
                    winner=min(tab.players)))
        led.write("fin", lambda t, now: t.select_cut(
            HJ, now, material="fin cut dice", source="test"))
        t = led.load("fin")
    return loc, t


def _finalists(loc: Location) -> tuple[int, FinalistsDecided]:
    with Ledger(loc) as led:
        for v, leaf in led.raw_leaves("fin"):
            b = open_leaf(leaf).body
            if isinstance(b, FinalistsDecided):
                return v, b
    raise AssertionError("no finalists_decided")


@pytest.mark.parametrize("method", ["nation_clan", "title"])
@pytest.mark.parametrize("overflow", ["ranking", "random"])
def test_group_selection_follows_the_steps_and_audits_clean(
        tmp_path: Path, method: str, overflow: str) -> None:
    loc, t = _event(tmp_path, method, overflow)
    _, body = _finalists(loc)
    # the same selection computed independently from the final standings
    st = t.state
    order = final_order(st)
    h = st.fmt
    recs = [QualifierRecord(fighter=n, wins=h.records[n].wins, losses=h.records[n].losses,
                            draws=h.records[n].draws, group=CLANS[n - 1]) for n in order]
    steps = [] if isinstance(body.steps, msgspec.UnsetType) else body.steps
    draws = [s for s in steps if s.chosen_by == "random"]
    if overflow == "ranking":
        sel = select_by_group(recs, order, 3, method=GroupMethod(method))
        assert sorted(sel.finalists) == sorted(body.finalists)
        assert not draws
    assert len(body.finalists) == 3 and body.method == method
    assert steps and steps[0].step == 1
    assert all(s.draw_seq is not None for s in draws)
    if overflow == "random":        # an overflowing step was drawn, not ranked (AMB-B15)
        assert draws and not [s for s in steps if s.chosen_by == "ranking"]
    assert verify_ledger(loc, "fin", None).ok


def test_forged_step_selection_is_a_cut_mismatch(tmp_path: Path) -> None:
    loc, _ = _event(tmp_path, "nation_clan", "ranking")
    seq, body = _finalists(loc)
    with Ledger(loc) as led:
        rows = list(led.raw_leaves("fin"))
    ev = open_leaf(rows[seq - 1][1])
    outsider = body.eliminated[0]
    forged = msgspec.structs.replace(body, finalists=[*body.finalists[:-1], outsider])
    import hashlib
    import sqlite3
    leaf = seal(log="fin", seq=seq, prev=hashlib.sha256(rows[seq - 2][1]).hexdigest(),
                time=ev.time, body=forged, signer=HJ).leaf
    with sqlite3.connect(loc.text) as db:
        db.execute("DELETE FROM stored_events WHERE originator_version > ?", (seq,))
        db.execute("UPDATE stored_events SET state=? WHERE originator_version=?", (leaf, seq))
        db.execute("DELETE FROM stored_snapshots")
    report = verify_ledger(loc, "fin", None)
    assert {f.code for f in report.findings if f.seq == seq} >= {"cut_mismatch"}
