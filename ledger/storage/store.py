"""Storage: the ``eventsourcing`` Application, its leaf mapper, and ledger locations.

Owns: ``Location`` (SQLite file by default, PostgreSQL for ``postgresql://`` URLs, both
through the library's own modules), ``Ledger`` (opening, durability, loading,
``raw_leaves`` — what the audit reads — and ``Ledger.write``: load → decide → verify the
head → save, retried on a lost race; never a fork, never a lost acknowledged event).  The
mapper and snapshots are ``ledger.storage.snapshots``; a station's batch of writes is
``ledger.storage.write_session``.

Opening (issue 12): a SQLite file is probed with a read-only connection before the library
touches it, so a directory, a foreign or damaged file is a clear storage/usage error and
nothing is written to it; only ``create=True`` (``tourney init``) may create tables;
``readonly=True`` (every read command and the audit) opens ``mode=ro`` and falls back to
``immutable=1`` on read-only media.  Before a write the head event's signature and chain
link and the signer's own authority leaves are verified (a constant number of signature
checks, never a replay); a snapshot that does not match the chain is dropped and rebuilt.

May import: ``eventsourcing``, ``msgspec``, ``ledger.*`` (not projections, audit or cli).
"""

from __future__ import annotations

import hashlib
import os
import random
import sqlite3
import time as _time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from eventsourcing.persistence import IntegrityError, PersistenceError

from ledger.core.aggregate import Tournament
from ledger.errors import ConcurrencyError, StorageError, UsageError, VerificationError
from ledger.storage import dry_run
from ledger.storage import sqlite_probe as sq
from ledger.storage.location import Location
from ledger.storage.pg_station import recovery_hint, station_env
from ledger.storage.snapshots import LedgerApp, LedgerCorrupt, StaleSnapshot, delete_snapshots
from ledger.storage.write_guard import LeafReader, Trust, authority_problem, head_problem
from ledger.storage.write_turn import writer_turn
from ledger.wire.canonical import NonCanonicalError
from ledger.wire.clock import Clock, default_clock
from ledger.wire.events import Kind, open_leaf

if TYPE_CHECKING:
    from ledger.core.state import TournamentState
    from ledger.storage.checkpoint_table import CheckpointTable
    from ledger.storage.write_session import WriteSession


T = TypeVar("T")


class SnapshotMismatch(Exception):
    """A snapshot or the cached head does not match the chain: rebuild from events."""


class Ledger:
    """An opened ledger: read tournaments, write commands, read raw leaves."""

    def __init__(self, location: Location, *, create: bool = False,
                 clock: Clock | None = None, readonly: bool = False) -> None:
        self.location = location
        self.readonly = readonly and not create
        env = location.env(connections=1 if self.readonly else 2)
        if not location.is_postgres:
            path = location.path
            if create and not path.parent.is_dir():
                raise StorageError(f"directory {path.parent} does not exist",
                                   hint="create it or choose another --ledger")
            mode = sq.probe_sqlite(path, create=create)
            if self.readonly:
                env["SQLITE_DBNAME"] = sq.sqlite_uri(path, mode)
                env["CREATE_TABLE"] = "no"
            else:
                writable = (os.access(path, os.W_OK) if path.exists() else True) and \
                    os.access(path.parent, os.W_OK)
                if not writable:
                    raise StorageError(f"ledger {path} is on read-only storage",
                                       hint="copy it to writable storage to record events; "
                                            "read commands work where it is")
                if not create:
                    env["CREATE_TABLE"] = "no"
        else:
            env = station_env({**env, "CREATE_TABLE": "no"} if not create else env)
            # the server's answer (or its silence) within the stated time, before the
            # library's pool waits on it: issue 32
            from ledger.storage.pg_reach import probe

            probe(location)
        self.clock = clock or default_clock()
        for attempt in range(4):
            try:
                self.app = LedgerApp(env=env)
                break
            except (PersistenceError, OSError, sqlite3.Error) as exc:
                if "permission denied for schema" in str(exc) and env.get("CREATE_TABLE") != "no":
                    # a station's role may only read and append (docs/OPERATIONS.md): the
                    # tables exist already, so do not try to create them
                    env = {**env, "CREATE_TABLE": "no"}
                    continue
                # several processes creating the schema at once may collide; retry briefly
                if attempt == 3:
                    raise StorageError(f"cannot open ledger {location.display()}: "
                                       f"{sq.storage_cause(location, exc)}",
                                       hint="check the path or URL and that the server "
                                            "runs") from None
                _time.sleep(0.05 * (attempt + 1))

        self._sync_mode = "FULL"
        self._wal_pending = not location.is_postgres and sq.defer_wal(
            self._sqlite_pool(), location.path, readonly=self.readonly)
        if not location.is_postgres:
            self._hook_sqlite_connections()

    def prepare_write(self) -> None:
        """Just before a write: a rollback-journal SQLite file is switched to WAL."""
        if self._wal_pending:
            sq.switch_to_wal(self.location.path)
            self._wal_pending = False

    # -- durability (SQLite) -------------------------------------------------------------
    def _sqlite_pool(self) -> Any:
        return getattr(getattr(self.app.recorder, "datastore", None), "pool", None)

    def _hook_sqlite_connections(self) -> None:
        """Every SQLite connection of this ledger runs with ``synchronous`` = our mode
        (FULL unless inside ``group_commit``), set explicitly rather than left to the
        build's default."""
        pool = self._sqlite_pool()
        if pool is None or not hasattr(pool, "_create_connection"):
            return
        create = pool._create_connection

        def create_with_mode() -> Any:
            conn = create()
            conn._sqlite_conn.execute(f"PRAGMA synchronous={self._sync_mode}")
            return conn
        pool._create_connection = create_with_mode
        self._apply_sync_mode()

    def _apply_sync_mode(self) -> None:
        pool = self._sqlite_pool()
        if pool is None:
            return
        for conn in [*getattr(pool, "_pool", ()), *getattr(pool, "_in_use", {}).values()]:
            conn._sqlite_conn.execute(f"PRAGMA synchronous={self._sync_mode}")

    @contextmanager
    def group_commit(self) -> Iterator[None]:
        """Many transactions, one fsync (SQLite): inside, each write is still its own
        atomic transaction but commits without waiting for the disk (WAL, synchronous
        NORMAL); on leaving, the write-ahead log is fsynced once, so everything written
        inside is durable before the caller acknowledges it.  A crash inside loses only
        unacknowledged writes, never consistency.  PostgreSQL: unchanged (every commit
        is durable)."""
        if self.location.is_postgres:
            yield
            return
        self._sync_mode = "NORMAL"
        self._apply_sync_mode()
        try:
            yield
        finally:
            self._sync_mode = "FULL"
            self._apply_sync_mode()
            self.sync()

    def sync(self) -> None:
        """fsync the SQLite write-ahead log (and the file): make committed writes durable."""
        if self.location.is_postgres:
            return
        for path in (Path(f"{self.location.path}-wal"), self.location.path):
            try:
                fd = sq.held_fd(path)      # never closed: closing drops SQLite's locks
            except FileNotFoundError:
                continue
            os.fsync(fd)

    def close(self) -> None:
        self.app.close()

    @property
    def checkpoints(self) -> CheckpointTable:
        """The signed checkpoint notes stored in this ledger
        (``ledger.storage.checkpoint_table``)."""
        table = self.__dict__.get("_checkpoints")
        if table is None:
            from ledger.storage.checkpoint_table import CheckpointTable
            table = self.__dict__["_checkpoints"] = CheckpointTable(self)
        return table

    def __enter__(self) -> Ledger:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reading -----------------------------------------------------------------------
    def tournament_ids(self, *, limit: int = 1_000_000) -> list[str]:
        """Tournaments in creation order: a scan of the events table (a named one is
        looked up by its key, ``has_tournament``)."""
        try:
            notes = self.app.recorder.select_notifications(
                start=None, limit=limit, topics=[Kind.TOURNAMENT_CREATED.value])
        except PersistenceError as exc:
            raise StorageError(f"cannot read ledger {self.location.display()}: {exc}") from None
        return [str(n.originator_id) for n in notes]

    def has_tournament(self, log: str) -> bool:
        """Whether ``log`` is a tournament here: its genesis row read by the primary key,
        whatever else the database holds (ADR 0020)."""
        try:
            rows = self.app.recorder.select_events(log, lte=1, limit=1)
        except PersistenceError as exc:
            raise StorageError(f"cannot read ledger {self.location.display()}: {exc}") from None
        return bool(rows) and rows[0].topic == Kind.TOURNAMENT_CREATED.value

    def resolve(self, log: str | None) -> str:
        """The tournament to act on: the one named, or the only one in the ledger."""
        if log is not None:
            if not self.has_tournament(log):
                ids = self.tournament_ids()
                raise UsageError(f"no tournament {log!r} in {self.location.display()}",
                                 hint=f"tournaments here: {', '.join(ids) or 'none'}")
            return log
        ids = self.tournament_ids(limit=2)
        if not ids:
            raise UsageError(f"ledger {self.location.display()} holds no tournament",
                             hint="create one with 'tourney init'")
        if len(ids) > 1:
            ids = self.tournament_ids()
            raise UsageError(f"ledger holds {len(ids)} tournaments: {', '.join(ids)}",
                             hint="pass --tournament ID or set TOURNEY_TOURNAMENT")
        return ids[0]

    def load(self, log: str) -> Tournament:
        """The tournament folded from its newest bound snapshot and the events after it
        (docs/ADR 0001); a snapshot that does not match the chain is dropped and the
        tournament is folded from its events."""
        try:
            try:
                return self._load(log, use_snapshot=True)
            except (StaleSnapshot, SnapshotMismatch):
                if not self.readonly:
                    delete_snapshots(self.app, log)
                return self._load(log, use_snapshot=False)
        except PersistenceError as exc:
            raise StorageError(f"cannot read tournament {log}: {exc}") from None
        except sqlite3.DatabaseError as exc:
            raise StorageError(f"cannot read tournament {log}: {exc}",
                               hint="the ledger file is damaged; run 'tourney audit "
                                    "verify'") from None

    def _load(self, log: str, *, use_snapshot: bool) -> Tournament:
        agg: Any = None
        gt: int | None = None
        if use_snapshot and self.app.snapshots is not None:
            snaps: Any = self.app.snapshots.get(log, desc=True, limit=1)
            for snap in snaps:
                agg = snap.mutate(None)
                gt = snap.originator_version
        bound = agg.state.head if agg is not None else None
        first = True
        events: Any = self.app.events.get(log, gt=gt)
        for event in events:
            if first and bound is not None and event.signed.prev != bound:
                raise SnapshotMismatch(log)  # the snapshot is not of this chain
            first = False
            agg = event.mutate(agg)
        if agg is None:
            raise UsageError(f"no tournament {log!r} in {self.location.display()}")
        if not isinstance(agg, Tournament):
            raise LedgerCorrupt(f"{log} is not a tournament")
        if first and bound is not None:  # snapshot at the head: bind it to the head leaf
            head = self.raw_leaf(log, agg.version)
            if head is None or hashlib.sha256(head).hexdigest() != bound:
                raise SnapshotMismatch(log)
        return agg

    def _reader(self, log: str) -> LeafReader:
        return LeafReader(
            at=lambda v: self.raw_leaf(log, v),
            head=lambda size: [(r.originator_version, bytes(r.state)) for r in
                               self.app.recorder.select_events(log, lte=size, desc=True,
                                                               limit=2)])

    def raw_leaf(self, log: str, version: int) -> bytes | None:
        """The stored leaf bytes at one version (None if there is no such row)."""
        rows = self.app.recorder.select_events(log, gt=version - 1 if version > 1 else None,
                                               lte=version, limit=1)
        return bytes(rows[0].state) if rows and rows[0].originator_version == version \
            else None

    def raw_leaves(self, log: str, *, after: int = 0) -> Iterator[tuple[int, bytes]]:
        """(stored version, stored leaf bytes) in version order, straight from the table."""
        batch = 5000
        gt = after
        while True:
            try:
                rows = self.app.recorder.select_events(log, gt=gt or None, limit=batch)
            except PersistenceError as exc:
                raise StorageError(f"cannot read tournament {log}: {exc}") from None
            for row in rows:
                yield row.originator_version, bytes(row.state)
            if len(rows) < batch:
                return
            gt = rows[-1].originator_version

    def actor_of(self, log: str, seq: int) -> str | None:
        """The key id that signed event ``seq`` (None if unreadable or absent)."""
        data = self.raw_leaf(log, seq)
        try:
            return open_leaf(data).actor if data is not None else None
        except NonCanonicalError:
            return None

    # -- writing -----------------------------------------------------------------------
    def create(self, log: str, build: Callable[[str], Tournament]) -> Tournament:
        if self.has_tournament(log):
            raise UsageError(f"tournament {log!r} already exists in "
                             f"{self.location.display()}",
                             hint="choose another --id or --name, or another --ledger")
        agg = build(self.clock.now())
        self._save(agg)
        return agg

    def write(self, log: str, command: Callable[[Tournament, str], T],
              *, retries: int = 8) -> T:
        """Load, decide, verify the head, save one command; on a lost race reload and
        decide again."""
        return self.retrying(log, lambda: self._decide(log, command), retries)[1]

    def retrying(self, log: str, decide: Callable[[], tuple[Tournament, T]],
                 retries: int) -> tuple[Tournament, T]:
        """``decide()`` and save in this tournament's writer turn; on a lost race back off
        (with jitter, so racing stations do not move in lockstep) and decide again."""
        for attempt in range(retries + 1):
            with writer_turn(self, log):
                agg, result = decide()
                try:
                    self._save(agg)
                    return agg, result
                except IntegrityError:
                    pass
            if attempt == retries:
                raise ConcurrencyError(
                    f"another writer kept appending to {log}; gave up after "
                    f"{retries + 1} attempts", hint="run the command again") from None
            _time.sleep(random.uniform(0.001, 0.005 * (attempt + 1)))
        raise ConcurrencyError("unreachable")  # pragma: no cover

    def _decide(self, log: str, command: Callable[[Tournament, str], T],
                agg: Tournament | None = None, trust: Trust | None = None
                ) -> tuple[Tournament, T]:
        """Decide ``command`` on ``agg`` (else the loaded tournament), head and authority
        verified (what ``trust`` holds was verified by this writer already); a cache that
        lied is dropped and the decision made again from events."""
        try:
            return self._decide_verified(log, command, rebuilt=False, agg=agg, trust=trust)
        except SnapshotMismatch:
            delete_snapshots(self.app, log)  # a cache lied: rebuild and decide again
            return self._decide_verified(log, command, rebuilt=True)

    def _decide_verified(self, log: str, command: Callable[[Tournament, str], T], *,
                         rebuilt: bool, agg: Tournament | None = None,
                         trust: Trust | None = None) -> tuple[Tournament, T]:
        """Load (from events only when ``rebuilt``), verify the head, decide, verify the
        signers' authority (issue 12, defect 8): the head leaf is the one the state was
        folded to, it links to its predecessor and its signature verifies; each new
        event's signer is an official by leaves that verify (its own ``official_added``
        or genesis, signed by the organizer genesis names).  A few signature checks, never
        a replay.  A mismatch is ``SnapshotMismatch`` (rebuild and decide again) unless
        the state was just rebuilt from events: then the ledger was tampered (exit 4)."""
        if agg is None or rebuilt:
            agg = self._load(log, use_snapshot=False) if rebuilt else self.load(log)
        trust = trust or Trust()
        problem = head_problem(self._reader(log), agg.state) \
            if agg.state.size and not trust.holds_head(agg.state) else None
        if problem is None:
            result = command(agg, self.clock.now())
            pending = getattr(agg, "_pending_events", [])
            actors = sorted({e.signed.actor for e in pending if hasattr(e, "signed") and
                             not trust.holds_authority(agg.state, e.signed.actor)})
            problem = next((p for p in (authority_problem(self._reader(log), agg.state, a)
                                        for a in actors) if p), None)
        if problem is None:
            for a in actors:
                trust.hold_authority(agg.state, a)
            return agg, result
        if not rebuilt:
            raise SnapshotMismatch(problem)
        raise VerificationError(f"refusing to sign on top of {log}: {problem}",
                                hint=recovery_hint(log, agg.state.size))

    def verified_state(self, log: str) -> TournamentState:
        """The tournament's state for signing something over it without an event (a
        checkpoint): its head verified as before a write (exit 4 naming the recovery)."""
        agg = self.load(log)
        if agg.state.size and head_problem(self._reader(log), agg.state) is not None:
            delete_snapshots(self.app, log)   # a cache may have lied: judge the events
            agg = self._load(log, use_snapshot=False)
            problem = head_problem(self._reader(log), agg.state)
            if problem is not None:
                raise VerificationError(f"refusing to sign on top of {log}: {problem}",
                                        hint=recovery_hint(log, agg.state.size))
        return agg.state

    def session(self, log: str) -> WriteSession:
        """Many commands on one tournament from one process (``result import``): the
        aggregate stays in memory between saves and is reloaded only after a lost race
        or a refused command — each command is still its own transaction."""
        from ledger.storage.write_session import WriteSession

        return WriteSession(self, log)

    def _save(self, agg: Tournament) -> None:
        dry_run.check([e.signed for e in getattr(agg, "_pending_events", [])
                       if hasattr(e, "signed")])
        self.prepare_write()
        try:
            self.app.save(agg)
        except IntegrityError:
            raise
        except PersistenceError as exc:
            raise StorageError(f"cannot write to {self.location.display()}: "
                               f"{sq.storage_cause(self.location, exc)}",
                               hint="check disk space, permissions or the server; this "
                                    "command wrote nothing") from None
