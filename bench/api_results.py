"""Result entry through the HTTP API (issue 29 item 3): one official, one connection, the
server's long-lived writer — a load test, not a timed unit test.

A HotC event of ``--players`` (default 4,096) opened at the terminal (``tourney init``,
officials, ``player import``, ``registration close``, ``round pair``: 2,048 tables), then
``tourney serve --station-key … --staff-key sk.pem`` as a process on loopback, and one
client entering ``--results`` results (default: every table of round 1) one after another
as ``POST /api/v1/result/record`` with the scorekeeper's staff card.  Each request is
timed from the client's side (the answer comes after the commit and after the server's
pages hold it).  Then the log is checked: one result per table entered, and ``tourney
audit verify`` is clean.

    python -m bench.api_results                      # 4,096 players, 2,048 results
    python -m bench.api_results --players 512

Prints: BENCH api_results players=… results=… p50_ms=… p95_ms=… p99_ms=… results_per_s=…
import_results_per_s=… audit=ok (budgets, issue 29: p50 < 50 ms, >= 100 results/s)
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=4096)
    ap.add_argument("--results", type=int, default=0,
                    help="results entered one by one (0: every table of round 1); the "
                         "rest of the round's tables are then sent as one slip file "
                         "(POST /api/v1/result/import)")
    ap.add_argument("--keep", action="store_true", help="keep the working directory")
    a = ap.parse_args()
    d = Path(tempfile.mkdtemp(prefix="tourney-api-bench-"))
    t0 = time.perf_counter()
    token, tables = setup(d, a.players)
    setup_s = time.perf_counter() - t0
    port = free_port()
    env = {**os.environ, "TOURNEY_LEDGER": str(d / "t.db"),
           "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    server = subprocess.Popen([*TOURNEY, "serve", "--host", "127.0.0.1", "--port", str(port),
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
            todo = todo[:a.results] if a.results else todo
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
    results = sum(1 for t in shown if t["table"] in entered and t["result"] is not None)
    audit = json.loads(tourney(d, "audit", "verify", "--json"))
    ms = [x * 1000 for x in times]
    print(f"BENCH api_results players={a.players} results={len(todo)} "
          f"one_by_one={len(times) + 1} "
          f"recorded={results} setup_s={setup_s:.1f} warm_ms={warm_ms:.0f} "
          f"p50_ms={pct(ms, 0.5):.1f} p95_ms={pct(ms, 0.95):.1f} p99_ms={pct(ms, 0.99):.1f} "
          f"max_ms={max(ms):.0f} results_per_s={len(times) / wall:.0f} "
          f"import_results={len(rest)} import_s={import_s:.1f} "
          f"import_results_per_s={len(rest) / import_s if rest else 0:.0f} "
          f"audit={'ok' if audit.get('ok') else 'FAILED'}")
    if a.keep:
        print(f"kept {d}")
    else:
        shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    main()
