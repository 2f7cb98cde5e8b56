"""Append latency of one signed event on SQLite with fsync on (docs/DESIGN.md §3, §9).

Measures ``Ledger.write`` — a whole command: load the aggregate (latest snapshot + tail),
decide (rules), seal (Ed25519), save (INSERT + COMMIT; WAL + synchronous FULL) — of a result
entry (``result_corrected`` on an open table by a judge: the same path as ``result record``,
repeatable without growing the state), in a tournament whose log holds ~100 events and again
~50,000 events: flat means the second costs the same as the first (snapshots, never a replay).
Then the realistic large field: ``result record`` in a 4,096-player round 1.

    python bench/bench_append.py [--events 50000] [--samples 300] [--field 4096]

Prints machine-readable lines:
    BENCH append events=… p50_ms=… p99_ms=… budget_p50_ms=10 budget_p99_ms=30
    BENCH append-flat p50_small_ms=… p50_large_ms=… flat_ratio=…
    BENCH append-field players=… p50_ms=… p99_ms=… load_p50_ms=… snapshot_bytes=…
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import statistics
import time
from pathlib import Path

from ledger.core.aggregate import Tournament
from ledger.formats.match.model import Outcome
from ledger.formats.registry import make_format
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.clock import FixedClock
from ledger.wire.keys import Signer

HJ = Signer.from_seed(b"\x01" * 32, "bench head judge")
OUT = Path("bench/out")


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, round(q / 100 * len(s) + 0.5) - 1))]


def fresh(name: str) -> Location:
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / name
    for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        p.unlink(missing_ok=True)
    shutil.rmtree(f"{path}.checkpoints", ignore_errors=True)
    return Location(str(path))


def open_round(led: Ledger, log: str, players: int) -> None:
    led.create(log, lambda now: Tournament.create(
        log=log, name="append bench", fmt=make_format("hotc-swiss-de", 8), signer=HJ,
        time=now))

    def register(t: Tournament, now: str) -> None:
        for i in range(players):
            t.register_player(f"P{i + 1}", HJ, now)
    led.write(log, register)
    led.write(log, lambda t, now: t.close_registration(HJ, now))
    led.write(log, lambda t, now: t.pair_round(HJ, now, material="bench R1", source="bench"))


def flip(t: Tournament, now: str) -> None:
    """Correct table 1's result to the other player (a real, repeatable result entry)."""
    tab = t.state.fmt.rounds[-1].tables[0]
    assert tab.result is not None
    other = next(p for p in tab.players if p != tab.result.winner)
    t.correct_result(HJ, now, round_no=1, table=1, outcome=Outcome.WIN, winner=other,
                     reason="bench: keyed in the wrong winner")


def timed_writes(led: Ledger, log: str, samples: int) -> list[float]:
    out = []
    for _ in range(samples):
        t0 = time.perf_counter()
        led.write(log, flip)
        out.append((time.perf_counter() - t0) * 1000)
    return out


def pad(led: Ledger, log: str, target: int) -> None:
    agg = led.load(log)
    while agg.version < target:
        for _ in range(min(1000, target - agg.version)):
            flip(agg, led.clock.now())
        led.app.save(agg)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", type=int, default=50_000)
    ap.add_argument("--samples", type=int, default=300)
    ap.add_argument("--field", type=int, default=4096)
    args = ap.parse_args()

    loc = fresh("append.db")
    with Ledger(loc, create=True, clock=FixedClock()) as led:
        open_round(led, "flat", 64)
        led.write("flat", lambda t, now: t.record_result(
            HJ, now, round_no=1, table=1, outcome=Outcome.WIN,
            winner=t.state.fmt.rounds[-1].tables[0].players[0]))
        with sqlite3.connect(loc.text) as db:
            sync = db.execute("PRAGMA synchronous").fetchone()[0]
        small = timed_writes(led, "flat", args.samples)
        small_at = led.load("flat").version
        t0 = time.perf_counter()
        pad(led, "flat", args.events)
        built = time.perf_counter() - t0
        large = timed_writes(led, "flat", args.samples)
        large_at = led.load("flat").version
        loads = []
        for _ in range(50):
            t1 = time.perf_counter()
            led.load("flat")
            loads.append((time.perf_counter() - t1) * 1000)
    print(f"# synchronous={sync} (2 = FULL); padded to {large_at} events in {built:.0f}s; "
          f"load p50 at {large_at}: {statistics.median(loads):.2f} ms")
    print(f"BENCH append events={large_at} p50_ms={pct(large, 50):.2f} "
          f"p99_ms={pct(large, 99):.2f} budget_p50_ms=10 budget_p99_ms=30")
    print(f"BENCH append-flat events_small={small_at} p50_small_ms={pct(small, 50):.2f} "
          f"p99_small_ms={pct(small, 99):.2f} p50_large_ms={pct(large, 50):.2f} "
          f"flat_ratio={pct(large, 50) / pct(small, 50):.2f}")

    loc = fresh("append-field.db")
    with Ledger(loc, create=True, clock=FixedClock()) as led:
        open_round(led, "field", args.field)
        tables = len(led.load("field").state.fmt.rounds[-1].tables)
        times = []
        for k in range(min(args.samples, tables)):
            def rec(t: Tournament, now: str, k: int = k) -> None:
                tab = t.state.fmt.rounds[-1].tables[k]
                t.record_result(HJ, now, round_no=1, table=tab.table, outcome=Outcome.WIN,
                                winner=tab.players[0])
            t0 = time.perf_counter()
            led.write("field", rec)
            times.append((time.perf_counter() - t0) * 1000)
        loads = []
        for _ in range(30):
            t1 = time.perf_counter()
            led.load("field")
            loads.append((time.perf_counter() - t1) * 1000)
        snap = led.app.snapshots
        rows = snap.recorder.select_events("field", desc=True, limit=1) if snap else []
        size = len(rows[0].state) if rows else 0
    print(f"BENCH append-field players={args.field} p50_ms={pct(times, 50):.2f} "
          f"p99_ms={pct(times, 99):.2f} load_p50_ms={statistics.median(loads):.2f} "
          f"snapshot_bytes={size} budget_p50_ms=10 budget_p99_ms=30")


if __name__ == "__main__":
    main()
