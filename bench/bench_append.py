"""Append latency of one signed event on SQLite with fsync on (DESIGN.md §3, §9).

Measures ``Ledger.write`` — a full command: load the aggregate (latest snapshot + tail),
decide (rules), seal (Ed25519 sign), save (INSERT + COMMIT, WAL + synchronous FULL) — on a
tournament of ~``--small`` events and again on one of ``--events`` events, ``--samples``
writes each, then times the parts separately (snapshot read/decode, tail replay, decide +
sign, save) so the budget note can say where the time goes.

The measured command is ``record_seed`` (a small head-judge event, the closest ledger-level
stand-in for "record one result" until result events exist).  The large log is built fast:
one in-memory aggregate, ``app.save(agg)`` every ``--batch`` events; every stored row is
still a real signed leaf sealed by the aggregate's own commands, and the library writes its
snapshots every 250 events exactly as in production.  Shape of the large log: ``--players``
registrations, registration closed, then (seed_recorded, draw_made) pairs up to the size.

Usage::

    python bench/bench_append.py --events 50000 --samples 300

Prints one machine-readable line::

    BENCH append events=50000 p50_ms=… p99_ms=… budget_p50_ms=10 budget_p99_ms=30 \
flat_ratio=… within_budget=yes|no

``flat_ratio`` = p50 at ``--events`` / p50 at ``--small`` (judged: ≈ 1, i.e. flat).
Exit status is 0 unless ``--strict`` is given and a budget is missed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from ledger.aggregate import Tournament  # noqa: E402
from ledger.formats import make_format  # noqa: E402
from ledger.keys import Signer  # noqa: E402
from ledger.store import SNAPSHOT_INTERVAL, Ledger, Location  # noqa: E402

BUDGET_P50_MS = 10.0
BUDGET_P99_MS = 30.0
HJ = Signer.from_seed(b"\x01" * 32, "Head Judge")
CLOCK_START = "2013-06-01T09:00:00.000000Z"


def pct(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of a non-empty list."""
    s = sorted(values)
    k = max(0, min(len(s) - 1, int(round(q / 100.0 * len(s) + 0.5)) - 1))
    return s[k]


def ms(seconds: float) -> float:
    return seconds * 1000.0


def check_durability(path: Path, ledger: Ledger) -> tuple[int, str]:
    """PRAGMA synchronous / journal_mode on the library's own pooled connection and on a
    fresh sqlite3 connection to the file; both must be FULL (2) and WAL."""
    ds = ledger.app.recorder.datastore  # type: ignore[attr-defined]
    with ds.transaction(commit=False) as cur:
        cur.execute("PRAGMA synchronous")
        lib_sync = int(cur.fetchone()[0])
        cur.execute("PRAGMA journal_mode")
        lib_mode = str(cur.fetchone()[0]).lower()
    con = sqlite3.connect(path)
    try:
        own_sync = int(con.execute("PRAGMA synchronous").fetchone()[0])
        own_mode = str(con.execute("PRAGMA journal_mode").fetchone()[0]).lower()
    finally:
        con.close()
    assert lib_sync == 2, f"library connection PRAGMA synchronous={lib_sync}, expected 2 (FULL)"
    assert own_sync == 2, f"fresh connection PRAGMA synchronous={own_sync}, expected 2 (FULL)"
    assert lib_mode == own_mode == "wal", f"journal_mode {lib_mode}/{own_mode}, expected wal"
    return lib_sync, lib_mode


def new_tournament(ledger: Ledger, log: str) -> None:
    ledger.create(log, lambda now: Tournament.create(
        log=log, name=f"Bench {log}", fmt=make_format("hotc-swiss-de", None), signer=HJ,
        time=now))


def build_small(ledger: Ledger, log: str, size: int) -> None:
    """Genesis + players through ``Ledger.write`` (the real command path)."""
    new_tournament(ledger, log)
    for i in range(1, size):
        ledger.write(log, lambda agg, now, i=i: agg.register_player(f"Player {i}", HJ, now,
                                                                    number=i))


def build_large(ledger: Ledger, log: str, size: int, players: int, batch: int,
                progress: Callable[[str], None]) -> float:
    """Genesis, ``players`` registrations, close, then (seed, draw) pairs up to ``size``.

    One aggregate in memory; ``app.save`` every ``batch`` events (snapshots are taken by
    the library at every multiple of 250 as usual).  Returns the build time in seconds.
    """
    t0 = time.perf_counter()
    clock = ledger.clock
    agg = Tournament.create(log=log, name=f"Bench {log}", fmt=make_format("hotc-swiss-de", None),
                            signer=HJ, time=clock.now())
    saved = 0
    last_report = 0
    players = min(players, size - 2)
    n = 1
    while agg.version < size:
        v = agg.version
        if v <= players:
            agg.register_player(f"Player {v}", HJ, clock.now(), number=v)
        elif agg.state.registration_closed_seq is None:
            agg.close_registration(HJ, clock.now())
        elif size - v >= 2:
            seed = agg.record_seed(material=f"atmospheric {v}", source="bench",
                                   reason=f"fill {n}", signer=HJ, time=clock.now())
            a = 1 + (n * 2) % players
            b = 1 + (n * 2 + 1) % players
            agg.make_draw(ctx=f"{log}/fill/{n}", items=sorted({a, b}), signer=HJ,
                          time=clock.now(), seed_seq=seed.seq)
            n += 1
        else:
            agg.record_seed(material=f"atmospheric {v}", source="bench", reason="fill last",
                            signer=HJ, time=clock.now())
        if agg.version - saved >= batch:
            ledger.app.save(agg)
            saved = agg.version
            if saved // 10000 != last_report:
                last_report = saved // 10000
                progress(f"  built {saved} events ({time.perf_counter() - t0:.1f}s)")
    ledger.app.save(agg)
    return time.perf_counter() - t0


def measure_writes(ledger: Ledger, log: str, samples: int) -> list[float]:
    out: list[float] = []
    for i in range(samples):
        t = time.perf_counter()
        ledger.write(log, lambda agg, now, i=i: agg.record_seed(
            material=f"measured {i}", source="bench", reason=f"sample {i}", signer=HJ,
            time=now))
        out.append(time.perf_counter() - t)
    return out


def breakdown(ledger: Ledger, log: str, samples: int) -> dict[str, list[float]]:
    """The steps of ``Ledger.write`` timed one by one (same code path, unrolled)."""
    app = ledger.app
    parts: dict[str, list[float]] = {k: [] for k in
                                     ("snapshot", "tail", "load", "decide_sign", "sign_only",
                                      "save", "total")}
    for i in range(samples):
        t0 = time.perf_counter()
        snaps = list(app.snapshots.get(log, desc=True, limit=1)) if app.snapshots else []
        t1 = time.perf_counter()
        after = snaps[0].originator_version if snaps else 0
        tail = list(app.events.get(log, gt=after or None))
        t2 = time.perf_counter()
        agg = ledger.load(log)  # the real load: snapshot + tail, folded
        t3 = time.perf_counter()
        agg.record_seed(material=f"broken down {i}", source="bench", reason=f"part {i}",
                        signer=HJ, time=ledger.clock.now())
        t4 = time.perf_counter()
        ledger._save(agg)  # noqa: SLF001 - the exact save Ledger.write does
        t5 = time.perf_counter()
        HJ.sign(b"x" * 400)
        t6 = time.perf_counter()
        assert len(tail) < SNAPSHOT_INTERVAL + 1
        parts["snapshot"].append(t1 - t0)
        parts["tail"].append(t2 - t1)
        parts["load"].append(t3 - t2)
        parts["decide_sign"].append(t4 - t3)
        parts["sign_only"].append(t6 - t5)
        parts["save"].append(t5 - t4)
        parts["total"].append(t5 - t2)
    return parts


def fsync_floor(path: Path, samples: int) -> list[float]:
    """One INSERT + COMMIT of ~600 bytes on a plain sqlite3 connection (WAL, FULL)."""
    con = sqlite3.connect(path, isolation_level=None)
    try:
        con.execute("PRAGMA journal_mode=WAL")
        con.execute("PRAGMA synchronous=FULL")
        con.execute("CREATE TABLE IF NOT EXISTS bench_floor (k INTEGER PRIMARY KEY, v BLOB)")
        out = []
        blob = os.urandom(600)
        for i in range(samples):
            t = time.perf_counter()
            con.execute("BEGIN")
            con.execute("INSERT INTO bench_floor VALUES (?, ?)", (i, blob))
            con.execute("COMMIT")
            out.append(time.perf_counter() - t)
        return out
    finally:
        con.close()


def summary(name: str, xs: list[float]) -> str:
    return (f"{name}: p50={ms(pct(xs, 50)):.2f}ms p90={ms(pct(xs, 90)):.2f}ms "
            f"p99={ms(pct(xs, 99)):.2f}ms max={ms(max(xs)):.2f}ms n={len(xs)}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--events", type=int, default=50_000, help="size of the large log")
    ap.add_argument("--small", type=int, default=100, help="size of the small log")
    ap.add_argument("--samples", type=int, default=300, help="measured writes per size")
    ap.add_argument("--players", type=int, default=4096, help="players in the large log")
    ap.add_argument("--batch", type=int, default=1000, help="events per app.save when building")
    ap.add_argument("--breakdown", type=int, default=100,
                    help="extra writes per size timed step by step (0 = skip)")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "out",
                    help="parent of the temporary directory (deleted afterwards)")
    ap.add_argument("--keep", action="store_true", help="keep the ledger files")
    ap.add_argument("--strict", action="store_true", help="exit 1 if a budget is missed")
    args = ap.parse_args(argv)
    if args.samples < 1 or args.events < args.small or args.small < 2:
        ap.error("need --samples >= 1 and --events >= --small >= 2")

    def say(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    args.out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="append-", dir=args.out))
    results: dict[int, list[float]] = {}
    parts: dict[int, dict[str, list[float]]] = {}
    try:
        # -- small log ----------------------------------------------------------------
        small_db = tmp / "small.db"
        with Ledger(Location(str(small_db)), create=True) as led:
            sync, mode = check_durability(small_db, led)
            print(f"PRAGMA synchronous={sync} (FULL) journal_mode={mode} file={small_db}")
            t = time.perf_counter()
            build_small(led, "small", args.small)
            say(f"small log: {args.small} events via Ledger.write in "
                f"{time.perf_counter() - t:.1f}s")
            results[args.small] = measure_writes(led, "small", args.samples)
            if args.breakdown:
                parts[args.small] = breakdown(led, "small", args.breakdown)
        # -- large log ----------------------------------------------------------------
        large_db = tmp / "large.db"
        with Ledger(Location(str(large_db)), create=True) as led:
            check_durability(large_db, led)
            build_s = build_large(led, "large", args.events, args.players, args.batch, say)
            size = led.load("large").version
            assert size == args.events, (size, args.events)
            say(f"large log: {size} events built in {build_s:.1f}s "
                f"({size / build_s:.0f} events/s, file {large_db.stat().st_size >> 20} MiB)")
            results[args.events] = measure_writes(led, "large", args.samples)
            if args.breakdown:
                parts[args.events] = breakdown(led, "large", args.breakdown)
            final = led.load("large")
            assert final.version == args.events + args.samples + args.breakdown
        floor = fsync_floor(tmp / "floor.db", min(args.samples, 200))
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            say(f"kept {tmp}")

    for size, xs in results.items():
        print(summary(f"Ledger.write @ {size} events", xs))
    for size, p in parts.items():
        print(f"breakdown @ {size} events (p50 / p99 ms): " + "  ".join(
            f"{k}={ms(pct(v, 50)):.2f}/{ms(pct(v, 99)):.2f}" for k, v in p.items()))
    print(summary("fsync floor (plain sqlite3 INSERT+COMMIT, WAL, FULL)", floor))
    big = results[args.events]
    p50, p99 = ms(pct(big, 50)), ms(pct(big, 99))
    ratio = p50 / ms(pct(results[args.small], 50))
    ok = p50 < BUDGET_P50_MS and p99 < BUDGET_P99_MS and \
        ms(pct(results[args.small], 99)) < BUDGET_P99_MS
    print(f"BENCH append events={args.events} p50_ms={p50:.2f} p99_ms={p99:.2f} "
          f"p50_small_ms={ms(pct(results[args.small], 50)):.2f} "
          f"p99_small_ms={ms(pct(results[args.small], 99)):.2f} small_events={args.small} "
          f"samples={args.samples} budget_p50_ms={BUDGET_P50_MS:g} "
          f"budget_p99_ms={BUDGET_P99_MS:g} flat_ratio={ratio:.2f} "
          f"within_budget={'yes' if ok else 'no'}")
    return 1 if (args.strict and not ok) else 0


if __name__ == "__main__":
    sys.exit(main())
