"""The Wheel of Time plug-ins on a real SQLite ledger with real signatures: whole events
of both revisions audit clean; the Judge's powers (forfeiture, TBP override); refusals
write nothing; forged (correctly chained, re-signed) pairings and results are reported
by the audit with their finding codes; and a property test over random small events that
every GP/TBP total follows from the recorded outcomes alone (re-scored from the leaves, not
the folded state) and that no player gets a second bye while someone has none.
"""

from __future__ import annotations

import hashlib
import sqlite3
from fractions import Fraction
from pathlib import Path

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.verify import verify_ledger
from ledger.core.aggregate import Tournament
from ledger.core.draw import seed_from_material
from ledger.errors import RuleError, TourneyError
from ledger.formats.match.events import ResultRecorded, RoundPaired
from ledger.formats.registry import make_format
from ledger.formats.wot import plan
from ledger.formats.wot.events import ForfeitureDeclared, TbpOverridden
from ledger.formats.wot.model import Revision, Side
from ledger.formats.wot.results import WotResult
from ledger.formats.wot.scoring import score_game
from ledger.formats.wot.sim import play_event, simulated_result
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.clock import FixedClock
from ledger.wire.events import Role, parse_leaf, seal
from ledger.wire.keys import Signer
from tests.conftest import HJ, JUDGE, SCOREKEEPER, public

LOG = "w1"
#: one clock for the whole module, so reopening a ledger never goes back in time
CLOCK = FixedClock()


def _open(path: Path, fmt: str, players: int, **params: object) -> Location:
    loc = Location(str(path))
    with Ledger(loc, create=True, clock=CLOCK) as led:
        led.create(LOG, lambda now: Tournament.create(
            log=LOG, name="WoT test", fmt=make_format(fmt, None, params), signer=HJ,  # type: ignore[arg-type]
            time=now))
        led.write(LOG, lambda t, now: t.add_official(public(SCOREKEEPER), Role.SCOREKEEPER,
                                                     "Sam", HJ, now))
        led.write(LOG, lambda t, now: t.add_official(public(JUDGE), Role.JUDGE, "Jo", HJ,
                                                     now))
        for i in range(players):
            led.write(LOG, lambda t, now, i=i: t.register_player(f"P{i + 1}", SCOREKEEPER, now))
        led.write(LOG, lambda t, now: t.close_registration(HJ, now))
    return loc


def _play_all(loc: Location, seed: str = "s") -> tuple[int, list[int]]:
    with Ledger(loc, clock=CLOCK) as led:
        return play_event(led, LOG, HJ, SCOREKEEPER, seed_from_material(seed),
                          lambda w: f"{seed}/{w}", "test", None)


def _raw(loc: Location) -> bytes:
    return Path(loc.text).read_bytes()


def _leaves(loc: Location) -> list[bytes]:
    with sqlite3.connect(loc.text) as db:
        return [bytes(r[0]) for r in db.execute(
            "SELECT state FROM stored_events WHERE originator_id=? ORDER BY "
            "originator_version", (LOG,))]


def _errors(loc: Location) -> list[tuple[str, int | None]]:
    rep = verify_ledger(loc, LOG, None)
    return [(f.code, f.seq) for f in rep.findings
            if f.code not in ("no_checkpoint", "tbp_override")]


@pytest.mark.parametrize("fmt", ["wot-classic", "wot-2001"])
@pytest.mark.parametrize("players", [2, 9, 16])
def test_whole_event_audits_clean(tmp_path: Path, fmt: str, players: int) -> None:
    loc = _open(tmp_path / "w.db", fmt, players)
    games, first = _play_all(loc)
    assert games == 4 and first
    assert _errors(loc) == []
    with Ledger(loc) as led:
        st_ = led.load(LOG).state
        with pytest.raises(RuleError, match="the event is over"):
            led.write(LOG, lambda t, now: t.pair_round(HJ, now, material="x", source="y"))
    bodies = [parse_leaf(b).event.body for b in _leaves(loc)]
    pairings = [b for b in bodies if isinstance(b, RoundPaired)]
    assert [p.algorithm for p in pairings] == ["wot-seating/v1", "wot-piles/v1",
                                               "wot-list/v1", "wot-piles/v1"]
    for p in pairings:                     # docs/DESIGN.md §11: sides for every seated player
        assert not isinstance(p.sides, msgspec.UnsetType)
        seated_ = sorted(int(k) for k in p.sides)
        assert seated_ == sorted(x for t in p.tables for x in t.players)
        assert (p.bye is None) == (p.bye_side is None)
    assert len(plan.standings(st_)[1]) == players


def _to_game1(tmp_path: Path, fmt: str, players: int = 9) -> Location:
    loc = _open(tmp_path / "w.db", fmt, players)
    with Ledger(loc, clock=CLOCK) as led:
        led.write(LOG, lambda t, now: t.pair_round(HJ, now, material="g1", source="dice"))
    return loc


def _refused(loc: Location, fn, exc: type[Exception] = TourneyError) -> TourneyError:  # type: ignore[no-untyped-def]
    before = _raw(loc)
    with Ledger(loc, clock=CLOCK) as led, pytest.raises(exc) as info:
        led.write(LOG, fn)
    assert _raw(loc) == before, "a refused command wrote something"
    return info.value  # type: ignore[return-value]


def _table(loc: Location, n: int = 1):  # type: ignore[no-untyped-def]
    with Ledger(loc) as led:
        return plan.ws(led.load(LOG).state).games[-1].tables[n - 1]


def test_result_refusals_write_nothing(tmp_path: Path) -> None:
    loc = _to_game1(tmp_path, "wot-classic")
    t1 = _table(loc)
    h, v = t1.hero, t1.villain
    cases = [
        ({"wot_outcome": "Q1", "winner": h, "pattern": {h: 3, v: 2}}, "not a wot-classic"),
        ({"wot_outcome": "O1", "winner": h, "support": {h: 4, v: 1}}, "5\\+"),
        ({"wot_outcome": "O3", "winner": h, "support": {h: 4}}, "conceded_by"),
        ({"wot_outcome": "O2", "winner": 99, "support": {99: 4}}, "not at the table"),
        ({"wot_outcome": "O8", "winner": h}, "no winner"),
    ]
    for kw, msg in cases:
        err = _refused(loc, lambda t, now, kw=kw: t.record_result(
            SCOREKEEPER, now, round_no=1, table=1, **kw))
        assert err.message and __import__("re").search(msg, err.message), err.message
    _refused(loc, lambda t, now: t.record_result(SCOREKEEPER, now, round_no=2, table=1,
                                                 wot_outcome="O8"))
    _refused(loc, lambda t, now: t.pair_round(HJ, now))           # Game 1 still open
    _refused(loc, lambda t, now: t.drop_player(SCOREKEEPER, now, h))   # WoT has no drop
    with Ledger(loc, clock=CLOCK) as led:                  # a good one goes through
        led.write(LOG, lambda t, now: t.record_result(
            SCOREKEEPER, now, round_no=1, table=1, wot_outcome="O8"))
    _refused(loc, lambda t, now: t.record_result(SCOREKEEPER, now, round_no=1, table=1,
                                                 wot_outcome="O8"))   # already has a result


def _finish_game(loc: Location, seed: str = "f") -> None:
    with Ledger(loc, clock=CLOCK) as led:
        st_ = led.load(LOG).state
        g = plan.ws(st_).games[-1]
        for tab in g.tables:
            if tab.result is None:
                kw = simulated_result(plan.revision(st_), seed_from_material(seed),
                                      f"T{tab.table}", tab.hero, tab.villain)
                led.write(LOG, lambda t, now, kw=kw, n=tab.table: t.record_result(
                    SCOREKEEPER, now, round_no=g.number, table=n, **kw))


def test_forfeiture_and_tbp_override(tmp_path: Path) -> None:
    loc = _to_game1(tmp_path, "wot-classic")
    t1 = _table(loc)
    h, v = t1.hero, t1.villain
    # only the WoT Judge (head judge) declares forfeiture
    _refused(loc, lambda t, now: t.plugin.judge_powers.declare_forfeit(t, JUDGE, now, number=v,
                                                          reason="coaching"))
    with Ledger(loc, clock=CLOCK) as led:
        led.write(LOG, lambda t, now: t.plugin.judge_powers.declare_forfeit(t, HJ, now, number=v,
                                                               reason="coaching"))
    # the forfeited player's open table is their concession (AMB-W10)
    err = _refused(loc, lambda t, now: t.record_result(
        SCOREKEEPER, now, round_no=1, table=1, wot_outcome="O1", winner=v,
        support={v: 6, h: 1}))
    assert "declared forfeit" in err.message
    with Ledger(loc, clock=CLOCK) as led:
        led.write(LOG, lambda t, now: t.record_result(
            SCOREKEEPER, now, round_no=1, table=1, wot_outcome="O3", winner=h,
            support={h: 2}, conceded_by=v))
    # an override before the Game is complete is refused
    _refused(loc, lambda t, now: t.plugin.judge_powers.override_tbp(
        t, HJ, now, round_no=1, number=h, new="4", method="m", reason="r"))
    _finish_game(loc)
    # not the opponent of a concession; bad TBP text; a judge (not the WoT Judge)
    t2 = _table(loc, 2)
    _refused(loc, lambda t, now: t.plugin.judge_powers.override_tbp(
        t, HJ, now, round_no=1, number=t2.hero, new="4", method="m", reason="r"))
    _refused(loc, lambda t, now: t.plugin.judge_powers.override_tbp(
        t, HJ, now, round_no=1, number=h, new="4.5", method="m", reason="r"))
    _refused(loc, lambda t, now: t.plugin.judge_powers.override_tbp(
        t, JUDGE, now, round_no=1, number=h, new="4", method="m", reason="r"))
    with Ledger(loc, clock=CLOCK) as led:
        ev = led.write(LOG, lambda t, now: t.plugin.judge_powers.override_tbp(
            t, HJ, now, round_no=1, number=h, new="9/2", method="replayed the final turn",
            reason="conceded to push the opponent down"))[0]
        body = ev.body
        assert isinstance(body, TbpOverridden) and body.old == "2" and body.new == "9/2"
        st_ = led.load(LOG).state
        tot, places = plan.standings(st_)
        assert tot[h] == (2, Fraction(9, 2))
        assert v not in tot and v not in [p.number for p in places]   # all points lost
        ents = plan.entrants(st_)
        assert v not in [e.number for e in ents]                      # no future pairing
    # a forged override citing a stale old value is reported by the audit
    forged = TbpOverridden(round=1, table=1, number=h, old="2", new="7", method="m",
                           reason="r")
    _forge(loc, forged, HJ)
    report = verify_ledger(loc, LOG, None)
    listed = [f for f in report.findings if f.code == "tbp_override"]
    assert len(listed) == 1 and "9/2" in listed[0].message          # WOTOLD-FORF-2
    assert ("wot_override_stale", len(_leaves(loc))) in _errors(loc)


def _forge(loc: Location, body: object, signer: Signer) -> None:
    leaves = _leaves(loc)
    ev = seal(log=LOG, seq=len(leaves) + 1, prev=hashlib.sha256(leaves[-1]).hexdigest(),
              time="2099-01-01T10:00:00.000000Z", body=body, signer=signer)  # type: ignore[arg-type]
    with sqlite3.connect(loc.text) as db:
        db.execute("INSERT INTO stored_events VALUES (?,?,?,?)",
                   (LOG, len(leaves) + 1, ev.kind, ev.leaf))
        db.execute("DELETE FROM stored_snapshots")


def _fields(res: WotResult) -> dict[str, object]:
    return plan.wire_fields(res)


@pytest.mark.parametrize("fmt", ["wot-classic", "wot-2001"])
def test_forged_results_are_reported(tmp_path: Path, fmt: str) -> None:
    loc = _to_game1(tmp_path, fmt)
    t1 = _table(loc)
    h, v = t1.hero, t1.villain
    classic = fmt == "wot-classic"
    good = WotResult(table=1, outcome="O1" if classic else "Q1",
                     sides={h: Side.HERO, v: Side.VILLAIN}, last_battle=True, winner=h,
                     support={h: 7, v: 2} if classic else {},
                     pattern={} if classic else {h: 9, v: 4})
    cases: list[tuple[dict[str, object], str]] = [
        # swapped sides: the GP/TBP would go to the wrong deck's averages
        ({**_fields(good), "sides": {str(h): "villain", str(v): "hero"}}, "wot_sides_mismatch"),
        # a hostile key that names no player: reported, not a crash of the audit
        ({**_fields(good), "sides": {"x": "hero", str(v): "villain"}}, "wot_sides_mismatch"),
        # the loser listed as winner-side: winner and losers disagree with the outcome
        ({**_fields(good), "losers": [h]}, "result_mismatch"),
        # an impossible amount for the code (classic O1 needs 5+; 2001 a count >= 0)
        ({**_fields(good), ("support" if classic else "pattern"):
          {str(h): 3, str(v): 2} if classic else {str(h): -1, str(v): 4}},
         "wot_result_invalid"),
    ]
    base = _leaves(loc)
    for fields, code in cases:
        _forge(loc, ResultRecorded(round=1, table=1, **fields), SCOREKEEPER)  # type: ignore[arg-type]
        assert (code, len(base) + 1) in _errors(loc), code
        with sqlite3.connect(loc.text) as db:
            db.execute("DELETE FROM stored_events WHERE originator_id=? AND "
                       "originator_version=?", (LOG, len(base) + 1))
            db.execute("DELETE FROM stored_snapshots")
    assert _errors(loc) == []


def test_forged_pairing_is_reported(tmp_path: Path) -> None:
    loc = _to_game1(tmp_path, "wot-2001")
    _finish_game(loc)
    with Ledger(loc) as led:
        st_ = led.load(LOG).state
        ents = plan.entrants(st_)
        items = plan.tie_items(ents)
    assert items is not None              # 9 players after Game 1 always share a score
    with Ledger(loc, clock=CLOCK) as led:
        events = led.write(LOG, lambda t, now: t.pair_round(HJ, now, material="g2",
                                                            source="dice"))
    paired = events[-1].body
    assert isinstance(paired, RoundPaired)
    # rewrite Game 2 with its first two tables' Villains swapped, re-signed by the Judge
    leaves = _leaves(loc)
    tabs = list(paired.tables)
    a, b = tabs[0], tabs[1]
    tabs[0] = msgspec.structs.replace(a, players=[a.players[0], b.players[1]])
    tabs[1] = msgspec.structs.replace(b, players=[b.players[0], a.players[1]])
    rigged = msgspec.structs.replace(paired, tables=tabs)
    ev = parse_leaf(leaves[-1]).event
    forged = seal(log=LOG, seq=ev.seq, prev=ev.prev, time=ev.time, body=rigged, signer=HJ)
    with sqlite3.connect(loc.text) as db:
        db.execute("UPDATE stored_events SET state=? WHERE originator_id=? AND "
                   "originator_version=?", (forged.leaf, LOG, ev.seq))
        db.execute("DELETE FROM stored_snapshots")
    assert ("pairing_mismatch", ev.seq) in _errors(loc)


def test_correction_replaces_a_result_until_the_next_game(tmp_path: Path) -> None:
    loc = _to_game1(tmp_path, "wot-2001")
    t1 = _table(loc)
    h, v = t1.hero, t1.villain
    with Ledger(loc, clock=CLOCK) as led:
        first = led.write(LOG, lambda t, now: t.record_result(
            SCOREKEEPER, now, round_no=1, table=1, wot_outcome="Q1", winner=h,
            pattern={h: 9, v: 4}))[0]
    _refused(loc, lambda t, now: t.correct_result(          # a scorekeeper cannot correct
        SCOREKEEPER, now, round_no=1, table=1, reason="slip", wot_outcome="Q1", winner=v,
        pattern={h: 4, v: 9}))
    with Ledger(loc, clock=CLOCK) as led:
        led.write(LOG, lambda t, now: t.correct_result(
            JUDGE, now, round_no=1, table=1, reason="slips swapped", wot_outcome="Q1",
            winner=v, pattern={h: 4, v: 9}))
        res = plan.ws(led.load(LOG).state).games[0].tables[0].result
        assert res is not None and res.winner == v and res.seq != first.seq
    _finish_game(loc)
    with Ledger(loc, clock=CLOCK) as led:
        led.write(LOG, lambda t, now: t.pair_round(HJ, now, material="g2", source="d"))
    _refused(loc, lambda t, now: t.correct_result(
        JUDGE, now, round_no=1, table=1, reason="late", wot_outcome="Q2",
        pattern={h: 4, v: 9}))
    assert _errors(loc) == []


def test_genesis_parameters(tmp_path: Path) -> None:
    spec = make_format("wot-2001", None)
    assert spec.params["rules"] == "WOT_2001" and spec.cut == 0
    assert make_format("wot-classic", None).params["rules"] == "WOT_OLD"
    with pytest.raises(RuleError, match="sealed"):
        make_format("wot-2001", None, {"wot_cycles_starting_characters_allowed": True})
    with pytest.raises(RuleError):
        make_format("wot-classic", None, {"wot_final_turn_call_minutes": 10})
    with pytest.raises(RuleError, match="no top cut"):
        make_format("wot-classic", 4)


def _rescore(leaves: list[bytes], revision: Revision,
             params: dict[str, object]) -> dict[int, tuple[int, Fraction]]:
    """Totals from the signed leaves alone: each Game's results, bye and overrides, scored
    by ``score_game``; forfeited players left out."""
    games: list[tuple[RoundPaired, list[WotResult]]] = []
    removed: set[int] = set()
    for leaf in leaves:
        b = parse_leaf(leaf).event.body
        if isinstance(b, RoundPaired):
            games.append((b, []))
        elif isinstance(b, ResultRecorded):
            games[-1][1].append(plan.body_result(b.table, b))
        elif isinstance(b, ForfeitureDeclared):
            removed.add(b.number)
    out: dict[int, tuple[int, Fraction]] = {}
    for paired, results in games:
        bye_side = None if not isinstance(paired.bye_side, str) else Side(paired.bye_side)
        for p, s in score_game(revision, results, params, bye=paired.bye,
                               bye_side=bye_side).items():
            gp, tbp = out.get(p, (0, Fraction(0)))
            out[p] = (gp + s.gp, tbp + s.tbp)
    return {p: v for p, v in out.items() if p not in removed}


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(players=st.integers(2, 11), cycles=st.integers(1, 3),
       fmt=st.sampled_from(["wot-classic", "wot-2001"]), seed=st.text(min_size=1, max_size=6))
def test_random_events_totals_follow_from_outcomes(tmp_path_factory: pytest.TempPathFactory,
                                                   players: int, cycles: int, fmt: str,
                                                   seed: str) -> None:
    loc = _open(tmp_path_factory.mktemp("p") / "w.db", fmt, players, wot_cycles=cycles)
    _play_all(loc, seed)
    with Ledger(loc) as led:
        st_ = led.load(LOG).state
    tot, places = plan.standings(st_)
    assert tot == _rescore(_leaves(loc), plan.revision(st_), plan.params(st_))
    byes: dict[int, int] = {}
    for g in plan.ws(st_).games:           # WOTOLD-BYE-5: a second bye only after everyone
        if g.bye is not None:
            assert min(byes.get(p, 0) for p in range(1, players + 1)) >= byes.get(g.bye, 0)
            byes[g.bye] = byes.get(g.bye, 0) + 1
    ranks = [p.place for p in places]       # shared places 1, 2, 2, 4
    assert ranks == sorted(ranks) and ranks[0] == 1
    assert all(r == i + 1 or r == ranks[i - 1] for i, r in enumerate(ranks) if i)
    assert _errors(loc) == []
