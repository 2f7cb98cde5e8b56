"""ledger.core.matching: the exact minimum-cost perfect matching agrees with exhaustive search."""

from __future__ import annotations

import random
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ledger.core.matching
from ledger.core.matching import min_cost_perfect_matching

Edge = tuple[int, int, int]


def brute_force_min_cost_perfect_matching(n: int, edges: list[Edge]) -> int | None:
    """Minimum total cost of a perfect matching by exhaustive recursion (n <= 12), or None.

    Always matches the lowest unmatched vertex with every possible partner; the memo only
    avoids re-solving the same set of remaining vertices."""
    assert n <= 12
    cost: dict[tuple[int, int], int] = {}
    for u, v, c in edges:
        if u == v:
            continue
        key = (min(u, v), max(u, v))
        if key not in cost or c < cost[key]:
            cost[key] = c

    @lru_cache(maxsize=None)
    def best(rest: frozenset[int]) -> int | None:
        if not rest:
            return 0
        u = min(rest)
        found: int | None = None
        for v in sorted(rest - {u}):
            c = cost.get((u, v))
            if c is None:
                continue
            sub = best(rest - {u, v})
            if sub is not None and (found is None or c + sub < found):
                found = c + sub
        return found

    return best(frozenset(range(n)))


def check_valid(n: int, edges: list[Edge], result: list[tuple[int, int]]) -> int:
    """Assert ``result`` is a well-formed perfect matching over given edges; its cost."""
    cost: dict[tuple[int, int], int] = {}
    for u, v, c in edges:
        if u != v:
            key = (min(u, v), max(u, v))
            cost[key] = min(c, cost.get(key, c))
    assert all(u < v for u, v in result)
    assert [u for u, _ in result] == sorted(u for u, _ in result)
    assert sorted(x for pair in result for x in pair) == list(range(n))
    assert all(pair in cost for pair in result)
    return sum(cost[pair] for pair in result)


def uniform_start(n: int, edges: list[Edge]) -> list[tuple[int, int]] | None:
    """The same solver started from equal vertex duals and an empty matching (no greedy
    start), so the plain primal-dual path is tested too."""
    cheapest: dict[tuple[int, int], int] = {}
    for u, v, c in edges:
        if u != v:
            key = (min(u, v), max(u, v))
            cheapest[key] = min(c, cheapest.get(key, c))
    if n == 0:
        return []
    if n % 2 or not cheapest:
        return None
    blossom = ledger.core.matching._Blossom(n, [u for u, _ in cheapest], [v for _, v in cheapest],
                                       list(cheapest.values()), greedy=False)
    mate = blossom.solve()
    if min(mate) < 0:
        return None
    return [(v, mate[v]) for v in range(n) if v < mate[v]]


def assert_optimal(n: int, edges: list[Edge]) -> list[tuple[int, int]] | None:
    result = min_cost_perfect_matching(n, edges)
    expected = brute_force_min_cost_perfect_matching(n, edges)
    if expected is None:
        assert result is None
    else:
        assert result is not None
        assert check_valid(n, edges, result) == expected
    assert min_cost_perfect_matching(n, list(edges)) == result  # deterministic
    plain = uniform_start(n, edges)
    if expected is None:
        assert plain is None
    else:
        assert plain is not None
        assert check_valid(n, edges, plain) == expected
    return result


COSTS = st.one_of(
    st.integers(0, 3),  # many ties
    st.integers(-50, 50),
    st.integers(0, 3).map(lambda c: 10**30 + c),
    st.integers(0, 2**70),
)


@st.composite
def graphs(draw: st.DrawFn) -> tuple[int, list[Edge]]:
    n = draw(st.integers(0, 12))
    density = draw(st.sampled_from([0.15, 0.3, 0.5, 0.8, 1.0]))
    rnd = random.Random(draw(st.integers(0, 2**32)))
    edges: list[Edge] = []
    for u in range(n):
        for v in range(u + 1, n):
            if rnd.random() < density:
                edges.append((u, v, draw(COSTS)) if rnd.random() < 0.5 else (v, u, draw(COSTS)))
    extra = draw(st.lists(st.tuples(st.integers(0, max(n - 1, 0)), st.integers(0, max(n - 1, 0)),
                                    COSTS), max_size=6)) if n else []
    edges.extend(extra)  # parallel edges and self-loops
    rnd.shuffle(edges)
    return n, edges


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(graphs())
def test_random_graphs_agree_with_brute_force(graph: tuple[int, list[Edge]]) -> None:
    assert_optimal(*graph)


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 6).map(lambda h: 2 * h), st.integers(0, 2**32),
       st.sampled_from([2, 5, 1000, 10**30]))
def test_complete_graphs_with_ties_agree(n: int, seed: int, top: int) -> None:
    rnd = random.Random(seed)
    edges = [(u, v, rnd.randrange(top)) for u in range(n) for v in range(u + 1, n)]
    assert_optimal(n, edges)


def test_trivial_sizes() -> None:
    assert min_cost_perfect_matching(0, []) == []
    assert min_cost_perfect_matching(1, []) is None
    assert min_cost_perfect_matching(3, [(0, 1, 1), (1, 2, 1), (0, 2, 1)]) is None
    assert min_cost_perfect_matching(2, []) is None
    assert min_cost_perfect_matching(2, [(1, 0, 7)]) == [(0, 1)]
    assert min_cost_perfect_matching(2, [(0, 0, 1), (1, 1, 1)]) is None


def test_parallel_edges_keep_the_cheapest() -> None:
    edges = [(0, 1, 5), (1, 0, 1), (2, 3, 0), (0, 2, 2), (1, 3, 2), (2, 0, -10)]
    assert min_cost_perfect_matching(4, edges) == [(0, 2), (1, 3)]
    assert_optimal(4, edges)


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError):
        min_cost_perfect_matching(2, [(0, 2, 1)])
    with pytest.raises(ValueError):
        min_cost_perfect_matching(-1, [])
    with pytest.raises(TypeError):
        min_cost_perfect_matching(2, [(0, 1, 1.5)])  # type: ignore[list-item]


def test_two_triangles_joined_by_an_edge() -> None:
    # Triangle edges are cheap, the bridge dear: the search must shrink both triangles.
    edges = [(0, 1, 1), (1, 2, 1), (0, 2, 1), (3, 4, 1), (4, 5, 1), (3, 5, 1), (2, 3, 100)]
    assert min_cost_perfect_matching(6, edges) == [(0, 1), (2, 3), (4, 5)]
    assert_optimal(6, edges)


def test_nested_odd_cycles() -> None:
    # A ring of four triangles (cheap inside, dear between) plus a pentagon through them:
    # the search shrinks triangles and then blossoms whose sub-blossoms are triangles.
    edges: list[Edge] = []
    for i in range(4):
        a, b, c = 3 * i, 3 * i + 1, 3 * i + 2
        edges += [(a, b, 1), (b, c, 1), (a, c, 1), (c, (3 * i + 3) % 12, 5)]
    edges += [(1, 4, 3), (7, 10, 3), (1, 10, 4)]
    assert_optimal(12, edges)
    for seed in range(10):
        rnd = random.Random(seed)
        assert_optimal(12, [(u, v, c * rnd.randrange(1, 4)) for u, v, c in edges])


def test_t_blossom_expansion(monkeypatch: pytest.MonkeyPatch) -> None:
    # Found by search: this graph makes the default (greedy-start) search expand a T-blossom
    # whose dual reached zero, the least common step of the algorithm.
    edges = [(0, 1, 4), (0, 5, 5), (0, 6, 0), (1, 2, 3), (1, 5, 1), (2, 4, 4), (2, 5, 1),
             (3, 6, 5), (4, 6, 0), (6, 7, 3)]
    expanded: list[int] = []
    original = ledger.core.matching._Blossom.expand_t

    def spy(self: ledger.core.matching._Blossom, b: int) -> None:
        expanded.append(b)
        original(self, b)

    monkeypatch.setattr(ledger.core.matching._Blossom, "expand_t", spy)
    assert_optimal(8, edges)
    assert expanded


def petersen() -> list[tuple[int, int]]:
    outer = [(i, (i + 1) % 5) for i in range(5)]
    spokes = [(i, i + 5) for i in range(5)]
    inner = [(5 + i, 5 + (i + 2) % 5) for i in range(5)]
    return outer + spokes + inner


def test_petersen_graph_unit_costs() -> None:
    edges = [(u, v, 1) for u, v in petersen()]
    result = assert_optimal(10, edges)
    assert result is not None and len(result) == 5


def test_petersen_graph_varied_costs() -> None:
    rnd = random.Random(7)
    for _ in range(20):
        assert_optimal(10, [(u, v, rnd.randrange(4)) for u, v in petersen()])


def test_k10_lexicographic_big_int_costs() -> None:
    rnd = random.Random(2024)
    scale = 2**64
    edges = []
    for u in range(10):
        for v in range(u + 1, 10):
            primary, secondary, tertiary = rnd.randrange(3), rnd.randrange(50), v - u
            edges.append((u, v, (primary * scale + secondary) * scale + tertiary))
    result = assert_optimal(10, edges)
    assert result is not None


def test_no_perfect_matching() -> None:
    star = [(0, i, 1) for i in range(1, 6)] + [(1, 2, 1)]  # vertices 3, 4, 5 all need 0
    assert min_cost_perfect_matching(6, star) is None
    assert_optimal(6, star)
    two_triangles = [(0, 1, 1), (1, 2, 1), (0, 2, 1), (3, 4, 1), (4, 5, 1), (3, 5, 1)]
    assert min_cost_perfect_matching(6, two_triangles) is None
    isolated = [(0, 1, 1), (1, 2, 1), (2, 0, 1)]
    assert min_cost_perfect_matching(4, isolated) is None


@pytest.mark.parametrize("seed", range(4))
def test_larger_graphs_greedy_and_plain_starts_agree(seed: int) -> None:
    # Beyond brute force: both starts are exact, so their optimal totals must coincide.
    rnd = random.Random(seed)
    n = 40
    density = [0.1, 0.3, 1.0, 0.08][seed]
    edges = [(u, v, rnd.randrange(10**6) * 10**25 + rnd.randrange(3))
             for u in range(n) for v in range(u + 1, n) if rnd.random() < density]
    result = min_cost_perfect_matching(n, edges)
    plain = uniform_start(n, edges)
    assert (result is None) == (plain is None)
    if result is not None and plain is not None:
        assert check_valid(n, edges, result) == check_valid(n, edges, plain)
    assert min_cost_perfect_matching(n, edges) == result
