"""The HTTP API's reads (issue 29 item 3) at 4,096 players: latency of each read.

A HotC event of ``--players`` (default 4,096) with ``--rounds`` complete rounds and the
next one paired (``bench.bench_cli.make_event``), penalties published so that ``/log`` is
served; the real application (``server.app.create_app``) under uvicorn in a thread on a
loopback port; one ``httpx`` client, one request at a time (latency, not throughput), on
the same 2-core machine as the server.  For each read:

* ``first``: the first request at this log size (the document is encoded then: once per
  log size, from the hub's memory — no fold per request);
* ``warm``: ``--requests`` more (served from memory); for ``/players/{n}`` each request
  is another player, so every one of them is a ``first`` (its own document);
* ``304``: with ``If-None-Match`` of the ETag.

``/log`` is timed for pages of 1,000 leaves (the default ``limit``) spread over the log.
Then ``--appends`` results are recorded one at a time (another connection, as the desk);
after each, once the server shows it, the first request of each read is timed
(``after-append``): the standings and the earlier rounds, kept by the follower while the
round is played, are not encoded again.

    python -m bench.api_reads [--players 4096] [--rounds 4] [--requests 200]

Prints ``BENCH api-reads-<read> p50_ms=… p99_ms=… first_ms=… bytes=…`` lines.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


@contextmanager
def _served(db: Path) -> Iterator[str]:
    import socket

    import uvicorn

    import ledger.formats.registry  # noqa: F401  (plugs the formats into the core)
    from ledger.storage.location import Location
    from server.app import Hub, create_app

    hub = Hub(Location(str(db)), None)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    server = uvicorn.Server(uvicorn.Config(create_app(hub), host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="on"))
    t = threading.Thread(target=server.run, daemon=True)
    t.start()
    while not server.started:
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        t.join(10)


def _time(c: httpx.Client, url: str, **headers: str) -> tuple[float, httpx.Response]:
    t0 = time.perf_counter()
    r = c.get(url, headers=headers)
    ms = (time.perf_counter() - t0) * 1000
    if r.status_code not in (200, 304):
        raise SystemExit(f"{url}: {r.status_code} {r.text[:200]}")
    return ms, r


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=4096)
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--requests", type=int, default=200)
    ap.add_argument("--appends", type=int, default=10)
    a = ap.parse_args()
    from bench.bench_cli import make_event
    from ledger.storage.location import Location
    from ledger.storage.store import Ledger

    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        db, _key, signer = make_event(Path(tmp), a.players, a.rounds)
        with Ledger(Location(str(db))) as led:
            led.write("bench", lambda t, now: t.set_public_pages(
                signer, now, penalties=True))
        print(f"# event of {a.players} players, {a.rounds} rounds played, round "
              f"{a.rounds + 1} paired: built in {time.perf_counter() - t0:.1f} s",
              flush=True)
        rng = random.Random(7)
        with _served(db) as base, httpx.Client(base_url=base, timeout=60) as c:
            size = int(c.get("/api/v1/event").json()["log"]["size"])
            reads = {"event": ["/api/v1/event"], "standings": ["/api/v1/standings"],
                     "round": [f"/api/v1/rounds/{a.rounds + 1}"],
                     "round-1": ["/api/v1/rounds/1"],
                     "player": [f"/api/v1/players/{rng.randint(1, a.players)}"
                                for _ in range(a.requests + 1)],
                     "log": [f"/api/v1/log?after={rng.randint(0, max(0, size - 1000))}"
                             for _ in range(a.requests + 1)]}
            for name, urls in reads.items():
                first, r = _time(c, urls[0])
                warm = [_time(c, urls[(i + 1) % len(urls)])[0] for i in range(a.requests)]
                nm_runs = [_time(c, urls[0], **{"If-None-Match": r.headers["etag"]})
                           for _ in range(min(50, a.requests))]
                if any(x[1].status_code != 304 for x in nm_runs):
                    raise SystemExit(f"{urls[0]}: If-None-Match did not answer 304")
                nm = [x[0] for x in nm_runs]
                print(f"BENCH api-reads-{name} p50_ms={_pct(warm, 0.5):.2f} "
                      f"p99_ms={_pct(warm, 0.99):.2f} first_ms={first:.1f} "
                      f"304_p50_ms={_pct(nm, 0.5):.2f} bytes={len(r.content)}", flush=True)
            from bench.bench_serve import append
            after: dict[str, list[float]] = {k: [] for k in reads if k != "log"}
            for i in range(a.appends):
                append(db, signer, 2 * i + 1)
                size += 1
                while int(c.get("/api/v1/event").json()["log"]["size"]) < size:
                    time.sleep(0.01)
                for name in after:
                    after[name].append(_time(c, reads[name][0])[0])
            for name, xs in after.items():
                print(f"BENCH api-reads-{name}-after-append p50_ms={_pct(xs, 0.5):.1f} "
                      f"max_ms={max(xs):.1f} appends={len(xs)}", flush=True)


if __name__ == "__main__":
    main()
