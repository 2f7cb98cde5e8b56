"""Snapshots as bytes, without the library: their record, topic and decoding.

Owns: ``_SnapshotRecord`` (the msgpack cache of the folded state, its format's state kept
raw for the plug-in to decode, bound to the leaf hash of the event it was taken at),
``layout_digest`` / ``snapshot_topic`` (the topic names the format and the exact state
layout, so another layout is dropped and rebuilt), ``decode_snapshot`` (topic and bytes →
the state, or ``StaleSnapshot``: another layout, undecodable, or not bound to the event it
claims), ``LedgerCorrupt`` and ``StaleSnapshot``.  Shared by the library's mapper
(``ledger.storage.snapshots``) and the read path that reads the table directly
(``ledger.storage.reader``, issue 22: reads import no ``eventsourcing`` application).

May import: ``msgspec``, ``ledger.core.format_socket``, ``ledger.core.state``,
``ledger.errors``, ``ledger.storage.snapshot_layouts``.
"""

from __future__ import annotations

import gc
import hashlib

import msgspec

from ledger.core.format_socket import plugin_for
from ledger.core.state import TournamentState
from ledger.errors import StorageError
from ledger.storage.snapshot_layouts import LAYOUTS

SNAPSHOT_PREFIX = "tourney-snapshot/"


class _SnapshotRecord(msgspec.Struct):
    timestamp: str
    state: TournamentState   # the core state, its ``fmt`` left out (None)
    fmt: msgspec.Raw         # the format's state, decoded by its plug-in
    leaf_hash: str = ""  # hex SHA-256 of the leaf at the snapshot's version (its binding)


_snap_encoder = msgspec.msgpack.Encoder()
_snap_decoder = msgspec.msgpack.Decoder(_SnapshotRecord)
_topics: dict[str, str] = {}


class LedgerCorrupt(StorageError):
    code = "ledger_corrupt"


class StaleSnapshot(Exception):
    """A snapshot of another layout: snapshots are caches, so it is dropped and rebuilt."""


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
        topic = _topics[key] = f"{SNAPSHOT_PREFIX}{key or '-'}/{digest}"
    return topic


def _topic_format(topic: str) -> str | None:
    parts = topic.split("/")
    return parts[1] if len(parts) == 3 and parts[1] != "-" else None


def encode_snapshot(timestamp: str, state: TournamentState) -> tuple[str, bytes]:
    """(topic, bytes) of a snapshot of ``state`` bound to its head leaf."""
    rec = _SnapshotRecord(timestamp=timestamp, state=msgspec.structs.replace(state, fmt=None),
                          fmt=msgspec.Raw(_snap_encoder.encode(state.fmt)),
                          leaf_hash=state.head)
    return (snapshot_topic(state.format.id if state.format else None),
            _snap_encoder.encode(rec))


def decode_snapshot(oid: str, version: int, topic: str,
                    data: bytes) -> tuple[str, TournamentState]:
    """(timestamp, state) of the stored snapshot of ``oid`` at ``version``; raises
    ``StaleSnapshot`` for another layout, bytes that do not decode, or a state not bound
    to the event it claims (leaf hash = its head, size = the version)."""
    if topic != snapshot_topic(_topic_format(topic)):
        raise StaleSnapshot(oid)
    was_enabled = gc.isenabled()
    gc.disable()  # thousands of small objects: collection passes would dominate
    try:
        rec = _snap_decoder.decode(data)
        fmt = rec.state.format
        plugin = plugin_for(fmt.id if fmt else None)
        if plugin is not None:
            rec.state.fmt = plugin.rules.decode_state(rec.fmt)
    except (msgspec.DecodeError, msgspec.ValidationError):
        raise StaleSnapshot(oid) from None
    finally:
        if was_enabled:
            gc.enable()
    if rec.leaf_hash != rec.state.head or rec.state.size != version:
        raise StaleSnapshot(oid)  # not bound to the event it claims: rebuild
    return rec.timestamp, rec.state
