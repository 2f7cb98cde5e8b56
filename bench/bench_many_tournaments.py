"""Whole-process cost of a command in a database shared by many tournaments (issue 22
item 7, ADR 0020).

Two ledgers per storage, built in-process with real signed events: ``one`` holds only the
measured tournament ``bench`` (256 players, round 1 paired); ``many`` holds the same
tournament plus ``--others`` (default 1,000) shop events of 24 players each with round 1
paired and decided and round 2 paired (about 40 events each).  Then, interleaved run by
run, the real console script of each build given with ``--tourney`` (this checkout's by
default; main's for a before/after) runs ``info``, ``standings`` and ``result record`` (a
new table each run) with ``--tournament bench`` on both ledgers; a build whose command
fails is reported ``failed=1``.  Reported: p50 per build, storage, command and ledger, and
the ratio many/one (goal ≤ 1.02).

    python bench/bench_many_tournaments.py [--runs 15] [--others 1000] [--storage sqlite,pg]
        [--tourney NAME=PATH ...] [--reuse]  # e.g. --tourney main=/work/main/.venv/bin/tourney

A ``--tourney`` wrapper that runs ``python -c`` over another checkout must pass ``-P``
(``PYTHONPATH=DIR python -P -c …``): without it the current directory's code is imported.

PostgreSQL: databases ``<--pg-prefix>one`` / ``many`` are (re)created on
``--pg-url`` (default postgresql://postgres@127.0.0.1:5432/, prefix ``bench_many_``).

Prints:  BENCH many-tournaments-lookup storage=… ledger=one|many by_key_ms=… listing_ms=…
         BENCH many-tournaments build=… storage=… command=… one_p50_ms=… many_p50_ms=…
         ratio=… one_cpu_ms=… many_cpu_ms=… cpu_ratio=…
"""

from __future__ import annotations

import argparse
import os
import resource
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
from ledger.wire.keys import Signer, load_signer, write_new_key

OUT = Path("bench/out/many")


def add_event(led: Ledger, log: str, signer: Signer, players: int, *, decided: bool) -> None:
    """A HotC event: ``players`` registered, round 1 paired (decided and round 2 paired
    when ``decided``)."""
    led.create(log, lambda now: Tournament.create(
        log=log, name=f"Shop {log}", fmt=make_format("hotc-swiss-de", 8), signer=signer,
        time=now))

    def run(t: Tournament, now: str) -> None:
        for i in range(players):
            t.register_player(f"Player {i + 1:04d}", signer, now)
        t.close_registration(signer, now)
        t.pair_round(signer, now, material=f"{log} R1", source="bench")
        if decided:
            for tab in list(t.state.fmt.rounds[-1].tables):
                if tab.result is None:
                    t.record_result(signer, now, round_no=1, table=tab.table,
                                    outcome=Outcome.WIN, winner=tab.players[0])
            t.pair_round(signer, now, material=f"{log} R2", source="bench")
    led.write(log, run)


def build(loc: Location, signer: Signer, others: int) -> None:
    """The ledger at ``loc``: ``bench`` and ``others`` shop events."""
    with Ledger(loc, create=True) as led:
        with led.group_commit():
            add_event(led, "bench", signer, 256, decided=False)
            for i in range(others):
                add_event(led, f"shop-{i:04d}", signer, 24, decided=True)


def open_tables(loc: Location) -> list[tuple[int, int]]:
    """(table, first player) of every undecided table of ``bench``'s round 1."""
    with Ledger(loc, readonly=True) as led:
        return [(t.table, t.players[0]) for t in led.load("bench").state.fmt.rounds[-1].tables
                if t.result is None]


def pg_reset(url: str, name: str, reuse: bool) -> tuple[Location, bool]:
    """The database ``name`` (created afresh unless ``reuse`` and it exists); whether it
    was created."""
    import psycopg

    with psycopg.connect(url + "postgres", autocommit=True) as conn:
        if reuse and conn.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                                  (name,)).fetchone():
            return Location(url + name), False
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {name}")
    return Location(url + name), True


def timed(argv: list[str], env: dict[str, str]) -> tuple[float, float] | None:
    """(wall ms, CPU ms of the process) of one run (None, and the error on stderr, if it
    failed).  CPU time swings less than wall time on a shared machine; a SQLite scan is
    in it, a PostgreSQL scan (in the server) only in the wall time."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    ms = (time.perf_counter() - t0) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        print(f"# FAILED ({proc.returncode}) {' '.join(argv)}: "
              f"{proc.stderr.decode().strip()[-300:]}", file=sys.stderr, flush=True)
        return None
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
    return ms, cpu


def p50(xs: list[float]) -> float:
    s = sorted(xs)
    return s[len(s) // 2] if len(s) % 2 else (s[len(s) // 2 - 1] + s[len(s) // 2]) / 2


def lookup(storage: str, ledgers: dict[str, Location], runs: int = 31) -> None:
    """In-process, on each ledger: the lookup of ``bench`` by its key
    (``has_tournament``) against the listing it replaced (``tournament_ids``, a scan of
    the events table for genesis rows) — median milliseconds."""
    for which, loc in ledgers.items():
        with Ledger(loc, readonly=True) as led:
            led.has_tournament("bench")
            by_key, listing = [], []
            for _ in range(runs):
                t0 = time.perf_counter()
                assert led.has_tournament("bench")
                t1 = time.perf_counter()
                assert "bench" in led.tournament_ids()
                t2 = time.perf_counter()
                by_key.append((t1 - t0) * 1000)
                listing.append((t2 - t1) * 1000)
        print(f"BENCH many-tournaments-lookup storage={storage} ledger={which} "
              f"by_key_ms={p50(by_key):.2f} listing_ms={p50(listing):.2f}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--others", type=int, default=1000)
    ap.add_argument("--storage", default="sqlite,pg")
    ap.add_argument("--pg-url", default="postgresql://postgres@127.0.0.1:5432/")
    ap.add_argument("--pg-prefix", default="bench_many_")
    ap.add_argument("--reuse", action="store_true",
                    help="keep ledgers built by an earlier run (their open tables)")
    ap.add_argument("--tourney", action="append", default=[],
                    help="NAME=PATH of a tourney executable (repeatable)")
    args = ap.parse_args()
    here = shutil.which("tourney") or str(Path(sys.executable).with_name("tourney"))
    builds = dict(b.split("=", 1) for b in args.tourney) or {"this": here}
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("TOURNEY_") and k != "PYTHONDONTWRITEBYTECODE"}
    key = OUT / "hj.pem"
    if not (args.reuse and key.is_file()):
        shutil.rmtree(OUT, ignore_errors=True)
        OUT.mkdir(parents=True)
        write_new_key(key, "bench head judge", None)
    signer = load_signer(key)

    for storage in args.storage.split(","):
        ledgers: dict[str, tuple[Location, list[tuple[int, int]]]] = {}
        for which, others in (("one", 0), ("many", args.others)):
            t0 = time.perf_counter()
            if storage == "sqlite":
                loc = Location(str(OUT / f"{which}.db"))
                fresh = not (args.reuse and loc.path.is_file())
            else:
                loc, fresh = pg_reset(args.pg_url, f"{args.pg_prefix}{which}", args.reuse)
            if fresh:
                build(loc, signer, others)
                print(f"# {storage} {which}: built in {time.perf_counter() - t0:.1f} s",
                      file=sys.stderr, flush=True)
            ledgers[which] = (loc, open_tables(loc))
        assert 2 * args.runs * len(builds) <= len(ledgers["one"][1]), "too few tables"
        lookup(storage, {w: loc for w, (loc, _t) in ledgers.items()})
        times: dict[tuple[str, str, str], list[tuple[float, float]]] = {}
        failed: set[tuple[str, str]] = set()
        for _run in range(args.runs):
            for bname, exe in builds.items():
                for which, (loc, tables) in ledgers.items():
                    base = [exe, "--ledger", loc.text, "--tournament", "bench"]
                    tab, win = tables.pop(0)
                    for command, argv in (
                            ("info", ["info"]), ("standings", ["standings"]),
                            ("record", ["--key", str(key), "result", "record", "--round",
                                        "1", "--table", str(tab), "--winner", str(win)])):
                        if (bname, command) in failed:
                            continue
                        ms = timed(base + argv, env)
                        if ms is None:
                            failed.add((bname, command))
                        else:
                            times.setdefault((bname, command, which), []).append(ms)
        for bname in builds if args.runs else ():
            for command in ("info", "standings", "record"):
                if (bname, command) in failed:
                    print(f"BENCH many-tournaments build={bname} storage={storage} "
                          f"command={command} failed=1", flush=True)
                    continue
                one = p50([w for w, _c in times[(bname, command, "one")]])
                many = p50([w for w, _c in times[(bname, command, "many")]])
                one_cpu = p50([c for _w, c in times[(bname, command, "one")]])
                many_cpu = p50([c for _w, c in times[(bname, command, "many")]])
                print(f"BENCH many-tournaments build={bname} storage={storage} "
                      f"command={command} others={args.others} runs={args.runs} "
                      f"one_p50_ms={one:.1f} many_p50_ms={many:.1f} ratio={many / one:.3f} "
                      f"one_cpu_ms={one_cpu:.1f} many_cpu_ms={many_cpu:.1f} "
                      f"cpu_ratio={many_cpu / one_cpu:.3f}", flush=True)


if __name__ == "__main__":
    main()
