"""Many scorekeeping stations at once (issue 7): a load test, not a timed unit test.

A 4,096-player HotC event with round 1 paired (2,048 tables).  N station processes enter
every result at once — the tables dealt round-robin so the stations collide on the same
tournament all the time — each slip exactly as ``tourney result record`` enters it
(``usecases.results.enter_result``: decide, sign, save; a lost race reloads and decides
again).  A head-judge process watches the round and pairs
round 2 the moment the last result lands, then signs a checkpoint.

Then it checks: every table holds exactly one result (zero lost, zero duplicated),
result events = tables, the chain has no fork (the full audit: signatures, chain, roles,
every rule, checkpoints) and round 2 is paired.  Prints p50/p99 per result (wall time of
one slip from the station's point of view, retries included) and the head judge's
pairing latency.

    python bench/bench_stations.py --backend postgres --stations 8     # 127.0.0.1:5432
    python bench/bench_stations.py --backend sqlite --stations 4
    python bench/bench_stations.py --backend sqlite --stations 4 --players 512 --mode cli

``--mode`` session (default): each station process keeps the tournament in memory and
catches up with the other stations' events before each slip (``Ledger.session``, as
``result import`` does); api: every slip loads it afresh (as one ``result record``);
cli: every slip is a real ``tourney result record`` process (slower; use a smaller field);
server: the stations send their slips to one long-lived writer process, which decides
every queued slip on the tournament it keeps in memory and commits them together
(``WriteSession.write_batch``, ADR 0020) before it acknowledges them — the live server's
write path.
PostgreSQL URL: ``--url`` or TOURNEY_TEST_PG (default
postgresql://postgres@127.0.0.1:5432/test); the run uses its own tournament id and
deletes its rows afterwards unless ``--keep``.

Prints: BENCH stations backend=… stations=… results=… lost=0 duplicated=0 fork=no
audit=ok p50_ms=… p99_ms=… results_per_s=… retries=… pair_next_ms=…
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

from ledger.core.aggregate import Tournament
from ledger.formats.registry import make_format
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.events import Role
from ledger.wire.keys import PublicKey, load_signer, write_new_key

OUT = Path("bench/out/stations")
PG_DEFAULT = "postgresql://postgres@127.0.0.1:5432/test"


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, round(q / 100 * len(s) + 0.5) - 1))] if s else 0.0


def setup(loc: Location, log: str, players: int, stations: int) -> tuple[Path, list[Path]]:
    OUT.mkdir(parents=True, exist_ok=True)
    keydir = OUT / f"keys-{log}"
    shutil.rmtree(keydir, ignore_errors=True)
    keydir.mkdir(parents=True)
    hj_path = keydir / "hj.pem"
    hj = write_new_key(hj_path, "bench head judge", None)
    sk_paths = [keydir / f"sk{i}.pem" for i in range(stations)]
    sks = [write_new_key(p, f"station {i}", None) for i, p in enumerate(sk_paths)]
    with Ledger(loc, create=True) as led:
        led.create(log, lambda now: Tournament.create(
            log=log, name="stations bench", fmt=make_format("hotc-swiss-de", 8), signer=hj,
            time=now))

        def officials(t: Tournament, now: str) -> None:
            for s in sks:
                t.add_official(PublicKey(s.public_key_raw, s.name), Role.SCOREKEEPER, s.name,
                               hj, now)
        led.write(log, officials)

        def register(t: Tournament, now: str) -> None:
            for i in range(players):
                t.register_player(f"Player {i + 1:04d}", hj, now)
        led.write(log, register)
        led.write(log, lambda t, now: t.close_registration(hj, now))
        led.write(log, lambda t, now: t.pair_round(hj, now, material="stations bench R1 "
                                                   "03 14 15 92", source="bench"))
    return hj_path, sk_paths


def station(url: str, log: str, key: str, slips: list[tuple[int, int]], mode: str,
            out: Any) -> None:
    """One scorekeeping station: enter ``slips`` (table, winner) one by one."""
    from ledger.errors import ConcurrencyError
    from ledger.formats.match.model import Outcome
    from usecases.results import enter_result

    times: list[float] = []
    retries = 0
    signer = load_signer(Path(key))
    env = {**os.environ, "TOURNEY_LEDGER": url, "TOURNEY_KEY": key,
           "TOURNEY_TOURNAMENT": log}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    with Ledger(Location(url)) as led:
        session = led.session(log)
        for table, winner in slips:
            t0 = time.perf_counter()
            while True:
                if mode == "cli":
                    proc = subprocess.run(["tourney", "result", "record", "--round", "1",
                                           "--table", str(table), "--winner", str(winner)],
                                          env=env, capture_output=True, text=True)
                    if proc.returncode == 0:
                        break
                    if proc.returncode != 5:
                        raise SystemExit(f"station {key}: {proc.stderr.strip()}")
                    retries += 1
                    continue
                def slip(t: Any, now: str, table: int = table, winner: int = winner) -> Any:
                    return enter_result(t, signer, now, lambda seq: led.actor_of(log, seq),
                                        round_no=1, table=table, outcome=Outcome.WIN,
                                        winner=winner)
                try:
                    if mode == "session":
                        session.write(slip, retries=64)
                    else:
                        led.write(log, slip, retries=64)
                    break
                except ConcurrencyError:
                    retries += 1  # the scorekeeper runs the command again (idempotent)
            times.append((time.perf_counter() - t0) * 1000)
    out.put((times, retries))


def writer(url: str, log: str, keys: list[str], requests: Any, replies: list[Any],
           out: Any) -> None:
    """``--mode server``: the one long-lived writer of this machine (the live server's
    write path, ADR 0020).  It keeps the tournament in memory, takes every slip queued
    by the stations, decides them in order and commits them together
    (``WriteSession.write_batch``: one writer turn, one transaction), then answers each
    station — after the commit, never before."""
    from ledger.formats.match.model import Outcome
    from usecases.results import enter_result

    signers = [load_signer(Path(k)) for k in keys]
    batches: list[int] = []
    with Ledger(Location(url)) as led:
        session = led.session(log)
        _ = session.state  # loaded before the first slip, as a server at start-up
        replies[0].put("ready")
        left = len(keys)
        while left:
            queued = [requests.get()]
            while True:
                try:
                    queued.append(requests.get_nowait())
                except Exception:  # noqa: BLE001 - queue.Empty: take what is queued
                    break
            slips = []
            for st, table, winner in queued:
                if table < 0:
                    left -= 1
                    continue
                slips.append((st, lambda t, now, st=st, table=table, winner=winner:
                              enter_result(t, signers[st], now,
                                           lambda seq: led.actor_of(log, seq), round_no=1,
                                           table=table, outcome=Outcome.WIN, winner=winner)))
            if not slips:
                continue
            outcomes = session.write_batch([slip for _st, slip in slips], retries=64)
            batches.append(len(slips))
            for (st, _slip), outcome in zip(slips, outcomes, strict=True):
                replies[st].put(isinstance(outcome, Exception))
    out.put(("batches", batches))


def server_station(index: int, slips: list[tuple[int, int]], requests: Any, reply: Any,
                   out: Any) -> None:
    """``--mode server``: a station that sends each slip to the writer and waits for its
    acknowledgement (the commit)."""
    times: list[float] = []
    for table, winner in slips:
        t0 = time.perf_counter()
        requests.put((index, table, winner))
        if reply.get():
            raise SystemExit(f"station {index}: slip for table {table} refused")
        times.append((time.perf_counter() - t0) * 1000)
    requests.put((index, -1, -1))
    out.put((times, 0))


def head_judge(url: str, log: str, key: str, out: Any) -> None:
    """Watch round 1; pair round 2 the moment the last result lands; checkpoint."""
    from ledger.formats.match.plan import open_round
    from ledger.proofs.checkpoint_store import write_checkpoint

    signer = load_signer(Path(key))
    with Ledger(Location(url)) as led:
        while True:
            st = led.load(log).state
            rnd = st.fmt.rounds[-1]
            if rnd.closed_seq is not None:
                break
            time.sleep(0.02)
        landed = time.perf_counter()
        agg = led.write(log, lambda t, now: (t.pair_round(
            signer, now, material="stations bench R2 65 35 89 79", source="bench"), t)[1]
            if open_round(t.state) is None else t)
        write_checkpoint(led, log, signer, state=agg.state)
        out.put(("paired", (time.perf_counter() - landed) * 1000))


def verify(loc: Location, log: str, tables: int) -> dict[str, Any]:
    from audit.verify import verify_ledger
    from ledger.wire.events import open_leaf

    per_table: dict[int, int] = {}
    results = 0
    with Ledger(loc) as led:
        for _v, leaf in led.raw_leaves(log):
            ev = open_leaf(leaf)
            if ev.kind == "result_recorded" and getattr(ev.body, "round", None) == 1:
                results += 1
                t = ev.body.table  # type: ignore[attr-defined]
                per_table[t] = per_table.get(t, 0) + 1
        st = led.load(log).state
    report = verify_ledger(loc, log, None)
    return {"results": results, "lost": tables - len(per_table),
            "duplicated": sum(c - 1 for c in per_table.values() if c > 1),
            "audit_ok": report.ok, "findings": [f.code for f in report.findings],
            "round2": len(st.fmt.rounds) == 2, "events": report.events,
            "fork": any(f.code in ("chain_broken", "seq_gap", "seq_mismatch",
                                   "checkpoint_fork") for f in report.findings)}


def cleanup(loc: Location, log: str) -> None:
    if not loc.is_postgres:
        return
    import psycopg
    with Ledger(loc) as led:
        events = led.app.recorder.events_table_name  # type: ignore[attr-defined]
        snaps = led.app.snapshots.recorder.events_table_name  # type: ignore[union-attr]
    with psycopg.connect(loc.text) as con:
        for table in (events, snaps):
            con.execute(f'DELETE FROM "{table}" WHERE originator_id = %s', (log,))
        con.execute("DELETE FROM tourney_checkpoints WHERE log = %s", (log,))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--backend", choices=("postgres", "sqlite"), default="postgres")
    ap.add_argument("--stations", type=int, default=8)
    ap.add_argument("--players", type=int, default=4096)
    ap.add_argument("--url", default=os.environ.get("TOURNEY_TEST_PG") or PG_DEFAULT)
    ap.add_argument("--mode", choices=("session", "api", "cli", "server"), default="session",
                    help="session: a station process keeps the tournament in memory and "
                         "catches up with the others' events (as 'result import'); api: "
                         "every slip loads the tournament afresh (as 'result record'); cli: "
                         "every slip is a real 'tourney result record' process; server: "
                         "the stations send slips to one long-lived writer process that "
                         "commits what is queued together (ADR 0020)")
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args()

    log = f"stations-{uuid.uuid4().hex[:8]}"
    if args.backend == "postgres":
        loc = Location(args.url)
    else:
        OUT.mkdir(parents=True, exist_ok=True)
        path = OUT / f"{log}.db"
        loc = Location(str(path))
    t0 = time.perf_counter()
    hj_key, sk_keys = setup(loc, log, args.players, args.stations)
    with Ledger(loc) as led:
        tabs = [(t.table, t.players[0]) for t in led.load(log).state.fmt.rounds[-1].tables]
    print(f"# setup: {args.players} players, {len(tabs)} tables, "
          f"{time.perf_counter() - t0:.1f}s; load {os.getloadavg()[0]:.2f}", flush=True)
    ctx = mp.get_context("spawn")
    out = ctx.Queue()
    judge = ctx.Process(target=head_judge, args=(loc.text, log, str(hj_key), out))
    judge.start()
    batches: list[int] = []
    if args.mode == "server":
        requests = ctx.Queue()
        replies = [ctx.Queue() for _ in range(args.stations)]
        server = ctx.Process(target=writer, args=(loc.text, log, [str(k) for k in sk_keys],
                                                  requests, replies, out))
        server.start()
        assert replies[0].get() == "ready"
        procs = [ctx.Process(target=server_station, args=(i, tabs[i::args.stations],
                                                          requests, replies[i], out))
                 for i in range(args.stations)]
    else:
        procs = [ctx.Process(target=station, args=(loc.text, log, str(sk_keys[i]),
                                                   tabs[i::args.stations], args.mode, out))
                 for i in range(args.stations)]
    start = time.perf_counter()
    for p in procs:
        p.start()
    times: list[float] = []
    retries = 0
    paired_ms = None
    for _ in range(args.stations + 1 + (args.mode == "server")):
        item = out.get()
        if item[0] == "paired":
            paired_ms = item[1]
        elif item[0] == "batches":
            batches = item[1]
        else:
            times += item[0]
            retries += item[1]
    if args.mode == "server":
        procs.append(server)
    elapsed = time.perf_counter() - start
    for p in [*procs, judge]:
        p.join()
    check = verify(loc, log, len(tabs))
    ok = check["lost"] == 0 and check["duplicated"] == 0 and check["audit_ok"] and \
        check["round2"]
    print(f"BENCH stations backend={args.backend} stations={args.stations} "
          f"mode={args.mode} players={args.players} "
          f"results={check['results']} lost={check['lost']} "
          f"duplicated={check['duplicated']} fork={'yes' if check['fork'] else 'no'} "
          f"audit={'ok' if check['audit_ok'] else 'FAILED'} "
          f"round2_paired={check['round2']} p50_ms={pct(times, 50):.1f} "
          f"p99_ms={pct(times, 99):.1f} results_per_s={len(times) / elapsed:.0f} "
          f"retries={retries} pair_next_ms={paired_ms:.0f} events={check['events']} "
          f"commits={len(batches) if batches else len(times)} "
          f"load={os.getloadavg()[0]:.2f} ok={ok}", flush=True)
    if not check["audit_ok"]:
        print(f"# findings: {check['findings'][:10]}")
    if not args.keep:
        cleanup(loc, log)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
