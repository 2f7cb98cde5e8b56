"""Render after an append, per format (issue 32): "every format's player page and report
form at 4,096 players (2,048 teams of 2 for tag): render after an append < 200 ms".

For each format of ``tourney init --format`` plus the Bushiroad team modes tag and trio,
an event is built in this process through the aggregate (``tests.helpers.event_play.Play``:
the pairing calls and simulated outcomes ``tourney simulate`` uses, results in one save
per round): registration, cards for every player, round 1 complete, round 2 (Game 2)
paired with its clock started and all but a few tables in.  Then the live server
(``server.app.Hub`` + ``create_app`` with a station, players' reports on) runs on uvicorn
on a loopback port in a thread of this process, and a *desk* process (this file with
``--desk``, its own connection, as ``tourney result`` would) records one open table's
result per request.  For each append, with the subject a player at that table:

* ``publish`` — from the desk's commit (its wall clock after ``Ledger.write`` returned)
  to the hub publishing the new pages (``Hub.publish`` entered: the follower's fold and
  the build done; split into ``detect`` — commit to the follower's fold starting (the
  SQLite watch polls every ``server.follow.POLL_S``), ``fold`` and ``build``);
  ``prerender`` — how long ``Hub.publish`` then rendered pages ahead
  (home, pairings, standings, and the pages phones hold open) on the follower's thread;
* ``page`` — the GET ``/p/N`` that first returned the fresh page (sent → body read),
  with the player's card cookie; ``render`` — the same page rendered cold from the
  published data (``PageSet.get``, what a request pays when it was not rendered ahead);
* ``form`` — GET ``/report`` with the player's card cookie (rendered per request);
* ``fresh`` — from the commit to that fresh ``/p/N`` body read (the client polls with
  ``If-None-Match`` every 5 ms): append → fresh player page served.  Goal < 200 ms.

Fields: 4,096 players; tag 2,048 teams of 2; trio 4,095 players (1,365 teams of 3: 4,096
is not a multiple of 3); round robin 4,096 too (``--round-robin-players``): only rounds
1-2 of its 4,095-round schedule are played, which no real event would run (RULES.md
BR-SWISS-ROUNDS-1 recommends it for 2-4 fighters) but which renders the same pages.
Bushiroad Swiss has no recommended round count above its table (BR-SWISS-ROUNDS-1):
``swiss_rounds=12`` (11 for the team events) is fixed at genesis.  The client runs in the
server's process (one GIL; it sleeps between polls).

    python bench/bench_formats_render.py [--players 4096] [--appends 5]
        [--round-robin-players 4096] [--only FMT ...]

Prints ``BENCH formats-render …`` lines and a table of p50/max in ms.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Fmt:
    name: str
    format_id: str
    cut: int | None
    params: tuple[str, ...]
    players: int            # 0: the --players field; -1: whole teams of 3


FORMATS = (
    Fmt("hotc-swiss-de", "hotc-swiss-de", 8, (), 0),
    Fmt("bushiroad-swiss", "bushiroad-swiss", 8, ("swiss_rounds=12",), 0),
    Fmt("bushiroad-de", "bushiroad-de", None, (), 0),
    Fmt("single-elim", "single-elim", None, (), 0),
    Fmt("round-robin", "round-robin", None, (), 0),
    Fmt("wot-classic", "wot-classic", None, (), 0),
    Fmt("wot-2001", "wot-2001", None, (), 0),
    Fmt("tag", "bushiroad-swiss", None, ("swiss_rounds=11", "team_mode=tag"), 0),
    Fmt("trio", "bushiroad-swiss", None, ("swiss_rounds=11", "team_mode=trio",
                                          "team_result_rule=more_wins_then_last_seat"), -1),
)


def field(f: Fmt, players: int, rr: int) -> int:
    if f.format_id == "round-robin":
        return rr
    if f.players < 0:                      # trio: whole teams of 3
        return players - players % 3
    return players


def keys(f: Fmt) -> tuple[Any, Any, Any]:
    from ledger.formats.simulation import demo_key
    return tuple(demo_key(f"bench render {f.name}", r)  # type: ignore[return-value]
                 for r in ("head-judge", "scorekeeper", "station"))


def token(f: Fmt, n: int) -> str:
    return hashlib.sha256(f"bench card {f.name} {n}".encode()).hexdigest()[:32]


def play_of(f: Fmt, sess: Any) -> Any:
    from tests.helpers.event_play import Play
    hj, sk, _st = keys(f)
    return Play(f.format_id, f.name, f.cut, hj, sk, sess,
                hashlib.sha256(f"bench outcomes {f.name}".encode()).digest())


def results_write(ev: Any, tables: list[Any]) -> None:
    """The results of ``tables`` of the open round in one save."""
    found = ev.open_tables()
    if found is None or not tables:
        return
    n = found[0]
    kws = [kw for tab in tables for kw in ev._results(n, tab)]
    sk = ev.sk

    def act(t: Any, now: str) -> None:
        for kw in kws:
            t.record_result(sk, now, **kw)
    ev.write(act)


def build(d: Path, f: Fmt, players: int, keep_open: int) -> tuple[Path, str]:
    """The event of ``f`` in ``d``: round 1 in, round 2 paired with all but ``keep_open``
    tables in."""
    import ledger.formats.registry  # noqa: F401
    from ledger.core.aggregate import Tournament
    from ledger.core.credentials import token_sha256
    from ledger.formats.bushiroad import team_sim
    from ledger.formats.registry import make_format, parse_params
    from ledger.storage.location import Location
    from ledger.storage.store import Ledger
    from ledger.wire.events import Role
    from ledger.wire.keys import PublicKey, write_key

    hj, sk, station = keys(f)
    write_key(d / "station.pem", station, None)
    db = d / "event.db"
    log = "bench"
    params = parse_params(f.format_id, list(f.params))
    fmt = make_format(f.format_id, f.cut, params)
    with Ledger(Location(str(db)), create=True) as led:
        led.create(log, lambda now: Tournament.create(log=log, name=f"Bench {f.name}",
                                                      fmt=fmt, signer=hj, time=now))
        ev = play_of(f, led.session(log))
        ev.write(lambda t, now: t.add_official(
            PublicKey(sk.public_key_raw, sk.name), Role.SCOREKEEPER, sk.name, hj, now))
        ev.write(lambda t, now: t.add_official(
            PublicKey(station.public_key_raw, "Live server"), Role.STATION, "Live server",
            hj, now))

        def register(t: Any, now: str) -> None:
            for i in range(1, players + 1):
                t.register_player(f"Player {i:04d}", sk, now, number=i)
        ev.write(register)
        steps = team_sim.team_steps(params, players, sk)
        if steps:
            ev.write(lambda t, now: [s(t, now) for s in steps])

        def cards(t: Any, now: str) -> None:
            for n in range(1, players + 1):
                t.issue_credential(token_sha256(token(f, n)), hj, now, number=n)
        ev.write(cards)
        ev.write(lambda t, now: t.close_registration(hj, now))
        ev.pair_next()
        ev.start_clock()
        results_write(ev, ev.open_tables()[1])
        ev.pair_next()
        ev.start_clock()
        tables = ev.open_tables()[1]
        results_write(ev, tables[:max(0, len(tables) - keep_open)])
    return db, log


def subject(ev: Any, tab: Any) -> int:
    """A player at ``tab`` (a team table: the first fighter of seat 1)."""
    from ledger.formats.bushiroad import team_sim
    if not ev.wot and team_sim.seat_count(ev.state):
        return int(team_sim.seat_players(ev.state, list(ev.sides(tab)), 1)[0])
    return int(ev.sides(tab)[0])


# -- the desk: another process, its own connection ------------------------------------------
def desk(db: str, name: str) -> None:
    """Reads a table number a line; records that open table's result; prints the log size
    and the wall clock just after the commit."""
    import ledger.formats.registry  # noqa: F401
    from ledger.storage.location import Location
    from ledger.storage.store import Ledger

    f = next(x for x in FORMATS if x.name == name)
    with Ledger(Location(db)) as led:
        ev = play_of(f, led.session("bench"))
        print("ready", flush=True)
        for line in sys.stdin:
            table = int(line)
            n, open_ = ev.open_tables()
            tab = next(t for t in open_ if t.table == table)
            results_write(ev, [tab])
            t = time.time()
            print(json.dumps({"size": ev.state.size, "t": t}), flush=True)


# -- the server --------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(len(s) * q))] if s else float("nan")


def bench_format(f: Fmt, players: int, appends: int, rr: int) -> dict[str, Any]:
    import httpx
    import uvicorn

    import ledger.formats.registry  # noqa: F401
    from ledger.storage.location import Location
    from ledger.storage.store import Ledger
    from server.app import Hub, create_app
    from server.cards import COOKIE
    from server.pages import PageSet
    from server.station import Station

    work = Path(tempfile.mkdtemp(prefix=f"bench-render-{f.name}-"))
    n_players = field(f, players, rr)
    try:
        t0 = time.monotonic()
        db, log = build(work, f, n_players, appends + 2)
        built_s = time.monotonic() - t0
        with Ledger(Location(str(db)), readonly=True) as led:
            ev = play_of(f, led.session(log))
            rnd, open_ = ev.open_tables()
            picks = [(tab.table, subject(ev, tab)) for tab in open_[:appends]]
            events = ev.state.size
        t0 = time.monotonic()
        hub = Hub(Location(str(db)), None, reporting=True)
        station = Station(Location(str(db)), work / "station.pem", hub.follower.log)
        stamps: list[tuple[int, float, float]] = []
        publish = hub.publish

        def stamped(data: Any) -> None:
            t_in = time.time()
            publish(data)
            stamps.append((data.checkable.size, t_in, time.time()))
        hub.publish = stamped  # type: ignore[method-assign]
        folds: list[tuple[int, float, float]] = []     # (size after, entered, left)
        catch_up = hub.follower.catch_up

        def timed_fold() -> int:
            t_in = time.time()
            grew = catch_up()
            if grew:
                folds.append((hub.follower.state.size, t_in, time.time()))
            return grew
        hub.follower.catch_up = timed_fold  # type: ignore[method-assign]
        port = free_port()
        server = uvicorn.Server(uvicorn.Config(create_app(hub, station=station),
                                               host="127.0.0.1", port=port,
                                               log_level="warning", lifespan="on"))
        th = threading.Thread(target=server.run, daemon=True)
        th.start()
        while not server.started:
            time.sleep(0.02)
        hub_s = time.monotonic() - t0
        base = f"http://127.0.0.1:{port}"
        proc = subprocess.Popen([sys.executable, __file__, "--desk", str(db), f.name],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert proc.stdout is not None and proc.stdin is not None  # noqa: S101
        if proc.stdout.readline().strip() != "ready":
            raise SystemExit("the desk did not start")
        rows: dict[str, list[float]] = {
            k: [] for k in ("publish", "detect", "fold", "build", "prerender", "page",
                            "render", "form", "fresh")}
        try:
            with httpx.Client(base_url=base, timeout=30) as c:
                for table, n in picks:
                    c.cookies.set(COOKIE, token(f, n))
                    r = c.get(f"/p/{n}")
                    if r.status_code != 200:
                        raise SystemExit(f"/p/{n}: {r.status_code}")
                    old = r.headers["etag"]
                    if c.get("/report").status_code != 200:
                        raise SystemExit(f"/report for #{n}: not 200")
                    time.sleep(1.5)      # past the broadcast's coalescing: a quiet hub
                    proc.stdin.write(f"{table}\n")
                    proc.stdin.flush()
                    done = json.loads(proc.stdout.readline())
                    size, t_commit = int(done["size"]), float(done["t"])
                    while True:
                        s0 = time.time()
                        r = c.get(f"/p/{n}", headers={"If-None-Match": old})
                        s1 = time.time()
                        if r.status_code == 200:
                            break
                        time.sleep(0.005)
                    t0 = time.perf_counter()
                    form = c.get("/report")
                    form_ms = (time.perf_counter() - t0) * 1000
                    if form.status_code != 200:
                        raise SystemExit(f"/report for #{n}: {form.status_code}")
                    end = time.monotonic() + 10
                    while not any(sz >= size for sz, _a, _b in stamps):
                        if time.monotonic() > end:
                            raise SystemExit("the hub did not publish")
                        time.sleep(0.005)
                    t_pub, t_done = min((a, b) for sz, a, b in stamps if sz >= size)
                    data = hub.pages.data
                    t0 = time.perf_counter()
                    PageSet(data, hub.env, reporting=True).get(f"player/{n}")
                    render_ms = (time.perf_counter() - t0) * 1000
                    rows["publish"].append((t_pub - t_commit) * 1000)
                    f_in, f_out = min((a, b) for sz, a, b in folds if sz >= size)
                    rows["detect"].append((f_in - t_commit) * 1000)
                    rows["fold"].append((f_out - f_in) * 1000)
                    rows["build"].append((t_pub - f_out) * 1000)
                    rows["prerender"].append((t_done - t_pub) * 1000)
                    rows["page"].append((s1 - s0) * 1000)
                    rows["render"].append(render_ms)
                    rows["form"].append(form_ms)
                    rows["fresh"].append((s1 - t_commit) * 1000)
        finally:
            proc.stdin.close()
            proc.wait(30)
            server.should_exit = True
            th.join(15)
        out: dict[str, Any] = {"name": f.name, "players": n_players, "events": events,
                               "round": rnd, "build_s": built_s, "hub_s": hub_s,
                               "appends": len(rows["fresh"])}
        for k, xs in rows.items():
            out[k] = (pct(xs, 0.5), max(xs))
        print(f"BENCH formats-render format={f.name} players={n_players} events={events} "
              f"round={rnd} build_s={built_s:.1f} hub_start_s={hub_s:.1f} "
              + " ".join(f"{k}_p50_ms={v[0]:.0f} {k}_max_ms={v[1]:.0f}"
                         for k, v in out.items() if isinstance(v, tuple))
              + f" loadavg={os.getloadavg()[0]:.1f}", flush=True)
        return out
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=4096)
    ap.add_argument("--appends", type=int, default=5)
    ap.add_argument("--round-robin-players", type=int, default=4096)
    ap.add_argument("--only", nargs="*", help="format names (default: all)")
    ap.add_argument("--desk", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.desk:
        desk(*args.desk)
        return
    res = []
    for f in FORMATS:
        if args.only and f.name not in args.only:
            continue
        res.append(bench_format(f, args.players, args.appends,
                                args.round_robin_players))
    print()
    print("| format | players | publish p50/max | prerender p50/max | /p/N p50/max "
          "| render p50/max | /report p50/max | append→fresh page p50/max |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in res:
        cells = " | ".join(f"{r[k][0]:.0f} / {r[k][1]:.0f}"
                           for k in ("publish", "prerender", "page", "render", "form",
                                     "fresh"))
        print(f"| {r['name']} | {r['players']:,} | {cells} |")
    print("(ms; goal: append→fresh page < 200)")
    print()
    print("| format | commit→fold starts p50/max | fold p50/max | build p50/max |")
    print("|---|---:|---:|---:|")
    for r in res:
        cells = " | ".join(f"{r[k][0]:.0f} / {r[k][1]:.0f}" for k in ("detect", "fold", "build"))
        print(f"| {r['name']} | {cells} |")


if __name__ == "__main__":
    main()
