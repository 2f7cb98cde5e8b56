"""The Bushiroad rule modules used together, as the projections will: results → history
entries → standings / end condition (TC-02 rebuilt from match results; random DE events)."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.formats.bushiroad.de import EndReason, Status, end_check, status
from ledger.formats.bushiroad.model import History, Outcome, RoundEntry
from ledger.formats.bushiroad.mw import de_effective_rounds, mw_str
from ledger.formats.bushiroad.results import (
    Ending,
    Games,
    MatchFormat,
    Stage,
    bye_result,
    decide_match,
)
from ledger.formats.bushiroad.tiebreak import StandingsKind, rank

A, B, C, D, E, F, G = range(1, 8)


def test_tc02_from_match_results() -> None:
    """TC-02's event recorded as BO1 results and byes gives TC-02's standings."""
    played = {1: [(A, B), (C, D), (E, F)], 2: [(C, A), (G, E), (B, D)],
              3: [(G, C), (A, E), (F, B)]}
    byes = {1: G, 2: F, 3: D}
    entries: dict[int, list[RoundEntry]] = {f: [] for f in range(1, 8)}
    for rnd, matches in played.items():
        for w, lo in matches:
            res = decide_match(Stage.SWISS, MatchFormat.BO1, w, lo, Games(1, 0))
            for e, f in zip(res.entries(rnd), (w, lo), strict=True):
                entries[f].append(e)
        (bye,) = bye_result(byes[rnd]).entries(rnd)
        entries[byes[rnd]].append(bye)
    ranking = rank([History(f, tuple(es)) for f, es in entries.items()],
                   kind=StandingsKind.SWISS, total_rounds=3)
    assert ranking.order() == (G, C, A, F, E, B, D)
    by = {r.fighter: r for r in ranking.rows}
    assert (mw_str(by[A].mw), by[A].omw, by[A].oomw) == ("0.66", Fraction(11, 25),
                                                        Fraction(149, 225))
    assert by[A].omw == Fraction(11, 25)
    assert entries[A][0].games_won == 1 and entries[B][0].games_won == 0


GAME_SCORES = [(Games(2, 0), Ending.PLAYED), (Games(1, 2), Ending.PLAYED),
               (Games(1, 0, 1), Ending.TIMEOUT), (Games(0, 1, 1), Ending.TIMEOUT),
               (Games(1, 1, 1), Ending.TIMEOUT), (Games(0, 0, 1), Ending.TIMEOUT)]


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 12), st.data())
def test_random_double_elimination_events(n: int, data: st.DataObject) -> None:
    """Pair by record, play BO3 with timeouts (AMB-B8 double losses), stop by AMB-B9; the
    champion never lost, nobody plays after a second loss, and the standings rank everyone."""
    entries: dict[int, list[RoundEntry]] = {f: [] for f in range(1, n + 1)}
    rnd = 0
    while True:
        hs = [History(f, tuple(es)) for f, es in entries.items()]
        check = end_check(hs, rnd)
        if check.ended or rnd == 3 * n:
            break
        rnd += 1
        active = list(check.active)
        order = data.draw(st.permutations(active))
        order = sorted(order, key=lambda f: status(History(f, tuple(entries[f])), rnd - 1)
                       is not Status.UNDEFEATED)        # same record together, stable shuffle
        if len(order) % 2:
            bye = order.pop()
            entries[bye].extend(bye_result(bye).entries(rnd))
        for a, b in zip(order[0::2], order[1::2], strict=True):
            games, ending = data.draw(st.sampled_from(GAME_SCORES))
            res = decide_match(Stage.DOUBLE_ELIM, MatchFormat.BO3, a, b, games, ending)
            ea, eb = res.entries(rnd)
            entries[a].append(ea)
            entries[b].append(eb)
    hs = [History(f, tuple(es)) for f, es in entries.items()]
    assert check.ended
    if check.reason in (EndReason.ONE_UNDEFEATED, EndReason.ONE_REMAINING):
        assert check.champion is not None
        champ = next(h for h in hs if h.fighter == check.champion)
        assert champ.losses() < 2
        if check.reason is EndReason.ONE_UNDEFEATED:
            assert champ.losses() == 0
    for h in hs:
        losses = 0
        for e in sorted(h.rounds, key=lambda e: e.round):
            assert losses < 2                                   # eliminated fighters sit out
            losses += e.outcome.is_loss
        assert all(e.outcome is not Outcome.DRAW for e in h.rounds)
        assert 0 <= de_effective_rounds(h, total_rounds=rnd) <= rnd
    ranking = rank(hs, kind=StandingsKind.DOUBLE_ELIM, total_rounds=rnd)
    assert sorted(ranking.order()) == list(range(1, n + 1))
    wins = [r.wins for r in ranking.rows]
    assert wins == sorted(wins, reverse=True)
