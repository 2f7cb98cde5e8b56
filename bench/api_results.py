"""Result entry through the HTTP API (issue 29 item 3): one official, one connection, the
server's long-lived writer — a load test, not a timed unit test.

A HotC event of ``--players`` (default 4,096) opened at the terminal (``tourney init``,
officials, ``player import``, ``registration close``, ``round pair``: 2,048 tables), then
``tourney serve --station-key … --staff-key sk.pem`` as a process on loopback, and one
client entering ``--results`` results (default: every table of round 1) one after another
as ``POST /api/v1/result/record`` with the scorekeeper's staff card.  Each request is
timed from the client's side (the answer comes after the commit); then how long until
the pages show the last one (``last_shown_ms``: ``/standings``' ETag names the log's
size).  Then the log is checked: one result per table entered, and ``tourney audit
verify`` is clean.

    python -m bench.api_results                      # 4,096 players, 2,048 results
    python -m bench.api_results --players 512
    python -m bench.api_results --results 300 --compare

``--compare`` runs the same opening three times, each on a copy and through its own
server: the hub as before ADR 0051 (the pages built after every append), the ceiling (no
page built while the results stream in) and the hub as shipped.  It also times one small
SQLite commit alone on the same disk (WAL, ``synchronous=FULL``: the floor of one command
per commit).

Prints, per hub: BENCH api_results players=… commit_alone_p50_ms=… hub=… p50_ms=…
p95_ms=… p99_ms=… results_per_s=… last_shown_ms=… import_results_per_s=… audit=ok
(budgets, issue 29: p50 < 50 ms, >= 100 results/s).

Measured (2 shared cores, load average 4-8; ``--results 300 --compare``, one run):
before 44.5 ms p50, 16/s; as shipped 8.3 ms, 97/s; ceiling 9.1 ms, 82/s; a commit
alone 0.2 ms.  Three runs of the final code: as shipped 7.9-10.0 ms p50, 49-97/s,
within the noise of the ceiling of the same run (50-82/s); before 39-51 ms, 13-16/s
(docs/API.md "How fast").
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

TOURNEY = [sys.executable, "-m", "cli.main"]


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def tourney(d: Path, *args: str) -> str:
    env = {**os.environ, "TOURNEY_LEDGER": str(d / "t.db"),
           "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    run = subprocess.run([*TOURNEY, *args], cwd=d, env=env, capture_output=True, text=True,
                         check=False)
    if run.returncode != 0:
        raise SystemExit(f"tourney {' '.join(args)}: {run.stderr}")
    return run.stdout


def setup(d: Path, players: int) -> tuple[str, list[dict[str, Any]]]:
    """The opening at the terminal; (the scorekeeper's staff card token, round 1's
    tables)."""
    for stem in ("hj", "sk", "st"):
        tourney(d, "keys", "new", "--name", stem, "--out", f"{stem}.pem")
    tourney(d, "init", "--name", "Api Bench", "--format", "hotc-swiss-de", "--key", "hj.pem")
    tourney(d, "official", "add", "--role", "scorekeeper", "--name", "sk", "--public-key",
            "sk.pem.pub", "--key", "hj.pem")
    tourney(d, "official", "add", "--role", "station", "--name", "st", "--public-key",
            "st.pem.pub", "--key", "hj.pem")
    (d / "players.csv").write_text("number,name\n" + "".join(
        f"{i},Player {i}\n" for i in range(1, players + 1)))
    tourney(d, "player", "import", "players.csv", "--key", "sk.pem")
    tourney(d, "registration", "close", "--key", "hj.pem")
    tourney(d, "round", "pair", "--seed-material", "api bench 17 03 88", "--seed-source",
            "dice", "--key", "hj.pem")
    kid = next(o["key_id"] for o in json.loads(tourney(d, "official", "list", "--json"))[
        "officials"] if o["name"] == "sk")
    tourney(d, "official", "card", kid, "--url", "http://bench.invalid/", "--out",
            "sk.html", "--csv", "sk.csv", "--key", "hj.pem")
    with open(d / "sk.csv", newline="") as f:
        token = str(next(csv.DictReader(f))["url"]).rsplit("/c/", 1)[1]
    tables: list[dict[str, Any]] = json.loads(tourney(d, "round", "show", "1", "--json"))[
        "tables"]
    return token, tables


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def patched(consts: str) -> list[str]:
    """``tourney`` with constants of ``server.hub`` set first, in the server's process
    only (``consts``: "NAME = value; …")."""
    return [sys.executable, "-c", "import runpy, sys, server.hub as h; "
            + "; ".join(f"h.{c.strip()}" for c in consts.split(";"))
            + "; sys.argv = ['tourney', *sys.argv[1:]]; "
            "runpy.run_module('cli.main', run_name='__main__')"]


#: the hubs compared (``--compare``), by name: how ``tourney serve`` runs
HUBS: dict[str, list[str]] = {
    # as before ADR 0051: the pages built and rendered ahead after every append
    "per-append": patched("BUILD_GAP_S = 0.0; BUILD_SHARE = 1.0; IDLE_S = 0.0"),
    # the ceiling: no build at all while the appends stream in (only once idle)
    "idle-only": patched("BUILD_GAP_S = 1e9"),
    "coalesced": TOURNEY,                   # as shipped
}


def commit_floor(d: Path, n: int = 200) -> float:
    """p50 ms of one small SQLite commit alone, as the ledger commits (WAL,
    ``synchronous=FULL``), on the disk of ``d``: the floor of one command per commit."""
    import sqlite3

    con = sqlite3.connect(d / "floor.db", isolation_level=None)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA synchronous=FULL")
    con.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v BLOB)")
    xs = []
    for i in range(n):
        t0 = time.perf_counter()
        con.execute("BEGIN IMMEDIATE")
        con.execute("INSERT INTO t VALUES (?, ?)", (i, os.urandom(600)))
        con.execute("COMMIT")
        xs.append((time.perf_counter() - t0) * 1000)
    con.close()
    return pct(xs, 0.5)


def serve_and_enter(d: Path, tables: list[dict[str, Any]], token: str, results: int,
                    hub: str) -> dict[str, Any]:
    """``tourney serve`` on the ledger in ``d`` (``hub``: which, ``HUBS``) and one
    client entering results one by one, then the rest as one slip file; the numbers."""
    port = free_port()
    env = {**os.environ, "TOURNEY_LEDGER": str(d / "t.db"),
           "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    server = subprocess.Popen([*HUBS[hub], "serve", "--host", "127.0.0.1", "--port", str(port),
                               "--station-key", "st.pem", "--staff-key", "sk.pem"],
                              cwd=d, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    times: list[float] = []
    try:
        with httpx.Client(base_url=base, timeout=60,
                          headers={"Authorization": f"Bearer {token}"}) as http:
            end = time.monotonic() + 60
            while True:
                try:
                    if http.get("/health").status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if time.monotonic() > end or server.poll() is not None:
                    raise SystemExit("the server did not start")
                time.sleep(0.1)
            todo = [t for t in tables if len(t["players"]) == 2 and t["result"] is None]
            todo = todo[:results] if results else todo
            # the first request opens the runner's ledger and reads the click tree: warm
            # up on the first table, timed apart
            w0 = time.perf_counter()
            first = todo[0]
            r = http.post("/api/v1/result/record", json={
                "round": 1, "table": first["table"], "winner": first["players"][0]})
            warm_ms = (time.perf_counter() - w0) * 1000
            if r.status_code != 200:
                raise SystemExit(f"refused: {r.text}")
            t1 = time.perf_counter()
            for t in todo[1:]:
                s0 = time.perf_counter()
                r = http.post("/api/v1/result/record", json={
                    "round": 1, "table": t["table"], "winner": t["players"][0]})
                times.append(time.perf_counter() - s0)
                if r.status_code != 200:
                    raise SystemExit(f"refused: {r.text}")
            wall = time.perf_counter() - t1
            # the pages show the last result within the trailing build: poll the
            # standings' ETag (the log size) until it is the log's
            last = int(r.json()["seq"])
            s0 = time.perf_counter()
            while int(http.get("/standings").headers["etag"].strip('W/"').split("-")[0]) \
                    < last:
                if time.perf_counter() - s0 > 30:
                    raise SystemExit("the pages never showed the last result")
                time.sleep(0.01)
            shown_ms = (time.perf_counter() - s0) * 1000
            rest = [t for t in tables if len(t["players"]) == 2 and t["result"] is None
                    and t not in todo]
            slips = "round,table,winner\n" + "".join(
                f"1,{t['table']},{t['players'][0]}\n" for t in rest)
            i0 = time.perf_counter()
            if rest:
                r = http.post("/api/v1/result/import", json={"file": slips})
                if r.status_code != 200:
                    raise SystemExit(f"import refused: {r.text}")
            import_s = time.perf_counter() - i0
            todo += rest
    finally:
        server.terminate()
        server.wait(30)
    shown = json.loads(tourney(d, "round", "show", "1", "--json"))["tables"]
    entered = {t["table"] for t in todo}
    audit = json.loads(tourney(d, "audit", "verify", "--json"))
    ms = [x * 1000 for x in times]
    return {"hub": hub, "results": len(todo),
            "one_by_one": len(times) + 1,
            "recorded": sum(1 for t in shown if t["table"] in entered
                            and t["result"] is not None),
            "warm_ms": f"{warm_ms:.0f}", "p50_ms": f"{pct(ms, 0.5):.1f}",
            "p95_ms": f"{pct(ms, 0.95):.1f}", "p99_ms": f"{pct(ms, 0.99):.1f}",
            "max_ms": f"{max(ms):.0f}", "results_per_s": f"{len(times) / wall:.0f}",
            "last_shown_ms": f"{shown_ms:.0f}", "import_results": len(rest),
            "import_s": f"{import_s:.1f}",
            "import_results_per_s": f"{len(rest) / import_s if rest else 0:.0f}",
            "audit": "ok" if audit.get("ok") else "FAILED"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=4096)
    ap.add_argument("--results", type=int, default=0,
                    help="results entered one by one (0: every table of round 1); the "
                         "rest of the round's tables are then sent as one slip file "
                         "(POST /api/v1/result/import)")
    ap.add_argument("--compare", action="store_true",
                    help="first run the server as before ADR 0051 (pages built after "
                         "every append) and with no build while results stream in (the "
                         "ceiling), each on a copy of the same opening")
    ap.add_argument("--keep", action="store_true", help="keep the working directory")
    a = ap.parse_args()
    d = Path(tempfile.mkdtemp(prefix="tourney-api-bench-"))
    t0 = time.perf_counter()
    token, tables = setup(d, a.players)
    setup_s = time.perf_counter() - t0
    floor = commit_floor(d)
    for hub in list(HUBS) if a.compare else ["coalesced"]:
        run_dir = d / "runs" / hub
        shutil.copytree(d, run_dir, ignore=shutil.ignore_patterns("runs", "floor.db*"))
        out = serve_and_enter(run_dir, tables, token, a.results, hub)
        print(f"BENCH api_results players={a.players} setup_s={setup_s:.1f} "
              f"commit_alone_p50_ms={floor:.1f} "
              + " ".join(f"{k}={v}" for k, v in out.items()), flush=True)
    if a.keep:
        print(f"kept {d}")
    else:
        shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    main()
