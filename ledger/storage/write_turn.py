"""A tournament's writer turn on PostgreSQL (issue 7, many stations).

Owns: ``writer_turn`` — stations writing one tournament queue on a session advisory lock
(granted in arrival order) with a bounded wait (``TURN_WAIT_MS``), so no station starves
re-deciding lost races; past the wait the write goes ahead optimistically and a lost race
is retried as always (``Ledger.retrying``), so correctness never depends on the lock.  A
write that then waits too long for the event table's lock fails naming the session that
holds it (``ledger.storage.pg_station``; issue 21, item 11).

May import: ``eventsourcing``, ``psycopg`` (PostgreSQL only), ``ledger.errors``,
``ledger.storage.pg_station``.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from eventsourcing.persistence import PersistenceError

from ledger.errors import StorageError
from ledger.storage.pg_station import is_lock_timeout, lock_wait_error

if TYPE_CHECKING:
    from ledger.storage.storage_handle import LedgerHandle

TURN_WAIT_MS = 3000  # PostgreSQL: the longest wait for a tournament's writer turn


@contextmanager
def writer_turn(ledger: LedgerHandle, log: str) -> Iterator[None]:
    """PostgreSQL: wait for this tournament's turn (a session advisory lock, granted
    in arrival order) so that concurrent stations queue instead of racing — no
    station starves re-deciding lost races.  The wait is bounded (``TURN_WAIT_MS``):
    past it the write goes ahead optimistically and a lost race is retried as
    always, so correctness never depends on the lock.  SQLite: nothing (its write
    lock and the retry on a lost race suffice for a few stations)."""
    if not ledger.location.is_postgres:
        yield
        return
    key = int.from_bytes(hashlib.sha256(b"tourney-writer\x00" + log.encode()).digest()[:8],
                         "big", signed=True)
    import psycopg

    rec: Any = ledger.app.recorder
    try:
        with rec.datastore.get_connection() as conn:
            conn.execute(f"SET lock_timeout = '{TURN_WAIT_MS}ms'")
            try:
                conn.execute("SELECT pg_advisory_lock(%s)", (key,))
                locked = True
            except psycopg.errors.LockNotAvailable:
                locked = False  # a holder that does not let go: write optimistically
            finally:
                conn.execute("SET lock_timeout = 0")
            start = time.monotonic()
            try:
                yield
            except StorageError as err:  # issue 21, item 11: name who holds the lock
                if is_lock_timeout(err):
                    raise lock_wait_error(ledger, log, time.monotonic() - start) from None
                raise
            finally:
                if locked:
                    conn.execute("SELECT pg_advisory_unlock(%s)", (key,))
    except PersistenceError as exc:
        raise StorageError(f"cannot write to {ledger.location.display()}: {exc}",
                           hint="check the server and the network") from None
