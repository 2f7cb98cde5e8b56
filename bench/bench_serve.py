"""``tourney serve`` under load (issue 18), loopback only, bounded in count and time.

On a 4,096-player HotC event with round 5 paired (``bench_cli.make_event``), the real
``tourney serve`` process (start-up included) and, on the same 2-core machine, the load
generator ``wrk`` (Debian package; a Python generator stands in, and says so, without it):

* ``own-page``: players' own pages ``/p/N``, N spread over the whole field (each page is
  rendered once per log size, then served from memory) — goal ≥ 2,000 requests/s;
* ``not-modified``: the same with ``If-None-Match`` of the current ETag — goal ≥ 4,000/s;
* ``pairings``: the full round-5 pairings page, its size and its gzip size;
* ``sse``: ``--streams`` open ``/live`` streams (default 4,000), one append, the time
  until every stream got the nudge (goal < 3 s) and the server's resident memory (goal
  < 500 MB);
* ``fresh``: from an append committed to a player's fresh page being served (goal
  < 200 ms), over ``--appends`` appends.

    python bench/bench_serve.py [--players 4096] [--streams 4000] [--seconds 8]

Prints machine-readable lines ``BENCH serve-<name> …``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx  # noqa: E402

from bench.bench_cli import make_event  # noqa: E402
from ledger.formats.match.model import Outcome  # noqa: E402
from ledger.storage.location import Location  # noqa: E402
from ledger.storage.store import Ledger  # noqa: E402

LUA_PLAYERS = """
math.randomseed(7)
request = function()
  return wrk.format("GET", "/p/" .. math.random(1, {players}))
end
"""


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def wrk(url: str, seconds: int, *, script: str | None = None,
        header: str | None = None) -> float:
    """Requests per second reported by ``wrk -t1 -c64``."""
    argv = ["wrk", "-t1", "-c64", f"-d{seconds}s", "--latency"]
    if script:
        argv += ["-s", script]
    if header:
        argv += ["-H", header]
    out = subprocess.run([*argv, url], capture_output=True, text=True, check=True).stdout
    m = re.search(r"Requests/sec:\s+([\d.]+)", out)
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if non2xx:
        print(f"  wrk saw {non2xx.group(1)} non-2xx/3xx responses", flush=True)
    return float(m.group(1)) if m else 0.0


async def py_load(url: str, seconds: float, paths: list[str],
                  headers: dict[str, str]) -> float:
    """A stand-in for wrk (much slower: the generator, not the server, is the limit)."""
    done = 0
    end = time.monotonic() + seconds
    async with httpx.AsyncClient(base_url=url, headers=headers) as c:
        async def worker(i: int) -> None:
            nonlocal done
            while time.monotonic() < end:
                await c.get(paths[(done + i) % len(paths)])
                done += 1
        await asyncio.gather(*(worker(i) for i in range(32)))
    return done / seconds


def append(db: Path, signer: object, table: int) -> None:
    """One result recorded in round 5 (the CLI's write path, in this process)."""
    with Ledger(Location(str(db))) as led:
        def act(t: object, now: str) -> object:
            st = t.state  # type: ignore[attr-defined]
            tab = st.fmt.rounds[-1].tables[table - 1]
            return t.record_result(signer, now, round_no=st.fmt.rounds[-1].number,  # type: ignore[attr-defined]
                                   table=tab.table, outcome=Outcome.WIN,
                                   winner=tab.players[0])
        led.write("bench", act)


async def sse_bench(host: str, port: int, streams: int, db: Path, signer: object,
                    table: int) -> tuple[float, int]:
    """Open ``streams`` streams, append once, seconds until all got the nudge."""
    conns = []
    for i in range(streams):
        r, w = await asyncio.open_connection(host, port)
        w.write(b"GET /live HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
        conns.append((r, w))
        if i % 500 == 499:
            await asyncio.sleep(0.05)
    for r, _w in conns:                                # the first event: where it starts
        await r.readuntil(b"\n\n")
        await r.readuntil(b"\n\n")
    got = 0

    async def wait_one(r: asyncio.StreamReader) -> None:
        nonlocal got
        while True:
            chunk = await r.readuntil(b"\n\n")
            if b"event: log" in chunk:
                got += 1
                return
    waiters = [asyncio.create_task(wait_one(r)) for r, _w in conns]
    t0 = time.monotonic()
    await asyncio.to_thread(append, db, signer, table)
    try:
        await asyncio.wait_for(asyncio.gather(*waiters), 30)
    except TimeoutError:
        pass
    took = time.monotonic() - t0
    for _r, w in conns:
        w.close()
    return took, got


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=4096)
    ap.add_argument("--streams", type=int, default=4000)
    ap.add_argument("--seconds", type=int, default=8)
    ap.add_argument("--appends", type=int, default=10)
    args = ap.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, args.streams * 2 + 200)),
                                                hard))
    work = Path(tempfile.mkdtemp(prefix="bench-serve-"))
    t0 = time.monotonic()
    db, _key, signer = make_event(work, args.players, 4)
    print(f"event: {args.players} players, round 5 paired ({time.monotonic() - t0:.1f} s)",
          flush=True)
    port = 18000 + os.getpid() % 1000
    base = f"http://127.0.0.1:{port}"
    tourney = shutil.which("tourney") or str(Path(sys.executable).with_name("tourney"))
    t0 = time.monotonic()
    proc = subprocess.Popen([tourney, "--ledger", str(db), "serve", "--host", "127.0.0.1",
                             "--port", str(port)], stdout=subprocess.DEVNULL)
    try:
        while True:
            try:
                if httpx.get(base + "/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.05)
        print(f"BENCH serve-start players={args.players} seconds="
              f"{time.monotonic() - t0:.2f} rss_mb={rss_mb(proc.pid):.0f}", flush=True)
        page = httpx.get(base + "/pairings")
        gz = httpx.get(base + "/pairings", headers={"Accept-Encoding": "gzip"})
        raw_gz = int(gz.headers.get("content-length", "0"))
        print(f"BENCH serve-pairings tables={args.players // 2} bytes={len(page.content)} "
              f"gzip_bytes={raw_gz} encoding={gz.headers.get('content-encoding')}",
              flush=True)
        etag = httpx.get(base + "/p/1").headers["etag"]
        if shutil.which("wrk"):
            lua = work / "players.lua"
            lua.write_text(LUA_PLAYERS.format(players=args.players))
            wrk(base + "/p/1", 2, script=str(lua))               # warm: every page once
            own = wrk(base + "/p/1", args.seconds, script=str(lua))
            nm = wrk(base + "/p/1", args.seconds, header=f"If-None-Match: {etag}")
            gen = "wrk -t1 -c64"
        else:
            paths = [f"/p/{n}" for n in range(1, args.players + 1)]
            own = asyncio.run(py_load(base, args.seconds, paths, {}))
            nm = asyncio.run(py_load(base, args.seconds, ["/p/1"], {"If-None-Match": etag}))
            gen = "python httpx (no wrk: the generator is the limit)"
        print(f"BENCH serve-own-page players={args.players} req_per_s={own:.0f} goal=2000 "
              f"generator='{gen}'", flush=True)
        print(f"BENCH serve-not-modified req_per_s={nm:.0f} goal=4000", flush=True)
        fresh = []
        for i in range(args.appends):
            table = 10 + i
            player = int(re.findall(r'<td class="num">%d</td><td>(?:<bdi>)?#(\d+) ' % table,
                                    page.text)[0])
            old = httpx.get(f"{base}/p/{player}").headers["etag"]
            append(db, signer, table)
            t1 = time.monotonic()
            while httpx.get(f"{base}/p/{player}",
                            headers={"If-None-Match": old}).status_code == 304:
                pass
            fresh.append((time.monotonic() - t1) * 1000)
            time.sleep(0.3)
        fresh.sort()
        print(f"BENCH serve-fresh appends={len(fresh)} p50_ms={fresh[len(fresh) // 2]:.0f} "
              f"max_ms={fresh[-1]:.0f} goal_ms=200", flush=True)
        time.sleep(2)
        took, got = asyncio.run(sse_bench("127.0.0.1", port, args.streams, db, signer,
                                          10 + args.appends))
        print(f"BENCH serve-sse streams={args.streams} nudged={got} seconds={took:.2f} "
              f"goal_s=3 rss_mb={rss_mb(proc.pid):.0f} goal_mb=500", flush=True)
    finally:
        proc.terminate()
        proc.wait(10)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
