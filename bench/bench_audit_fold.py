"""The audit's serial fold and the whole process against the raw Ed25519 rate, per
number of cores (issue 22 item 9, ADR 0020).

Runs on the exported 4,096-player bundle of ``bench/bench_audit_cli.py`` (built there
when missing).  Each ``--build NAME=DIR`` is a source checkout (``PYTHONPATH=DIR``, this
checkout by default; e.g. ``before=/tmp/base`` from ``git archive``), measured in turns,
run by run, so every build sees the same machine load:

1. ``fold``: the fold's serial CPU time per event (``time.process_time`` of the auditing
   process, the workers' time excluded): with workers (when the build has the stateless
   pass, the fold starts once the workers have finished it, so what is timed is the
   fold's own work), with workers but every check in the fold (the same conditions, the
   stateless pass not used: the A/B of ADR 0020) and without workers (every check in the
   fold, as on one core); ``--folds`` of each, alternating, the fastest counting (the
   least disturbed by the machine);
2. ``process``: ``tourney audit verify bundle/`` as a fresh process pinned with ``taskset``
   to 1 and 2 cores: wall time, and CPU time of the process and its workers;
3. ``raw``: single-core Ed25519 verify rate over the same signatures (CPU time, so the
   machine's load does not lower it), times the cores for the raw rate of N cores.

Ratio = events per wall second / raw rate of the cores used.  The machine is shared:
wall times swing with the load, CPU times much less, so the projection for N cores uses
CPU: wall(N) ≈ max(serial, total / N) with ``serial`` the auditing process's CPU time
(start-up, reading, fold, its share of signatures) and ``total`` that of all processes.

    python bench/bench_audit_fold.py [--runs 5] [--build before=/tmp/base]
        [--build after=.] [--folds 3] [--cores 1,2]     # --cores '' : the fold only

Prints: BENCH audit-fold build=… us_per_event_with_workers=… us_per_event_inline=…
        BENCH audit-process build=… cores=… wall_s=… cpu_s=… ratio=… cpu_ratio=…
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

BUNDLE_DEFAULT = Path("bench/out/auditcli/bundle-4096")

_FOLD = r"""
import gc, json, sys, time
import ledger.formats.registry
from audit import fold as F, sigpool
from audit.verify import _expected_log, _key_map, start_signatures
from audit.sigpool import SignaturePool
lines = open(sys.argv[1], 'rb').read().split(b"\n")[:-1]
leaves = [(i, x) for i, x in enumerate(lines, 1)]
log = _expected_log(leaves)
keys = _key_map(leaves)
out = {}
best = {}
for mode in ("inline", "workers_full", "workers") * int(sys.argv[2]):
    if mode == "inline":
        sigs = SignaturePool(len(leaves), 0) if "workers" in \
            SignaturePool.__init__.__code__.co_varnames else SignaturePool(0)
    else:
        sigs, keys = start_signatures(leaves, log) if "log" in \
            start_signatures.__code__.co_varnames else start_signatures(leaves)
        pre = sigs.prechecks(log) if hasattr(sigs, "prechecks") else None
        while pre is not None and not pre.finished():
            time.sleep(0.01)
        if mode == "workers_full" and pre is not None:
            sigs._log = "-"  # the fold checks every leaf itself, the workers running
        elif mode == "workers_full":
            continue  # a build without the stateless pass: the same as "workers"
    gc.disable()
    t0 = time.process_time()
    F._fold(leaves, log, set(), keys, sigs, [], [], None)
    us = (time.process_time() - t0) / len(leaves) * 1e6
    best[mode] = min(best.get(mode, us), us)
    gc.enable()
    sigs.close()
print(json.dumps(best))
"""

_RAW = r"""
import base64, json, sys, time
import ledger.formats.registry
from audit.sigpool import verify_batch
from ledger.wire.events import SIG_DOMAIN, OfficialAdded, TournamentCreated, parse_leaf
lines = open(sys.argv[1], 'rb').read().split(b"\n")[:-1]
parsed = [parse_leaf(x) for x in lines]
keys = {}
for p in parsed:
    b = p.event.body
    if isinstance(b, TournamentCreated):
        keys[b.head_judge.key_id] = base64.b64decode(b.head_judge.public_key)
    elif isinstance(b, OfficialAdded):
        keys[b.key_id] = base64.b64decode(b.public_key)
jobs = [(keys[p.event.actor], p.event.sig, SIG_DOMAIN + p.signed_bytes) for p in parsed]
verify_batch(jobs[:200])
t0 = time.process_time()
assert all(verify_batch(jobs))
print(json.dumps({"per_s": len(jobs) / (time.process_time() - t0), "events": len(jobs)}))
"""


def run_json(code: str, src: Path, bundle: Path, *args: str) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    out = subprocess.run([sys.executable, "-P", "-c", code, str(bundle / "log.jsonl"), *args],
                         env=env, check=True, capture_output=True, text=True).stdout
    result: dict[str, float] = json.loads(out)
    return result


def whole_process(src: Path, bundle: Path, cores: int) -> tuple[float, float]:
    """(wall s, CPU s of the process and its workers) of one pinned audit."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("TOURNEY_") and k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(src)
    cpus = ",".join(str(c) for c in sorted(os.sched_getaffinity(0))[:cores])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(["taskset", "-c", cpus, sys.executable, "-P", "-c",
                           "import sys; from cli.main import run; sys.argv[0] = 'tourney'; "
                           "sys.exit(run())", "audit", "verify", str(bundle)],
                          env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"audit failed: {proc.stdout[:300]} {proc.stderr[:300]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--build", action="append", default=[])
    ap.add_argument("--bundle", type=Path, default=BUNDLE_DEFAULT)
    ap.add_argument("--cores", default="1,2", help="'' for the fold only")
    ap.add_argument("--folds", type=int, default=3,
                    help="folds of each kind per run, alternating; the fastest counts")
    args = ap.parse_args()
    builds = {n: Path(p).resolve() for n, p in (b.split("=", 1) for b in args.build)} or \
        {"this": Path.cwd()}
    if not (args.bundle / "log.jsonl").is_file():
        raise SystemExit(f"{args.bundle} missing: run bench/bench_audit_cli.py first")
    for src in builds.values():
        subprocess.run([sys.executable, "-m", "compileall", "-q", *(str(src / d) for d in
                        ("ledger", "projections", "audit", "cli"))], check=True)
    cores = [int(c) for c in args.cores.split(",") if c]
    folds: dict[str, list[dict[str, float]]] = {n: [] for n in builds}
    procs: dict[tuple[str, int], list[tuple[float, float]]] = {}
    raws: list[float] = []
    events = 0
    for _ in range(args.runs):
        raw = run_json(_RAW, next(iter(builds.values())), args.bundle)
        raws.append(raw["per_s"])
        events = int(raw["events"])
        for name, src in builds.items():
            folds[name].append(run_json(_FOLD, src, args.bundle, str(args.folds)))
            for n in cores:
                procs.setdefault((name, n), []).append(whole_process(src, args.bundle, n))
    raw1 = statistics.median(raws)
    print(f"BENCH audit-raw events={events} verify_per_s_one_core={raw1:.0f} (CPU time)")
    for name in builds:
        inline = min(f["inline"] for f in folds[name])
        workers = min(f["workers"] for f in folds[name])
        full = min(f.get("workers_full", f["workers"]) for f in folds[name])
        print(f"BENCH audit-fold build={name} us_per_event_with_workers={workers:.1f} "
              f"us_per_event_workers_but_fold_checks_all={full:.1f} "
              f"us_per_event_inline={inline:.1f} goal_us=15", flush=True)
        for n in cores:
            wall = statistics.median(w for w, _c in procs[(name, n)])
            cpu = statistics.median(c for _w, c in procs[(name, n)])
            print(f"BENCH audit-process build={name} cores={n} events={events} "
                  f"wall_s={wall:.2f} cpu_s={cpu:.2f} ratio={events / wall / (raw1 * n):.2f} "
                  f"cpu_per_event_us={cpu / events * 1e6:.0f} "
                  f"raw_us_per_event={1e6 / raw1:.0f} load={os.getloadavg()[0]:.1f}",
                  flush=True)


if __name__ == "__main__":
    main()
