"""Benchmark: pairing one HotC Swiss round (docs/DESIGN.md §9: 4,096 players < 250 ms).

Scenarios (all with rematch history):
  typical  — 4,096 active: an odd X-0 group and the X-1 group, every player with 10 earlier
             opponents inside the field, some with earlier pair-downs;
  worst    — the same field, but the X-0 group is 3 players who all met each other and all
             had a pair-down: the greedy pass cannot reach the lower bound, so the exact
             solver decides (three floaters beat one rematch, HOTC-PAIR-5).
Times the whole decision the command side and the audit run: the DRAW-v1 permutation of
the field, the pairing and table building.  ``--bye`` times an odd field (one player fewer)
under each rule revision: HOTC_2013 takes the first drawn bye candidate; HOTC_2013_R2
evaluates the candidates in drawn order with the pairing engine until one allows no
rematch and no second pair-down (HOTC-BYE-5 as revised), then pairs the rest.

    python bench/bench_pairing.py [--players 4096] [--repeat 5] [--bye]
Prints one line per scenario: BENCH pairing scenario=… players=… ms_median=… budget_ms=250 ratio=…
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import time

from ledger.core.draw import draw_v1
from ledger.formats.hotc.bye import bye_by_pairing
from ledger.formats.match.pairing import Entrant, bye_candidates, pair_swiss


def _u(i: int, j: int) -> int:
    return int.from_bytes(hashlib.sha256(f"{i}/{j}".encode()).digest()[:4], "big")


def field(n: int, worst: bool) -> list[Entrant]:
    top = 3 if worst else 257
    opp: dict[int, set[int]] = {i: set() for i in range(1, n + 1)}
    for i in range(1, n + 1):
        for j in range(10):
            o = 1 + _u(i, j) % n
            if o != i:
                opp[i].add(o)
                opp[o].add(i)
    if worst:
        for a in (1, 2, 3):
            opp[a] |= {1, 2, 3} - {a}
    return [Entrant(number=i, wins=5 if i <= top else 4,
                    pair_downs=1 if (worst and i <= top) or _u(i, 99) % 5 == 0 else 0,
                    opponents=frozenset(opp[i])) for i in range(1, n + 1)]


def run(n: int, worst: bool, repeat: int) -> tuple[float, bool, int]:
    ents = field(n, worst)
    seed = hashlib.sha256(b"bench").digest()
    times = []
    exact = False
    cross = 0
    for r in range(repeat):
        t0 = time.perf_counter()
        order = draw_v1(seed, f"bench/R{r}/pairing", [e.number for e in ents])
        pairs, exact = pair_swiss(ents, order)
        times.append((time.perf_counter() - t0) * 1000)
        cross = sum(p.cross for p in pairs)
        assert not any(p.rematch for p in pairs)
    return statistics.median(times), exact, cross


def run_bye(n: int, worst: bool, repeat: int, revised: bool) -> tuple[float, int]:
    """An odd field: the bye (per revision) and the pairing of the rest; returns the median
    ms and how many candidates the bye rule looked at."""
    ents = field(n, worst)[:-1] if n % 2 == 0 else field(n, worst)
    seed = hashlib.sha256(b"bench").digest()
    times = []
    for r in range(repeat):
        t0 = time.perf_counter()
        cands = bye_candidates(ents, "least_wins")
        drawn = draw_v1(seed, f"bench/R{r}/bye", cands)
        bye = bye_by_pairing(ents, drawn, "higher") if revised else drawn[0]
        rest = [e for e in ents if e.number != bye]
        order = draw_v1(seed, f"bench/R{r}/pairing", [e.number for e in rest])
        pair_swiss(rest, order)
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times), len(cands)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=4096)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--bye", action="store_true", help="odd fields, both bye rules")
    args = ap.parse_args()
    if args.bye:
        for name, worst in (("typical", False), ("worst", True)):
            old, _ = run_bye(args.players, worst, args.repeat, False)
            new, cands = run_bye(args.players, worst, args.repeat, True)
            print(f"BENCH pairing-bye scenario={name} players={args.players - 1} "
                  f"candidates={cands} ms_median_hotc_2013={old:.1f} "
                  f"ms_median_r2={new:.1f} r2_over_2013={new / old:.2f} budget_ms=250 "
                  f"ratio={new / 250:.2f}")
        return
    for name, worst in (("typical", False), ("worst", True)):
        ms, exact, cross = run(args.players, worst, args.repeat)
        print(f"BENCH pairing scenario={name} players={args.players} ms_median={ms:.1f} "
              f"exact_solver={exact} cross_pairs={cross} budget_ms=250 ratio={ms / 250:.2f}")


if __name__ == "__main__":
    main()
