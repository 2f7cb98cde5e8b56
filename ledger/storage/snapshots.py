"""The library's mapper and application for tourney: leaves stored as they were signed,
snapshots as bound caches.

Owns: ``LeafMapper`` (the stored ``state`` bytes ARE the signed leaf of DESIGN.md §4,
``topic`` the event kind; snapshots are msgpack caches in their own table, each bound to
the leaf hash of the event it was taken at and named by ``snapshot_topic``: the format
and the exact state layout, so another layout is dropped and rebuilt), ``LedgerApp``
(snapshots every ``snapshot_interval`` events, older ones deleted), ``delete_snapshots``,
``LedgerCorrupt`` and ``StaleSnapshot``.

May import: ``eventsourcing``, ``msgspec``, ``ledger.core.aggregate``, ``ledger.wire.events``,
``ledger.core.format_socket``, ``ledger.core.state``, ``ledger.errors``, ``ledger.wire.clock``,
``ledger.wire.canonical``, ``ledger.storage.pg_station`` (the recovery hint),
``ledger.storage.snapshot_layouts``.
"""

from __future__ import annotations

import gc
import hashlib
from datetime import datetime
from typing import Any

import msgspec
from eventsourcing.application import Application
from eventsourcing.persistence import JSONTranscoder, Mapper, StoredEvent
from eventsourcing.utils import get_topic

from ledger.core.aggregate import EventSealed, Tournament, TournamentSnapshot, TournamentStarted
from ledger.core.format_socket import plugin_for
from ledger.core.state import TournamentState
from ledger.errors import StorageError
from ledger.storage.pg_station import recovery_hint
from ledger.storage.snapshot_layouts import LAYOUTS
from ledger.wire.canonical import NonCanonicalError
from ledger.wire.clock import parse_time
from ledger.wire.events import open_leaf

SNAPSHOT_INTERVAL = 100
#: a snapshot costs about its players to write; it is taken at most every
#: ``players // SNAPSHOT_SPREAD`` events, so a writer pays a bounded cost per event and a
#: reader folds at most that many events after it (about what decoding it costs)
SNAPSHOT_SPREAD = 32


def snapshot_interval(players: int) -> int:
    """Events between snapshots of a tournament of ``players``: ``SNAPSHOT_INTERVAL``, or
    ``players // SNAPSHOT_SPREAD`` when larger (issue 22: a fixed interval made the
    snapshots of a large event cost the square of its size)."""
    return max(SNAPSHOT_INTERVAL, players // SNAPSHOT_SPREAD)


_TOURNAMENT_TOPIC = get_topic(Tournament)


class _SnapshotRecord(msgspec.Struct):
    timestamp: str
    state: TournamentState   # the core state, its ``fmt`` left out (None)
    fmt: msgspec.Raw         # the format's state, decoded by its plug-in
    leaf_hash: str = ""  # hex SHA-256 of the leaf at the snapshot's version (its binding)


_snap_encoder = msgspec.msgpack.Encoder()
_snap_decoder = msgspec.msgpack.Decoder(_SnapshotRecord)
_topics: dict[str, str] = {}


def layout_digest(format_id: str | None = None) -> str:
    """The exact layout of the core state and of ``format_id``'s state: 16 hex digits of
    SHA-256 over their msgspec JSON schemas (computed; ``LAYOUTS`` holds the results)."""
    plugin = plugin_for(format_id)
    schemas = [msgspec.json.schema(_SnapshotRecord),
               msgspec.json.schema(plugin.state_type) if plugin else None]
    return hashlib.sha256(msgspec.json.encode(schemas, order="sorted")).hexdigest()[:16]


def snapshot_topic(format_id: str | None = None) -> str:
    """Snapshots are positional (array-like) caches: their topic names the tournament's
    format and the exact layout of the core state and of that format's state, so a
    snapshot written by another version (or for a format not plugged in here) is dropped
    and rebuilt.  The layout is read from ``ledger.storage.snapshot_layouts.LAYOUTS`` (no schema
    is computed per command), or computed for a format not listed there."""
    key = format_id or ""
    topic = _topics.get(key)
    if topic is None:
        digest = LAYOUTS.get(key) or layout_digest(format_id)
        topic = _topics[key] = f"tourney-snapshot/{key or '-'}/{digest}"
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
                                hint=recovery_hint(str(oid), ver)) from None
        if signed.seq != ver or signed.log != oid:
            raise LedgerCorrupt(f"event {oid}#{ver} claims {signed.log}#{signed.seq}",
                                hint=recovery_hint(str(oid), ver))
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
        of the interval (``snapshot_interval``; the library would reload it first), then
        drop older snapshots: a cache needs only the newest."""
        if self.snapshots is None:
            return
        for agg in processing_event.aggregates.values():
            events = [e for e in processing_event.events if e.originator_id == agg.id]
            if not isinstance(agg, Tournament) or not events:
                continue
            first = events[0].originator_version
            every = snapshot_interval(len(agg.state.players))
            if agg.version // every == (first - 1) // every:
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
