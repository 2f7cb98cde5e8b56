"""Benchmark: a whole simulated HotC event of N players end to end, then its audit.

    python bench/bench_simulate.py [--players 4096] [--ledger bench/out/sim4096.db]
Prints: BENCH simulate players=… events=… seconds=… events_per_s=…
        BENCH simulate-audit events=… seconds=… events_per_s=… raw_verify_per_s=… ratio=…
        BENCH load events=… snapshot_bytes=… load_ms_p50=…   (what one command pays to decide)
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import time
from fractions import Fraction
from pathlib import Path

from audit.verify import verify_ledger
from bench.bench_audit import raw_rate_jobs
from ledger.formats.simulation import simulate
from ledger.proofs.checkpoint_store import checkpoint_dir
from ledger.storage.location import Location
from ledger.storage.store import Ledger


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=4096)
    ap.add_argument("--ledger", default="bench/out/sim4096.db")
    ap.add_argument("--seed", default="bench")
    args = ap.parse_args()
    path = Path(args.ledger)
    path.parent.mkdir(parents=True, exist_ok=True)
    for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        p.unlink(missing_ok=True)
    shutil.rmtree(f"{path}.checkpoints", ignore_errors=True)
    loc = Location(str(path))
    log = f"sim-{args.players}"
    t0 = time.perf_counter()
    with Ledger(loc, create=True) as led:
        res = simulate(led, log=log, players=args.players, seed_text=args.seed,
                       timeouts=Fraction(1, 20), drops=Fraction(1, 50),
                       checkpoints=checkpoint_dir(loc, None, log))
    dt = time.perf_counter() - t0
    print(f"BENCH simulate players={args.players} events={res.events} rounds={res.rounds} "
          f"seconds={dt:.1f} events_per_s={res.events / dt:.0f} champion={res.champion}")
    t0 = time.perf_counter()
    report = verify_ledger(loc, log, None)
    adt = time.perf_counter() - t0
    raw = raw_rate_jobs(loc, log, min(report.events, 20_000))
    print(f"BENCH simulate-audit events={report.events} ok={report.ok} seconds={adt:.2f} "
          f"events_per_s={report.events / adt:.0f} raw_verify_per_s={raw:.0f} "
          f"ratio={report.events / adt / raw:.2f} target=0.8")
    with Ledger(loc) as led:
        times = []
        for _ in range(20):
            t1 = time.perf_counter()
            led.load(log)
            times.append((time.perf_counter() - t1) * 1000)
        snap = led.app.snapshots
        size = 0
        if snap is not None:
            rows = snap.recorder.select_events(log, desc=True, limit=1)
            size = len(rows[0].state) if rows else 0
    print(f"BENCH load events={res.events} snapshot_bytes={size} "
          f"load_ms_p50={statistics.median(times):.1f} load_ms_max={max(times):.1f}")


if __name__ == "__main__":
    main()
