"""Benchmark: a Bushiroad trio Swiss of 1,024 teams (3,072 fighters), 10 rounds (issue 20).

    python -m bench.bench_teams [--teams 1024] [--rounds 10] [--mode trio]

Prints one line per measurement (machine-readable), with the issue's budget:
  BENCH team-simulate   … seconds=…                 (end to end, every event signed)
  BENCH team-pairing    … ms_p50=… target_ms=100    (one Swiss round of the teams)
  BENCH team-standings  … ms_p50=… target_ms=100    (teams: MW%, OMW%, OOMW%, h2h)
  BENCH team-audit-cli  … ratio=…                   (export + ``tourney audit verify`` as
                                                     processes / the raw Ed25519 rate)
  BENCH solo-audit-cli  … ratio=…                   (the same for an individual Swiss
                                                     event of about as many events)
The issue asks the team ratio to equal the individual one (same work per event).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import ledger.formats.registry  # noqa: F401
from bench.bench_audit import raw_rate_jobs
from ledger.core.draw import draw_v1
from ledger.core.params import Param
from ledger.formats.bushiroad.plan import PAIRING_ALGORITHM
from ledger.formats.bushiroad.standing_rows import br_standings
from ledger.formats.match.pairing import pair_swiss
from ledger.formats.match.plan import PAIRING_LIMITS, entrants
from ledger.formats.simulation import simulate
from ledger.proofs.checkpoint_store import checkpoint_dir
from ledger.storage.location import Location
from ledger.storage.store import Ledger


def _timed(fn: object, runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()  # type: ignore[operator]
        out.append((time.perf_counter() - t0) * 1000)
    return out


def _fresh(path: Path) -> Location:
    path.parent.mkdir(parents=True, exist_ok=True)
    for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        p.unlink(missing_ok=True)
    shutil.rmtree(f"{path}.checkpoints", ignore_errors=True)
    return Location(str(path))


def _event(tag: str, path: Path, players: int, params: dict[str, Param]) -> None:
    loc = _fresh(path)
    log = f"{tag}-{players}"
    t0 = time.perf_counter()
    with Ledger(loc, create=True) as led:
        res = simulate(led, log=log, players=players, seed_text=f"bench-{tag}", cut=0,
                       timeouts=Fraction(1, 20), drops=Fraction(1, 200),
                       checkpoints=lambda: checkpoint_dir(loc, None, log),
                       format_id="bushiroad-swiss", params=params)
        state = led.load(log).state
    dt = time.perf_counter() - t0
    print(f"BENCH {tag}-simulate fighters={players} entrants={len(state.fmt.records)} "
          f"events={res.events} rounds={res.rounds} seconds={dt:.1f} "
          f"events_per_s={res.events / dt:.0f}", flush=True)
    if tag == "team":
        field = entrants(state)
        if len(field) % 2:
            field = field[1:]
        order = draw_v1(b"\x01" * 32, "bench/pairing", sorted(e.number for e in field))
        limit, core = PAIRING_LIMITS[PAIRING_ALGORITHM]
        pair = _timed(lambda: pair_swiss(field, order, exact_limit=limit,
                                         core_per_group=core), 5)
        print(f"BENCH team-pairing teams={len(field)} ms_p50={statistics.median(pair):.1f} "
              f"ms_max={max(pair):.1f} target_ms=100", flush=True)
        stand = _timed(lambda: br_standings(state), 5)
        print(f"BENCH team-standings teams={len(state.fmt.records)} "
              f"ms_p50={statistics.median(stand):.1f} ms_max={max(stand):.1f} "
              "target_ms=100", flush=True)
    bundle = path.parent / f"{tag}-bundle"
    shutil.rmtree(bundle, ignore_errors=True)
    env = {**os.environ, "TOURNEY_LEDGER": str(path)}
    subprocess.run([sys.executable, "-m", "cli.main", "export", str(bundle)], env=env,
                   check=True, capture_output=True)
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "cli.main", "audit", "verify", str(bundle),
                           "--json"], env=env, capture_output=True, text=True)
    adt = time.perf_counter() - t0
    raw = raw_rate_jobs(loc, log, min(res.events, 20_000))
    print(f"BENCH {tag}-audit-cli events={res.events} ok={proc.returncode == 0} "
          f"seconds={adt:.2f} events_per_s={res.events / adt:.0f} "
          f"raw_verify_per_s={raw:.0f} ratio={res.events / adt / raw:.2f}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--teams", type=int, default=1024)
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--mode", default="trio", choices=("tag", "trio"))
    ap.add_argument("--solo", type=int, default=None,
                    help="players of the individual comparison (default: about as many "
                         "events as the team event)")
    ap.add_argument("--out", default="bench/out")
    args = ap.parse_args()
    size = 3 if args.mode == "trio" else 2
    _event("team", Path(args.out) / "teams.db", args.teams * size,
           {"swiss_rounds": args.rounds, "team_mode": args.mode})
    # events: fighters + teams + rounds × tables × (seats + 1) ≈ solo: n + rounds × n / 2
    team_events = args.teams * (size + 1) + args.rounds * args.teams // 2 * (size + 1)
    solo = args.solo or team_events // (1 + args.rounds // 2)
    _event("solo", Path(args.out) / "solo.db", solo, {"swiss_rounds": args.rounds})


if __name__ == "__main__":
    main()
