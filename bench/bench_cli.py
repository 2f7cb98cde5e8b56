"""Whole-process latency of the ``tourney`` command (issue 7, docs/DESIGN.md §9).

Runs the real console script as a fresh process N times per command (start-up, imports,
opening the ledger, loading the snapshot, deciding, signing, fsync, printing) and reports
p50/p90/max wall-clock milliseconds.  No in-process timers: what a scorekeeper waits for.

* ``record``: ``tourney result record`` on a 4,096-player event with round 1 open
  (budget p50 ≤ 150 ms);
* ``read``: ``standings``, ``round show 1`` and ``info`` on a 70-player event in round 2
  (budget p50 ≤ 120 ms);
* ``import``: ``tourney result import`` of the remaining round-1 slips of the 4,096-player
  event in one process (budget ≥ 200 results/s);
* ``baseline``: ``python -c pass`` — the interpreter's own floor on this machine.

    python bench/bench_cli.py [--runs 30] [--field 4096] [--only record,read,import]
    PYTHONPATH=/tmp/old python bench/bench_cli.py --only baseline,record,read \
        --tourney /tmp/old-venv/bin/tourney     # another build, for a side-by-side ratio

The machine is noisy (2 cores shared): compare builds in alternating runs and read the
``cli-python-startup`` line (the interpreter's floor in that same run) before absolute ms.

Prints machine-readable lines:
    BENCH cli-<command> players=… runs=… p50_ms=… p90_ms=… max_ms=… budget_p50_ms=…
    BENCH cli-import players=… results=… seconds=… results_per_s=… budget_per_s=200
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from ledger.core.aggregate import Tournament
from ledger.formats.match.model import Outcome
from ledger.formats.registry import make_format
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.keys import Signer, write_new_key

OUT = Path("bench/out/cli")
TOURNEY = shutil.which("tourney") or str(Path(sys.executable).with_name("tourney"))


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, round(q / 100 * len(s) + 0.5) - 1))]


def fresh_dir(name: str) -> Path:
    d = OUT / name
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    return d


def make_event(d: Path, players: int, rounds_done: int) -> tuple[Path, Path, Signer]:
    """A HotC event of ``players`` with ``rounds_done`` complete rounds and the next one
    paired; returns (ledger path, key file, signer)."""
    key = d / "hj.pem"
    signer = write_new_key(key, "bench head judge", None)
    db = d / "tournament.db"
    with Ledger(Location(str(db)), create=True) as led:
        led.create("bench", lambda now: Tournament.create(
            log="bench", name="CLI bench", fmt=make_format("hotc-swiss-de", 8),
            signer=signer, time=now))

        def register(t: Tournament, now: str) -> None:
            for i in range(players):
                t.register_player(f"Player {i + 1:04d}", signer, now)
        led.write("bench", register)
        led.write("bench", lambda t, now: t.close_registration(signer, now))
        for r in range(1, rounds_done + 2):
            led.write("bench", lambda t, now, r=r: t.pair_round(
                signer, now, material=f"bench R{r}", source="bench"))
            if r == rounds_done + 1:
                break

            def finish(t: Tournament, now: str) -> None:
                for tab in list(t.state.fmt.rounds[-1].tables):
                    if tab.result is None:
                        t.record_result(signer, now, round_no=t.state.fmt.rounds[-1].number,
                                        table=tab.table,
                                        outcome=Outcome.WIN, winner=tab.players[0])
            led.write("bench", finish)
    return db, key, signer


def timed(argv: list[str], env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    proc = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    ms = (time.perf_counter() - t0) * 1000
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode}): "
                         f"{proc.stderr.decode().strip()}")
    return ms


def report(name: str, players: int, times: list[float], budget: int) -> None:
    print(f"BENCH cli-{name} players={players} runs={len(times)} p50_ms={pct(times, 50):.0f} "
          f"p90_ms={pct(times, 90):.0f} max_ms={max(times):.0f} budget_p50_ms={budget}",
          flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--field", type=int, default=4096)
    ap.add_argument("--only", default="baseline,record,read,import")
    ap.add_argument("--tourney", default=None,
                    help="the tourney executable to measure (default: this checkout's)")
    args = ap.parse_args()
    global TOURNEY
    TOURNEY = args.tourney or TOURNEY
    only = set(args.only.split(","))
    # a user's machine caches bytecode (pip compiles installed packages); an editable
    # checkout under PYTHONDONTWRITEBYTECODE would recompile ours on every run
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("TOURNEY_") and k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-m", "compileall", "-q", "ledger", "projections",
                    "audit", "cli"], env=env, check=True)

    if "baseline" in only:
        report("python-startup", 0, [timed([sys.executable, "-c", "pass"], env)
                                     for _ in range(args.runs)], 0)
        report("help", 0, [timed([TOURNEY, "--help"], env) for _ in range(args.runs)], 0)

    if "record" in only or "import" in only:
        d = fresh_dir("field")
        db, key, _ = make_event(d, args.field, 0)
        with Ledger(Location(str(db))) as led:
            tables = [(t.table, t.players[0]) for t in led.load("bench").state.fmt.rounds[-1]
                      .tables]
        base = [TOURNEY, "--ledger", str(db), "--key", str(key)]
        if "record" in only:
            times = [timed(base + ["result", "record", "--round", "1", "--table", str(tab),
                                   "--winner", str(win)], env)
                     for tab, win in tables[:args.runs]]
            report("record", args.field, times, 150)
        if "import" in only:
            rest = tables[args.runs if "record" in only else 0:][:-1]  # round stays open
            csv = d / "slips.csv"
            csv.write_text("round,table,winner\n" + "".join(
                f"1,{tab},{win}\n" for tab, win in rest))
            t0 = time.perf_counter()
            proc = subprocess.run(base + ["result", "import", str(csv)], env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            secs = time.perf_counter() - t0
            if proc.returncode != 0:
                raise SystemExit(f"import failed: {proc.stderr.decode().strip()}")
            print(f"BENCH cli-import players={args.field} results={len(rest)} "
                  f"seconds={secs:.2f} results_per_s={len(rest) / secs:.0f} "
                  f"budget_per_s=200", flush=True)

    if "read" in only:
        d = fresh_dir("read70")
        db, key, _ = make_event(d, 70, 1)
        base = [TOURNEY, "--ledger", str(db)]
        for name, cmd in (("standings", ["standings"]), ("round-show", ["round", "show", "2"]),
                          ("info", ["info"])):
            report(name, 70, [timed(base + cmd, env) for _ in range(args.runs)], 120)


if __name__ == "__main__":
    main()
