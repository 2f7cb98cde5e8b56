"""Property test over random small HotC events (issue 13): 5–41 players, cuts of 2, 4 and
8, timeouts and drops, both rule revisions — each a whole simulated event signed into a
real SQLite ledger, then replayed from its raw rows and audited.

Under HOTC_2013_R2: every event finishes (a champion, or the head judge's no-champion
ruling); no Swiss round is paired once the stop count holds; no bye leaves the fewest-wins
group; no second bye, rematch or second pair-down that another legal choice (any bye
candidate × any pairing of the others) would have avoided — compared with an exhaustive
search wherever the field has at most 16 players.  Under HOTC_2013 the event still ends
(at worst with the old rules' tiny cut and no champion) and audits clean."""

from __future__ import annotations

import tempfile
from fractions import Fraction
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.verify import verify_ledger
from ledger.formats.hotc.bye import bye_by_pairing, counts_bound
from ledger.formats.match.pairing import Entrant, bye_candidates, pair_swiss, total_cost
from ledger.formats.simulation import simulate
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from tests.helpers.hotc_exhaustive import best_counts, replay, swiss_rounds


@st.composite
def events(draw: st.DrawFn) -> dict[str, object]:
    rules = draw(st.sampled_from(["HOTC_2013", "HOTC_2013_R2"]))
    params: dict[str, object] = {"rules": rules}
    if rules == "HOTC_2013_R2":
        params["bye_priority"] = draw(st.sampled_from(["least_wins", "least_wins",
                                                       "no_repeat"]))
    return {"players": draw(st.integers(5, 41)), "cut": draw(st.sampled_from([2, 4, 8])),
            "timeouts": draw(st.sampled_from([Fraction(0), Fraction(1, 10), Fraction(3, 10)])),
            "drops": draw(st.sampled_from([Fraction(0), Fraction(3, 100), Fraction(1, 10),
                                            Fraction(1, 4)])),
            "seed": draw(st.text("abcdefghij0123456789", min_size=1, max_size=6)),
            "params": params}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events())
def test_random_small_events_follow_the_rules_at_the_edges(ev: dict[str, object]) -> None:
    params = ev["params"]
    assert isinstance(params, dict)
    r2 = params["rules"] == "HOTC_2013_R2"
    cut = ev["cut"]
    assert isinstance(cut, int)
    with tempfile.TemporaryDirectory() as tmp:
        loc = Location(str(Path(tmp) / "p.db"))
        with Ledger(loc, create=True) as led:
            res = simulate(led, log="p", players=ev["players"],  # type: ignore[arg-type]
                           seed_text=f"prop/{ev['seed']}", cut=cut,
                           timeouts=ev["timeouts"], drops=ev["drops"],  # type: ignore[arg-type]
                           checkpoints=Path(tmp) / "cps" / "p", params=params)
            state = led.load("p").state
            leaves = list(led.raw_leaves("p"))
        report = verify_ledger(loc, "p", Path(tmp) / "cps")
    assert not report.findings, [(f.code, f.seq, f.message) for f in report.findings]
    rounds = swiss_rounds(replay(leaves))
    for r in rounds:
        assert r.bye is None or r.bye in r.candidates, r        # both revisions
    if not r2:
        return
    ended = state.fmt.no_champion_seq  # type: ignore[attr-defined]
    assert res.champion is not None or ended is not None
    for r in rounds:
        if r.round > 1:
            assert r.undefeated >= cut, f"round {r.round} paired with {r.undefeated} X-0"
        if params.get("bye_priority") == "least_wins" and r.bye is not None:
            assert r.bye in r.fewest_wins, r
        if r.best is not None:
            assert r.counts == r.best, r


@st.composite
def swiss_fields(draw: st.DrawFn) -> tuple[list[Entrant], list[int], str]:
    """A small odd field in the middle of a Swiss phase: wins 0..3, earlier byes and
    pair-downs, earlier opponents (symmetric), a random recorded order of candidates."""
    n = draw(st.sampled_from([5, 7, 9, 11, 13]))
    nums = list(range(1, n + 1))
    opp: dict[int, set[int]] = {x: set() for x in nums}
    for a, b in draw(st.lists(st.tuples(st.sampled_from(nums), st.sampled_from(nums)),
                              max_size=2 * n)):
        if a != b:
            opp[a].add(b)
            opp[b].add(a)
    field = [Entrant(number=x, wins=draw(st.integers(0, 3)), byes=draw(st.integers(0, 1)),
                     pair_downs=draw(st.integers(0, 1)), opponents=frozenset(opp[x]))
             for x in nums]
    priority = draw(st.sampled_from(["least_wins", "no_repeat"]))
    order = draw(st.permutations(bye_candidates(field, priority)))
    return field, list(order), priority


@settings(max_examples=300, deadline=None)
@given(swiss_fields(), st.sampled_from(["higher", "both"]))
def test_bye_choice_matches_an_exhaustive_search(case: tuple[list[Entrant], list[int], str],
                                                 flag: str) -> None:
    """HOTC-BYE-5 as revised: the chosen bye plus the engine's pairing of the others reach
    the best (rematches, second pair-downs) over every candidate × every pairing, and the
    bye is the first candidate in the recorded order that reaches it."""
    field, order, priority = case
    per = {c: best_counts([e for e in field if e.number != c], flag) for c in order}
    best = min(per.values())
    assert counts_bound(field, order, flag) <= best          # a sound bound for the search
    bye = bye_by_pairing(field, order, flag)
    assert bye == next(c for c in order if per[c] == best)
    others = [e for e in field if e.number != bye]
    pairs, _ = pair_swiss(others, [e.number for e in others], flag)
    by_number = {e.number: e for e in others}
    assert total_cost(pairs, by_number, flag)[:2] == best
    if priority == "least_wins":
        low = min(e.wins for e in field)
        assert by_number.get(bye) is None and next(
            e for e in field if e.number == bye).wins == low
        fresh = [e for e in field if e.wins == low and e.byes == 0]
        assert not fresh or bye in {e.number for e in fresh}     # no avoidable second bye
