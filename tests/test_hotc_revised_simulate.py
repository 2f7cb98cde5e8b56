"""The simulate seeds named in issue 13, as regression tests under both rule revisions
(HOTC_2013 keeps its behaviour for old ledgers; HOTC_2013_R2 shows the fix), and the audit
flagging a Swiss round paired after the stop count held (R2).  Real SQLite ledgers, real
signatures, the audit over the raw rows."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pytest

from audit.findings import Report
from audit.verify import verify_ledger
from ledger.core.state import TournamentState
from ledger.formats.hotc import plan as hotc_plan
from ledger.formats.hotc.events import CutMade
from ledger.formats.match.events import PlayerDropped, RoundClosed, RoundPaired
from ledger.formats.match.model import Phase
from ledger.formats.simulation import SimulationResult, simulate
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.events import SignedEvent, parse_leaf
from tests.helpers.hotc_event import HotcEvent
from tests.helpers.hotc_exhaustive import replay, swiss_rounds

OLD, R2 = "HOTC_2013", "HOTC_2013_R2"


@dataclass
class Sim:
    result: SimulationResult
    state: TournamentState
    events: list[SignedEvent]
    leaves: list[tuple[int, bytes]]
    report: Report

    def kinds(self) -> list[str]:
        return [e.kind for e in self.events]


def run(tmp: Path, players: int, cut: int, seed: str, timeouts: str, drops: str,
        rules: str) -> Sim:
    log = f"sim-{players}"        # as 'tourney simulate' names it (outcomes hang on it)
    loc = Location(str(tmp / f"{seed}-{rules}.db"))
    cps = tmp / f"{seed}-{rules}.cps"
    with Ledger(loc, create=True) as led:
        res = simulate(led, log=log, players=players, seed_text=seed, cut=cut,
                       timeouts=Fraction(timeouts), drops=Fraction(drops),
                       checkpoints=cps / log, params={"rules": rules})
        state = led.load(log).state
        leaves = list(led.raw_leaves(log))
    return Sim(res, state, [parse_leaf(b).event for _v, b in leaves], leaves,
               verify_ledger(loc, log, cps))


def clean(sim: Sim) -> None:
    assert sim.report.ok, [(f.code, f.seq, f.message) for f in sim.report.findings]
    assert not sim.report.findings, [(f.code, f.seq) for f in sim.report.findings]


# -- 1. the stop rule after a drop: --players 23 --seed fz2-23-1 --timeouts 0.2 --drops 0.03

def stop_story(sim: Sim) -> tuple[RoundClosed, list[int]]:
    closed = next(e.body for e in sim.events if isinstance(e.body, RoundClosed))
    r1 = next(e.seq for e in sim.events if isinstance(e.body, RoundClosed))
    drops = [e.body.number for e in sim.events if isinstance(e.body, PlayerDropped)
             and e.seq > r1]
    return closed, drops  # type: ignore[return-value]


def test_fz2_23_1_hotc_2013_pairs_round_two_after_the_undefeated_drop(tmp_path: Path) -> None:
    sim = run(tmp_path, 23, 8, "fz2-23-1", "0.2", "0.03", OLD)
    closed, _ = stop_story(sim)
    assert (closed.round, closed.undefeated, closed.swiss_over) == (1, 8, False)
    late = [r for r in swiss_rounds(replay(sim.leaves)) if r.round == 2]
    assert late and late[0].undefeated == 7            # paired with 7 < 8 X-0 (old rule)
    assert sim.result.champion is not None
    clean(sim)


def test_fz2_23_1_r2_stops_when_the_drop_takes_the_count_below_the_cut(tmp_path: Path) -> None:
    sim = run(tmp_path, 23, 8, "fz2-23-1", "0.2", "0.03", R2)
    closed, drops = stop_story(sim)
    assert (closed.round, closed.undefeated, closed.swiss_over) == (1, 8, False)
    assert drops                                       # an undefeated player left after R1
    paired = [e.body for e in sim.events if isinstance(e.body, RoundPaired)
              and e.body.phase is Phase.SWISS]
    assert [p.round for p in paired] == [1]            # no round 2
    cut = next(e.body for e in sim.events if isinstance(e.body, CutMade))
    assert len(cut.undefeated) == 7 and cut.spots == 1 and len(cut.cut) == 8
    assert sim.result.champion is not None
    clean(sim)


# -- 2. the bye outside the fewest-wins group: --players 9 --cut 2 --seed s3-268 ----------
#    --timeouts 0.3 --drops 0.2 (found by searching seeds; the issue names none)

def test_s3_268_hotc_2013_gives_the_bye_to_the_undefeated_player(tmp_path: Path) -> None:
    sim = run(tmp_path, 9, 2, "s3-268", "0.3", "0.2", OLD)
    r3 = next(r for r in swiss_rounds(replay(sim.leaves)) if r.round == 3)
    # the fewest-wins group (#7, #8) had byes, so no_repeat (the old default) gives the
    # bye to #1, the one undefeated player, who keeps a guaranteed cut seat
    assert (r3.fewest_wins, r3.candidates, r3.bye, r3.undefeated) == ([7, 8], [1], 1, 1)
    clean(sim)


def test_s3_268_r2_keeps_the_bye_in_the_fewest_wins_group(tmp_path: Path) -> None:
    sim = run(tmp_path, 9, 2, "s3-268", "0.3", "0.2", R2)
    rounds = swiss_rounds(replay(sim.leaves))
    assert all(r.bye in r.fewest_wins for r in rounds if r.bye is not None)
    assert [r.round for r in rounds] == [1, 2]     # and the stop rule ends the Swiss first
    assert sim.result.cut == [1] and sim.result.champion == 1
    clean(sim)


# -- 3. the bye chosen with the pairing: --players 11 --cut 2 --seed fz-11-2-2 -------------

def test_fz_11_2_2_hotc_2013_bye_forces_a_second_pair_down(tmp_path: Path) -> None:
    """Round 3 is TC-10(c): candidates #1, #7, #11; the old rule gives the bye to the first
    drawn (#1), which forces #4's second pair-down that a bye to #7 or #11 avoids."""
    sim = run(tmp_path, 11, 2, "fz-11-2-2", "0.3", "0.05", OLD)
    r3 = next(r for r in swiss_rounds(replay(sim.leaves)) if r.round == 3)
    assert (r3.candidates, r3.bye, r3.counts, r3.best) == ([1, 7, 11], 1, (0, 1), (0, 0))
    clean(sim)


def test_fz_11_2_2_r2_bye_avoids_it(tmp_path: Path) -> None:
    sim = run(tmp_path, 11, 2, "fz-11-2-2", "0.3", "0.05", R2)
    rounds = swiss_rounds(replay(sim.leaves))
    r3 = next(r for r in rounds if r.round == 3)
    assert r3.candidates == [1, 7, 11] and r3.bye in (7, 11) and r3.counts == (0, 0)
    assert all(r.best is not None and r.counts == r.best for r in rounds)
    assert sim.result.champion is not None
    clean(sim)


# -- 4. tiny cuts: --players 5 --cut 2 --seed fz-5-2-3 / fz-5-2-1 --------------------------

def test_fz_5_2_3_cut_of_one(tmp_path: Path) -> None:
    old = run(tmp_path, 5, 2, "fz-5-2-3", "0.3", "0.05", OLD)
    assert len(old.result.cut) == 1 and old.result.champion is None   # never crowned
    assert "bracket_seeded" not in old.kinds()
    clean(old)
    new = run(tmp_path, 5, 2, "fz-5-2-3", "0.3", "0.05", R2)
    assert len(new.result.cut) == 1 and new.result.champion == new.result.cut[0]
    assert new.kinds()[-2:] == ["cut_made", "champion_declared"] or \
        "bracket_seeded" not in new.kinds()
    assert not [e for e in new.events if e.kind == "round_paired"
                and e.body.phase is Phase.TOP_CUT]  # type: ignore[union-attr]
    clean(new)


def test_fz_5_2_1_empty_cut(tmp_path: Path) -> None:
    old = run(tmp_path, 5, 2, "fz-5-2-1", "0.3", "0.05", OLD)
    assert old.result.cut == [] and old.result.champion is None
    assert "bracket_seeded" not in old.kinds()      # was "internal error: StopIteration"
    clean(old)
    new = run(tmp_path, 5, 2, "fz-5-2-1", "0.3", "0.05", R2)
    assert new.result.cut == [] and new.result.champion is None
    assert "no_champion_ruled" in new.kinds()
    assert new.state.fmt.final
    clean(new)


# -- 5./6. entrants and the cut: --players 9 --seed chk-9-b --timeouts 0.1 --drops 0.02 ----

@pytest.mark.parametrize("rules", [OLD, R2])
def test_chk_9_b_finishes_with_a_champion(tmp_path: Path, rules: str) -> None:
    """Drops before round 1 leave 8 entrants for a top 8: HOTC_2013 goes straight to the
    cut; R2 plays round 1 (8 is not fewer than 8).  simulate used to abort with exit 3."""
    sim = run(tmp_path, 9, 8, "chk-9-b", "0.1", "0.02", rules)
    first = next(i for i, e in enumerate(sim.events) if e.kind in ("round_paired",
                                                                     "cut_made"))
    st = TournamentState()
    from ledger.core.state import apply_event
    for e in sim.events[:first]:
        apply_event(st, e)
    assert len(hotc_plan.entrants(st)) == 8
    swiss = [e for e in sim.events if isinstance(e.body, RoundPaired)
             and e.body.phase is Phase.SWISS]
    assert bool(swiss) is (rules == R2)
    assert sim.result.champion is not None
    clean(sim)


# -- the audit flags a Swiss round paired after the stop count held (R2) -------------------

def forged_round_two(tmp_path: Path, rules: str, monkeypatch: pytest.MonkeyPatch) -> HotcEvent:
    """16 players, round 1 leaves 8 undefeated, one drops (7 < 8), and round 2 is paired by
    a tool that ignores the revised stop rule (the rule is switched off while it writes)."""
    ev = HotcEvent(tmp_path / "t.db", 16, cut=8, params={"rules": rules})
    ev.pair()
    ev.play()
    ev.drop(ev.undefeated()[0])
    with monkeypatch.context() as m:
        m.setattr(hotc_plan, "stop_count_holds", lambda state: False)
        ev.pair()
    assert ev.events()[-1].kind == "round_paired"
    return ev


def test_audit_flags_a_swiss_round_after_the_stop_count_held_r2(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ev = forged_round_two(tmp_path, R2, monkeypatch)
    report = ev.audit()
    seq = ev.events()[-1].seq
    assert not report.ok
    assert ("swiss_after_stop", seq) in {(f.code, f.seq) for f in report.findings}
    msg = next(f.message for f in report.findings if f.code == "swiss_after_stop")
    assert "7 active players are undefeated, fewer than 8" in msg


def test_the_same_ledger_under_hotc_2013_audits_clean(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ev = forged_round_two(tmp_path, OLD, monkeypatch)
    report = ev.audit()
    assert report.ok and not [f for f in report.findings if f.severity.value == "error"]
