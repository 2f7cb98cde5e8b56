"""Benchmark: how the whole-process cost of the main commands grows with the field, and
the reads against the bare libraries (issue 22 items 3–6).

For each field size (default 4,096 and 32,768 players) and each build under test — this
checkout's venv, and any other given as ``--build NAME=VENV`` (e.g. main's checkout, the
"before") — it times real processes of that build's ``tourney`` console script:

* ``simulate``  — ``tourney simulate --players N --format hotc-swiss-de`` (includes its
  own audit at the end);
* ``audit``     — ``tourney audit verify`` of that simulated event's export;
* ``pair``      — ``tourney round pair`` of round 2 (round 1 complete and closed) on a
  fresh copy of a ledger built beforehand by the same build;
* ``standings`` and ``show`` (``round show 1``) on the simulated (finished) event;
* ``libs``      — ``python -c "import typer, msgspec, eventsourcing, cryptography"``,
  the floor the reads are compared with (issue 22: reads at 4,096 ≤ 2.5× libs).

Runs are interleaved across builds (A, B, A, B, …) so that the machine's noise hits every
build alike; each line gives the median wall-clock seconds and the median CPU seconds of
the process and its children (steadier than wall clock on a shared machine).  The growth
exponent between the smallest and the largest field is log(t_large / t_small) /
log(n_large / n_small) (goal ≤ 1.05).

    python bench/bench_growth.py [--players 4096,32768] [--runs 3] [--large-runs 1] \
        [--only simulate,audit,pair,standings,show] [--build main=/work/main/.venv]

Prints: BENCH growth build=… cmd=… players=… wall_s=… cpu_s=… (runs=…)
        BENCH growth-exponent build=… cmd=… n=…→… wall=… cpu=…
        BENCH reads-vs-libs build=… cmd=… players=… wall_ratio=… cpu_ratio=…
The ledgers are built with ``--make`` by each build's own Python (this file imports only
``ledger``), so each build reads snapshots of its own layout.
"""

from __future__ import annotations

import argparse
import math
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

OUT = Path("bench/out/growth").resolve()
LIBS = "import typer, msgspec, eventsourcing, cryptography"


def make_pair_due(d: Path, players: int) -> None:
    """A HotC event of ``players`` with round 1 complete and closed (round 2 due)."""
    from ledger.core.aggregate import Tournament
    from ledger.formats.match.model import Outcome
    from ledger.formats.registry import make_format
    from ledger.storage.location import Location
    from ledger.storage.store import Ledger
    from ledger.wire.keys import write_new_key

    signer = write_new_key(d / "hj.pem", "bench head judge", None)
    with Ledger(Location(str(d / "t.db")), create=True) as led:
        led.create("bench", lambda now: Tournament.create(
            log="bench", name="Growth bench", fmt=make_format("hotc-swiss-de", 8),
            signer=signer, time=now))

        def register(t: Tournament, now: str) -> None:
            for i in range(players):
                t.register_player(f"Player {i + 1:05d}", signer, now)

        def finish(t: Tournament, now: str) -> None:
            for tab in list(t.state.fmt.rounds[-1].tables):
                t.record_result(signer, now, round_no=1, table=tab.table,
                                outcome=Outcome.WIN, winner=tab.players[0])

        led.write("bench", register)
        led.write("bench", lambda t, now: t.close_registration(signer, now))
        led.write("bench", lambda t, now: t.pair_round(signer, now, material="bench R1",
                                                       source="bench"))
        led.write("bench", finish)


def run(argv: list[str], env: dict[str, str], cwd: Path | None = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process and its children) of one process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode}): "
                         f"{proc.stderr.decode().strip()[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


class Build:
    def __init__(self, name: str, venv: Path) -> None:
        self.name, self.venv = name, venv
        self.python = str(venv / "bin" / "python")
        self.tourney = str(venv / "bin" / "tourney")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", default="4096,32768")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--large-runs", type=int, default=1,
                    help="runs at every size but the smallest (a 32,768 simulate is minutes)")
    ap.add_argument("--only", default="simulate,audit,pair,standings,show")
    ap.add_argument("--build", action="append", default=[],
                    help="NAME=VENV: another build to measure side by side")
    ap.add_argument("--make", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.make:                      # run by each build's own Python
        make_pair_due(Path(args.make), int(args.players))
        return
    builds = [Build(*b.split("=", 1)[:1], Path(b.split("=", 1)[1])) for b in args.build]
    builds.append(Build("this", Path(sys.prefix)))
    only = set(args.only.split(","))
    sizes = [int(x) for x in args.players.split(",")]
    # a user's machine caches bytecode; an editable checkout under PYTHONDONTWRITEBYTECODE
    # would recompile on every run
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("TOURNEY_") and k not in ("PYTHONDONTWRITEBYTECODE",
                                                          "PYTHONPATH")}
    for b in builds:
        subprocess.run([b.python, "-c", "import compileall, ledger, cli, audit, projections, "
                        "os; [compileall.compile_dir(os.path.dirname(m.__file__), quiet=1) "
                        "for m in (ledger, cli, audit, projections)]"], env=env, check=True)
    here = Path(__file__).resolve()
    times: dict[tuple[str, str, int], list[tuple[float, float]]] = {}

    def add(b: Build, cmd: str, n: int, t: tuple[float, float]) -> None:
        times.setdefault((b.name, cmd, n), []).append(t)

    for n in sizes:
        root = OUT / str(n)
        shutil.rmtree(root, ignore_errors=True)
        for b in builds:
            (root / b.name).mkdir(parents=True)
            if "pair" in only:
                (root / b.name / "due").mkdir()
                subprocess.run([b.python, str(here), "--make", str(root / b.name / "due"),
                                "--players", str(n)], env=env, check=True, cwd=root / b.name)
        need_sim = bool(only & {"simulate", "audit", "standings", "show"})
        runs = args.runs if n == sizes[0] else args.large_runs
        for r in range(runs):
            for b in builds:
                d = root / b.name
                if need_sim and ("simulate" in only or r == 0):
                    t = run([b.tourney, "simulate", "--players", str(n), "--format",
                             "hotc-swiss-de", "--seed", "bench", "--ledger",
                             str(d / f"sim{r}.db")], env, d)
                    if "simulate" in only:
                        add(b, "simulate", n, t)
                    if r == 0:
                        run([b.tourney, "--ledger", str(d / "sim0.db"), "export",
                             str(d / "bundle")], env)
                sim0 = str(d / "sim0.db")
                if "audit" in only:
                    add(b, "audit", n, run([b.tourney, "audit", "verify",
                                            str(d / "bundle")], env))
                if "pair" in only:
                    cp = d / f"pair{r}"
                    shutil.copytree(d / "due", cp)
                    add(b, "pair", n, run([b.tourney, "--ledger", str(cp / "t.db"), "round",
                                           "pair", "--seed-material", "bench R2",
                                           "--seed-source", "bench", "--key",
                                           str(cp / "hj.pem")], env, cp))
                    shutil.rmtree(cp)
                if "standings" in only:
                    add(b, "standings", n, run([b.tourney, "--ledger", sim0, "standings"],
                                               env))
                if "show" in only:
                    add(b, "show", n, run([b.tourney, "--ledger", sim0, "round", "show", "1"],
                                          env))
                add(b, "libs", n, run([b.python, "-c", LIBS], env))
            for (bn, cmd, size), ts in sorted(times.items()):
                if size == n and len(ts) == r + 1 and r == runs - 1:
                    print(f"BENCH growth build={bn} cmd={cmd} players={size} "
                          f"wall_s={statistics.median(t[0] for t in ts):.3f} "
                          f"cpu_s={statistics.median(t[1] for t in ts):.3f} runs={len(ts)}",
                          flush=True)
    med = {k: (statistics.median(t[0] for t in v), statistics.median(t[1] for t in v))
           for k, v in times.items()}
    lo, hi = sizes[0], sizes[-1]
    for b in builds:
        for cmd in ("simulate", "audit", "pair", "standings", "show"):
            a, z = med.get((b.name, cmd, lo)), med.get((b.name, cmd, hi))
            if a and z and hi > lo:
                k = math.log(hi / lo)
                print(f"BENCH growth-exponent build={b.name} cmd={cmd} n={lo}->{hi} "
                      f"wall={math.log(z[0] / a[0]) / k:.2f} cpu={math.log(z[1] / a[1]) / k:.2f}")
        libs = med.get((b.name, "libs", lo))
        for cmd in ("standings", "show", "pair"):
            x = med.get((b.name, cmd, lo))
            if x and libs:
                print(f"BENCH reads-vs-libs build={b.name} cmd={cmd} players={lo} "
                      f"wall_ratio={x[0] / libs[0]:.2f} cpu_ratio={x[1] / libs[1]:.2f}")


if __name__ == "__main__":
    main()
