"""Benchmark: the live pages' player search (``server.search.find``, issue 31 item 4) at
4,096 players.

Labels are made as the live pages make them ("#17 Name"): Latin names with and without
accents, Japanese names in kanji, hiragana, katakana and half-width katakana. Times a mix
of queries (a number, a Latin prefix, an unaccented query of an accented name, kana in
the other script, half-width, and one that matches nobody, which scans every label).

    python -m bench.bench_search [--players 4096] [--repeat 30]
Prints: BENCH search players=… queries=… ms_per_query_median=… ms_per_query_max=… first_query_ms=…
(the first query after a start folds every label once; later ones reuse them)
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from server.search import find

_FIRST = ["Nguyễn", "Søren", "Zoë", "Đặng", "Łukasz", "Ana", "José", "Ørjan", "Ängel",
          "Mia", "Tom", "Ines", "たなか", "カタカナ", "ｻﾄｳ", "山田", "すずき", "タカハシ"]
_LAST = ["Văn An", "Ørsted", "Ångström", "Thị Bích", "Żak", "Alves", "Müller", "Dvořák",
         "Brown", "ひろし", "ユウキ", "ｹﾝｼﾞ", "太郎", "はなこ", "Lee"]
QUERIES = ["17", "nguyen", "sor", "dvorak", "かたかな", "ｶﾀｶﾅ", "サトウ", "ゆうき",
           "zzzz-nobody"]


def labels(players: int) -> dict[int, str]:
    rng = random.Random(31)
    return {n: f"#{n} {rng.choice(_FIRST)} {rng.choice(_LAST)}" for n in range(1, players + 1)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=4096)
    ap.add_argument("--repeat", type=int, default=30)
    args = ap.parse_args()
    names = labels(args.players)
    t0 = time.perf_counter()
    find(names, "zzzz-nobody")                 # the first query folds every label
    first = (time.perf_counter() - t0) * 1000
    runs: list[float] = []
    for _ in range(args.repeat):
        for q in QUERIES:
            t0 = time.perf_counter()
            find(names, q)
            runs.append((time.perf_counter() - t0) * 1000)
    print(f"BENCH search players={args.players} queries={len(QUERIES)} "
          f"ms_per_query_median={statistics.median(runs):.2f} "
          f"ms_per_query_max={max(runs):.2f} first_query_ms={first:.2f}")


if __name__ == "__main__":
    main()
