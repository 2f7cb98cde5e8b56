"""Benchmark: standings of a 4,096-player HotC event (docs/DESIGN.md §9: < 100 ms).

Uses the ledger written by bench/bench_simulate.py (a whole simulated 4,096-player event)
and times the standings projection (BR-DE-TB tiebreakers with exact fractions) on its final
state, plus its JSON rendering.

    python bench/bench_simulate.py --players 4096     # once, writes bench/out/sim4096.db
    python bench/bench_standings.py [--ledger bench/out/sim4096.db] [--tournament sim-4096]
Prints: BENCH standings players=… ms_median=… json_ms_median=… budget_ms=100 ratio=…
"""

from __future__ import annotations

import argparse
import statistics
import time

import ledger.formats.registry  # noqa: F401  (the formats' kinds, to read every leaf)
from ledger.formats.hotc.standings import standings, standings_json
from ledger.storage.location import Location
from ledger.storage.store import Ledger


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ledger", default="bench/out/sim4096.db")
    ap.add_argument("--tournament", default="sim-4096")
    ap.add_argument("--repeat", type=int, default=15)
    args = ap.parse_args()
    with Ledger(Location(args.ledger)) as led:
        state = led.load(args.tournament).state
    runs, json_runs = [], []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        rows = standings(state)
        runs.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        standings_json(state)
        json_runs.append((time.perf_counter() - t0) * 1000)
    ms = statistics.median(runs)
    print(f"BENCH standings players={len(rows)} ms_median={ms:.1f} "
          f"json_ms_median={statistics.median(json_runs):.1f} budget_ms=100 "
          f"ratio={ms / 100:.2f}")


if __name__ == "__main__":
    main()
