"""The posting stampede (issue 32): every phone fetches its own page when a round is posted.

A HotC event of ``--players`` (default 7,551, the largest Swiss field on record) with
rounds 1-4 complete; the real ``tourney serve`` process (uvicorn, one process); one phone
per player, simulated in this process (asyncio, raw sockets): each has loaded its own
page ``/p/N`` (its ETag kept) and holds the ``/live`` stream open.  Then round 5 is
posted (``round pair``, this process, through ``Ledger.write``) and every phone does what
``live.js`` does: on the nudge whose ``v`` differs from its page's, it waits 200-1,500 ms
at random, then fetches its page again with ``If-None-Match`` and ``Accept-Encoding:
gzip`` (on a new connection: uvicorn closes idle keep-alive connections after 5 s).

Measured: pages served fresh (a 200 with the new log size in the ETag), errors, the
request latency of those fetches (sent → body read: p50, p99, max — goal p99 < 1 s), the
time from the post to the first and last nudge and to the last page, and pages/s.

The ceiling, in the same run: a bare Starlette app on uvicorn (same process model,
``bench/bench_stampede.py --bare`` internally) whose ``/p/N`` returns constant bytes (a
real player page of this event and its gzip) and whose ``/live`` nudges once when told;
the same phones, the same stampede.

    python bench/bench_stampede.py [--players 7551] [--tree DIR]
    PYTHONPATH=DIR python bench/bench_stampede.py --cpu     # the follower's CPU seconds

``--tree DIR`` serves with another checkout's code (``PYTHONPATH=DIR``), for a
before/after run.  Prints ``BENCH stampede-<server> …`` lines.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"


def make_posted_event(d: Path, players: int) -> tuple[Path, object]:
    """Rounds 1-4 complete, round 5 not paired; (ledger, head judge's signer)."""
    from bench.bench_cli import make_event
    from ledger.formats.match.model import Outcome
    from ledger.storage.location import Location
    from ledger.storage.store import Ledger

    db, _key, signer = make_event(d, players, 3)     # round 4 paired

    def finish(t: object, now: str) -> None:
        st = t.state  # type: ignore[attr-defined]
        for tab in list(st.fmt.rounds[-1].tables):
            if tab.result is None:
                t.record_result(signer, now, round_no=st.fmt.rounds[-1].number,  # type: ignore[attr-defined]
                                table=tab.table, outcome=Outcome.WIN, winner=tab.players[0])
    with Ledger(Location(str(db))) as led:
        led.write("bench", finish)
    return db, signer


def post_round(db: Path, signer: object) -> None:
    from ledger.storage.location import Location
    from ledger.storage.store import Ledger

    with Ledger(Location(str(db))) as led:
        led.write("bench", lambda t, now: t.pair_round(  # type: ignore[attr-defined]
            signer, now, material="bench R5", source="bench"))


# -- the phones ---------------------------------------------------------------------------
async def http_get(path: str, port: int, headers: dict[str, str]
                   ) -> tuple[int, dict[str, str], bytes]:
    r, w = await asyncio.open_connection(HOST, port)
    try:
        head = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
        w.write(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n{head}\r\n".encode())
        raw = await r.readuntil(b"\r\n\r\n")
        lines = raw.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        hdrs = {k.lower(): v.strip() for k, _, v in (ln.partition(":") for ln in lines[1:] if ln)}
        n = int(hdrs.get("content-length", "0"))
        body = await r.readexactly(n) if n else b""
        return status, hdrs, body
    finally:
        w.close()


class Phone:
    def __init__(self, n: int) -> None:
        self.n = n
        self.etag = ""
        self.v = ""
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.nudged_at = 0.0
        self.sent_at = 0.0
        self.done_at = 0.0
        self.status = 0
        self.fresh = False
        self.error = ""

    async def load(self, port: int) -> None:
        status, hdrs, _body = await http_get(f"/p/{self.n}", port, {"Accept-Encoding": "gzip"})
        if status != 200:
            raise RuntimeError(f"/p/{self.n}: {status}")
        self.etag = hdrs["etag"]
        self.v = self.etag.strip('"').removesuffix("-gz")

    async def listen(self, port: int) -> None:
        self.reader, self.writer = await asyncio.open_connection(HOST, port)
        self.writer.write(b"GET /live HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
        await self.reader.readuntil(b"\r\n\r\n")           # the response's head
        await self.next_nudge()                             # where the stream starts

    async def next_nudge(self) -> dict[str, object]:
        assert self.reader is not None
        while True:
            chunk = await self.reader.readuntil(b"\n\n")
            text = chunk.decode("utf-8", "replace")
            for line in text.splitlines():
                if line.startswith("data: "):
                    return dict(json.loads(line[6:]))

    async def stampede(self, port: int, rng: random.Random, fresh_size: int) -> None:
        try:
            while True:
                d = await self.next_nudge()
                if d.get("v") != self.v:
                    break
            self.nudged_at = time.monotonic()
            spread = float(d.get("spread") or 1300) / 1000   # type: ignore[arg-type]
            await asyncio.sleep(0.2 + rng.random() * spread)  # live.js: soon()
            self.sent_at = time.monotonic()
            self.status, hdrs, _body = await http_get(
                f"/p/{self.n}", port, {"If-None-Match": self.etag, "Accept-Encoding": "gzip"})
            self.done_at = time.monotonic()
            tag = hdrs.get("etag", "").strip('"')
            self.fresh = self.status == 200 and (fresh_size == 0 or
                                                 int(tag.split("-")[0] or 0) >= fresh_size)
        except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
            self.error = type(exc).__name__
            self.done_at = time.monotonic()

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


def cpu_s(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def run_stampede(port: int, players: int, post: object, fresh_size: int,
                       label: str, pid: int) -> dict[str, float]:
    phones = [Phone(n) for n in range(1, players + 1)]
    sem = asyncio.Semaphore(64)

    async def bounded(coro: object) -> None:
        async with sem:
            await coro  # type: ignore[misc]
    t0 = time.monotonic()
    await asyncio.gather(*(bounded(p.load(port)) for p in phones))
    loaded = time.monotonic() - t0
    await asyncio.gather(*(bounded(p.listen(port)) for p in phones))
    await asyncio.sleep(1.0)
    rng = random.Random(32)
    tasks = [asyncio.create_task(p.stampede(port, random.Random(rng.random()), fresh_size))
             for p in phones]
    await asyncio.sleep(0.2)
    t_post = time.monotonic()
    cpu0 = cpu_s(pid)
    await asyncio.to_thread(post)  # type: ignore[arg-type]
    t_committed = time.monotonic()
    await asyncio.wait(tasks, timeout=300)
    cpu = cpu_s(pid) - cpu0
    for p in phones:
        p.close()
    ok = [p for p in phones if p.fresh]
    errors = [p for p in phones if not p.fresh]
    lat = sorted(p.done_at - p.sent_at for p in ok)
    nudges = sorted(p.nudged_at - t_committed for p in phones if p.nudged_at)

    def pct(xs: list[float], q: float) -> float:
        return xs[min(len(xs) - 1, int(len(xs) * q))] if xs else float("nan")
    first = min((p.sent_at for p in ok), default=t_committed)
    last = max((p.done_at for p in ok), default=t_committed)
    out = {"served": len(ok), "errors": len(errors), "p50_s": pct(lat, 0.5),
           "p99_s": pct(lat, 0.99), "max_s": lat[-1] if lat else float("nan"),
           "nudge_first_s": nudges[0] if nudges else float("nan"),
           "nudge_last_s": nudges[-1] if nudges else float("nan"),
           "last_page_s": last - t_committed, "post_s": t_committed - t_post,
           "pages_per_s": len(ok) / max(last - first, 1e-9), "load_s": loaded}
    kinds: dict[str, int] = {}
    for p in errors:
        k = p.error or f"status {p.status}"
        kinds[k] = kinds.get(k, 0) + 1
    print(f"BENCH stampede-{label} players={players} served={len(ok)} errors={len(errors)} "
          f"p50_s={out['p50_s']:.2f} p99_s={out['p99_s']:.2f} max_s={out['max_s']:.2f} "
          f"nudge_s={out['nudge_first_s']:.2f}..{out['nudge_last_s']:.2f} "
          f"last_page_after_post_s={out['last_page_s']:.2f} pages_per_s={out['pages_per_s']:.0f}"
          f" post_s={out['post_s']:.2f} server_cpu_s={cpu:.1f} "
          f"loadavg={os.getloadavg()[0]:.1f} goal_p99_s=1"
          + (f" error_kinds={kinds}" if kinds else ""),
          flush=True)
    return out


def follower_cpu(players: int) -> None:
    """CPU seconds of the follower's thread (``time.thread_time``: what other jobs on the
    machine do not change) from a posting until every player's page is in memory: the
    fold, the build and the rendering ahead of the nudge (``Hub.refresh``), then whatever
    is left for the phones' requests to render."""
    import ledger.formats.registry  # noqa: F401
    from ledger.storage.location import Location
    from server.app import Hub

    work = Path(tempfile.mkdtemp(prefix="bench-stampede-cpu-"))
    try:
        db, signer = make_posted_event(work, players)
        hub = Hub(Location(str(db)), None)
        for n in range(1, players + 1):               # every phone has its page open
            hub.pages.get(f"player/{n}")
            getattr(hub, "hot", set()).add(f"player/{n}")
        hub.loop, hub.dirty = asyncio.new_event_loop(), asyncio.Event()
        post_round(db, signer)
        t0 = time.thread_time()
        hub.refresh()
        t1 = time.thread_time()
        ahead = sum(hub.pages.cached(f"player/{n}") is not None
                    for n in range(1, players + 1))
        t2 = time.thread_time()
        for n in range(1, players + 1):
            hub.pages.get(f"player/{n}")
        t3 = time.thread_time()
        print(f"BENCH stampede-follower-cpu players={players} refresh_cpu_s={t1 - t0:.2f} "
              f"rendered_ahead={ahead} left_for_requests_cpu_s={t3 - t2:.2f} "
              f"total_cpu_s={t1 - t0 + t3 - t2:.2f}", flush=True)
        hub.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)


# -- the bare ceiling ------------------------------------------------------------------
def bare_app(body_file: str, spread: bool) -> object:
    """Starlette: ``/p/N`` constant bytes (gzip when asked, ETag, 304), ``/live`` one
    nudge after ``/go`` (with ``spread``: the window ``tourney serve`` gives phones for
    this many streams, ``server.app.spread_ms``)."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response, StreamingResponse
    from starlette.routing import Route

    from server.app import spread_ms

    body = Path(body_file).read_bytes()
    gz = gzip.compress(body, 6, mtime=0)
    state: dict[str, object] = {"v": "1", "event": asyncio.Event(), "streams": 0}

    async def page(request: Request) -> Response:
        tag = f'"{state["v"]}"'
        if request.headers.get("if-none-match") == tag:
            return Response(status_code=304, headers={"ETag": tag})
        use = "gzip" in request.headers.get("accept-encoding", "")
        return Response(gz if use else body, media_type="text/html; charset=utf-8",
                        headers={"ETag": f'"{state["v"]}"', "Cache-Control": "no-cache",
                                 **({"Content-Encoding": "gzip"} if use else {})})

    async def live(request: Request) -> StreamingResponse:
        async def stream() -> object:
            state["streams"] = int(state["streams"]) + 1  # type: ignore[call-overload]
            yield f'event: log\ndata: {{"v":"{state["v"]}"}}\n\n'
            ev = state["event"]
            await ev.wait()  # type: ignore[attr-defined]
            ms = spread_ms(int(state["streams"])) if spread else 1300  # type: ignore[call-overload]
            yield f'event: log\ndata: {{"v":"{state["v"]}","spread":{ms}}}\n\n'
            await asyncio.sleep(3600)
        return StreamingResponse(stream(), media_type="text/event-stream")  # type: ignore[arg-type]

    async def go(request: Request) -> Response:
        state["v"] = "2"
        state["event"].set()  # type: ignore[attr-defined]
        return Response(b"ok")

    return Starlette(routes=[Route("/p/{n}", page), Route("/live", live), Route("/go", go),
                             Route("/health", lambda r: Response(b"{}"))])


def wait_up(port: int, proc: subprocess.Popen[bytes]) -> None:
    import httpx

    end = time.monotonic() + 120
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise SystemExit(f"server exited {proc.returncode}")
        try:
            if httpx.get(f"http://{HOST}:{port}/health", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.1)
    raise SystemExit("server did not start")


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=7551)
    ap.add_argument("--tree", type=Path, action="append",
                    help="serve with this checkout's code (repeat for a before/after run)")
    ap.add_argument("--bare", help=argparse.SUPPRESS)        # internal: serve the ceiling
    ap.add_argument("--spread", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("--skip-bare", action="store_true")
    ap.add_argument("--cpu", action="store_true",
                    help="only the follower's CPU seconds per posting (in this process; "
                         "PYTHONPATH picks the tree)")
    args = ap.parse_args()
    if args.bare:
        import uvicorn
        uvicorn.run(bare_app(args.bare, args.spread), host=HOST, port=args.port,  # type: ignore[arg-type]
                    log_level="warning", access_log=False)
        return
    if args.cpu:
        follower_cpu(args.players)
        return
    try:
        import uvloop
        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    except ImportError:
        pass
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    work = Path(tempfile.mkdtemp(prefix="bench-stampede-"))
    t0 = time.monotonic()
    import ledger.formats.registry  # noqa: F401
    db, signer = make_posted_event(work, args.players)
    print(f"event: {args.players} players, rounds 1-4 complete ({time.monotonic() - t0:.1f} s)",
          flush=True)
    port = 19000 + os.getpid() % 900
    tourney = shutil.which("tourney") or str(Path(sys.executable).with_name("tourney"))
    page = b""
    import httpx

    from ledger.storage.location import Location
    from ledger.storage.store import Ledger
    for tree in args.tree or [ROOT]:
        run = work / tree.name
        run.mkdir()
        import sqlite3
        with sqlite3.connect(db) as c:                   # each tree its own copy
            c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        shutil.copy(db, run / db.name)
        rdb = run / "tournament.db"
        env = {**os.environ, "PYTHONPATH": str(tree.resolve())}
        proc = subprocess.Popen([tourney, "--ledger", str(rdb), "serve", "--host", HOST,
                                 "--port", str(port)], env=env, stdout=subprocess.DEVNULL)
        try:
            wait_up(port, proc)
            with Ledger(Location(str(rdb)), readonly=True) as led:
                size = led.load("bench").state.size
            asyncio.run(run_stampede(port, args.players,
                                     lambda rdb=rdb: post_round(rdb, signer),  # type: ignore[misc]
                                     size + 1, f"tourney tree={tree.resolve()}", proc.pid))
            try:
                page = page or httpx.get(f"http://{HOST}:{port}/p/1", timeout=120).content
            except httpx.HTTPError:
                pass
        finally:
            stop(proc)
        port += 1
    if args.skip_bare or not page:
        return
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    (work / "page.html").write_bytes(page)
    try:
        for spread in (False, True):
            port += 1
            bare = subprocess.Popen([sys.executable, __file__, "--bare", str(work / "page.html"),
                                     "--port", str(port), *(["--spread"] if spread else [])],
                                    env=env)
            try:
                wait_up(port, bare)
                asyncio.run(run_stampede(port, args.players,
                                         lambda p=port: httpx.get(f"http://{HOST}:{p}/go"), 0,
                                         f"bare-starlette spread={'server' if spread else '1.3s'}",
                                         bare.pid))
            finally:
                stop(bare)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
