"""Start-up with ``PYTHONDONTWRITEBYTECODE=1`` (issue 17, defect 23), whole processes.

An editable install is never byte-compiled by pip, and with PYTHONDONTWRITEBYTECODE=1
(set in many container images) Python never writes the project's ``__pycache__``, so
every command compiles ``ledger/``, ``cli/``, ``audit/`` and ``projections/`` from
source.  This times a real command (``tourney info`` on a small simulated event, and
``tourney --version``) as fresh processes, side by side, on a private copy of the
source tree (the checkout's own ``__pycache__`` is never touched):

* ``cached``:   bytecode written by earlier runs (no PYTHONDONTWRITEBYTECODE);
* ``nocache``:  PYTHONDONTWRITEBYTECODE=1 and no bytecode (the defect);
* ``compiled``: PYTHONDONTWRITEBYTECODE=1 after ``python -m compileall -q ledger cli
  audit projections`` once (the remedy README.md documents).

    python bench/bench_bytecode.py [--runs 15]

Prints ``BENCH bytecode-<mode> command=… runs=… p50_wall_ms=… p50_cpu_ms=…`` and the
ratios of the child processes' CPU time (steadier than wall time on a shared machine).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("ledger", "cli", "audit", "projections")
RUN = "import sys; from cli.main import run; sys.argv[0] = 'tourney'; run()"


def _copy_tree(dst: Path) -> None:
    for pkg in PACKAGES:
        shutil.copytree(ROOT / pkg, dst / pkg,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


def _drop_bytecode(tree: Path) -> None:
    for d in tree.rglob("__pycache__"):
        shutil.rmtree(d)


def _time(args: list[str], env: dict[str, str], cwd: Path,
          runs: int) -> tuple[list[float], list[float]]:
    """(wall ms, CPU ms of the child: user + system) per run.  On a shared machine the
    CPU time is the steadier figure; both are printed."""
    wall, cpu = [], []
    for _ in range(runs):
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", RUN, *args], cwd=cwd, env=env, check=True,
                       capture_output=True)
        wall.append((time.perf_counter() - t0) * 1000)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append((r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime) * 1000)
    return wall, cpu


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=15)
    opts = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp)
        _copy_tree(tree)
        base = {k: v for k, v in os.environ.items()
                if not k.startswith("TOURNEY_") and k != "PYTHONDONTWRITEBYTECODE"}
        base.update(PYTHONPATH=str(tree), TOURNEY_LEDGER=str(tree / "sim.db"))
        subprocess.run([sys.executable, "-c", RUN, "simulate", "--players", "12", "--format",
                        "hotc-swiss-de", "--cut", "4", "--id", "b", "--json"], cwd=tree,
                       env=base, check=True, capture_output=True)
        commands = {"info": ["info"], "version": ["--version"]}
        results: dict[tuple[str, str], float] = {}
        for name, args in commands.items():
            for mode in ("cached", "nocache", "compiled"):
                env = dict(base)
                if mode == "cached":
                    _time(args, env, tree, 1)  # writes the bytecode
                else:
                    env["PYTHONDONTWRITEBYTECODE"] = "1"
                    _drop_bytecode(tree)
                    if mode == "compiled":
                        subprocess.run([sys.executable, "-m", "compileall", "-q",
                                        *PACKAGES], cwd=tree, env=env, check=True)
                wall, cpu = _time(args, env, tree, opts.runs)
                p50, cpu50 = statistics.median(wall), statistics.median(cpu)
                results[(name, mode)] = cpu50
                print(f"BENCH bytecode-{mode} command={name} runs={opts.runs} "
                      f"p50_wall_ms={p50:.0f} p50_cpu_ms={cpu50:.0f}", flush=True)
            print(f"BENCH bytecode-ratio command={name} (CPU) nocache/compiled="
                  f"{results[(name, 'nocache')] / results[(name, 'compiled')]:.2f} "
                  f"nocache/cached={results[(name, 'nocache')] / results[(name, 'cached')]:.2f}",
                  flush=True)


if __name__ == "__main__":
    main()
