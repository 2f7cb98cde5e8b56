"""The record-based standings (``standings.ranking`` over ``PlayerRecord`` columns, no
``History`` per fighter) against a straightforward ``Fraction`` reference (BR-SWISS-TB-1…8).

Random small Swiss events (byes won and lost to a Loss of Match, late entries, draws,
double losses, drops, unplayed rounds; every tie-break parameter) are folded into match
records; the fast ranking must give exactly the rows, places, MW% / OMW% / OOMW% and
unresolved groups that the reference computes from the rules with plain ``Fraction``s, and
the same ranking as the ``History`` path (``tiebreak.rank`` over ``histories``).  A real
simulated event (signed ledger) is checked the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from math import floor
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

import ledger.formats.registry  # noqa: F401
from ledger.core.state import TournamentState
from ledger.formats.bushiroad import rounds
from ledger.formats.bushiroad.columns import Ranking
from ledger.formats.bushiroad.params import tiebreak_params
from ledger.formats.bushiroad.standings import (
    histories,
    ranking,
    record_columns,
    undefeated_until,
)
from ledger.formats.bushiroad.tiebreak import StandingsKind, rank
from ledger.formats.match.model import MatchState, PlayerRecord, Status
from ledger.formats.match.officiating_model import DqRecord, OfficiatingState, PrizePolicy
from ledger.formats.simulation import simulate
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.events import FormatSpec

F33 = Fraction(33, 100)
#: (char of a, char of b) of one match: W/L, draw, double loss (BR-SWISS-4/5, BR-DE-3)
MATCHES = [("W", "L"), ("L", "W"), ("D", "D"), ("X", "X")]


@st.composite
def swiss_events(draw: st.DrawFn) -> tuple[dict[int, str], dict[int, list[int]],
                                           dict[int, int], int]:
    """(played string, opponents, drop after round) per fighter, and R_total."""
    n = draw(st.integers(2, 10))
    total = draw(st.integers(1, 5))
    played = {f: "" for f in range(1, n + 1)}
    opps: dict[int, list[int]] = {f: [] for f in played}
    dropped: dict[int, int] = {}
    for rnd in range(1, total + 1):
        for f in played:                                   # drops before the pairing
            if f not in dropped and draw(st.integers(0, 11)) == 0:
                dropped[f] = rnd - 1
        active = [f for f in played if f not in dropped]
        late = {f for f in active if draw(st.integers(0, 14)) == 0}   # not paired ("-" / N)
        order = draw(st.permutations([f for f in active if f not in late]))
        for f in late:
            played[f] = played[f].ljust(rnd - 1, "-") + draw(st.sampled_from("-N"))
        if len(order) % 2:
            played[order[-1]] = played[order[-1]].ljust(rnd - 1, "-") + \
                draw(st.sampled_from("BBN"))               # a bye, or lost to a LoM
        for a, b in zip(order[0::2], order[1::2], strict=False):
            ca, cb = draw(st.sampled_from(MATCHES))
            played[a] = played[a].ljust(rnd - 1, "-") + ca
            played[b] = played[b].ljust(rnd - 1, "-") + cb
            opps[a].append(b)
            opps[b].append(a)
    return played, opps, dropped, total


PARAMS = st.fixed_dictionaries({
    "points_per_win": st.sampled_from([1, 3]),
    "territory": st.sampled_from(["japan", "outside_japan"]),
    "bye_in_own_mw": st.booleans(),
    "swiss_mw_denominator": st.sampled_from(["total_rounds", "rounds_played"]),
    "h2h_group": st.sampled_from(["dominance", "pairs_only"]),
    "h2h_position": st.sampled_from(["after_oomw", "after_omw"]),
})


def state_of(played: dict[int, str], opps: dict[int, list[int]], dropped: dict[int, int],
             total: int, params: dict[str, str | int | bool]) -> TournamentState:
    """Match records as the fold leaves them; every third fighter who left was
    disqualified (status and ``officiating.dq``) instead of dropping."""
    records = {}
    dq = {f: DqRecord(seq=1, round=after, standing_revoked=False,
                      prize_policy=PrizePolicy.PASS_DOWN)
          for f, after in dropped.items() if f % 3 == 0}
    for f, p in played.items():
        records[f] = PlayerRecord(
            number=f, played=p, opponents=opps[f],
            wins=p.count("W") + p.count("B"), losses=sum(map(p.count, "LXN")),
            byes=p.count("B"), draws=p.count("D"),
            status=Status.DISQUALIFIED if f in dq else Status.DROPPED if f in dropped
            else Status.ACTIVE,
            dropped_after_rounds=dropped.get(f))
    ms = MatchState(records=records, rounds_total=total, swiss_rounds=total, swiss_over=True,
                    officiating=OfficiatingState(dq=dq))
    return TournamentState(log="t", format=FormatSpec(id="bushiroad-swiss", cut=0,
                                                      params=params), fmt=ms)


def reference(played: dict[int, str], opps: dict[int, list[int]], total: int,
              params: dict[str, str | int | bool]) -> list[tuple[object, ...]]:
    """BR-SWISS-TB straight from the rules, with ``Fraction``s: (fighter, place, points,
    wins, losses, draws, MW%, OMW%, OOMW%) best first, and the groups left tied."""
    m = int(params["points_per_win"])

    def mw(f: int) -> Fraction:                      # BR-SWISS-TB-3, AMB-B1, AMB-B2
        p = played[f]
        wins, byes = p.count("W") + p.count("B"), p.count("B")
        rounds = total if params["swiss_mw_denominator"] == "total_rounds" \
            else len(p) - p.count("-")
        if not params["bye_in_own_mw"]:
            wins, rounds = wins - byes, rounds - byes
        if rounds == 0:
            return F33
        return max(Fraction(floor(Fraction(wins * m, rounds * m) * 100), 100), F33)

    def mean(xs: list[Fraction]) -> Fraction:        # BR-SWISS-TB-4/5, AMB-B3, AMB-B6
        return sum(xs, Fraction(0)) / len(xs) if xs else Fraction(0)

    mws = {f: mw(f) for f in played}
    omw = {f: mean([mws[o] for o in opps[f]]) for f in played}
    oomw = {f: mean([omw[o] for o in opps[f]]) for f in played}
    wins = {f: played[f].count("W") + played[f].count("B") for f in played}

    def beat(x: int, y: int) -> bool:                # BR-SWISS-TB-6: a winner only
        mine = [c for c in played[x] if c in "WLDX"]
        res = [c for c, o in zip(mine, opps[x], strict=True) if o == y]
        return "W" in res and "L" not in res

    def h2h(group: list[int]) -> list[list[int]]:   # AMB-B4
        if params["h2h_group"] == "pairs_only":
            if len(group) == 2:
                a, b = group
                if beat(a, b):
                    return [[a], [b]]
                if beat(b, a):
                    return [[b], [a]]
            return [group]
        out, rest = [], list(group)
        while len(rest) > 1:
            top = [x for x in rest if all(beat(x, y) for y in rest if y != x)]
            if not top:
                break
            out.append([top[0]])
            rest.remove(top[0])
        return [*out, rest] if rest else out

    def split(groups: list[list[int]], key: Mapping[int, Any]) -> list[list[int]]:
        out = []
        for g in groups:
            for v in sorted({key[f] for f in g}, reverse=True):
                out.append([f for f in g if key[f] == v])
        return out

    japan = params["territory"] == "japan"
    groups = split([sorted(played)], wins)
    groups = split(groups, omw)
    if params["h2h_position"] == "after_omw":
        groups = [p for g in groups for p in h2h(g)]
        if not japan:
            groups = split(groups, oomw)
    else:
        if not japan:
            groups = split(groups, oomw)
        groups = [p for g in groups for p in h2h(g)]
    rows: list[tuple[object, ...]] = []
    for g in groups:
        place = len(rows) + 1
        for f in g:
            p = played[f]
            rows.append((f, place, wins[f] * m, wins[f], sum(map(p.count, "LXN")),
                         p.count("D"), mws[f], omw[f], oomw[f]))
    rows.append(("tied", *[tuple(g) for g in groups if len(g) > 1]))
    return rows


def as_rows(r: Ranking) -> list[tuple[object, ...]]:
    return [(x.fighter, x.place, x.points, x.wins, x.losses, x.draws, x.mw, x.omw, x.oomw)
            for x in r.rows] + [("tied", *r.unresolved)]


@settings(max_examples=300, deadline=None)
@given(swiss_events(), PARAMS)
def test_fast_standings_equal_the_fraction_reference(
        ev: tuple[dict[int, str], dict[int, list[int]], dict[int, int], int],
        params: dict[str, str | int | bool]) -> None:
    played, opps, dropped, total = ev
    state = state_of(played, opps, dropped, total, params)
    assert record_columns(state.fmt, total_rounds=total,
                          params=tiebreak_params(state)) is not None   # the fast path ran
    fast = ranking(state)
    assert as_rows(fast) == reference(played, opps, total, params)     # BR-SWISS-TB-1…8
    slow = rank(histories(state), kind=StandingsKind.SWISS, total_rounds=total,
                params=tiebreak_params(state))
    assert fast == slow                                                # the History path
    assert sorted(undefeated_until(state)) == sorted(       # the stop rules' count
        rounds.undefeated_until(h) for h in histories(state))     # (BR-SWISS-ROUNDS-4)


def test_records_the_fast_reading_does_not_cover_take_the_history_path() -> None:
    played = {1: "W", 2: "L"}
    state = state_of(played, {1: [2], 2: []}, {}, 1, {"points_per_win": 1})
    assert record_columns(state.fmt, total_rounds=1, params=tiebreak_params(state)) is None
    assert ranking(state) == rank(histories(state), kind=StandingsKind.SWISS, total_rounds=1,
                                  validate=False)


def test_a_simulated_event_ranks_like_the_reference(tmp_path: Path) -> None:
    loc = Location(str(tmp_path / "t.db"))
    with Ledger(loc, create=True) as led:
        simulate(led, log="fast", players=23, seed_text="fast-standings", cut=0,
                 timeouts=Fraction(1, 5), drops=Fraction(1, 10),
                 format_id="bushiroad-swiss", params={"swiss_rounds": 5},
                 checkpoints=tmp_path / "notes")
        state = led.load("fast").state
    recs = state.fmt.records
    assert any(r.status is Status.DROPPED for r in recs.values())
    played = {n: r.played for n, r in recs.items()}
    opps = {n: list(r.opponents) for n, r in recs.items()}
    tp = tiebreak_params(state)
    ref = reference(played, opps, 5, {
        "points_per_win": tp.points_per_win, "territory": tp.territory.value,
        "bye_in_own_mw": tp.bye_in_own_mw, "swiss_mw_denominator": tp.swiss_mw_denominator.value,
        "h2h_group": tp.h2h_group.value, "h2h_position": tp.h2h_position.value})
    untied = replace(state, fmt=replace(state.fmt, tiebreak=None))   # before the tie-break
    assert as_rows(ranking(untied)) == ref
