"""Exact minimum-cost perfect matching on general graphs (Edmonds' weighted blossom method).

Owns: ``min_cost_perfect_matching`` — the one exact matcher of tourney: the primal-dual
blossom algorithm (Edmonds 1965) in the O(n^3) organisation described by Galil 1986,
"Efficient algorithms for finding maximum matching in graphs", run on the linear programme
of *perfect* matchings (vertex duals unrestricted in sign).  It maximises ``w = -cost``,
never stops while a vertex is exposed, and reports "no perfect matching" when the
alternating forest can grow no further (its S-blossoms and T-vertices then form a Tutte
barrier).  Because vertex duals are free, the search may start from a greedy matching with
duals set to keep every edge feasible and every matched edge tight; this is still exact.

Arithmetic is integer only: costs may be huge Python ints (lexicographic objectives are
encoded as big integers).  Weights are scaled by 4 and initial duals are even, so every
dual, every reduced cost between S-vertices (always even) and every step stays an integer.
The result depends only on the input (including the edge order), never on hashing or on
a random source.

May import: the standard library only.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable

__all__ = ["min_cost_perfect_matching"]

Pair = tuple[int, int]

# Labels of top-level blossoms (a single vertex is a trivial blossom).
_FREE = 0
_S = 1  # outer / even
_T = 2  # inner / odd


def min_cost_perfect_matching(n: int, edges: Iterable[tuple[int, int, int]]
                              ) -> list[tuple[int, int]] | None:
    """Vertices 0..n-1; edges (u, v, cost) with integer costs (may be large Python ints, possibly
    > 2**63: lexicographic objectives are encoded as big integers). Returns a perfect matching of
    minimum total cost as sorted pairs (u < v) sorted by u, or None if no perfect matching exists.
    Deterministic: same input (same edge order) -> same output.

    Self-loops are ignored; of several edges between the same pair only the cheapest counts.
    Costs may be negative.  Raises ``ValueError`` for an endpoint outside 0..n-1 or n < 0 and
    ``TypeError`` for a non-integer vertex or cost (floats would break exactness).
    """
    n = operator.index(n)
    if n < 0:
        raise ValueError("n must be >= 0")
    cheapest: dict[Pair, int] = {}
    for u, v, cost in edges:
        u, v, cost = operator.index(u), operator.index(v), operator.index(cost)
        if not (0 <= u < n and 0 <= v < n):
            raise ValueError(f"edge ({u}, {v}) has an endpoint outside 0..{n - 1}")
        if u == v:
            continue
        key = (u, v) if u < v else (v, u)
        old = cheapest.get(key)
        if old is None or cost < old:
            cheapest[key] = cost
    if n == 0:
        return []
    if n % 2:
        return None
    degree = [0] * n
    for u, v in cheapest:
        degree[u] += 1
        degree[v] += 1
    if min(degree) == 0:
        return None
    eu = [u for u, _ in cheapest]
    ev = [v for _, v in cheapest]
    mate = _Blossom(n, eu, ev, list(cheapest.values())).solve()
    if any(m < 0 for m in mate):
        return None
    return [(v, mate[v]) for v in range(n) if v < mate[v]]


class _Blossom:
    """Maximum-weight perfect matching (weight ``w = -cost``) by the primal-dual blossom
    algorithm; ``solve`` leaves a vertex exposed only when no perfect matching exists.

    Blossom ids: 0..n-1 are the vertices (trivial blossoms), n..2n-1 a pool for non-trivial
    blossoms.  A non-trivial blossom ``b`` keeps its sub-blossoms in cyclic order
    ``childs[b]`` starting with the sub-blossom holding its base, and ``cedges[b][i] = (p, q)``
    with ``p`` in ``childs[b][i]`` and ``q`` in ``childs[b][i + 1]`` (cyclically).  In that
    cycle ``cedges[b][i]`` is matched exactly when ``i`` is odd.

    Duals, in units where every weight is scaled by 4 (``W = 4w``, stored in ``w4``):
    ``dual[v]`` for vertices (any sign), ``zhalf[b]`` = half the dual of blossom ``b``
    (never negative).  The reduced cost of an edge between two different top-level
    blossoms is ``dual[u] + dual[v] - W`` (the blossom duals only cover edges inside a
    blossom).  Invariants: every reduced cost >= 0, matched and blossom edges tight, and
    all exposed vertices have duals of equal parity (they start even and always move by
    the same step), so reduced costs between S-vertices are even.
    """

    def __init__(self, n: int, eu: list[int], ev: list[int], cost: list[int],
                 greedy: bool = True) -> None:
        size = 2 * n
        self.n = n
        self.eu = eu
        self.ev = ev
        self.w4 = [-4 * c for c in cost]
        adj: list[list[int]] = [[] for _ in range(n)]
        for k in range(len(eu)):
            adj[eu[k]].append(k)
            adj[ev[k]].append(k)
        self.adj = adj
        self.mate = [-1] * n
        self.inblossom = list(range(n))  # top-level blossom containing each vertex
        self.parent = [-1] * size  # enclosing blossom, -1 when top-level
        self.childs: list[list[int]] = [[] for _ in range(size)]
        self.cedges: list[list[Pair]] = [[] for _ in range(size)]
        self.base = list(range(n)) + [-1] * n  # -1: id not in use
        self.free_ids = list(range(size - 1, n - 1, -1))
        self.dual = self.initial_duals(cost, greedy)
        self.zhalf = [0] * size
        # Per-stage state.
        self.label = [_FREE] * size
        # labeledge[b] = (x, y): x in the blossom b was reached from, y in b; None for a root.
        # For a T-blossom x is an S-vertex; for a non-root S-blossom y is its base and
        # x = mate[y] (a vertex of the T-blossom above it).
        self.labeledge: list[Pair | None] = [None] * size
        # vbest[v]: least-slack edge from an S-vertex to v (used while v is not an S-vertex).
        self.vbest = [-1] * n
        # For a top-level S-blossom b: blist[b] holds edges to other S-blossoms, bbest[b]
        # the least-slack one.  An S-S edge is recorded when its later-scanned end is
        # scanned; on shrinking, the children's lists are merged keeping the best edge per
        # neighbouring S-blossom.  So for every pair of S-blossoms joined by an edge, a
        # least-slack edge between them is in the list of one of the two, and the least
        # bbest is the least slack over all S-S edges (they all move by the same step).
        self.bbest = [-1] * size
        self.blist: list[list[int]] = [[] for _ in range(size)]
        self.queue: list[int] = []  # S-vertices whose edges are not scanned yet
        self.mark = [0] * size
        self.stamp = 0

    def initial_duals(self, cost: list[int], greedy: bool) -> list[int]:
        """Feasible even vertex duals; with ``greedy`` also a first matching on tight edges.

        Works in units ``2w`` (half the final scale): ``y[v] = max weight at v`` makes every
        reduced cost ``y[u] + y[v] - 2w`` non-negative.  Greedily, each still exposed vertex
        then lowers its dual until an edge at it is tight and takes the first tight edge to
        an exposed vertex.  Only exposed vertices move, so matched edges stay tight."""
        n, eu, ev, adj, mate = self.n, self.eu, self.ev, self.adj, self.mate
        if not greedy:
            top = -min(cost, default=0)
            return [2 * top] * n
        y = [max((-cost[k] for k in adj[v]), default=0) for v in range(n)]
        for v in range(n):
            if mate[v] >= 0 or not adj[v]:
                continue
            y[v] -= min(y[eu[k]] + y[ev[k]] + 2 * cost[k] for k in adj[v])
            for k in adj[v]:
                u = eu[k] + ev[k] - v
                if mate[u] < 0 and y[u] + y[v] + 2 * cost[k] == 0:
                    mate[u] = v
                    mate[v] = u
                    break
        return [2 * t for t in y]

    # ------------------------------------------------------------------ helpers

    def slack(self, k: int) -> int:
        return self.dual[self.eu[k]] + self.dual[self.ev[k]] - self.w4[k]

    def leaves(self, b: int) -> list[int]:
        n = self.n
        if b < n:
            return [b]
        out: list[int] = []
        stack = [b]
        childs = self.childs
        while stack:
            c = stack.pop()
            if c < n:
                out.append(c)
            else:
                stack.extend(childs[c])
        return out

    def assign(self, w: int, label: int, via: Pair | None) -> None:
        """Label the top-level blossom of vertex ``w``; a T label also labels its mate S."""
        b = self.inblossom[w]
        self.label[b] = label
        self.labeledge[b] = via
        if label == _S:
            self.bbest[b] = -1
            self.blist[b] = []
            self.queue.extend(self.leaves(b))
        else:
            base = self.base[b]
            m = self.mate[base]
            self.assign(m, _S, (base, m))

    def tree_parent(self, b: int) -> int:
        """The S-blossom two levels above S-blossom ``b`` in its alternating tree, or -1."""
        le = self.labeledge[b]
        if le is None:
            return -1
        le2 = self.labeledge[self.inblossom[le[0]]]
        assert le2 is not None
        return self.inblossom[le2[0]]

    # ------------------------------------------------------------------ main loop

    def solve(self) -> list[int]:
        n = self.n
        size = 2 * n
        while True:
            # A stage: grow alternating trees from every exposed vertex until an augmenting
            # path is found (then augment) or the forest can grow no further.
            self.label = [_FREE] * size
            self.labeledge = [None] * size
            self.vbest = [-1] * n
            self.bbest = [-1] * size
            self.blist = [[] for _ in range(size)]
            self.queue = []
            roots = 0
            for v in range(n):
                if self.mate[v] < 0 and self.label[self.inblossom[v]] == _FREE:
                    self.assign(v, _S, None)
                    roots += 1
            if roots == 0:
                return self.mate
            while True:
                if self.scan_queue():
                    break
                kind, delta, arg = self.choose_delta()
                if kind == 0:
                    # The forest is stuck: no perfect matching (Tutte barrier: the
                    # T-vertices separate more odd S-blossoms than there are of them).
                    return self.mate
                self.apply_delta(delta)
                if kind == 2:
                    y = arg
                    k = self.vbest[y]
                    x = self.eu[k] + self.ev[k] - y
                    self.assign(y, _T, (x, y))
                elif kind == 3:
                    if self.tight_ss(self.eu[arg], self.ev[arg]):
                        break
                else:
                    self.expand_t(arg)
            self.end_stage()

    def scan_queue(self) -> bool:
        """Scan the edges of queued S-vertices; True when an augmentation happened."""
        eu, ev, w4 = self.eu, self.ev, self.w4
        adj, dual, inblossom, label = self.adj, self.dual, self.inblossom, self.label
        vbest, bbest = self.vbest, self.bbest
        queue = self.queue
        while queue:
            x = queue.pop()
            for k in adj[x]:
                y = eu[k] + ev[k] - x
                bx = inblossom[x]
                by = inblossom[y]
                if bx == by:
                    continue
                s = dual[x] + dual[y] - w4[k]
                ly = label[by]
                if ly == _S:
                    if s == 0:
                        if self.tight_ss(x, y):
                            return True
                    else:
                        self.blist[bx].append(k)
                        c = bbest[bx]
                        if c < 0 or s < dual[eu[c]] + dual[ev[c]] - w4[c]:
                            bbest[bx] = k
                elif ly == _FREE and s == 0:
                    self.assign(y, _T, (x, y))
                else:
                    c = vbest[y]
                    if c < 0 or s < dual[eu[c]] + dual[ev[c]] - w4[c]:
                        vbest[y] = k
        return False

    def choose_delta(self) -> tuple[int, int, int]:
        """The largest dual step keeping feasibility, and what then becomes tight:
        kind 2 (an S-to-free edge; arg its free end), 3 (an S-to-S edge; arg the edge),
        4 (a T-blossom dual reaches zero; arg the blossom) or 0 (nothing limits it)."""
        n = self.n
        eu, ev, w4 = self.eu, self.ev, self.w4
        dual, inblossom, label = self.dual, self.inblossom, self.label
        vbest, bbest, parent, base = self.vbest, self.bbest, self.parent, self.base
        kind = 0
        delta = 0
        arg = -1
        for v in range(n):  # delta2: an edge from an S-vertex to a free blossom gets tight
            k = vbest[v]
            if k >= 0 and label[inblossom[v]] == _FREE:
                s = dual[eu[k]] + dual[ev[k]] - w4[k]
                if kind == 0 or s < delta:
                    kind, delta, arg = 2, s, v
        for b in range(2 * n):  # delta3: an edge between two S-blossoms gets tight
            k = bbest[b]
            if k >= 0 and parent[b] < 0 and label[b] == _S and (b < n or base[b] >= 0):
                s = dual[eu[k]] + dual[ev[k]] - w4[k]
                assert s % 2 == 0
                s //= 2
                if kind == 0 or s < delta:
                    kind, delta, arg = 3, s, k
        zhalf = self.zhalf
        for b in range(n, 2 * n):  # delta4: a T-blossom dual reaches zero
            if (base[b] >= 0 and parent[b] < 0 and label[b] == _T
                    and (kind == 0 or zhalf[b] < delta)):
                kind, delta, arg = 4, zhalf[b], b
        assert delta >= 0
        return kind, delta, arg

    def apply_delta(self, delta: int) -> None:
        if delta == 0:
            return
        n = self.n
        dual, inblossom, label = self.dual, self.inblossom, self.label
        for v in range(n):
            lab = label[inblossom[v]]
            if lab == _S:
                dual[v] -= delta
            elif lab == _T:
                dual[v] += delta
        parent, base, zhalf = self.parent, self.base, self.zhalf
        for b in range(n, 2 * n):
            if base[b] >= 0 and parent[b] < 0:
                if label[b] == _S:
                    zhalf[b] += delta
                elif label[b] == _T:
                    zhalf[b] -= delta

    # ------------------------------------------------------------------ tight S-S edges

    def tight_ss(self, v: int, w: int) -> bool:
        """Handle a tight edge between two S-blossoms: shrink a blossom if they are in the
        same tree (False), else augment along the path through the edge (True)."""
        self.stamp += 1
        stamp = self.stamp
        mark = self.mark
        a = self.inblossom[v]
        b = self.inblossom[w]
        while a >= 0 or b >= 0:
            if a >= 0:
                if mark[a] == stamp:
                    self.add_blossom(a, v, w)
                    return False
                mark[a] = stamp
                a = self.tree_parent(a)
            a, b = b, a
        self.augment(v, w)
        return True

    def add_blossom(self, bb: int, v: int, w: int) -> None:
        """Shrink the odd cycle: tree path bb..inblossom[v], edge (v, w), path inblossom[w]..bb."""
        inblossom, labeledge, label = self.inblossom, self.labeledge, self.label
        vpath: list[tuple[int, Pair]] = []
        b = inblossom[v]
        while b != bb:
            le = labeledge[b]
            assert le is not None
            vpath.append((b, le))
            b = inblossom[le[0]]
        ch = [bb]
        ce: list[Pair] = []
        for b, le in reversed(vpath):
            ch.append(b)
            ce.append(le)
        ce.append((v, w))
        b = inblossom[w]
        while b != bb:
            le = labeledge[b]
            assert le is not None
            ch.append(b)
            ce.append((le[1], le[0]))
            b = inblossom[le[0]]
        nb = self.free_ids.pop()
        self.childs[nb] = ch
        self.cedges[nb] = ce
        self.base[nb] = self.base[bb]
        self.parent[nb] = -1
        self.zhalf[nb] = 0
        label[nb] = _S
        labeledge[nb] = labeledge[bb]
        gathered: list[int] = []
        for c in ch:
            self.parent[c] = nb
            if label[c] == _T:  # its vertices become S-vertices now
                self.queue.extend(self.leaves(c))
            else:
                gathered.extend(self.blist[c])
            self.blist[c] = []
            self.bbest[c] = -1
        for x in self.leaves(nb):
            inblossom[x] = nb
        # Keep, per neighbouring S-blossom, the least-slack edge recorded by a child.
        best: dict[int, tuple[int, int]] = {}
        for k in gathered:
            a = inblossom[self.eu[k]]
            c = inblossom[self.ev[k]]
            if a == c:
                continue
            target = c if a == nb else a
            s = self.slack(k)
            old = best.get(target)
            if old is None or s < old[1]:
                best[target] = (k, s)
        self.blist[nb] = [k for k, _ in best.values()]
        top = -1
        top_s = 0
        for k, s in best.values():
            if top < 0 or s < top_s:
                top, top_s = k, s
        self.bbest[nb] = top

    # ------------------------------------------------------------------ augmentation

    def augment(self, v: int, w: int) -> None:
        """Flip the augmenting path root(v) .. v - w .. root(w)."""
        inblossom, labeledge, mate = self.inblossom, self.labeledge, self.mate
        for s, t in ((v, w), (w, v)):
            while True:
                bs = inblossom[s]
                self.rebase(bs, s)
                mate[s] = t
                le = labeledge[bs]
                if le is None:
                    break  # bs was a root: its base was free
                bt = inblossom[le[0]]
                le2 = labeledge[bt]
                assert le2 is not None
                x2, y2 = le2
                self.rebase(bt, y2)
                mate[y2] = x2
                s, t = x2, y2

    def rebase(self, b: int, v: int) -> None:
        """Make vertex ``v`` the base of blossom ``b`` by flipping the even alternating path
        inside it (the caller matches ``v`` outside)."""
        n = self.n
        parent, childs, cedges, mate = self.parent, self.childs, self.cedges, self.mate
        tasks = [(b, v)]
        while tasks:
            b, v = tasks.pop()
            if b < n:
                continue
            c = v
            while parent[c] != b:
                c = parent[c]
            tasks.append((c, v))
            ch = childs[b]
            ce = cedges[b]
            i = ch.index(c)
            if i:
                k = len(ch)
                flips = range(i - 2, -1, -2) if i % 2 == 0 else range(i + 1, k, 2)
                for j in flips:
                    p, q = ce[j]
                    tasks.append((ch[j], p))
                    tasks.append((ch[(j + 1) % k], q))
                    mate[p] = q
                    mate[q] = p
                ch[:] = ch[i:] + ch[:i]
                ce[:] = ce[i:] + ce[:i]
            self.base[b] = v

    # ------------------------------------------------------------------ expansion

    def release(self, b: int) -> None:
        self.childs[b] = []
        self.cedges[b] = []
        self.base[b] = -1
        self.parent[b] = -1
        self.label[b] = _FREE
        self.labeledge[b] = None
        self.bbest[b] = -1
        self.blist[b] = []
        self.zhalf[b] = 0
        self.free_ids.append(b)

    def promote(self, b: int) -> None:
        """Make the sub-blossoms of top-level blossom ``b`` top-level."""
        for c in self.childs[b]:
            self.parent[c] = -1
            for x in self.leaves(c):
                self.inblossom[x] = c

    def expand_t(self, b: int) -> None:
        """Expand a T-blossom whose dual reached zero, keeping its tree path labelled."""
        label, labeledge = self.label, self.labeledge
        ch = list(self.childs[b])
        ce = list(self.cedges[b])
        self.promote(b)
        le = labeledge[b]
        assert le is not None
        for c in ch:
            label[c] = _FREE
            labeledge[c] = None
        k = len(ch)
        cur = ch.index(self.inblossom[le[1]])
        step = -1 if cur % 2 == 0 else 1
        via = le
        while cur != 0:
            tc = ch[cur]
            label[tc] = _T
            labeledge[tc] = via
            bt = self.base[tc]
            nxt = cur + step
            self.assign(self.mate[bt], _S, (bt, self.mate[bt]))
            if step == 1:
                via = ce[nxt]
            else:
                p, q = ce[nxt - 1]
                via = (q, p)
            cur = (nxt + step) % k
        label[ch[0]] = _T
        labeledge[ch[0]] = via
        # Sub-blossoms off that path stay free; an S-vertex edge into them is in vbest.
        self.release(b)

    def end_stage(self) -> None:
        """Expand every top-level blossom with zero dual (recursively)."""
        n = self.n
        parent, base, zhalf, childs = self.parent, self.base, self.zhalf, self.childs
        for b in range(n, 2 * n):
            if base[b] < 0 or parent[b] >= 0 or zhalf[b] != 0:
                continue
            stack = [b]
            while stack:
                c = stack.pop()
                self.promote(c)
                stack.extend(d for d in childs[c] if d >= n and zhalf[d] == 0)
                self.release(c)
