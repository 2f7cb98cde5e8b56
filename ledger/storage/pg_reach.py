"""Reaching a PostgreSQL server within a stated time (issue 32 item 7).

Owns: ``connect_timeout`` (the seconds tourney gives a server to answer: 5, or
``PGCONNECT_TIMEOUT`` when that is set), ``connect`` (a psycopg connection within that
time IN ALL, else a one-line storage error naming the server, what happened and the
limit applied) and ``probe`` (``connect`` and close: what ``Ledger`` runs before the
library's pool opens a PostgreSQL ledger).

Why: the library's pool reported "couldn't get a connection after 5.00 sec" but a
command took 21 s against a closed port (the pool's wait, four times over) and a minute
against a server that never answers (its connection attempts had no time limit at all);
the real cause ("connection refused") was never said.  And libpq's ``connect_timeout``
counts per address: ``localhost`` (::1 and 127.0.0.1) waits twice as long.  Here each
address the host name resolves to gets what is left of one deadline; a refused
connection is said at once.

May import: ``ledger.errors``, ``ledger.storage.location``, ``psycopg`` (when connecting),
the standard library.
"""

from __future__ import annotations

import os
import socket
import time
from typing import Any

from ledger.errors import StorageError
from ledger.storage.location import Location

DEFAULT_S = 5
ENV = "PGCONNECT_TIMEOUT"
MIN_S = 2                 # libpq's (and psycopg's) smallest connect_timeout


def connect_timeout() -> int:
    """The seconds a server is given to answer: ``PGCONNECT_TIMEOUT`` when it is a whole
    number of at least 2 (libpq's minimum), else 5."""
    text = os.environ.get(ENV, "").strip()
    if text.isdigit() and int(text) >= MIN_S:
        return int(text)
    return DEFAULT_S


def params(location: Location) -> dict[str, Any]:
    """psycopg's keyword parameters for ``location`` (no password when there is none)."""
    env = location.env()
    out: dict[str, Any] = {"host": env["POSTGRES_HOST"], "port": int(env["POSTGRES_PORT"]),
                           "dbname": env["POSTGRES_DBNAME"], "user": env["POSTGRES_USER"]}
    if env["POSTGRES_PASSWORD"]:
        out["password"] = env["POSTGRES_PASSWORD"]
    return out


def _addresses(host: str, port: int) -> list[str | None]:
    """The addresses to try for ``host`` (None: let libpq resolve it, e.g. a Unix socket
    directory or a name that does not resolve here)."""
    if host.startswith("/"):
        return [None]
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError:
        return [None]
    seen: list[str | None] = []
    for info in infos:
        addr = str(info[4][0])
        if addr not in seen:
            seen.append(addr)
    return seen or [None]


def _why(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    if "Connection refused" in text:
        return "connection refused (no server listens there)"
    return text


def connect(location: Location, *, timeout: int | None = None, **kwargs: Any) -> Any:
    """A psycopg connection to ``location``'s server within ``timeout`` seconds in all
    (``connect_timeout()`` by default), or a ``StorageError`` saying why not."""
    import psycopg

    limit = connect_timeout() if timeout is None else timeout
    p = params(location)
    where = f"{p['host']}:{p['port']}"
    deadline = time.monotonic() + limit
    why = f"no answer within {limit} s"
    for i, addr in enumerate(_addresses(p["host"], p["port"])):
        # whole seconds (libpq's unit, at least 2): the first address gets the whole
        # limit, the next ones what is left of it, never more
        left = limit if i == 0 else int(deadline - time.monotonic())
        if left < MIN_S:
            break
        attempt: dict[str, Any] = {**p, **kwargs, "connect_timeout": left}
        if addr is not None:
            attempt["hostaddr"] = addr
        try:
            return psycopg.connect(**attempt)
        except psycopg.errors.ConnectionTimeout:
            why = f"no answer within {limit} s"
        except psycopg.Error as exc:
            why = _why(exc)
            if not _network(exc):     # the server answered: a password, a missing database
                raise StorageError(f"cannot open ledger {location.display()}: {why}",
                                   hint="check the URL, the role and the database") from None
    raise StorageError(f"cannot reach the PostgreSQL server at {where}: {why} "
                       f"(connect timeout {limit} s in all; {ENV}=N sets it)",
                       hint="check the URL and that the database server runs")


def _network(exc: BaseException) -> bool:
    """The connection never reached a server that answered (refused, unreachable, reset,
    a name that does not resolve), as opposed to the server's own refusal."""
    text = str(exc)
    return getattr(exc, "sqlstate", None) is None and not any(
        w in text for w in ("authentication", "does not exist", "no pg_hba.conf",
                            "too many clients", "SSL", "role"))


def probe(location: Location) -> None:
    """Connect once and close: a server that is down, refuses or never answers is said
    within ``connect_timeout()`` seconds, naming the cause."""
    connect(location).close()
