"""An exhaustive reference for the HotC bye and pairing counts on small fields, and a
replay of a simulated ledger that reports what each Swiss pairing did.

Used by the property and regression tests to compare the format's choices with every
legal alternative: all bye candidates × all perfect matchings of the others (a memoised
search over subsets, so fields up to ~16 players are exhaustive).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ledger.core.state import TournamentState
from ledger.formats.match.events import RoundPaired
from ledger.formats.match.model import Phase, Status
from ledger.formats.match.pairing import Entrant, bye_candidates
from ledger.wire.events import SignedEvent

EXHAUSTIVE_LIMIT = 16


def _pair_counts(a: Entrant, b: Entrant, flag: str) -> tuple[int, int]:
    """(rematch, second pair-downs) of one match, from the rules' definitions (AMB-H1)."""
    rematch = 1 if b.number in a.opponents else 0
    if a.wins == b.wins:
        return rematch, 0
    hi, lo = (a, b) if a.wins > b.wins else (b, a)
    doubles = (1 if hi.pair_downs >= 1 else 0) + (
        1 if flag == "both" and lo.pair_downs >= 1 else 0)
    return rematch, doubles


def best_counts(field: Sequence[Entrant], flag: str) -> tuple[int, int]:
    """Fewest (rematches, second pair-downs) over every perfect matching of ``field``."""
    players = list(field)
    n = len(players)
    assert n % 2 == 0 and n <= EXHAUSTIVE_LIMIT
    cost = [[_pair_counts(players[i], players[j], flag) for j in range(n)] for i in range(n)]

    @lru_cache(maxsize=None)
    def solve(mask: int) -> tuple[int, int]:
        if mask == 0:
            return (0, 0)
        i = (mask & -mask).bit_length() - 1
        rest = mask & ~(1 << i)
        best = (10**9, 10**9)
        j_mask = rest
        while j_mask:
            j = (j_mask & -j_mask).bit_length() - 1
            j_mask &= j_mask - 1
            r, d = solve(rest & ~(1 << j))
            cand = (r + cost[i][j][0], d + cost[i][j][1])
            if cand < best:
                best = cand
        return best

    return solve((1 << n) - 1)


def field_of(state: TournamentState) -> list[Entrant]:
    return [Entrant(number=r.number, wins=r.wins, byes=r.byes, pair_downs=r.pair_downs,
                    opponents=frozenset(r.opponents))
            for r in sorted(state.fmt.records.values(), key=lambda r: r.number)
            if r.status is Status.ACTIVE]


@dataclass(frozen=True)
class SwissRound:
    """What one recorded Swiss pairing did, judged against the state before it."""

    round: int
    active: int
    undefeated: int
    bye: int | None
    candidates: list[int]
    fewest_wins: list[int]
    counts: tuple[int, int]                 # (rematches, second pair-downs) as recorded
    best: tuple[int, int] | None            # exhaustive best, None when the field is large


def recorded_counts(state: TournamentState, body: RoundPaired, flag: str) -> tuple[int, int]:
    by_number = {e.number: e for e in field_of(state)}
    r = d = 0
    for t in body.tables:
        a, b = (by_number[n] for n in t.players)
        rr, dd = _pair_counts(a, b, flag)
        r, d = r + rr, d + dd
    return r, d


def swiss_rounds(states: Sequence[tuple[TournamentState, SignedEvent]]) -> list[SwissRound]:
    out = []
    for st, ev in states:
        body = ev.body
        if not isinstance(body, RoundPaired) or body.phase is not Phase.SWISS:
            continue
        params = st.format.params if st.format else {}
        flag = str(params.get("pair_down_counts", "higher"))
        field = field_of(st)
        low = min(e.wins for e in field)
        cands = bye_candidates(field, str(params.get("bye_priority", "no_repeat"))) \
            if len(field) % 2 else []
        best = None
        if len(field) - (len(field) % 2) <= EXHAUSTIVE_LIMIT:
            if cands:
                best = min(best_counts([e for e in field if e.number != c], flag)
                           for c in cands)
            else:
                best = best_counts(field, flag)
        out.append(SwissRound(
            round=body.round, active=len(field),
            undefeated=sum(1 for e in field if st.fmt.records[e.number].losses == 0),
            bye=body.bye, candidates=cands,
            fewest_wins=sorted(e.number for e in field if e.wins == low),
            counts=recorded_counts(st, body, flag), best=best))
    return out


def replay(leaves: Sequence[tuple[int, bytes]],
           kinds: frozenset[str] = frozenset({"round_paired"})
           ) -> list[tuple[TournamentState, SignedEvent]]:
    """(a copy of the state before the event, event) for every event of ``kinds``, folded
    from the raw rows as the audit folds them."""
    import copy

    from ledger.core.state import apply_event
    from ledger.wire.events import parse_leaf

    st = TournamentState()
    out = []
    for _v, leaf in leaves:
        ev = parse_leaf(leaf).event
        if ev.kind in kinds:
            out.append((copy.deepcopy(st), ev))
        apply_event(st, ev)
    return out
