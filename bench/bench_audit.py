"""Benchmark: `audit verify` throughput vs the raw Ed25519 verify rate (docs/DESIGN.md §9).

Builds (or reuses) a ledger of N signed events, audits it the way `tourney audit verify`
does (raw rows → canonical check → signatures on all cores → chain → roles → rules →
Merkle roots at every checkpoint), and measures the raw Ed25519 verify rate with the same
number of worker processes. Target: ratio ≥ 0.8.

    python bench/bench_audit.py [--events 50000] [--ledger bench/out/audit50k.db]
    python bench/bench_audit.py --ledger some.db --tournament sim-4096   # audit an existing one
Prints: BENCH audit events=… seconds=… events_per_s=… raw_verify_per_s=… ratio=… target=0.8
"""

from __future__ import annotations

import argparse
import base64
import os
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from audit.sigpool import verify_batch
from audit.verify import verify_ledger
from ledger.core.aggregate import Tournament
from ledger.formats.registry import make_format
from ledger.proofs.checkpoint_store import checkpoint_dir, write_checkpoint
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.clock import FixedClock
from ledger.wire.events import SIG_DOMAIN, parse_leaf
from ledger.wire.keys import Signer

HJ = Signer.from_seed(bytes([7]) * 32, "bench head judge")


def build(loc: Location, log: str, events: int) -> None:
    with Ledger(loc, create=True, clock=FixedClock()) as led:
        led.create(log, lambda now: Tournament.create(
            log=log, name="audit bench", fmt=make_format("hotc-swiss-de", 8), signer=HJ,
            time=now))
        done = 1
        while done < events:
            k = min(1000, events - done)

            def batch(t: Tournament, now: str, k: int = k) -> None:
                for _ in range(k):
                    t.register_player(f"P{t.next_player_number()}", HJ, now)
            led.write(log, batch)
            done += k
            if done % 10000 < 1000:
                write_checkpoint(led, log, HJ, checkpoint_dir(loc, None, log))
        write_checkpoint(led, log, HJ, checkpoint_dir(loc, None, log))


def raw_rate_jobs(loc: Location, log: str, sample: int) -> float:
    """Raw Ed25519 verify rate on all cores over the first ``sample`` events' signatures."""
    with Ledger(loc) as led:
        leaves = [leaf for _v, leaf in led.raw_leaves(log)][:sample]
        state = led.load(log).state
    keys = {k: base64.b64decode(o.public_key) for k, o in state.officials.items()}
    jobs = []
    for leaf in leaves:
        p = parse_leaf(leaf)
        jobs.append((keys[p.event.actor], p.event.sig, SIG_DOMAIN + p.signed_bytes))
    workers = os.cpu_count() or 1
    chunks = [jobs[i::workers] for i in range(workers)]
    with ProcessPoolExecutor(max_workers=workers) as ex:
        list(ex.map(verify_batch, [c[:50] for c in chunks]))  # warm up the workers
        t0 = time.perf_counter()
        results = list(ex.map(verify_batch, chunks))
        dt = time.perf_counter() - t0
    assert all(all(r) for r in results)
    return len(jobs) / dt


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", type=int, default=50_000)
    ap.add_argument("--ledger", default="bench/out/audit50k.db")
    ap.add_argument("--tournament", default="bench-audit")
    args = ap.parse_args()
    loc = Location(args.ledger)
    Path(args.ledger).parent.mkdir(parents=True, exist_ok=True)
    if not loc.exists():
        t0 = time.perf_counter()
        build(loc, args.tournament, args.events)
        print(f"built {args.events} events in {time.perf_counter() - t0:.1f}s")
    t0 = time.perf_counter()
    report = verify_ledger(loc, args.tournament, None)
    dt = time.perf_counter() - t0
    if not report.ok:
        raise SystemExit(f"audit failed: {report.findings[:3]}")
    rate = report.events / dt
    raw = raw_rate_jobs(loc, args.tournament, min(report.events, 20_000))
    print(f"BENCH audit events={report.events} seconds={dt:.2f} events_per_s={rate:.0f} "
          f"raw_verify_per_s={raw:.0f} workers={os.cpu_count()} ratio={rate / raw:.2f} "
          f"target=0.8")


if __name__ == "__main__":
    main()
