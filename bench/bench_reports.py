"""Players reporting from their phones under load (issue 19), loopback only, bounded.

A 4,096-player HotC event created with ``self_report_policy=auto``, round 1 paired (2,048
tables), every player's card issued; the real ``tourney serve --station-key`` process
(start-up included); ``--clients`` concurrent keep-alive HTTP clients (default 500, one
asyncio process on the same 2-core machine) post both players' reports of every table
(each client its share of the players, in a shuffled order, so the two reports of a table
come from different clients at different moments).  Measured:

* ``reports/s`` sustained (all reports over the wall time from the first post to the last
  receipt) — goal ≥ 200/s;
* latency from submit to receipt (the ``303`` to ``/receipt/N``): p50, p99, max — goal
  p99 < 1 s.  Closed loop (the default) every client posts again as soon as it has its
  receipt, so 500 clients always keep 500 reports in flight and latency is 500 / rate
  (Little's law); ``--rate R`` offers R reports a second (open loop, latency counted from
  when each report was due) — the goal's "≥ 200 reports/s with p99 < 1 s" is
  ``--rate 200``;
* nothing lost: every receipted report is in the log exactly once, every table's result
  recorded once by the station citing both reports, the whole-process audit clean;
* the round paired after the last result: ``tourney round pair`` as a process — goal < 1 s.

    python bench/bench_reports.py [--players 4096] [--clients 500] [--rate 200]

Prints machine-readable lines ``BENCH reports-<name> …``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import secrets
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ledger.core.aggregate import Tournament  # noqa: E402
from ledger.core.credentials import token_sha256  # noqa: E402
from ledger.core.format_socket import require_plugin  # noqa: E402
from ledger.formats.registry import make_format  # noqa: E402
from ledger.storage.location import Location  # noqa: E402
from ledger.storage.store import Ledger  # noqa: E402
from ledger.wire.events import LedgerPolicy, Role, SelfReportPolicy  # noqa: E402
from ledger.wire.keys import PublicKey, write_new_key  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
LOG = "bench"


def make_event(d: Path, players: int) -> tuple[Path, dict[int, str], list[tuple[int, int]]]:
    """The event; returns (ledger, token per player, (table, winner) per table)."""
    hj = write_new_key(d / "hj.pem", "bench head judge", None)
    station = write_new_key(d / "station.pem", "Live server", None)
    db = d / "tournament.db"
    tokens = {n: secrets.token_hex(16) for n in range(1, players + 1)}
    with Ledger(Location(str(db)), create=True) as led:
        led.create(LOG, lambda now: Tournament.create(
            log=LOG, name="Report bench", fmt=make_format("hotc-swiss-de", 8), signer=hj,
            time=now, policy=LedgerPolicy(self_report_policy=SelfReportPolicy.AUTO)))

        def setup(t: Tournament, now: str) -> None:
            t.add_official(PublicKey(station.public_key_raw, "Live server"), Role.STATION,
                           "Live server", hj, now)
            for i in range(players):
                t.register_player(f"Player {i + 1:04d}", hj, now)
            t.close_registration(hj, now)
        led.write(LOG, setup)
        led.write(LOG, lambda t, now: t.pair_round(hj, now, material="bench R1",
                                                   source="bench"))

        def cards(t: Tournament, now: str) -> None:
            for n, tok in tokens.items():
                t.issue_credential(token_sha256(tok), hj, now, number=n)
        led.write(LOG, cards)
        st = led.load(LOG).state
    plugin = require_plugin("hotc-swiss-de")
    tables = []
    table = 1
    while (seat := plugin.entry.table_at(st, 1, table)) is not None:
        tables.append((table, seat[0][0]))
        table += 1
    return db, tokens, tables


def win_choice() -> int:
    vocab = require_plugin("hotc-swiss-de").entry.result_vocabulary()
    return next(i for i, e in enumerate(vocab.entries) if e.key == "win")


async def post(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, host: str,
               token: str, body: bytes) -> tuple[int, str]:
    csrf = "0" * 32
    head = (f"POST /report HTTP/1.1\r\nHost: {host}\r\nOrigin: http://{host}\r\n"
            f"Cookie: tourney_card={token}; tourney_csrf={csrf}\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode()
    writer.write(head + body)
    await writer.drain()
    status = int((await reader.readline()).split()[1])
    length, location = 0, ""
    while (line := await reader.readline()) not in (b"\r\n", b""):
        k, _, v = line.decode().partition(":")
        if k.lower() == "content-length":
            length = int(v)
        elif k.lower() == "location":
            location = v.strip()
    await reader.readexactly(length)
    return status, location


async def load(host: str, port: int, jobs: list[tuple[int, str, int, int]],
               clients: int, rate: float | None) -> tuple[list[float], list[str], float]:
    """Closed loop (``rate`` None: each client posts its next report when the last one
    got its receipt) or open loop (report k is due at ``k / rate`` s; its latency counts
    from when it was due, so a slow server is not hidden by clients that wait)."""
    choice = win_choice()
    due = {id(j): (k / rate if rate else 0.0) for k, j in enumerate(jobs)}
    shares = [jobs[i::clients] for i in range(clients)]
    lat: list[float] = []
    seen: list[str] = []
    start = time.perf_counter()

    async def client(share: list[tuple[int, str, int, int]]) -> None:
        reader, writer = await asyncio.open_connection(host, port)
        for job in share:
            _n, token, _table, winner = job
            body = f"csrf={'0' * 32}&choice={choice}&c{choice}.winner={winner}".encode()
            if rate:
                wait = start + due[id(job)] - time.perf_counter()
                if wait > 0:
                    await asyncio.sleep(wait)
                t0 = start + due[id(job)]
            else:
                t0 = time.perf_counter()
            status, location = await post(reader, writer, f"{host}:{port}", token, body)
            lat.append(time.perf_counter() - t0)
            if status != 303:
                raise SystemExit(f"a report was refused: HTTP {status}")
            seen.append(location)
        writer.close()

    await asyncio.gather(*(client(s) for s in shares if s))
    return lat, seen, time.perf_counter() - start


def serve(db: Path, d: Path, port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "cli.main", "--ledger", str(db), "serve",
                             "--host", "127.0.0.1", "--port", str(port), "--station-key",
                             str(d / "station.pem")], env=env, cwd=d,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    import httpx

    end = time.monotonic() + 60
    while time.monotonic() < end:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        if proc.poll() is not None:
            raise SystemExit(f"serve exited: {proc.stderr.read().decode() if proc.stderr else ''}")
        time.sleep(0.2)
    proc.kill()
    raise SystemExit("serve did not start")


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=4096)
    ap.add_argument("--clients", type=int, default=500)
    ap.add_argument("--port", type=int, default=8765)
    ap.add_argument("--rate", type=float, default=None,
                    help="open loop: offered reports per second (default: closed loop, as "
                         "fast as the server answers)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        t0 = time.perf_counter()
        db, tokens, tables = make_event(d, args.players)
        print(f"# event of {args.players} players, {len(tables)} tables in "
              f"{time.perf_counter() - t0:.1f} s")
        jobs = []
        st_players = {}
        for table, winner in tables:
            st_players[table] = winner
        plugin = require_plugin("hotc-swiss-de")
        with Ledger(Location(str(db)), readonly=True) as led:
            st = led.load(LOG).state
        for table, winner in tables:
            seat = plugin.entry.table_at(st, 1, table)
            assert seat is not None
            jobs += [(n, tokens[n], table, winner) for n in seat[0]]
        random.Random(7).shuffle(jobs)
        proc = serve(db, d, args.port)
        try:
            lat, seen, wall = asyncio.run(load("127.0.0.1", args.port, jobs, args.clients,
                                               args.rate))
        finally:
            proc.kill()
            proc.wait(10)
        rate = len(lat) / wall
        mode = f"open_loop_offered={args.rate:g}/s" if args.rate else "closed_loop"
        print(f"BENCH reports-rate {mode} reports={len(lat)} clients={args.clients} "
              f"wall_s={wall:.2f} per_s={rate:.0f} goal>=200")
        print(f"BENCH reports-latency p50_ms={pct(lat, .5) * 1000:.0f} "
              f"p99_ms={pct(lat, .99) * 1000:.0f} max_ms={max(lat) * 1000:.0f} goal_p99<1000")
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        leaves = [bytes(r[0]) for r in con.execute(
            "select state from stored_events where originator_id=? order by "
            "originator_version", (LOG,))]
        con.close()
        reported = sum(b'"kind":"result_reported"' in x for x in leaves)
        recorded = sum(b'"kind":"result_recorded"' in x for x in leaves)
        receipts = {s.rsplit("/", 1)[1] for s in seen}
        print(f"BENCH reports-kept receipts={len(receipts)} reported={reported} "
              f"results={recorded} tables={len(tables)} "
              f"ok={len(receipts) == reported == len(jobs) and recorded == len(tables)}")
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "cli.main", "--ledger", str(db), "round",
                        "pair", "--seed-material", "bench R2", "--seed-source", "bench",
                        "--key", str(d / "hj.pem")], env=env, check=True,
                       stdout=subprocess.DEVNULL)
        pair_s = time.perf_counter() - t0
        print(f"BENCH reports-pair-next seconds={pair_s:.2f} goal<1")
        t0 = time.perf_counter()
        audit = subprocess.run([sys.executable, "-m", "cli.main", "audit", "verify",
                                str(db)], env=env, capture_output=True, text=True)
        print(f"BENCH reports-audit rc={audit.returncode} seconds="
              f"{time.perf_counter() - t0:.1f} {audit.stdout.strip().splitlines()[-1:]}")


if __name__ == "__main__":
    main()
