"""A real ``tourney serve`` for tests: in a thread (uvicorn on a free loopback port) or as
a process (the CLI contract), and a small HTTP client over it.

Owns: ``running`` (the app of ``server.app`` served by uvicorn in a thread, stopped on
exit), ``serve_process`` (``tourney serve --host 127.0.0.1`` as a subprocess, waited for
until ``/health`` answers), ``free_port``, ``get`` and ``wait_until``.

May import: ``server.*``, ``ledger.*``, ``tests.helpers.cli_runner`` (``serving``), ``uvicorn``,
``httpx``, the standard library.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

import ledger.formats.registry  # noqa: F401  (plugs the formats into the core)
from ledger.storage.location import Location
from server.app import Hub, create_app
from tests.helpers.cli_runner import serving

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _bound() -> socket.socket:
    """A listening loopback socket on a port the system chose, held from the start: a
    port picked and released before the server binds it can be taken meanwhile by
    another test or process (it was, on a loaded machine: ``address already in use``)."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", 0))
    s.listen(128)
    return s


@contextmanager
def running(ledger: str | Path, tournament: str | None = None, *,
            station_key: Path | None = None,
            staff_keys: tuple[Path, ...] = (), gate: Any = None, runner: Any = None,
            url: str = "") -> Iterator[tuple[str, Hub]]:
    """``(base URL, hub)`` of a server over ``ledger`` on a loopback port (taking
    players' reports, signed with ``station_key``, when it is given; running the
    console's commands with ``runner``, as ``tourney serve`` hands it its own; ``url``:
    the address its pages and QR codes give, as ``tourney serve --url``)."""
    import uvicorn

    from server.station import Station

    hub = Hub(Location(str(ledger)), tournament, url=url, reporting=station_key is not None)
    station = None if station_key is None else \
        Station(Location(str(ledger)), station_key, hub.follower.log, staff_keys)
    sock = _bound()
    port = int(sock.getsockname()[1])
    app = create_app(hub, station=station, gate=gate, runner=runner)
    server = uvicorn.Server(uvicorn.Config(app,
                                           host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="on",
                                           # as ``tourney serve`` (cli/serve_cmd.py): an
                                           # open page's SSE stream does not hold the
                                           # stop (the join below gave up after 10 s)
                                           timeout_graceful_shutdown=2))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        with serving():   # meanwhile the test's tourney commands run as processes
            end = time.monotonic() + 20
            while not server.started:
                if time.monotonic() > end or not thread.is_alive():
                    raise RuntimeError("the test server did not start")
                time.sleep(0.02)
            yield f"http://127.0.0.1:{port}", hub
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


@contextmanager
def serve_process(cwd: Path, env: dict[str, str], *args: str, port: int | None = None,
                  serve_args: tuple[str, ...] = ()
                  ) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """``tourney [args] serve --host 127.0.0.1 --port P [serve_args]`` as a process;
    killed on exit.  A free port chosen here can be taken by another process before the
    server binds it: then (and only when no ``port`` was asked for) it starts again on
    another port, at most three times."""
    for attempt in range(3):
        chosen = port or free_port()
        proc = subprocess.Popen([sys.executable, "-m", "cli.main", *args, "serve", "--host",
                                 "127.0.0.1", "--port", str(chosen), *serve_args], cwd=cwd,
                                text=True,
                                env={**env, "PYTHONPATH": str(ROOT)},
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                start_new_session=True)
        base = f"http://127.0.0.1:{chosen}"
        err = _answers(base, proc)
        if err is None:
            break
        if port is None and attempt < 2 and "already in use" in err:
            continue
        raise RuntimeError(err)
    try:
        yield base, proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)
        try:    # its whole group: granian's workers outlive a killed parent
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _answers(base: str, proc: subprocess.Popen[str]) -> str | None:
    """None once ``base/health`` answers; else why not (the process exited or stayed
    silent for 30 s; either way it is gone)."""
    end = time.monotonic() + 30
    while True:
        if proc.poll() is not None:
            return (f"tourney serve exited {proc.returncode}: "
                    f"{proc.stderr.read() if proc.stderr else ''}")
        try:
            if httpx.get(base + "/health", timeout=1).status_code == 200:
                return None
        except httpx.HTTPError:
            pass
        if time.monotonic() > end:
            proc.kill()
            proc.wait(10)
            return "tourney serve did not answer"
        time.sleep(0.1)


def get(url: str, **headers: str) -> httpx.Response:
    return httpx.get(url, headers=headers, timeout=10, follow_redirects=False)


#: the least a wait allows before it fails: on 2 loaded cores a page that updates in a tenth
#: of a second quiet can take seconds (a test that times an update asserts the seconds
#: ``wait_until`` returns, as the live-update tests do)
GENEROUS_S = 30.0


def wait_until(check: Callable[[], bool], timeout: float) -> float:
    """Seconds until ``check()`` held; raises AssertionError when it has not held after
    ``max(timeout, GENEROUS_S)`` (the condition is waited for, never a fixed sleep)."""
    bound = max(timeout, GENEROUS_S)
    t0 = time.monotonic()
    while not check():
        if time.monotonic() - t0 > bound:
            raise AssertionError(f"not within {bound} s")
        time.sleep(0.05)
    return time.monotonic() - t0


def env_without_tourney() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("TOURNEY_")}


def ledger_bytes(db: Path) -> str:
    """SHA-256 of the ledger's bytes after folding its WAL, read in another process.

    A server running in this test process holds SQLite locks on the file; reading the
    file here and closing it would drop them (POSIX locks are per process), and another
    process could then remove the WAL under the server's connections."""
    import subprocess
    import sys

    code = ("import hashlib, sqlite3, sys, pathlib\n"
            "p = pathlib.Path(sys.argv[1])\n"
            "c = sqlite3.connect(p); c.execute('PRAGMA wal_checkpoint(TRUNCATE)'); c.close()\n"
            "w = p.with_name(p.name + '-wal')\n"
            "print(hashlib.sha256(p.read_bytes() + (w.read_bytes() if w.exists() else b''))"
            ".hexdigest())\n")
    return subprocess.run([sys.executable, "-c", code, str(db)], check=True,
                          capture_output=True, text=True).stdout.strip()


def record_first_result(db: Path, signer: object) -> None:
    """Round 1's first result, appended by another connection (the desk): a change every
    phone's page shows (the log size)."""
    from ledger.formats.match.model import Outcome
    from ledger.storage.store import Ledger

    with Ledger(Location(str(db))) as led:
        def act(t: object, now: str) -> object:
            st = t.state  # type: ignore[attr-defined]
            tab = st.fmt.rounds[-1].tables[0]
            return t.record_result(signer, now, round_no=1, table=tab.table,  # type: ignore[attr-defined]
                                   outcome=Outcome.WIN, winner=tab.players[0])
        led.write("bench", act)
