"""Benchmark: the live player pages rendered per language at 4,096 players (issue 31:
a language no slower than English by more than 10%).

Uses the ledger written by bench/bench_simulate.py (a whole simulated 4,096-player event),
builds the live pages' data once (``server.view``), then renders the home page, the
current pairings, the standings and 200 players' own pages in each language, each
``--repeat`` times in a fresh ``PageSet`` (a page is rendered once per log size and
language, so a fresh set is what a new log size costs).

    (cd bench/out && tourney simulate --players 4096 --format hotc-swiss-de)   # once
    python -m bench.bench_page_locales [--ledger bench/out/sim-4096.db] [--repeat 5]
Prints per language: BENCH page_locales lang=… ms_best=… ms_median=… ratio_to_en=… (of
the best runs: the machine's load only ever adds)
"""

from __future__ import annotations

import argparse
import statistics
import time

import ledger.formats.registry  # noqa: F401  (the formats' kinds, to read every leaf)
from ledger.storage.location import Location
from server.hub import Hub
from server.i18n import Language
from server.pages import PageSet, environment


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ledger", default="bench/out/sim-4096.db")
    ap.add_argument("--tournament", default="sim-4096")
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    hub = Hub(Location(args.ledger), args.tournament)     # builds the pages' data once
    data, env = hub.data, environment()
    keys = ["home", "pairings", "standings", *(f"player/{n}" for n in range(1, 201))]
    runs: dict[Language, list[float]] = {lang: [] for lang in Language}
    for _ in range(args.repeat):
        for lang in Language:              # interleaved: the machine's load hits both
            pages = PageSet(data, env)
            t0 = time.perf_counter()
            for k in keys:
                pages.get(k, lang)
            runs[lang].append((time.perf_counter() - t0) * 1000)
    best_en = min(runs[Language.EN])
    for lang, ms in runs.items():
        print(f"BENCH page_locales lang={lang.value} pages={len(keys)} "
              f"ms_best={min(ms):.1f} ms_median={statistics.median(ms):.1f} "
              f"ratio_to_en={min(ms) / best_en:.3f}")
    hub.close()


if __name__ == "__main__":
    main()
