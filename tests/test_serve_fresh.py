"""The live server is never stale (issue 32, item 3; ADR 0032).

* A commit that leaves the SQLite ledger's file stamp as it was (after a checkpoint the
  WAL is rewritten from its start at the same size; within one tick of the file system's
  clock — or on a file system with coarse timestamps — the modification time is the same)
  was never seen by the old follower, which watched only the stamp: here the tick is
  emulated by putting the old times back, and the watcher is stepped poll by poll so the
  test is deterministic.  ``PRAGMA data_version`` sees it.
* The server's own writes (a player's report, a staff decision) are folded before the
  response that follows them: the page right after the redirect shows them.
* A desk in another process appends 200 events of mixed kinds at random 0-300 ms
  intervals (fixed seed) while phones poll: none is missed (each is seen within
  ``LATE_S``), and 95% are seen within 2 s.  The bound on each one is generous on purpose
  (issue 33 item 4): on a machine whose two cores are busy ten times over, two of 200
  appends once took 2.03 and 2.34 s; the latency budget itself (< 200 ms from append to
  a fresh page) is measured by ``bench/bench_serve.py``, not asserted here.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from bench.bench_cli import make_event
from ledger.formats.match.model import Outcome
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from server.follow import sqlite_watch
from tests.helpers.live import ROOT, record_first_result, running, wait_until

#: every append is seen within this (seconds): none missed, on any machine
LATE_S = 10.0
#: what the pages promise (seconds): 95% of the appends are seen within it
FRESH_S = 2.0


class Steps:
    """A ``stop`` event for ``sqlite_watch`` that lets the test say when it polls."""

    def __init__(self) -> None:
        self.go = threading.Semaphore(0)
        self.ready = threading.Semaphore(0)
        self.done = False

    def wait(self, timeout: float | None = None) -> bool:
        self.ready.release()             # back in wait: the previous poll is over
        self.go.acquire()
        return self.done

    def is_set(self) -> bool:
        return self.done

    def poll(self) -> None:
        assert self.ready.acquire(timeout=10)
        self.go.release()

    def finish(self) -> None:
        self.done = True
        self.go.release()


def _rename(db: Path, signer: object, number: int, name: str) -> None:
    with Ledger(Location(str(db))) as led:
        led.write("bench", lambda t, now: t.rename_player(number, name, "spelling",
                                                          signer, now))


def _stat(p: Path) -> tuple[int, int]:
    st = os.stat(p)
    return st.st_size, st.st_mtime_ns


def test_a_commit_that_leaves_the_file_stamp_unchanged_is_seen(tmp_path: Path) -> None:
    db, _key, signer = make_event(tmp_path, 16, 0)
    wal = db.with_name(db.name + "-wal")
    with sqlite3.connect(db) as c:                    # an empty WAL to start from
        c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    _rename(db, signer, 1, "Ana A")                   # the WAL: exactly one commit
    frames = _stat(wal)[0]
    steps, seen = Steps(), []
    watcher = threading.Thread(target=sqlite_watch, args=(str(db), steps,
                                                          lambda: seen.append(1)))
    watcher.start()
    try:
        with sqlite3.connect(db) as c:                # every frame back in the file
            busy, _log, done = c.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        assert busy == 0 and done == _log
        steps.poll()                                  # the checkpoint: a change (or not)
        steps.poll()
        seen.clear()
        before_db, before_wal = os.stat(db), os.stat(wal)
        _rename(db, signer, 1, "Ana B")               # same size: the WAL starts over
        assert _stat(wal)[0] == frames, "the commit did not rewrite the WAL in place"
        # the same tick of the file system's clock (or a coarse-timestamp file system)
        os.utime(wal, ns=(before_wal.st_atime_ns, before_wal.st_mtime_ns))
        os.utime(db, ns=(before_db.st_atime_ns, before_db.st_mtime_ns))
        steps.poll()
        steps.poll()
        assert seen, "the follower's watch missed a commit that left the file stamp as it was"
    finally:
        steps.finish()
        watcher.join(10)


def _size(resp: httpx.Response) -> int:
    return int(resp.headers["etag"].strip('"').split("-")[0])


def test_the_staff_page_after_a_decision_shows_it(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The staff page after "accept" is built from a state that has folded the decision
    (it offered "Confirm all" for a table already settled)."""
    from tests.helpers.cli_runner import CLOCK
    from tests.helpers.reporting_phones import _phone, _post, reporting_event
    from tests.helpers.staff import _csrf, _staff_token

    monkeypatch.setenv("TOURNEY_FIXED_CLOCK", CLOCK)
    cli, doc, tokens = reporting_event(tmp_path)
    staff = _staff_token(cli, tmp_path, "sk", "sk")
    with running(cli.ledger, station_key=tmp_path / "station.pem",
                 staff_keys=(tmp_path / "sk.pem",)) as (base, hub):
        desk = httpx.Client(base_url=base)
        assert desk.get(f"/c/{staff}").status_code == 303
        for t in doc["tables"]:  # type: ignore[attr-defined]
            a, b = t["players"]
            for me in (a, b):                                 # both agree: a won
                r = _post(_phone(base, tokens[me]), base, a)
                assert r.status_code == 303
            seq = int(r.headers["location"].rsplit("/", 1)[1])
            wait_until(lambda seq=seq: hub.follower.state.size >= seq, 10)
            r = desk.post("/staff/accept", data={"csrf": _csrf(desk.get("/staff").text),
                                                 "round": "1", "table": str(t["table"])},
                          headers={"Origin": base})
            assert r.status_code == 303, r.text
            done = int(r.headers["location"].rsplit("=", 1)[1])
            # no waiting: the staff page that follows is built from the decision
            assert hub.follower.state.size >= done


def test_every_append_of_another_process_is_seen_within_2_s(tmp_path: Path) -> None:
    db, key, _signer = make_event(tmp_path, 64, 0)
    observed: list[tuple[float, int]] = []           # (monotonic time, size seen)
    stop = threading.Event()

    def phone(base: str, path: str) -> None:
        etag = None
        with httpx.Client(base_url=base, timeout=5) as c:
            while not stop.is_set():
                if path == "/health":
                    size = int(c.get(path).json()["size"])
                else:
                    r = c.get(path, headers={"If-None-Match": etag} if etag else {})
                    etag = r.headers.get("etag", etag)
                    size = _size(r)
                observed.append((time.monotonic(), size))
                time.sleep(0.05)

    with running(db) as (base, hub):
        start = hub.data.checkable.size
        phones = [threading.Thread(target=phone, args=(base, p), daemon=True)
                  for p in ("/health", "/health", "/p/1", "/p/17", "/pairings")]
        for p in phones:
            p.start()
        writer = subprocess.Popen(
            [sys.executable, str(ROOT / "tests/helpers/mixed_writer.py"), str(db), str(key),
             "--count", "200", "--gap-ms", "300", "--seed", "32"],
            stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert writer.stdout is not None
        acks: list[tuple[int, str, float]] = []
        for line in writer.stdout:
            if line.startswith("ACK "):
                _a, seq, kind, t = line.split()
                acks.append((int(seq), kind, float(t)))
        assert writer.wait(60) == 0
        end = time.monotonic() + 3
        while time.monotonic() < end and hub.data.checkable.size < acks[-1][0]:
            time.sleep(0.05)
        time.sleep(0.2)
        stop.set()
        for p in phones:
            p.join(10)
    assert len(acks) == 200 and acks[0][0] == start + 1
    assert {k for _s, k, _t in acks} >= {"round_started", "result", "time_extended",
                                          "player_renamed"}
    seen: list[tuple[int, str, float | None]] = []
    for seq, kind, t in acks:
        first = next((at for at, size in observed if size >= seq and at >= t - 0.01), None)
        seen.append((seq, kind, None if first is None else round(first - t, 2)))
    missed = [s for s in seen if s[2] is None or s[2] > LATE_S]
    assert not missed, f"appends missed or seen after {LATE_S} s (seq, kind, s): {missed}"
    slow = [s for s in seen if s[2] is not None and s[2] > FRESH_S]
    assert len(slow) <= len(seen) // 20, \
        f"more than 5% of appends seen after {FRESH_S} s (seq, kind, s): {slow}"


def _post_round(db: Path, signer: object) -> None:
    with Ledger(Location(str(db))) as led:
        led.write("bench", lambda t, now: t.pair_round(  # type: ignore[attr-defined]
            signer, now, material="fresh R2", source="test"))


def test_a_posted_round_is_built_from_the_kept_rounds_as_the_whole(tmp_path: Path) -> None:
    """The build after a posting reads only the new round and the one before, and takes
    the standings it was paired from from the fold: the same data as a whole build."""
    from server.app import Hub
    from server.view import Memo, build

    db, _key, signer = make_event(tmp_path, 64, 1)      # round 2 paired
    with Ledger(Location(str(db))) as led:               # round 2 played
        def finish(t: object, now: str) -> None:
            st = t.state  # type: ignore[attr-defined]
            for tab in list(st.fmt.rounds[-1].tables):
                if tab.result is None:
                    t.record_result(signer, now, round_no=st.fmt.rounds[-1].number,  # type: ignore[attr-defined]
                                    table=tab.table, outcome=Outcome.WIN,
                                    winner=tab.players[0])
        led.write("bench", finish)
    hub = Hub(Location(str(db)), None)
    try:
        _post_round(db, signer)
        hub.refresh()
        quick = hub.data
        assert quick.partial and len(quick.rounds) == 3 and hub.memo.folded
        whole = build(hub.follower.ledger, hub.follower.state, Memo())
        assert quick.rounds == whole.rounds and quick.round_apps == whole.round_apps
        assert quick.standings == whole.standings and quick.standing_of == whole.standing_of
    finally:
        hub.close()


def test_phones_pages_are_rendered_before_the_nudge(tmp_path: Path) -> None:
    """After a posting, the nudge goes out only once the pages phones had open are
    rendered: their requests are then served from memory."""
    import asyncio

    db, _key, signer = make_event(tmp_path, 16, 0)
    with running(db) as (base, hub):
        for n in (3, 7):
            assert httpx.get(f"{base}/p/{n}").status_code == 200

        async def nudged() -> bool:
            r, w = await asyncio.open_connection("127.0.0.1", int(base.rsplit(":", 1)[1]))
            w.write(b"GET /live HTTP/1.1\r\nHost: x\r\n\r\n")
            await r.readuntil(b"data: ")
            await r.readuntil(b"\n\n")                  # where the stream starts
            await asyncio.to_thread(record_first_result, db, signer)
            await asyncio.wait_for(r.readuntil(b"data: "), 20)
            rendered = all(hub.pages.cached(f"player/{n}") is not None for n in (3, 7))
            w.close()
            return rendered

        assert asyncio.run(nudged()), "the nudge went out before the phones' pages were rendered"

