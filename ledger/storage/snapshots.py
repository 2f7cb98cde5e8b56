"""The library's mapper and application for tourney: leaves stored as they were signed,
snapshots as bound caches.

Owns: ``LeafMapper`` (the stored ``state`` bytes ARE the signed leaf of docs/DESIGN.md §4,
``topic`` the event kind; snapshots are msgpack caches in their own table, each bound to
the leaf hash of the event it was taken at and named by ``snapshot_topic``: the format
and the exact state layout, so another layout is dropped and rebuilt), ``LedgerApp``
(snapshots every ``snapshot_interval`` events, older ones deleted) and ``delete_snapshots``.
A snapshot's record, topic and decoding are ``ledger.storage.snapshot_codec``'s (re-exported
here), which the library-free read path shares.

May import: ``eventsourcing``, ``ledger.core.aggregate``, ``ledger.wire.events``,
``ledger.wire.clock``, ``ledger.wire.canonical``, ``ledger.storage.pg_station`` (the
recovery hint), ``ledger.storage.snapshot_codec``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from eventsourcing.application import Application
from eventsourcing.persistence import JSONTranscoder, Mapper, StoredEvent
from eventsourcing.utils import get_topic

from ledger.core.aggregate import EventSealed, Tournament, TournamentSnapshot, TournamentStarted
from ledger.storage.pg_station import recovery_hint
from ledger.storage.snapshot_codec import (
    SNAPSHOT_PREFIX,
    LedgerCorrupt,
    StaleSnapshot,
    _snap_decoder,
    _snap_encoder,
    decode_snapshot,
    encode_snapshot,
    layout_digest,
    snapshot_topic,
)
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


class LeafMapper(Mapper[str]):
    """Stored ``state`` = the canonical signed leaf; ``topic`` = the event kind."""

    def __init__(self) -> None:
        super().__init__(transcoder=JSONTranscoder())

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        if isinstance(domain_event, TournamentSnapshot):
            topic, data = encode_snapshot(domain_event.timestamp.isoformat(),
                                          domain_event.state)
            return StoredEvent(originator_id=domain_event.originator_id,
                               originator_version=domain_event.originator_version,
                               topic=topic, state=data)
        signed = domain_event.signed
        return StoredEvent(originator_id=domain_event.originator_id,
                           originator_version=domain_event.originator_version,
                           topic=signed.kind, state=signed.leaf)

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        oid = str(stored_event.originator_id)
        ver = stored_event.originator_version
        if stored_event.topic.startswith(SNAPSHOT_PREFIX):
            stamp, state = decode_snapshot(oid, ver, stored_event.topic,
                                           bytes(stored_event.state))
            return TournamentSnapshot(originator_id=oid, originator_version=ver,
                                      timestamp=datetime.fromisoformat(stamp),
                                      topic=_TOURNAMENT_TOPIC, state=state)
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


__all__ = ["SNAPSHOT_INTERVAL", "LedgerApp", "LedgerCorrupt", "StaleSnapshot", "_snap_decoder",
           "_snap_encoder", "delete_snapshots", "layout_digest", "snapshot_interval",
           "snapshot_topic"]
