"""The read path of a SQLite ledger without the ``eventsourcing`` application (issue 22,
ADR 0025 fifth pass): the read commands' tournament, state and raw leaves straight from
the tables the library wrote.

Owns: ``RawLeaf``, ``RawLeaves``, ``LeafSource`` (what a read command asks of a ledger:
``resolve``, ``load_state``, ``raw_leaf``, ``raw_leaves``), ``open_reader`` (a
``SqliteReader`` for a SQLite file; for PostgreSQL the library's ``Ledger`` behind the same
methods, ``LedgerSource``) and ``SqliteReader``.

It verifies what ``Ledger.load`` verifies, no less: the file is probed as ``Ledger`` probes
it (``probe_sqlite``, read-only URI) and the clock's environment is read as it reads it; a
snapshot is used only if its topic names this build's layout, it decodes, and it is bound
to the event it claims (leaf hash = its head, size = its version:
``snapshot_codec.decode_snapshot``) and to the chain (the next event's ``prev`` is its
head, or the head leaf hashes to it); every event after it is a canonical leaf
(``open_leaf``) of this log at its stored seq, the seqs gap-free, its time readable,
folded by the same ``apply_event``.  Anything else — a stale or unbound snapshot, a damaged
row, an unknown tournament, a SQLite error — is handed to ``Ledger`` itself, which decides
it exactly as before (the same state, error and message): this module is a shortcut for the
common case, never a second set of rules.

May import: ``sqlite3``, ``hashlib``, ``ledger.core.state``, ``ledger.wire.events``,
``ledger.wire.clock``, ``ledger.storage.snapshot_codec``, ``ledger.storage.sqlite_probe``,
``ledger.storage.location``, and ``ledger.storage.store`` lazily (the fallback).
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Protocol

from ledger.core.state import TournamentState, apply_event
from ledger.storage import sqlite_probe as sq
from ledger.storage.location import Location, sqlite_lock_timeout
from ledger.storage.snapshot_codec import decode_snapshot
from ledger.wire.clock import default_clock, parse_time
from ledger.wire.events import Kind, open_leaf

if TYPE_CHECKING:
    from ledger.storage.store import Ledger

EVENTS = "stored_events"        # the library's SQLite tables (eventsourcing.sqlite)
SNAPSHOTS = "stored_snapshots"


class RawLeaf(Protocol):
    """One stored leaf by its seq (``Ledger`` and every ``LeafSource``)."""

    def raw_leaf(self, log: str, version: int) -> bytes | None: ...


class RawLeaves(Protocol):
    """A ledger's stored leaves in order (``Ledger`` and every ``LeafSource``)."""

    def raw_leaves(self, log: str, *, after: int = 0) -> Iterator[tuple[int, bytes]]: ...


class LeafSource(Protocol):
    """What a read command asks of an opened ledger."""

    def resolve(self, log: str | None) -> str: ...

    def load_state(self, log: str) -> TournamentState: ...

    def raw_leaf(self, log: str, version: int) -> bytes | None: ...

    def raw_leaves(self, log: str, *, after: int = 0) -> Iterator[tuple[int, bytes]]: ...


class _Unusual(Exception):
    """The shortcut does not decide this case: ``Ledger`` does."""


class LedgerSource:
    """The library's ``Ledger`` as a ``LeafSource`` (PostgreSQL, and every fallback)."""

    def __init__(self, led: Ledger) -> None:
        self.led = led

    def full(self) -> LedgerSource:
        return self

    def close(self) -> None:
        self.led.close()

    def __enter__(self) -> LedgerSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def resolve(self, log: str | None) -> str:
        return self.led.resolve(log)

    def load_state(self, log: str) -> TournamentState:
        return self.led.load(log).state

    def raw_leaf(self, log: str, version: int) -> bytes | None:
        return self.led.raw_leaf(log, version)

    def raw_leaves(self, log: str, *, after: int = 0) -> Iterator[tuple[int, bytes]]:
        return self.led.raw_leaves(log, after=after)


class SqliteReader:
    """A SQLite ledger read with ``sqlite3`` alone (read-only connection)."""

    def __init__(self, location: Location) -> None:
        self.location = location
        self._full: LedgerSource | None = None
        self._conn: sqlite3.Connection | None = None
        mode = sq.probe_sqlite(location.path, create=False)   # Ledger's own probe
        self.clock = default_clock()    # as Ledger: a malformed TOURNEY_FIXED_CLOCK is refused
        try:
            self._conn = sqlite3.connect(sq.sqlite_uri(location.path, mode), uri=True,
                                         timeout=sqlite_lock_timeout(),
                                         isolation_level=None,
                                         check_same_thread=False)
        except sqlite3.Error:
            self._conn = None

    # -- the fallback --------------------------------------------------------------------
    def full(self) -> LedgerSource:
        """The library's ``Ledger`` on the same file (opened once, on first need)."""
        if self._full is None:
            from ledger.storage.store import Ledger

            self._full = LedgerSource(Ledger(self.location, readonly=True))
        return self._full

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        if self._full is not None:
            self._full.close()

    def __enter__(self) -> SqliteReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _rows(self, sql: str, args: tuple[Any, ...]) -> list[Any]:
        if self._conn is None:
            raise _Unusual
        try:
            return self._conn.execute(sql, args).fetchall()
        except sqlite3.Error:
            raise _Unusual from None

    # -- reading -------------------------------------------------------------------------
    def resolve(self, log: str | None) -> str:
        """The one tournament of the file or the one named (else ``Ledger`` says why)."""
        try:
            if log is not None:
                row = self._rows(f"SELECT topic FROM {EVENTS} WHERE originator_id = ? AND "
                                 "originator_version <= 1 ORDER BY originator_version "
                                 "LIMIT 1", (log,))
                if row and row[0][0] == Kind.TOURNAMENT_CREATED.value:
                    return log
            else:
                ids = self._rows(f"SELECT originator_id FROM {EVENTS} WHERE topic = ? "
                                 "ORDER BY rowid LIMIT 2", (Kind.TOURNAMENT_CREATED.value,))
                if len(ids) == 1:
                    return str(ids[0][0])
        except _Unusual:
            pass
        return self.full().resolve(log)

    def load_state(self, log: str) -> TournamentState:
        try:
            return self._fold(log)
        except Exception:  # noqa: BLE001 - anything unusual is decided by Ledger itself
            return self.full().load_state(log)

    def _fold(self, log: str) -> TournamentState:
        if self._conn is None:
            raise _Unusual
        self._conn.execute("BEGIN")          # snapshot and events of one moment
        try:
            snap = self._rows(f"SELECT originator_version, topic, state FROM {SNAPSHOTS} "
                              "WHERE originator_id = ? ORDER BY originator_version DESC "
                              "LIMIT 1", (log,))
            state, at = TournamentState(), 0
            if snap:
                at = int(snap[0][0])
                _stamp, state = decode_snapshot(log, at, snap[0][1], bytes(snap[0][2]))
            bound = state.head if snap else None
            rows = self._rows(f"SELECT originator_version, state FROM {EVENTS} WHERE "
                              "originator_id = ? AND originator_version > ? "
                              "ORDER BY originator_version", (log, at))
            head = None if rows or bound is None else \
                self._rows(f"SELECT state FROM {EVENTS} WHERE originator_id = ? AND "
                           "originator_version = ?", (log, at))
        finally:
            self._conn.execute("COMMIT")
        if not snap and not rows:
            raise _Unusual                   # no such tournament: Ledger's message
        if head is not None and (not head or
                                 hashlib.sha256(bytes(head[0][0])).hexdigest() != bound):
            raise _Unusual                   # a snapshot at the head not bound to it
        expect = at + 1
        for ver, leaf in rows:
            signed = open_leaf(bytes(leaf))
            if ver != expect or signed.seq != ver or signed.log != log:
                raise _Unusual
            if ver == at + 1 and bound is not None and signed.prev != bound:
                raise _Unusual               # the snapshot is not of this chain
            parse_time(signed.time)
            apply_event(state, signed)
            expect += 1
        return state

    def raw_leaf(self, log: str, version: int) -> bytes | None:
        try:
            rows = self._rows(f"SELECT state FROM {EVENTS} WHERE originator_id = ? AND "
                              "originator_version = ?", (log, version))
        except _Unusual:
            return self.full().raw_leaf(log, version)
        return bytes(rows[0][0]) if rows else None

    def raw_leaves(self, log: str, *, after: int = 0) -> Iterator[tuple[int, bytes]]:
        try:
            rows = self._rows(f"SELECT originator_version, state FROM {EVENTS} WHERE "
                              "originator_id = ? AND originator_version > ? "
                              "ORDER BY originator_version", (log, after))
        except _Unusual:
            yield from self.full().raw_leaves(log, after=after)
            return
        for ver, leaf in rows:
            yield int(ver), bytes(leaf)


def open_reader(location: Location) -> SqliteReader | LedgerSource:
    """The read path of ``location``: ``SqliteReader``, or ``Ledger`` for PostgreSQL."""
    if location.is_postgres:
        from ledger.storage.store import Ledger

        return LedgerSource(Ledger(location, readonly=True))
    return SqliteReader(location)
