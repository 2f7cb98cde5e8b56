"""A small HotC event through the aggregate and the real SQLite store: rounds, byes,
results, corrections, drops, stop rule, cut, bracket, champion — and the audit re-deriving
every pairing, cut and bracket (a re-signed forgery is a finding with its seq)."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from audit.verify import verify_ledger
from ledger.core.aggregate import Tournament
from ledger.errors import RuleError
from ledger.formats.hotc.events import CutMade
from ledger.formats.match.events import RoundPaired, Table
from ledger.formats.match.model import Outcome, Phase, Status
from ledger.formats.match.plan import open_round
from ledger.formats.registry import make_format
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.clock import FixedClock
from ledger.wire.events import Role, parse_leaf, seal
from tests.conftest import HJ, JUDGE, SCOREKEEPER, public

LOG = "ev"


def setup(tmp_path: Path, players: int = 9, cut: int = 4) -> tuple[Location, Ledger]:
    loc = Location(str(tmp_path / "e.db"))
    led = Ledger(loc, create=True, clock=FixedClock())
    led.create(LOG, lambda now: Tournament.create(
        log=LOG, name="Event", fmt=make_format("hotc-swiss-de", cut), signer=HJ, time=now))
    led.write(LOG, lambda t, now: t.add_official(public(SCOREKEEPER), Role.SCOREKEEPER, "S",
                                                 HJ, now))
    led.write(LOG, lambda t, now: t.add_official(public(JUDGE), Role.JUDGE, "J", HJ, now))

    def reg(t: Tournament, now: str) -> None:
        for i in range(players):
            t.register_player(f"P{i + 1}", SCOREKEEPER, now)
    led.write(LOG, reg)
    led.write(LOG, lambda t, now: t.close_registration(HJ, now))
    return loc, led


def play_round(led: Ledger, *, low_wins: bool = True) -> None:
    rnd = open_round(led.load(LOG).state)
    assert rnd is not None
    for tab in rnd.tables:
        if tab.result is None:
            led.write(LOG, lambda t, now, tab=tab: t.record_result(
                SCOREKEEPER, now, round_no=rnd.number, table=tab.table, outcome=Outcome.WIN,
                winner=min(tab.players) if low_wins else max(tab.players)))


def test_whole_event_audits_clean_and_crowns_a_champion(tmp_path: Path) -> None:
    loc, led = setup(tmp_path)
    n = 0
    while not led.load(LOG).state.fmt.swiss_over:
        n += 1
        led.write(LOG, lambda t, now, n=n: t.pair_round(HJ, now, material=f"seed {n}",
                                                        source="test"))
        st = led.load(LOG).state
        rnd = st.fmt.rounds[-1]
        assert (rnd.bye is not None) == (sum(
            r.status is Status.ACTIVE for r in st.fmt.records.values()) % 2 == 1)
        play_round(led)
    led.write(LOG, lambda t, now: t.select_cut(HJ, now, material="cut", source="test"))
    led.write(LOG, lambda t, now: t.seed_bracket(HJ, now, material="bracket", source="test"))
    while led.load(LOG).state.fmt.champion is None:
        if open_round(led.load(LOG).state) is None:
            led.write(LOG, lambda t, now: t.pair_round(HJ, now))
        play_round(led)
    st = led.load(LOG).state
    assert st.fmt.records[st.fmt.champion].status is Status.CHAMPION  # type: ignore[index]
    led.close()
    report = verify_ledger(loc, LOG, None)
    assert report.ok, [f for f in report.findings if f.severity == "error"]


def test_results_are_entered_once_and_corrected_by_a_judge(tmp_path: Path) -> None:
    _loc, led = setup(tmp_path, players=8)
    led.write(LOG, lambda t, now: t.pair_round(HJ, now, material="s", source="t"))
    tab = led.load(LOG).state.fmt.rounds[-1].tables[0]
    a, b = tab.players
    led.write(LOG, lambda t, now: t.record_result(SCOREKEEPER, now, round_no=1, table=1,
                                                  outcome=Outcome.WIN, winner=a))
    with pytest.raises(RuleError, match="already has a result"):
        led.write(LOG, lambda t, now: t.record_result(SCOREKEEPER, now, round_no=1, table=1,
                                                      outcome=Outcome.WIN, winner=b))
    with pytest.raises(RuleError, match="no table 99"):
        led.write(LOG, lambda t, now: t.record_result(SCOREKEEPER, now, round_no=1, table=99,
                                                      outcome=Outcome.WIN, winner=b))
    with pytest.raises(RuleError) as err:   # a scorekeeper may not amend (LEDGER-RES-1)
        led.write(LOG, lambda t, now: t.correct_result(SCOREKEEPER, now, round_no=1, table=1,
                                                       outcome=Outcome.WIN, winner=b,
                                                       reason="slip"))
    assert err.value.finding == "role_not_permitted"
    evs = led.write(LOG, lambda t, now: t.correct_result(JUDGE, now, round_no=1, table=1,
                                                         outcome=Outcome.WIN, winner=b,
                                                         reason="slip was misread"))
    recs = led.load(LOG).state.fmt.records
    assert (recs[a].wins, recs[a].losses, recs[b].wins, recs[b].losses) == (0, 1, 1, 0)
    assert evs[0].body.corrects_seq < evs[0].seq  # type: ignore[attr-defined]


def test_round_closes_with_stop_rule_and_late_result_is_refused(tmp_path: Path) -> None:
    _loc, led = setup(tmp_path, players=8)
    led.write(LOG, lambda t, now: t.pair_round(HJ, now, material="s", source="t"))
    play_round(led)
    st = led.load(LOG).state
    assert st.fmt.rounds[-1].closed_seq is not None and not st.fmt.swiss_over  # 4 X-0
    with pytest.raises(RuleError, match="not open for results"):
        led.write(LOG, lambda t, now: t.record_result(SCOREKEEPER, now, round_no=1, table=1,
                                                      outcome=Outcome.TIMEOUT))


def test_drop_timings(tmp_path: Path) -> None:
    _loc, led = setup(tmp_path, players=8)
    led.write(LOG, lambda t, now: t.drop_player(SCOREKEEPER, now, 8, "before"))
    led.write(LOG, lambda t, now: t.pair_round(HJ, now, material="s", source="t"))
    st = led.load(LOG).state
    assert all(8 not in tab.players for tab in st.fmt.rounds[-1].tables)   # not paired
    tab = st.fmt.rounds[-1].tables[0]
    dropper, other = tab.players
    evs = led.write(LOG, lambda t, now: t.drop_player(SCOREKEEPER, now, dropper, "after"))
    res = evs[1].body
    assert (res.winner, res.losers) == (other, [dropper])  # type: ignore[attr-defined]
    # a player whose own result is in, dropping before the round closes, completed it
    tab2 = st.fmt.rounds[-1].tables[1]
    led.write(LOG, lambda t, now: t.record_result(SCOREKEEPER, now, round_no=1, table=2,
                                                  outcome=Outcome.WIN, winner=tab2.players[0]))
    led.write(LOG, lambda t, now: t.drop_player(SCOREKEEPER, now, tab2.players[1], "after"))
    rec = led.load(LOG).state.fmt.records[tab2.players[1]]
    assert (rec.dropped_after_rounds, rec.dropped_losses) == (1, 1)


def test_cut_before_swiss_is_over_is_refused(tmp_path: Path) -> None:
    _loc, led = setup(tmp_path, players=10)
    led.write(LOG, lambda t, now: t.pair_round(HJ, now, material="s", source="t"))
    play_round(led)
    with pytest.raises(RuleError, match="HOTC-STOP-1"):
        led.write(LOG, lambda t, now: t.select_cut(HJ, now, material="c", source="t"))


def test_field_no_larger_than_cut_skips_swiss(tmp_path: Path) -> None:
    _loc, led = setup(tmp_path, players=3, cut=4)
    with pytest.raises(RuleError, match="AMB-H6"):
        led.write(LOG, lambda t, now: t.pair_round(HJ, now, material="s", source="t"))
    led.write(LOG, lambda t, now: t.select_cut(HJ, now))
    evs = led.write(LOG, lambda t, now: t.seed_bracket(HJ, now, material="b", source="t"))
    paired = evs[-1].body
    assert isinstance(paired, RoundPaired) and paired.phase is Phase.TOP_CUT
    assert len(paired.tables) == 1 and len(paired.advances) == 1


def _rows(loc: Location) -> list[tuple[int, bytes]]:
    with sqlite3.connect(loc.text) as db:
        return [(v, bytes(s)) for v, s in db.execute(
            "SELECT originator_version, state FROM stored_events ORDER BY originator_version")]


def _resign_last(loc: Location, body: object) -> int:
    """Replace the last stored event by a re-signed one with ``body`` (head judge key)."""
    rows = _rows(loc)
    v, leaf = rows[-1]
    ev = parse_leaf(leaf).event
    forged = seal(log=LOG, seq=v, prev=hashlib.sha256(rows[-2][1]).hexdigest(),
                  time=ev.time, body=body, signer=HJ)  # type: ignore[arg-type]
    with sqlite3.connect(loc.text) as db:
        db.execute("UPDATE stored_events SET state=? WHERE originator_version=?",
                   (forged.leaf, v))
        db.execute("DELETE FROM stored_snapshots")
    return v


def test_audit_recomputes_a_resigned_pairing(tmp_path: Path) -> None:
    loc, led = setup(tmp_path, players=8)
    led.write(LOG, lambda t, now: t.pair_round(HJ, now, material="s", source="t"))
    led.close()
    body = parse_leaf(_rows(loc)[-1][1]).event.body
    assert isinstance(body, RoundPaired)
    t1, t2 = body.tables[0], body.tables[1]
    swapped = [Table(table=1, players=[t1.players[0], t2.players[0]], groups=[0, 0]),
               Table(table=2, players=[t1.players[1], t2.players[1]], groups=[0, 0]),
               *body.tables[2:]]
    seq = _resign_last(loc, RoundPaired(round=1, phase=Phase.SWISS, tables=swapped,
                                        bye=None, draws=body.draws))
    report = verify_ledger(loc, LOG, None)
    hits = [f for f in report.findings if f.code == "pairing_mismatch"]
    assert hits and hits[0].seq == seq and "expected" in hits[0].message


def test_audit_recomputes_a_resigned_cut(tmp_path: Path) -> None:
    loc, led = setup(tmp_path, players=3, cut=4)
    led.write(LOG, lambda t, now: t.select_cut(HJ, now))
    led.close()
    body = parse_leaf(_rows(loc)[-1][1]).event.body
    assert isinstance(body, CutMade)
    seq = _resign_last(loc, CutMade(spots=0, undefeated=body.undefeated, pool=[], drawn=[],
                                    cut=body.cut[:-1], eliminated=body.cut[-1:],
                                    draw_seq=None))
    found = {(f.code, f.seq) for f in verify_ledger(loc, LOG, None).findings}
    assert ("cut_mismatch", seq) in found


def test_round_uses_a_fresh_unbound_seed_once(tmp_path: Path) -> None:
    """`tourney seed record` without --ctx, then `tourney round pair`: the fresh seed is
    used; the next round needs a new one (LEDGER-RAND-1)."""
    _loc, led = setup(tmp_path, players=8)
    led.write(LOG, lambda t, now: t.record_seed(material="m1", source="s", reason="R1",
                                                signer=HJ, time=now))
    evs = led.write(LOG, lambda t, now: t.pair_round(HJ, now))
    assert evs[0].body.seed_seq == evs[0].seq - 1  # type: ignore[attr-defined]
    play_round(led)
    with pytest.raises(RuleError, match="no seed is recorded"):
        led.write(LOG, lambda t, now: t.pair_round(HJ, now))


def test_format_flags_are_fixed_at_genesis_and_validated() -> None:
    from ledger.formats.registry import make_format, parse_params

    spec = make_format("hotc-swiss-de", 4, parse_params(
        "hotc-swiss-de", ["bye_priority=least_wins", "match_minutes=50"]))
    assert spec.params["bye_priority"] == "least_wins" and spec.params["match_minutes"] == 50
    with pytest.raises(RuleError, match="RULES-8"):
        make_format("hotc-swiss-de", 4, {"pair_down_counts": "sideways"})
    from ledger.errors import UsageError
    with pytest.raises(UsageError):
        parse_params("hotc-swiss-de", ["cut_size=4"])
