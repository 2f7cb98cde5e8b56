"""The library-free read path (``ledger.storage.reader``, issue 22, ADR 0025 fifth pass)
reads what ``Ledger.load`` reads and verifies what it verifies: the same state through a
snapshot; a stale, unbound or foreign snapshot, a damaged row and an unknown tournament
are decided by ``Ledger`` itself (same state, same error)."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import msgspec
import pytest

import ledger.formats.registry  # noqa: F401
from ledger.core.aggregate import Tournament
from ledger.errors import TourneyError
from ledger.formats.registry import make_format
from ledger.storage.location import Location
from ledger.storage.reader import SqliteReader
from ledger.storage.store import Ledger
from ledger.wire.clock import FixedClock
from ledger.wire.keys import write_new_key


def _build(tmp_path: Path, players: int = 130) -> Location:
    hj = write_new_key(tmp_path / "hj.pem", "HJ", None)
    loc = Location(str(tmp_path / "t.db"))
    with Ledger(loc, create=True, clock=FixedClock()) as led:
        led.create("t", lambda now: Tournament.create(
            log="t", name="T", fmt=make_format("hotc-swiss-de", 4), signer=hj, time=now))
        for i in range(players):   # past the snapshot interval: a snapshot is stored
            led.write("t", lambda t, now, i=i: t.register_player(f"P{i}", hj, now))
        led.write("t", lambda t, now: t.close_registration(hj, now))
    return loc


def _state_bytes(state: object) -> bytes:
    return msgspec.msgpack.encode(state)


def _ledger_state(loc: Location) -> bytes:
    with Ledger(loc, readonly=True) as led:
        return _state_bytes(led.load("t").state)


def _exec(loc: Location, sql: str, *args: object) -> None:
    with closing(sqlite3.connect(loc.text)) as c:
        c.execute(sql, args)
        c.commit()


def test_the_same_state_through_the_snapshot_without_the_library(tmp_path: Path) -> None:
    loc = _build(tmp_path)
    with SqliteReader(loc) as r:
        assert r.resolve(None) == "t" and r.resolve("t") == "t"
        assert _state_bytes(r.load_state("t")) == _ledger_state(loc)
        assert r._full is None            # the shortcut decided it: no Ledger opened
        assert r.raw_leaf("t", 2) is not None and r.raw_leaf("t", 10_000) is None
        assert [v for v, _ in r.raw_leaves("t", after=125)] == [126, 127, 128, 129, 130,
                                                                131, 132]


@pytest.mark.parametrize("tamper", ["topic", "binding", "chain"])
def test_an_unusable_snapshot_is_decided_by_the_ledger(tmp_path: Path, tamper: str) -> None:
    loc = _build(tmp_path)
    want = _ledger_state(loc)
    if tamper == "topic":      # another layout
        _exec(loc, "UPDATE stored_snapshots SET topic = 'tourney-snapshot/x/0'")
    elif tamper == "binding":  # not bound to the event it claims
        _exec(loc, "UPDATE stored_snapshots SET originator_version = originator_version - 1")
    else:                      # not of this chain: the next event's prev differs
        with closing(sqlite3.connect(loc.text)) as c:
            (ver, data), = c.execute("SELECT originator_version, state FROM stored_snapshots")
        from ledger.storage.snapshot_codec import _snap_decoder, _snap_encoder

        rec = _snap_decoder.decode(data)
        rec.state.head = rec.leaf_hash = "0" * 64
        _exec(loc, "UPDATE stored_snapshots SET state = ?", _snap_encoder.encode(rec))
    with SqliteReader(loc) as r:
        assert _state_bytes(r.load_state("t")) == want
        assert r._full is not None        # Ledger decided it


def _error(fn: object) -> tuple[str, str]:
    try:
        fn()  # type: ignore[operator]
    except TourneyError as exc:
        return type(exc).__name__, exc.cli_message()
    raise AssertionError("no error")


def test_a_damaged_row_and_an_unknown_tournament_fail_as_before(tmp_path: Path) -> None:
    loc = _build(tmp_path)
    with SqliteReader(loc) as r:
        with Ledger(loc, readonly=True) as led:
            assert _error(lambda: r.resolve("nope")) == _error(lambda: led.resolve("nope"))
            assert _error(lambda: r.load_state("nope")) == _error(lambda: led.load("nope"))
    _exec(loc, "UPDATE stored_events SET state = ? WHERE originator_version = "
               "(SELECT MAX(originator_version) FROM stored_events)", b'{"not":"a leaf"}')
    with SqliteReader(loc) as r, Ledger(loc, readonly=True) as led:
        got = _error(lambda: r.load_state("t"))
        assert got == _error(lambda: led.load("t")) and got[0] == "LedgerCorrupt"
