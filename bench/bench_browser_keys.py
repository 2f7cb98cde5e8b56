"""Results signed in the official's browser (issue 29 item 2, ADR 0046): a load test, not a
timed unit test.

A HotC event of ``--players`` (default 512) with round 1 paired, made by real ``tourney``
commands; a key from ``cryptography`` plays the browser (bound with ``official bind``,
signed in with its staff card).  ``tourney serve`` runs without any key.  One official
enters every table's result as the console does: ``POST …/result/record/prepare``, sign
the bytes, ``POST …/submit`` — two HTTP round trips and two decisions per result, on one
keep-alive connection.  Then ``tourney audit verify`` must be clean.

    python -m bench.bench_browser_keys [--players 512]

Prints: BENCH browser_keys players=… results=… p50_ms=… p95_ms=… results_per_s=…
prepare_p50_ms=… submit_p50_ms=… audit=ok
"""

from __future__ import annotations

import argparse
import base64
import csv
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _tourney(cwd: Path, env: dict[str, str], *args: str) -> str:
    run = subprocess.run([sys.executable, "-m", "cli.main", *args], cwd=cwd, env=env,
                         capture_output=True, text=True, check=False)
    if run.returncode:
        raise SystemExit(f"tourney {' '.join(args)}: {run.stderr.strip()}")
    return run.stdout


def main() -> None:
    import httpx
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from ledger.wire.keys import key_id

    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=512)
    opts = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-browser-keys-") as tmp:
        d = Path(tmp)
        env = {k: v for k, v in os.environ.items() if not k.startswith("TOURNEY_")}
        env.update(TOURNEY_LEDGER=str(d / "t.db"), PYTHONPATH=str(ROOT))
        _tourney(d, env, "keys", "new", "--name", "HJ", "--out", "hj.pem")
        _tourney(d, env, "init", "--name", "Bench", "--format", "hotc-swiss-de", "--cut",
                 "8", "--key", "hj.pem")
        (d / "p.csv").write_text("number,name\n" + "".join(
            f"{i},Player {i}\n" for i in range(1, opts.players + 1)))
        _tourney(d, env, "player", "import", "p.csv", "--key", "hj.pem")
        _tourney(d, env, "registration", "close", "--key", "hj.pem")
        import json

        tables = json.loads(_tourney(d, env, "round", "pair", "--seed-material",
                                     "bench 4 8 15 16", "--seed-source", "dice", "--key",
                                     "hj.pem", "--json"))["tables"]
        browser = Ed25519PrivateKey.generate()
        raw = browser.public_key().public_bytes_raw()
        kid = key_id(raw)
        _tourney(d, env, "official", "bind", "--role", "scorekeeper", "--name", "Sam",
                 "--public-key", base64.b64encode(raw).decode(), "--key", "hj.pem")
        _tourney(d, env, "official", "card", kid, "--url", "http://bench.invalid/", "--out",
                 "c.html", "--csv", "c.csv", "--key", "hj.pem")
        with open(d / "c.csv", newline="") as f:
            token = next(csv.DictReader(f))["url"].rsplit("/c/", 1)[1]
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        server = subprocess.Popen([sys.executable, "-m", "cli.main", "serve", "--host",
                                   "127.0.0.1", "--port", str(port)], cwd=d, env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                  start_new_session=True)
        base = f"http://127.0.0.1:{port}"
        try:
            client = httpx.Client(base_url=base, timeout=60,
                                  headers={"Authorization": f"Bearer {token}"})
            for _ in range(300):
                try:
                    if client.get("/health").status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            whole, prep_ms, sub_ms = [], [], []
            start = time.perf_counter()
            for t in tables:
                args = {"round": 1, "table": t["table"], "winner": t["players"][0]}
                t0 = time.perf_counter()
                ans = client.post("/api/v1/result/record/prepare", json={"args": args}).json()
                t1 = time.perf_counter()
                signed: list[dict[str, str]] = []
                while not ans.get("done"):
                    if "to_sign" not in ans:
                        raise SystemExit(f"refused: {ans}")
                    msg = base64.b64decode(ans["to_sign"])
                    signed = [*signed[:ans["index"]], {"bytes": ans["to_sign"], "sig":
                              base64.b64encode(browser.sign(msg)).decode()}]
                    ans = client.post("/api/v1/result/record/submit", json={
                        "args": args, "time": ans["time"], "signed": signed}).json()
                t2 = time.perf_counter()
                whole.append((t2 - t0) * 1000)
                prep_ms.append((t1 - t0) * 1000)
                sub_ms.append((t2 - t1) * 1000)
            took = time.perf_counter() - start
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(30)
        audit = json.loads(_tourney(d, env, "audit", "verify", "--json"))
        q = statistics.quantiles(whole, n=20)
        print(f"BENCH browser_keys players={opts.players} results={len(whole)} "
              f"p50_ms={statistics.median(whole):.1f} p95_ms={q[18]:.1f} "
              f"results_per_s={len(whole) / took:.1f} "
              f"prepare_p50_ms={statistics.median(prep_ms):.1f} "
              f"submit_p50_ms={statistics.median(sub_ms):.1f} "
              f"audit={'ok' if audit['ok'] else 'FAILED'}")


if __name__ == "__main__":
    main()
