"""Following one tournament of a ledger as it grows (issue 18).

Owns: ``Follower`` (opens the ledger read-only, folds the tournament once, then folds only
the events appended after it: ``catch_up``) and the two ways it learns that the ledger
grew without being told by the writer:

- SQLite (``SqliteWatch``): ``PRAGMA data_version`` on one read-only connection kept open
  for the server's life, every ``POLL_S`` — SQLite changes it when, and only when, another
  connection (another process, or this server's own station) has *committed*, so a change
  means the new rows are readable.  The file's stamp (``file_stamp``: size, modification
  time and inode of the file and its WAL) is the fallback (a file SQLite cannot open
  read-only, a file replaced under the server), and every ``RESYNC_S`` the hub's follower
  reads anyway (one indexed query that usually returns nothing).  The stamp alone missed
  appends (issue 32, ADR 0032): the WAL grows *before* its commit is visible (the frames
  are written, then synced, then published in the WAL index), so a stat in between saw
  the final stamp while a read saw nothing new, and nothing changed again until the next
  write; and a commit after a checkpoint rewrites the WAL from its start at the same size,
  within one tick of the file system's clock;
- PostgreSQL (``PgListener``): ``LISTEN tourney_append``, fed by an ``AFTER INSERT``
  trigger on the event table (``NOTIFY_SQL``, installed when the server's role may, else
  printed for the database owner: docs/OPERATIONS.md), so any number of ``tourney serve``
  processes on any number of machines learn of every append, from any station, at once.
  No table is polled in a loop; after a lost connection the listener reconnects with a
  back-off and the follower catches up once.

The server only reads: it never writes an event, so killing it loses nothing.

May import: ``ledger.*``, ``psycopg`` (PostgreSQL only), the standard library
(``sqlite3`` for ``PRAGMA data_version``).
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ledger.core.state import TournamentState, apply_event
from ledger.errors import StorageError
from ledger.storage import pg_reach
from ledger.storage.location import Location
from ledger.storage.snapshots import LedgerCorrupt
from ledger.storage.store import Ledger
from ledger.wire.events import open_leaf

POLL_S = 0.1          # SQLite: how often data_version and the file's stamp are read
STATEMENT_MS = 5000   # PostgreSQL: the longest a read of new leaves may take
RESYNC_S = 5.0        # the follower reads anyway this often (the last resort: ``Hub``)
CHANNEL = "tourney_append"
NOTIFY_SQL = """
CREATE OR REPLACE FUNCTION tourney_notify_append() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('tourney_append', NEW.originator_id::text);
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER tourney_notify_append AFTER INSERT ON {table}
FOR EACH ROW EXECUTE FUNCTION tourney_notify_append();
"""


def file_stamp(path: str) -> tuple[int, ...]:
    """What usually changes when a SQLite ledger gains a row: the file's and its WAL's
    size, modification time and inode (zeros for a file that is not there).  A hint
    only: it may change before the commit is readable, and a commit may leave it as it
    was (``SqliteWatch``)."""
    out: list[int] = []
    for p in (path, path + "-wal"):
        try:
            st = os.stat(p)
            out += [st.st_size, st.st_mtime_ns, st.st_ino]
        except OSError:
            out += [0, 0, 0]
    return tuple(out)


def events_table(ledger: Ledger) -> str:
    rec: Any = ledger.app.recorder
    schema = rec.datastore.schema or "public"
    return f'"{schema}"."{rec.events_table_name}"'


class PgLeaves:
    """The new leaves of one tournament, read over one plain connection that fails fast
    (``ledger.storage.pg_reach.connect``: the connect timeout it names is the one it
    applies, over every address of the host; ``statement_timeout``) and is opened again
    on the next read: a database that went away is noticed in seconds, not after the
    pool's retries."""

    def __init__(self, location: Location, table: str) -> None:
        self.location = location
        self.sql = (f"SELECT originator_version, state FROM {table} WHERE originator_id = %s "
                    "AND originator_version > %s ORDER BY originator_version")
        self.conn: Any = None

    def after(self, log: str, size: int) -> list[tuple[int, bytes]]:
        import psycopg

        try:
            if self.conn is None or self.conn.closed:
                self.conn = pg_reach.connect(self.location, autocommit=True,
                                             options=f"-c statement_timeout={STATEMENT_MS}")
            rows = self.conn.execute(self.sql.encode(), (log, size)).fetchall()
        except psycopg.Error as exc:
            self.close()
            raise StorageError(f"cannot read {log}: {str(exc).strip().splitlines()[0]}",
                               hint="check that the database server runs") from None
        return [(int(v), bytes(st)) for v, st in rows]

    def close(self) -> None:
        if self.conn is not None:
            try:
                self.conn.close()
            except Exception:  # noqa: BLE001 - a dead connection closes as it can
                pass
            self.conn = None


class Follower:
    """One tournament of one ledger, folded in memory and kept current by ``catch_up``."""

    def __init__(self, location: Location, tournament: str | None) -> None:
        self.location = location
        self.ledger = Ledger(location, readonly=True)
        try:
            self.log = self.ledger.resolve(tournament)
            agg = self.ledger.load(self.log)
        except BaseException:
            self.ledger.close()
            raise
        self.state: TournamentState = agg.state
        #: called with the state just before an event that pairs a round is folded in,
        #: and that event's seq (the hub keeps the standings the pairing was made from)
        self.before_pairing: Callable[[TournamentState, int], None] | None = None
        self.pg = PgLeaves(location, events_table(self.ledger)) \
            if location.is_postgres else None
        self.broken = False

    def reopen(self) -> None:
        """After the database came back: a fresh ledger handle (its pool's connections
        died with the server)."""
        old, self.ledger = self.ledger, Ledger(self.location, readonly=True)
        try:
            old.close()
        except Exception:  # noqa: BLE001 - the old pool may hold dead connections
            pass
        self.broken = False

    def catch_up(self) -> int:
        """Fold the events appended since the last call; how many there were.  A storage
        failure propagates (``StorageError``); the state stays whole (events are folded
        one at a time).  One thread at a time (the hub's)."""
        before = self.state.size
        try:
            leaves = self.pg.after(self.log, before) if self.pg is not None else \
                self.ledger.raw_leaves(self.log, after=before)
            for _ver, leaf in leaves:
                ev = open_leaf(leaf)
                if ev.seq != self.state.size + 1:
                    raise LedgerCorrupt(f"{self.log}: event {ev.seq} follows "
                                        f"{self.state.size}")
                if self.before_pairing is not None and _pairs(self.state, ev):
                    self.before_pairing(self.state, ev.seq)
                apply_event(self.state, ev)
        except (StorageError, LedgerCorrupt):
            raise
        except Exception as exc:  # noqa: BLE001 - the database went away mid-read
            raise StorageError(f"cannot read {self.log}: {exc}") from None
        return self.state.size - before

    def grew(self) -> bool:
        """Whether an event follows the folded state (a wake may be a checkpoint's or a
        second signal of a commit already folded); True when it cannot tell."""
        if self.pg is not None:
            return True                          # LISTEN wakes only for appends
        try:
            return self.ledger.raw_leaf(self.log, self.state.size + 1) is not None
        except Exception:  # noqa: BLE001 - the fold will say what is wrong
            return True

    def close(self) -> None:
        if self.pg is not None:
            self.pg.close()
        self.ledger.close()


def _pairs(state: TournamentState, ev: Any) -> bool:
    """Whether ``ev`` pairs a round, as the format says (``paired_round``: from the body)."""
    from ledger.core.format_socket import plugin_for

    plugin = plugin_for(state.format.id if state.format else None) \
        if state.fmt is not None else None
    return plugin is not None and plugin.rules.paired_round(state, ev.body) is not None


class PgListener:
    """``LISTEN tourney_append`` on its own connection, in a daemon thread; calls
    ``on_append(log)`` for each notification and ``on_state(ok)`` when the connection
    is lost or back."""

    def __init__(self, location: Location, ledger: Ledger,
                 on_append: Callable[[str], None], on_state: Callable[[bool], None]) -> None:
        self.location = location
        self.ledger = ledger
        self.on_append = on_append
        self.on_state = on_state
        self.stop = threading.Event()
        self.trigger_note: str | None = None
        self.thread = threading.Thread(target=self._run, name="pg-listen", daemon=True)

    def install_trigger(self) -> None:
        """Install the NOTIFY trigger if the server's role may (idempotent)."""
        import psycopg

        sql = NOTIFY_SQL.format(table=events_table(self.ledger))
        try:
            with pg_reach.connect(self.location, autocommit=True) as conn:
                conn.execute(sql.encode())
        except StorageError as err:
            self.trigger_note = (f"cannot install the NOTIFY trigger ({err.message}); the "
                                 "database owner runs the SQL in docs/OPERATIONS.md once")
        except psycopg.Error as exc:
            why = exc.diag.message_primary or str(exc)
            self.trigger_note = (f"cannot install the NOTIFY trigger ({why}); the database "
                                 "owner runs the SQL in docs/OPERATIONS.md once")

    def start(self) -> None:
        self.thread.start()

    def _run(self) -> None:
        import psycopg

        backoff = 0.2
        while not self.stop.is_set():
            try:
                with pg_reach.connect(self.location, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self.on_state(True)          # caught up once after (re)connecting
                    backoff = 0.2
                    while not self.stop.is_set():
                        for n in conn.notifies(timeout=1.0):
                            self.on_append(n.payload)
            except (psycopg.Error, StorageError):
                self.on_state(False)
                self.stop.wait(backoff)
                backoff = min(backoff * 2, 5.0)


class SqliteWatch:
    """Whether a SQLite ledger may hold a commit the follower has not read.

    ``PRAGMA data_version`` on a read-only connection of its own, kept open: SQLite
    changes the value once another connection's commit is visible (it is read from the
    WAL index, no page is read).  The connection is SQLite's: SQLite itself keeps the
    file's descriptor open while any connection of this process holds a lock on it
    (ADR 0025, ``ledger.storage.sqlite_probe.held_fd``), so opening and closing it drops
    no lock of the station's writer.  The stamp is read too: a file replaced under the
    server (a new inode) is followed by a new connection."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.conn: sqlite3.Connection | None = None
        self.version: int | None = None
        self.stamp = file_stamp(path)
        self._open()

    def _open(self) -> None:
        from ledger.storage.sqlite_probe import sqlite_uri

        self.close()
        try:
            conn = sqlite3.connect(sqlite_uri(Path(self.path), "mode=ro"), uri=True,
                                   isolation_level=None, check_same_thread=False,
                                   timeout=1)
            self.version = int(conn.execute("PRAGMA data_version").fetchone()[0])
            self.conn = conn
        except sqlite3.Error:
            self.conn, self.version = None, None     # the stamp alone, until it opens

    def _data_version(self) -> int | None:
        if self.conn is None:
            return None
        try:
            return int(self.conn.execute("PRAGMA data_version").fetchone()[0])
        except sqlite3.Error:
            self.close()
            return None

    def changed(self) -> bool:
        """Whether a commit may have been made since the last call (never a false
        "no" for a commit that is readable now)."""
        stamp = file_stamp(self.path)
        moved = stamp != self.stamp
        replaced = stamp[2] != self.stamp[2]         # the ledger file's inode
        self.stamp = stamp
        if replaced or (moved and self.conn is None):
            self._open()
            return True
        version = self._data_version()
        grew = version != self.version
        self.version = version
        return moved or grew

    def close(self) -> None:
        if self.conn is not None:
            try:
                self.conn.close()
            except sqlite3.Error:
                pass
            self.conn = None


def sqlite_watch(path: str, stop: threading.Event, on_change: Callable[[], None]) -> None:
    """Call ``on_change`` whenever a commit may have been made to the SQLite ledger
    (``SqliteWatch``; runs until ``stop``)."""
    watch = SqliteWatch(path)
    try:
        while not stop.wait(POLL_S):
            if watch.changed():
                on_change()
    finally:
        watch.close()


def wait_for(predicate: Callable[[], bool], timeout: float) -> bool:
    """Poll ``predicate`` until true or ``timeout`` seconds (tests and start-up)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.02)
    return predicate()
