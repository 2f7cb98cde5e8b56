"""Whole-process ``tourney audit verify`` of an exported 4,096-player event vs the raw
Ed25519 verify rate of all cores, measured side by side in one run (issue 7, DESIGN §9).

1. ``tourney simulate --players 4096`` into its own ledger and ``tourney export`` (reused
   when present in bench/out/auditcli/);
2. the raw rate: every signature of that bundle verified by a process pool of
   ``os.cpu_count()`` workers (warmed up first: the raw rate is the machine's steady
   state, not our start-up);
3. ``tourney audit verify bundle/`` as a fresh process, ``--runs`` times: events / median
   wall time (start-up, imports, pool spin-up, every check included).

    python bench/bench_audit_cli.py [--players 4096] [--runs 3]

Prints: BENCH audit-cli events=… seconds=… events_per_s=… raw_verify_per_s=… workers=…
ratio=… target=0.8
"""

from __future__ import annotations

import argparse
import base64
import os
import statistics
import subprocess
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import ledger.formats.registry  # noqa: F401  (the formats' kinds, to read every leaf)
from audit.sigpool import verify_batch
from ledger.wire.events import SIG_DOMAIN, OfficialAdded, TournamentCreated, parse_leaf

OUT = Path("bench/out/auditcli")


def env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items()
            if not k.startswith("TOURNEY_") and k != "PYTHONDONTWRITEBYTECODE"}


def build(players: int) -> Path:
    bundle = OUT / f"bundle-{players}"
    if (bundle / "log.jsonl").is_file():
        return bundle
    OUT.mkdir(parents=True, exist_ok=True)
    db = OUT / f"sim-{players}.db"
    for p in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
        p.unlink(missing_ok=True)
    t0 = time.perf_counter()
    subprocess.run(["tourney", "--ledger", str(db), "simulate", "--players", str(players),
                    "--format", "hotc-swiss-de", "--timeouts", "0.05", "--drops", "0.02",
                    "--json"], env=env(), check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["tourney", "--ledger", str(db), "export", str(bundle), "--force"],
                   env=env(), check=True, stdout=subprocess.DEVNULL)
    print(f"# built and exported {players} players in {time.perf_counter() - t0:.1f}s")
    return bundle


def raw_rate(bundle: Path) -> tuple[float, int]:
    leaves = (bundle / "log.jsonl").read_bytes().split(b"\n")[:-1]
    parsed = [parse_leaf(leaf) for leaf in leaves]
    keys: dict[str, bytes] = {}
    for p in parsed:
        body = p.event.body
        if isinstance(body, TournamentCreated):
            keys[body.head_judge.key_id] = base64.b64decode(body.head_judge.public_key)
        elif isinstance(body, OfficialAdded):
            keys[body.key_id] = base64.b64decode(body.public_key)
    jobs = [(keys[p.event.actor], p.event.sig, SIG_DOMAIN + p.signed_bytes) for p in parsed]
    workers = os.cpu_count() or 1
    chunks = [jobs[i::workers] for i in range(workers)]
    with ProcessPoolExecutor(max_workers=workers) as ex:
        list(ex.map(verify_batch, [c[:200] for c in chunks]))  # warm the workers up
        t0 = time.perf_counter()
        results = list(ex.map(verify_batch, chunks))
        dt = time.perf_counter() - t0
    assert all(all(r) for r in results)
    return len(jobs) / dt, len(jobs)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=4096)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    subprocess.run(["python", "-m", "compileall", "-q", "ledger", "projections", "audit",
                    "cli"], env=env(), check=True)
    bundle = build(args.players)
    walls: list[float] = []
    raws: list[float] = []
    events = 0
    for _ in range(args.runs):  # interleaved, so both see the same machine load
        raw, events = raw_rate(bundle)
        raws.append(raw)
        t0 = time.perf_counter()
        proc = subprocess.run(["tourney", "audit", "verify", str(bundle)], env=env(),
                              capture_output=True, text=True)
        walls.append(time.perf_counter() - t0)
        if proc.returncode != 0:
            raise SystemExit(f"audit failed: {proc.stdout[:300]} {proc.stderr[:300]}")
    wall = statistics.median(walls)
    raw = statistics.median(raws)
    rate = events / wall
    print(f"BENCH audit-cli events={events} seconds={wall:.2f} events_per_s={rate:.0f} "
          f"raw_verify_per_s={raw:.0f} workers={os.cpu_count()} ratio={rate / raw:.2f} "
          f"target=0.8 load={os.getloadavg()[0]:.2f}", flush=True)


if __name__ == "__main__":
    main()
