"""Storage: the ``eventsourcing`` Application, its leaf mapper, and ledger locations.

Owns: ``LedgerApp`` (SQLite file by default, PostgreSQL for ``postgresql://`` URLs, both
through the library's own modules), ``LeafMapper`` (the stored ``state`` bytes ARE the
signed leaf of DESIGN.md §4; snapshots are msgpack caches in their own table, each bound
to the leaf hash of the event it was taken at), ``raw_leaves`` (what the audit reads) and
``Ledger.write`` (load → decide → verify the head → save, retried on a lost race; never a
fork, never a lost acknowledged event).

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

import gc
import hashlib
import os
import random
import sqlite3
import time as _time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import msgspec
from eventsourcing.application import Application
from eventsourcing.persistence import (
    IntegrityError,
    JSONTranscoder,
    Mapper,
    PersistenceError,
    StoredEvent,
)
from eventsourcing.utils import get_topic

from ledger.aggregate import EventSealed, Tournament, TournamentSnapshot, TournamentStarted
from ledger.canonical import NonCanonicalError
from ledger.clock import Clock, default_clock, parse_time
from ledger.errors import ConcurrencyError, StorageError, UsageError, VerificationError
from ledger.events import open_leaf
from ledger.plugin import plugin_for
from ledger.sqlite_probe import probe_sqlite, sqlite_uri
from ledger.state import TournamentState
from ledger.write_guard import LeafReader, authority_problem, head_problem

if TYPE_CHECKING:
    from ledger.checkpoint_table import CheckpointTable

LEDGER_ENV = "TOURNEY_LEDGER"
DEFAULT_LEDGER = "tournament.db"
SNAPSHOT_INTERVAL = 100
TURN_WAIT_MS = 3000  # PostgreSQL: the longest wait for a tournament's writer turn
_TOURNAMENT_TOPIC = get_topic(Tournament)


class _SnapshotRecord(msgspec.Struct):
    timestamp: str
    state: TournamentState   # the core state, its ``fmt`` left out (None)
    fmt: msgspec.Raw         # the format's state, decoded by its plug-in
    leaf_hash: str = ""  # hex SHA-256 of the leaf at the snapshot's version (its binding)


_snap_encoder = msgspec.msgpack.Encoder()
_snap_decoder = msgspec.msgpack.Decoder(_SnapshotRecord)
_topics: dict[str, str] = {}


def snapshot_topic(format_id: str | None = None) -> str:
    """Snapshots are positional (array-like) caches: their topic names the tournament's
    format and the exact layout of the core state and of that format's state, so a
    snapshot written by another version (or for a format not plugged in here) is dropped
    and rebuilt."""
    key = format_id or ""
    topic = _topics.get(key)
    if topic is None:
        plugin = plugin_for(format_id)
        schemas = [msgspec.json.schema(_SnapshotRecord),
                   msgspec.json.schema(plugin.state_type) if plugin else None]
        digest = hashlib.sha256(msgspec.json.encode(schemas, order="sorted")).hexdigest()
        topic = _topics[key] = f"tourney-snapshot/{key or '-'}/{digest[:16]}"
    return topic


def _topic_format(topic: str) -> str | None:
    parts = topic.split("/")
    return parts[1] if len(parts) == 3 and parts[1] != "-" else None


class LedgerCorrupt(StorageError):
    code = "ledger_corrupt"


class StaleSnapshot(Exception):
    """A snapshot of another layout: snapshots are caches, so it is dropped and rebuilt."""


class LeafMapper(Mapper[str]):
    """Stored ``state`` = the canonical signed leaf; ``topic`` = the event kind."""

    def __init__(self) -> None:
        super().__init__(transcoder=JSONTranscoder())

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        if isinstance(domain_event, TournamentSnapshot):
            state = domain_event.state
            rec = _SnapshotRecord(timestamp=domain_event.timestamp.isoformat(),
                                  state=msgspec.structs.replace(state, fmt=None),
                                  fmt=msgspec.Raw(_snap_encoder.encode(state.fmt)),
                                  leaf_hash=state.head)
            return StoredEvent(originator_id=domain_event.originator_id,
                               originator_version=domain_event.originator_version,
                               topic=snapshot_topic(state.format.id if state.format else None),
                               state=_snap_encoder.encode(rec))
        signed = domain_event.signed
        return StoredEvent(originator_id=domain_event.originator_id,
                           originator_version=domain_event.originator_version,
                           topic=signed.kind, state=signed.leaf)

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        oid = str(stored_event.originator_id)
        ver = stored_event.originator_version
        if stored_event.topic.startswith("tourney-snapshot/"):
            if stored_event.topic != snapshot_topic(_topic_format(stored_event.topic)):
                raise StaleSnapshot(oid)
            was_enabled = gc.isenabled()
            gc.disable()  # thousands of small objects: collection passes would dominate
            try:
                rec = _snap_decoder.decode(stored_event.state)
                fmt = rec.state.format
                plugin = plugin_for(fmt.id if fmt else None)
                if plugin is not None:
                    rec.state.fmt = plugin.decode_state(rec.fmt)
            except (msgspec.DecodeError, msgspec.ValidationError):
                raise StaleSnapshot(oid) from None
            finally:
                if was_enabled:
                    gc.enable()
            if rec.leaf_hash != rec.state.head or rec.state.size != ver:
                raise StaleSnapshot(oid)  # not bound to the event it claims: rebuild
            return TournamentSnapshot(originator_id=oid, originator_version=ver,
                                      timestamp=datetime.fromisoformat(rec.timestamp),
                                      topic=_TOURNAMENT_TOPIC, state=rec.state)
        try:
            signed = open_leaf(bytes(stored_event.state))
        except NonCanonicalError as exc:
            raise LedgerCorrupt(f"event {oid}#{ver} is unreadable: {exc.message}",
                                hint="run 'tourney audit verify' for the full report") from None
        if signed.seq != ver or signed.log != oid:
            raise LedgerCorrupt(f"event {oid}#{ver} claims {signed.log}#{signed.seq}",
                                hint="run 'tourney audit verify' for the full report")
        ts = parse_time(signed.time)
        if ver == 1:
            return TournamentStarted(originator_id=oid, originator_version=ver, timestamp=ts,
                                     originator_topic=_TOURNAMENT_TOPIC, signed=signed)
        return EventSealed(originator_id=oid, originator_version=ver, timestamp=ts,
                           signed=signed)


class LedgerApp(Application[str]):
    name = "tourney"
    snapshotting_intervals = {Tournament: SNAPSHOT_INTERVAL}

    def construct_mapper(self) -> Mapper[str]:
        return LeafMapper()

    def _take_snapshots(self, processing_event: Any) -> None:
        """Snapshot the saved aggregate as it is in memory when a save crosses a multiple
        of the interval (the library would reload it first), then drop older snapshots:
        a cache needs only the newest."""
        if self.snapshots is None:
            return
        for agg in processing_event.aggregates.values():
            events = [e for e in processing_event.events if e.originator_id == agg.id]
            if not isinstance(agg, Tournament) or not events:
                continue
            first = events[0].originator_version
            if agg.version // SNAPSHOT_INTERVAL == (first - 1) // SNAPSHOT_INTERVAL:
                continue
            self.snapshots.put([TournamentSnapshot.take(agg)])
            delete_snapshots(self, agg.id, before=agg.version)


def delete_snapshots(app: LedgerApp, aggregate_id: str, *, before: int | None = None) -> None:
    """Delete cached snapshots of one tournament (all, or those older than ``before``)."""
    if app.snapshots is None:
        return
    rec: Any = app.snapshots.recorder
    table = rec.events_table_name
    limit = before if before is not None else 2**62
    with rec.datastore.transaction(commit=True) as curs:
        if "postgres" in type(rec).__module__:
            from psycopg.sql import SQL, Identifier
            curs.execute(SQL("DELETE FROM {}.{} WHERE originator_id = %s AND "
                             "originator_version < %s").format(
                Identifier(rec.datastore.schema), Identifier(table)), (aggregate_id, limit))
        else:
            curs.execute(f"DELETE FROM {table} WHERE originator_id = ? AND "
                         "originator_version < ?", (aggregate_id, limit))


@dataclass(frozen=True)
class Location:
    """Where a ledger lives: a SQLite file path or a PostgreSQL URL."""

    text: str

    @property
    def is_postgres(self) -> bool:
        return self.text.startswith(("postgresql://", "postgres://"))

    @property
    def path(self) -> Path:
        return Path(self.text)

    def exists(self) -> bool:
        return True if self.is_postgres else self.path.is_file()

    def env(self) -> dict[str, str]:
        if not self.is_postgres:
            return {"PERSISTENCE_MODULE": "eventsourcing.sqlite",
                    "SQLITE_DBNAME": str(self.path), "SQLITE_LOCK_TIMEOUT": "30",
                    "ORIGINATOR_ID_TYPE": "text"}
        from urllib.parse import unquote, urlparse

        url = urlparse(self.text)
        return {"PERSISTENCE_MODULE": "eventsourcing.postgres",
                "POSTGRES_DBNAME": (url.path or "/postgres").lstrip("/") or "postgres",
                "POSTGRES_HOST": url.hostname or "127.0.0.1",
                "POSTGRES_PORT": str(url.port or 5432),
                "POSTGRES_USER": unquote(url.username or "postgres"),
                "POSTGRES_PASSWORD": unquote(url.password or ""),
                "POSTGRES_CONNECT_TIMEOUT": "5",
                "ORIGINATOR_ID_TYPE": "text"}

    def display(self) -> str:
        if self.is_postgres:
            from urllib.parse import urlparse

            url = urlparse(self.text)
            return f"postgresql://{url.hostname}:{url.port or 5432}{url.path}"
        return str(self.path)


def _project(aggregate: Any, events: Any) -> Any:
    """Fold stored events onto the snapshot (the library's default also runs a runtime
    Protocol check per event, which costs more than the fold itself)."""
    for event in events:
        aggregate = event.mutate(aggregate)
    return aggregate


def location_from(text: str | None) -> Location:
    return Location(text or os.environ.get(LEDGER_ENV) or DEFAULT_LEDGER)


T = TypeVar("T")


class SnapshotMismatch(Exception):
    """A snapshot or the cached head does not match the chain: rebuild from events."""


class Ledger:
    """An opened ledger: read tournaments, write commands, read raw leaves."""

    def __init__(self, location: Location, *, create: bool = False,
                 clock: Clock | None = None, readonly: bool = False) -> None:
        self.location = location
        self.readonly = readonly and not create
        env = location.env()
        if not location.is_postgres:
            path = location.path
            if create and not path.parent.is_dir():
                raise StorageError(f"directory {path.parent} does not exist",
                                   hint="create it or choose another --ledger")
            mode = probe_sqlite(path, create=create)
            if self.readonly:
                env["SQLITE_DBNAME"] = sqlite_uri(path, mode)
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
        elif not create:
            env["CREATE_TABLE"] = "no"
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
                    raise StorageError(f"cannot open ledger {location.display()}: {exc}",
                                       hint="check the path or URL and that the server "
                                            "runs") from None
                _time.sleep(0.05 * (attempt + 1))

        self._sync_mode = "FULL"
        if not location.is_postgres:
            self._hook_sqlite_connections()

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
                fd = os.open(path, os.O_RDONLY)
            except FileNotFoundError:
                continue
            try:
                os.fsync(fd)
            finally:
                os.close(fd)

    def close(self) -> None:
        self.app.close()

    @property
    def checkpoints(self) -> CheckpointTable:
        """The signed checkpoint notes stored in this ledger (``ledger.checkpoint_table``)."""
        table = self.__dict__.get("_checkpoints")
        if table is None:
            from ledger.checkpoint_table import CheckpointTable
            table = self.__dict__["_checkpoints"] = CheckpointTable(self)
        return table

    def __enter__(self) -> Ledger:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reading -----------------------------------------------------------------------
    def tournament_ids(self) -> list[str]:
        """Every tournament in this ledger, in creation order (genesis notifications)."""
        try:
            notes = self.app.recorder.select_notifications(
                start=None, limit=1_000_000, topics=["tournament_created"])
        except PersistenceError as exc:
            raise StorageError(f"cannot read ledger {self.location.display()}: {exc}") from None
        return [str(n.originator_id) for n in notes]

    def resolve(self, log: str | None) -> str:
        """The tournament to act on: the one named, or the only one in the ledger."""
        ids = self.tournament_ids()
        if log is not None:
            if log not in ids:
                raise UsageError(f"no tournament {log!r} in {self.location.display()}",
                                 hint=f"tournaments here: {', '.join(ids) or 'none'}")
            return log
        if not ids:
            raise UsageError(f"ledger {self.location.display()} holds no tournament",
                             hint="create one with 'tourney init'")
        if len(ids) > 1:
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

    def leaf(self, log: str, seq: int) -> bytes | None:
        """The stored leaf bytes of one event (None if there is no such seq)."""
        for ver, data in self.raw_leaves(log, after=seq - 1):
            return data if ver == seq else None
        return None

    def actor_of(self, log: str, seq: int) -> str | None:
        """The key id that signed event ``seq`` (None if unreadable or absent)."""
        from ledger.canonical import NonCanonicalError

        data = self.leaf(log, seq)
        try:
            return open_leaf(data).actor if data is not None else None
        except NonCanonicalError:
            return None

    # -- writing -----------------------------------------------------------------------
    def create(self, log: str, build: Callable[[str], Tournament]) -> Tournament:
        if log in self.tournament_ids():
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
        for attempt in range(retries + 1):
            with self.writer_turn(log):
                agg, result = self._decide(log, command)
                try:
                    self._save(agg)
                    lost = False
                except IntegrityError:
                    lost = True
            if lost:
                if attempt == retries:
                    raise ConcurrencyError(
                        f"another writer kept appending to {log}; gave up after "
                        f"{retries + 1} attempts", hint="run the command again") from None
                _time.sleep(random.uniform(0.001, 0.005 * (attempt + 1)))  # jitter: no lockstep
                continue
            return result
        raise ConcurrencyError("unreachable")  # pragma: no cover

    def _decide(self, log: str, command: Callable[[Tournament, str], T],
                agg: Tournament | None = None) -> tuple[Tournament, T]:
        """Decide ``command`` on ``agg`` (else the loaded tournament), head and authority
        verified; a cache that lied is dropped and the decision made again from events."""
        try:
            return self._decide_verified(log, command, rebuilt=False, agg=agg)
        except SnapshotMismatch:
            delete_snapshots(self.app, log)  # a cache lied: rebuild and decide again
            return self._decide_verified(log, command, rebuilt=True)

    def _decide_verified(self, log: str, command: Callable[[Tournament, str], T], *,
                         rebuilt: bool, agg: Tournament | None = None
                         ) -> tuple[Tournament, T]:
        """Load (from events only when ``rebuilt``), verify the head, decide, verify the
        signers' authority (issue 12, defect 8): the head leaf is the one the state was
        folded to, it links to its predecessor and its signature verifies; each new
        event's signer is an official by leaves that verify (its own ``official_added``
        or genesis, signed by the organizer genesis names).  A few signature checks, never
        a replay.  A mismatch is ``SnapshotMismatch`` (rebuild and decide again) unless
        the state was just rebuilt from events: then the ledger was tampered (exit 4)."""
        if agg is None or rebuilt:
            agg = self._load(log, use_snapshot=False) if rebuilt else self.load(log)
        problem = head_problem(self._reader(log), agg.state) if agg.state.size else None
        if problem is None:
            result = command(agg, self.clock.now())
            pending = getattr(agg, "_pending_events", [])
            actors = sorted({e.signed.actor for e in pending if hasattr(e, "signed")})
            problem = next((p for p in (authority_problem(self._reader(log), agg.state, a)
                                        for a in actors) if p), None)
        if problem is None:
            return agg, result
        if not rebuilt:
            raise SnapshotMismatch(problem)
        raise VerificationError(f"refusing to sign on top of {log}: {problem}",
                                hint="the stored events were changed; run 'tourney audit "
                                     "verify' and restore the ledger from a copy")

    @contextmanager
    def writer_turn(self, log: str) -> Iterator[None]:
        """PostgreSQL: wait for this tournament's turn (a session advisory lock, granted
        in arrival order) so that concurrent stations queue instead of racing — no
        station starves re-deciding lost races.  The wait is bounded (``TURN_WAIT_MS``):
        past it the write goes ahead optimistically and a lost race is retried as
        always, so correctness never depends on the lock.  SQLite: nothing (its write
        lock and the retry on a lost race suffice for a few stations)."""
        if not self.location.is_postgres:
            yield
            return
        key = int.from_bytes(hashlib.sha256(b"tourney-writer\x00" + log.encode()).digest()[:8],
                             "big", signed=True)
        import psycopg

        rec: Any = self.app.recorder
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
                try:
                    yield
                finally:
                    if locked:
                        conn.execute("SELECT pg_advisory_unlock(%s)", (key,))
        except PersistenceError as exc:
            raise StorageError(f"cannot write to {self.location.display()}: {exc}",
                               hint="check the server and the network") from None

    def session(self, log: str) -> WriteSession:
        """Many commands on one tournament from one process (``result import``): the
        aggregate stays in memory between saves and is reloaded only after a lost race
        or a refused command — each command is still its own transaction."""
        return WriteSession(self, log)

    def _save(self, agg: Tournament) -> None:
        try:
            self.app.save(agg)
        except IntegrityError:
            raise
        except PersistenceError as exc:
            raise StorageError(f"cannot write to {self.location.display()}: {exc}",
                               hint="check disk space, permissions or the server") from None



class WriteSession:
    """``Ledger.write`` with the aggregate kept between commands (see ``Ledger.session``).

    Before each command the kept aggregate catches up with the events other writers
    appended since (only those are read and folded), so every decision — a write, a
    refusal, an "unchanged" — rests on the ledger as it is; a lost race (the aggregate
    then holds our unsaved event) drops it and loads afresh."""

    def __init__(self, ledger: Ledger, log: str) -> None:
        self.ledger = ledger
        self.log = log
        self._agg: Tournament | None = None

    @property
    def state(self) -> TournamentState:
        if self._agg is None:
            self._agg = self.ledger.load(self.log)
        return self._agg.state

    def _current(self) -> Tournament:
        agg, self._agg = self._agg, None  # trusted again only after a clean save
        if agg is None:
            return self.ledger.load(self.log)
        try:
            newer = list(self.ledger.app.events.get(self.log, gt=agg.version))
        except PersistenceError as exc:
            raise StorageError(f"cannot read tournament {self.log}: {exc}") from None
        caught_up: Tournament = _project(agg, newer)
        return caught_up

    def write(self, command: Callable[[Tournament, str], T], *, retries: int = 8) -> T:
        """Decide and save one command (its own transaction), retried on a lost race."""
        for attempt in range(retries + 1):
            with self.ledger.writer_turn(self.log):
                agg, result = self.ledger._decide(self.log, command, self._current())
                try:
                    self.ledger._save(agg)
                    lost = False
                except IntegrityError:
                    lost = True
            if lost:
                if attempt == retries:
                    raise ConcurrencyError(
                        f"another writer kept appending to {self.log}; gave up after "
                        f"{retries + 1} attempts", hint="run the command again") from None
                _time.sleep(random.uniform(0.001, 0.005 * (attempt + 1)))  # jitter: no lockstep
                continue
            self._agg = agg
            return result
        raise ConcurrencyError("unreachable")  # pragma: no cover
