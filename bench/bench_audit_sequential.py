"""Main-process cost of the audit with signature checks left out: the part docs/DESIGN.md §9
wants "nearly free" (it runs while the worker pool verifies signatures).

    python bench/bench_audit_sequential.py LEDGER.db [--repeat 5]
Prints: BENCH audit-sequential events=… cpu_s=… per_event_us=…
"""

from __future__ import annotations

import argparse
import statistics
import time

import audit.verify as verify
from ledger.storage.location import Location
from ledger.storage.store import Ledger


class _NoPool:
    def __init__(self, expected: int) -> None:
        pass

    def presubmit(self, leaves: object, keys: object, domain: bytes) -> None:
        pass

    def confirm(self, tag: int, leaf: bytes, actor: str, sig: bytes, canonical: bool) -> bool:
        return False

    def add(self, tag: int, job: object) -> None:
        pass

    def failures(self) -> list[int]:
        return []


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("ledger")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    verify.SignaturePool = _NoPool  # type: ignore[assignment,misc]
    with Ledger(Location(args.ledger), readonly=True) as led:
        tid = led.resolve(None)
        leaves = list(led.raw_leaves(tid))
    times = []
    for _ in range(args.repeat):
        t0 = time.process_time()
        verify.audit_leaves(leaves, [], log=tid)
        times.append(time.process_time() - t0)
    cpu = statistics.median(times)
    print(f"BENCH audit-sequential events={len(leaves)} cpu_s={cpu:.3f} "
          f"per_event_us={cpu / len(leaves) * 1e6:.1f}")


if __name__ == "__main__":
    main()
