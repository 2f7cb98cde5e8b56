"""HotC Swiss pairing: bye candidates and the optimal pairing (RULES.md §2.4–2.5).

Owns: ``bye_candidates`` (HOTC-BYE-1..5, AMB-H4/H5), ``lower_bound`` and ``pair_swiss``:
the pairing of every active non-bye player under the lexicographic objective of
HOTC-PAIR-5 / AMB-H3 — (1) fewest rematches (Rule A), (2) fewest players who end with two
or more pair-downs (Rule B), (3) fewest cross-group pairings, then smallest total win
difference, (4) the recorded random order.  A greedy pass in draw order is returned when
it reaches the proven lower bound; otherwise the exact minimum-cost perfect matching
decides (``ledger.core.matching``) — over the whole field up to ``EXACT_LIMIT`` players, and
above that over the constrained core (small win groups whole, the first players in draw
order of large groups), the rest of each large group being paired without rematches.
Pure functions of (players, draw order, flags): the command side and the audit call the
same code.

May import: ``ledger.core.matching``, ``ledger.formats.match.model``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import NamedTuple

from ledger.core.matching import min_cost_perfect_matching

PAIR_DOWN_HIGHER = "higher"
PAIR_DOWN_BOTH = "both"


class Entrant(NamedTuple):
    """What pairing needs to know of one active player (a tuple: the field of every
    round is built anew when the round is paired and when the audit re-pairs it, so it
    is cheap to build, issue 28)."""

    number: int
    wins: int
    byes: int = 0
    pair_downs: int = 0
    opponents: frozenset[int] = frozenset()


class Pair(NamedTuple):
    """Two players paired (a tuple, like ``Entrant``)."""

    high: int          # the player from the higher (or equal) win group
    low: int
    high_wins: int
    low_wins: int
    rematch: bool

    @property
    def cross(self) -> bool:
        return self.high_wins != self.low_wins


Cost = tuple[int, int, int, int]


def bye_candidates(entrants: Sequence[Entrant], priority: str = "no_repeat") -> list[int]:
    """Who may receive the bye (HOTC-BYE-2/3; AMB-H4 proposal ``no_repeat``).

    ``no_repeat``: players without a previous bye, fewest wins among them; only when all
    have had one, fewest wins among all.  ``least_wins``: the lowest win group, preferring
    those without a bye.
    """
    if not entrants:
        return []
    if priority == "least_wins":
        low = min(e.wins for e in entrants)
        group = [e for e in entrants if e.wins == low]
        fresh = [e for e in group if e.byes == 0]
        chosen = fresh or group
    else:
        fresh = [e for e in entrants if e.byes == 0] or list(entrants)
        low = min(e.wins for e in fresh)
        chosen = [e for e in fresh if e.wins == low]
    return sorted(e.number for e in chosen)


def _counts_double(e: Entrant, as_high: bool, flag: str) -> int:
    """1 if pairing ``e`` across groups gives them a second (or later) pair-down."""
    if as_high or flag == PAIR_DOWN_BOTH:
        return 1 if e.pair_downs >= 1 else 0
    return 0


def pair_cost(a: Entrant, b: Entrant, flag: str) -> Cost:
    hi, lo = (a, b) if a.wins >= b.wins else (b, a)
    rematch = 1 if b.number in a.opponents else 0
    if hi.wins == lo.wins:
        return (rematch, 0, 0, 0)
    dd = _counts_double(hi, True, flag) + _counts_double(lo, False, flag)
    return (rematch, dd, 1, hi.wins - lo.wins)


def lower_bound(entrants: Sequence[Entrant]) -> Cost:
    """A lower bound on the objective: 0 rematches, 0 doubles, and the cross pairings
    forced by group parity — one pair spanning each maximal run of win-group boundaries
    with an odd number of players above it."""
    wins = sorted({e.wins for e in entrants}, reverse=True)
    size = {w: 0 for w in wins}
    for e in entrants:
        size[e.wins] += 1
    cross = diff = 0
    above = 0
    run_start: int | None = None
    for w in wins[:-1]:
        above += size[w]
        if above % 2:
            if run_start is None:
                run_start = w
        elif run_start is not None:
            cross, diff = cross + 1, diff + run_start - w
            run_start = None
    if run_start is not None:
        cross, diff = cross + 1, diff + run_start - wins[-1]
    return (0, 0, cross, diff)


def total_cost(pairs: Sequence[Pair], by_number: dict[int, Entrant], flag: str) -> Cost:
    r = d = c = w = 0
    for p in pairs:
        pc = pair_cost(by_number[p.high], by_number[p.low], flag)
        r, d, c, w = r + pc[0], d + pc[1], c + pc[2], w + pc[3]
    return (r, d, c, w)


def _make_pair(a: Entrant, b: Entrant) -> Pair:
    hi, lo = (a, b) if a.wins >= b.wins else (b, a)
    # positional: (high, low, high_wins, low_wins, rematch)
    return Pair(hi.number, lo.number, hi.wins, lo.wins, b.number in a.opponents)


def _pair_in_order(members: list[Entrant]) -> list[Pair] | None:
    """Pair an even list in draw order without rematches; one swap repair at the end.

    The players still to pair are a deque: the next player is taken from the front in
    O(1) and their opponent is usually among the first few (rematches are few), so the
    pass is linear in the group, not quadratic (issue 22 item 1; the pairs are the same
    as taking from the front of a list)."""
    pairs: list[tuple[Entrant, Entrant]] = []
    rest = deque(members)
    while rest:
        a = rest.popleft()
        if rest and rest[0].number not in a.opponents:   # the common case: no rematch
            pairs.append((a, rest.popleft()))
            continue
        j = next((k for k, b in enumerate(rest) if b.number not in a.opponents), None)
        if j is None:
            b = rest.popleft()
            for k, (c, d) in enumerate(pairs):
                if c.number not in a.opponents and d.number not in b.opponents:
                    pairs[k] = (c, a)
                    pairs.append((d, b))
                    break
                if d.number not in a.opponents and c.number not in b.opponents:
                    pairs[k] = (c, b)
                    pairs.append((d, a))
                    break
            else:
                return None
            continue
        if j == 0:
            pairs.append((a, rest.popleft()))
        else:
            b = rest[j]
            del rest[j]
            pairs.append((a, b))
    return [_make_pair(a, b) for a, b in pairs]


def _greedy(order: list[Entrant], flag: str) -> list[Pair] | None:
    """Top-down through win groups in draw order, floating one player when a group is odd."""
    groups: dict[int, list[Entrant]] = {}
    for e in order:
        groups.setdefault(e.wins, []).append(e)
    result: list[Pair] = []
    floaters: list[Entrant] = []
    for w in sorted(groups, reverse=True):
        members = list(groups[w])
        for f in floaters:
            j = next((k for k, m in enumerate(members) if m.number not in f.opponents
                      and not _counts_double(m, False, flag)), None)
            if j is None:
                return None
            result.append(_make_pair(f, members.pop(j)))
        floaters = []
        if len(members) % 2:
            # the floater: the last in draw order without a previous pair-down (Rule B)
            options = [m for m in reversed(members) if not _counts_double(m, True, flag)]
            for f in options:
                rest = [m for m in members if m is not f]
                paired = _pair_in_order(rest)
                if paired is not None:
                    floaters = [f]
                    result.extend(paired)
                    break
            else:
                return None
        else:
            paired = _pair_in_order(members)
            if paired is None:
                return None
            result.extend(paired)
    return None if floaters else result


EXACT_LIMIT = 160   # above this, the exact solver runs on the constrained core only
CORE_PER_GROUP = 40


def _core_exact(order: list[Entrant], flag: str,
                core_per_group: int = CORE_PER_GROUP) -> list[Pair] | None:
    """Exact matching on a core — every small win group whole, and the first
    ``CORE_PER_GROUP`` (parity-adjusted) players in draw order of each large group — with the
    rest of each large group paired in draw order without rematches (cost 0)."""
    groups: dict[int, list[Entrant]] = {}
    for e in order:
        groups.setdefault(e.wins, []).append(e)
    core: list[Entrant] = []
    rest: list[list[Entrant]] = []
    for w in sorted(groups, reverse=True):
        members = groups[w]
        if len(members) <= 2 * core_per_group:
            core.extend(members)
            continue
        k = core_per_group + (1 if (len(members) - core_per_group) % 2 else 0)
        core.extend(members[:k])
        rest.append(members[k:])
    pos = {e.number: i for i, e in enumerate(order)}
    core.sort(key=lambda e: pos[e.number])
    pairs = _exact(core, flag)
    for members in rest:
        paired = _pair_in_order(members)
        if paired is None:
            return None
        pairs.extend(paired)
    return pairs


def _exact(order: list[Entrant], flag: str) -> list[Pair]:
    n = len(order)
    wmax = max((e.wins for e in order), default=0) + 1
    m_tie = n * n + 1
    m_diff = wmax * n + 1
    m_lvl = n + 1
    edges = []
    for i in range(n):
        for j in range(i + 1, n):
            r, d, c, w = pair_cost(order[i], order[j], flag)
            cost = (((r * m_lvl + d) * m_lvl + c) * m_diff + w) * m_tie + (j - i)
            edges.append((i, j, cost))
    matching = min_cost_perfect_matching(n, edges)
    if matching is None:  # only if n is odd, which the caller prevents
        raise ValueError("no perfect matching of the field")
    return [_make_pair(order[i], order[j]) for i, j in matching]


def pair_swiss(entrants: Sequence[Entrant], draw_order: Sequence[int],
               flag: str = PAIR_DOWN_HIGHER, *, exact_limit: int = EXACT_LIMIT,
               core_per_group: int = CORE_PER_GROUP) -> tuple[list[Pair], bool]:
    """Optimal pairing of ``entrants`` (even count); ``draw_order`` is the recorded
    DRAW-v1 permutation of their numbers.  Returns (pairs, exact_solver_used).
    ``exact_limit`` / ``core_per_group`` are part of the recorded algorithm (see
    ``ledger.formats.match.plan.PAIRING_LIMITS``)."""
    by_number = {e.number: e for e in entrants}
    order = [by_number[n] for n in draw_order]
    greedy = _greedy(order, flag)
    if greedy is not None and total_cost(greedy, by_number, flag) == lower_bound(entrants):
        return greedy, False
    if len(order) > exact_limit:
        core = _core_exact(order, flag, core_per_group)
        if core is not None:
            return core, True
    return _exact(order, flag), True
