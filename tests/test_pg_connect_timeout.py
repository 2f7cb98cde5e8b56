"""The PostgreSQL connect timeout tourney names is the one it applies (issue 32 item 7).

A trial printed "couldn't get a connection after 5.00 sec" after 21 s against a closed
port (and waited a minute against a server that never answers).  Measured here against
loopback only: a local port with nothing listening (refused at once) and listening
sockets that never accept (the TCP handshake completes, the server never speaks).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from ledger.errors import StorageError
from ledger.storage import pg_reach
from ledger.storage.location import Location
from server.follow import PgLeaves

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 2       # PGCONNECT_TIMEOUT in these tests (libpq's minimum): the runs stay short


@contextmanager
def silent_server(*hosts: str) -> Iterator[int]:
    """A port on each loopback address in ``hosts`` that accepts TCP connections into
    its backlog and never answers: a PostgreSQL server that hangs."""
    socks: list[socket.socket] = []
    port = 0
    try:
        for host in hosts:
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind((host, port))
            s.listen(16)
            port = s.getsockname()[1]
            socks.append(s)
        yield port
    finally:
        for s in socks:
            s.close()


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(ledger: str, tmp_path: Path, limit: int = LIMIT) -> tuple[int, str, float]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TOURNEY_", "PG"))}
    env.update(PYTHONPATH=str(ROOT), PGCONNECT_TIMEOUT=str(limit))
    t0 = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "cli.main", "--ledger", ledger, "serve",
                           "--host", "127.0.0.1", "--port", "0"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    return proc.returncode, proc.stderr, time.monotonic() - t0


def test_serve_against_a_silent_server_waits_the_timeout_it_names(tmp_path: Path) -> None:
    baseline = _serve(str(tmp_path / "missing.db"), tmp_path)[2]   # start-up alone
    with silent_server("127.0.0.1") as port:
        code, err, took = _serve(f"postgresql://postgres@127.0.0.1:{port}/test", tmp_path)
    assert code == 5 and len(err.strip().splitlines()) == 1, err
    assert f"127.0.0.1:{port}" in err and f"no answer within {LIMIT} s" in err, err
    assert f"connect timeout {LIMIT} s" in err and "5.00 sec" not in err
    assert took - baseline < LIMIT + 2.5, (took, baseline)


def test_serve_against_a_closed_port_says_refused_at_once(tmp_path: Path) -> None:
    """A refusal ends the wait at once, not at the deadline: with a 30 s deadline the run
    costs about a bare start-up (a bound far from both, so a loaded machine's start-up
    noise cannot fail it, and a run that waited the deadline cannot pass)."""
    baseline = _serve(str(tmp_path / "missing.db"), tmp_path)[2]
    port = closed_port()
    code, err, took = _serve(f"postgresql://postgres@127.0.0.1:{port}/test", tmp_path,
                             limit=30)
    assert code == 5 and "connection refused" in err and f"127.0.0.1:{port}" in err, err
    assert took - baseline < 10, (took, baseline)


def test_every_address_of_a_host_shares_one_deadline(monkeypatch: pytest.MonkeyPatch
                                                     ) -> None:
    """libpq's connect_timeout counts per address: a name with two silent addresses
    waited twice the limit.  ``db.test`` resolves here to two loopback addresses."""
    real = socket.getaddrinfo

    def two(host: str, *a: Any, **kw: Any) -> Any:
        if host == "db.test":
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (ip, a[0]))
                    for ip in ("127.0.0.1", "127.0.0.2")]
        return real(host, *a, **kw)

    monkeypatch.setattr(socket, "getaddrinfo", two)
    with silent_server("127.0.0.1", "127.0.0.2") as port:
        assert pg_reach._addresses("db.test", port) == ["127.0.0.1", "127.0.0.2"]
        t0 = time.monotonic()
        with pytest.raises(StorageError) as exc:
            pg_reach.connect(Location(f"postgresql://postgres@db.test:{port}/x"),
                             timeout=LIMIT)
        took = time.monotonic() - t0
    assert f"no answer within {LIMIT} s" in exc.value.message
    assert took < LIMIT + 1.0, took          # not 2 × LIMIT


def test_the_live_servers_reads_name_the_timeout_they_apply(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``PgLeaves`` (the live server's reads) connected with a hard-coded 3 s per address
    and said only "connection timeout expired"; it now applies and names the same limit
    as every other connection."""
    monkeypatch.setenv("PGCONNECT_TIMEOUT", str(LIMIT))
    with silent_server("127.0.0.1") as port:
        leaves = PgLeaves(Location(f"postgresql://postgres@127.0.0.1:{port}/x"),
                          '"public"."stored_events"')
        t0 = time.monotonic()
        with pytest.raises(StorageError) as exc:
            leaves.after("t1", 0)
        took = time.monotonic() - t0
    assert f"no answer within {LIMIT} s" in exc.value.message, exc.value.message
    assert took < LIMIT + 1.0, took


def test_timeout_setting() -> None:
    env = dict(os.environ)
    try:
        for value, want in (("", 5), ("7", 7), ("1", 5), ("x", 5), ("2", 2)):
            os.environ["PGCONNECT_TIMEOUT"] = value
            assert pg_reach.connect_timeout() == want, value
    finally:
        os.environ.clear()
        os.environ.update(env)
