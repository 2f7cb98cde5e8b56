"""One storage contract, run on both backends (docs/DESIGN.md §3).

SQLite: a temporary file.  PostgreSQL: ``TOURNEY_TEST_PG`` (default
postgresql://postgres@127.0.0.1:5432/test), skipped with the reason when it does not answer;
every PostgreSQL test uses its own tournament ids and deletes their rows afterwards (the
``resolve(None)`` cases need a ledger holding nothing else, so on PostgreSQL they run in a
scratch database created and dropped by the test).
"""

from __future__ import annotations

import hashlib
import sqlite3
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse, urlunparse

import pytest

from ledger.core.aggregate import Tournament
from ledger.errors import StorageError, UsageError
from ledger.formats.registry import make_format
from ledger.storage.location import Location
from ledger.storage.snapshots import SNAPSHOT_INTERVAL
from ledger.storage.store import Ledger
from ledger.wire.clock import FixedClock
from ledger.wire.events import Role, SignedEvent
from ledger.wire.keys import PublicKey, Signer
from tests.helpers.checks import (
    delete_pg_tournament,
    full_fold,
    pg_skip_reason,
    pg_url,
    table_names,
    unique_log,
    walk_chain,
)

HJ = Signer.from_seed(b"\x01" * 32, "Head Judge")
SK = Signer.from_seed(b"\x03" * 32, "Scorekeeper Sam")


@dataclass
class Backend:
    name: str
    location: Location
    logs: list[str] = field(default_factory=list)

    def new_log(self, prefix: str = "contract") -> str:
        log = unique_log(prefix)
        self.logs.append(log)
        return log

    def open(self, *, create: bool = False) -> Ledger:
        return Ledger(self.location, create=create, clock=FixedClock())


def _require_pg() -> str:
    reason = pg_skip_reason()
    if reason:
        pytest.skip(reason)
    return pg_url()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    if request.param == "postgres":
        be = Backend("postgres", Location(_require_pg()))
    else:
        be = Backend("sqlite", Location(str(tmp_path / "contract.db")))
    yield be
    if be.name == "postgres" and be.logs:
        with be.open(create=True) as led:
            for log in be.logs:
                delete_pg_tournament(led, log)


@pytest.fixture()
def pg_backend() -> Iterator[Backend]:
    be = Backend("postgres", Location(_require_pg()))
    yield be
    if be.logs:
        with be.open(create=True) as led:
            for log in be.logs:
                delete_pg_tournament(led, log)


def genesis(log: str) -> Callable[[str], Tournament]:
    return lambda now: Tournament.create(log=log, name=f"Open {log}",
                                         fmt=make_format("hotc-swiss-de", 4), signer=HJ,
                                         time=now)


def build(led: Ledger, log: str, players: int = 6) -> list[SignedEvent]:
    """A small tournament through the public API; returns every sealed event in order."""
    sealed: list[SignedEvent] = []

    def sealing_genesis(now: str) -> Tournament:
        agg = genesis(log)(now)
        sealed.append(agg.pending_events[0].signed)  # type: ignore[attr-defined]
        return agg

    led.create(log, sealing_genesis)
    sealed.append(led.write(log, lambda t, now: t.add_official(
        PublicKey(SK.public_key_raw), Role.SCOREKEEPER, "Scorekeeper Sam", HJ, now)))
    for i in range(players):
        sealed.append(led.write(log, lambda t, now, i=i: t.register_player(
            f"Player {i + 1}", SK, now)))
    sealed.append(led.write(log, lambda t, now: t.record_seed(
        material="atmospheric 1234", source="randomizer", reason="seating", signer=HJ,
        time=now)))
    sealed.append(led.write(log, lambda t, now: t.make_draw(
        ctx=f"{log}/seating", items=list(range(players, 0, -1)), signer=HJ, time=now)))
    sealed.append(led.write(log, lambda t, now: t.close_registration(HJ, now)))
    return sealed


# -- create / write / load ---------------------------------------------------------------
def test_create_write_load(backend: Backend) -> None:
    log = backend.new_log()
    with backend.open(create=True) as led:
        sealed = build(led, log, players=6)
        with pytest.raises(UsageError, match="already exists"):
            led.create(log, genesis(log))
    with backend.open() as led:  # a fresh connection sees everything
        agg = led.load(log)
        assert agg.id == log and agg.version == len(sealed) == 11
        st = agg.state
        assert st.log == log and st.name == f"Open {log}" and st.organizer == HJ.key_id
        assert sorted(st.players) == [1, 2, 3, 4, 5, 6]
        assert st.players[3].name == "Player 3"
        assert SK.key_id in st.officials and st.registration_closed_seq == 11
        assert st.draws == {f"{log}/seating": 10}
        assert st.head == sealed[-1].leaf_hash_hex and st.size == 11
        with pytest.raises(UsageError, match="no tournament"):
            led.load(log + "-missing")


def test_tournament_ids_in_creation_order(backend: Backend) -> None:
    logs = [backend.new_log("ids") for _ in range(3)]
    with backend.open(create=True) as led:
        for log in logs:
            led.create(log, genesis(log))
            led.write(log, lambda t, now: t.register_player("Ann", HJ, now))
        ids = led.tournament_ids()
    # (a shared PostgreSQL server may hold other tournaments: ours appear, once, in order)
    ours = [i for i in ids if i in logs]
    assert ours == logs
    if backend.name == "sqlite":
        assert ids == logs


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def empty_location(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Location]:
    """A ledger location that holds nothing else (a scratch database on PostgreSQL)."""
    if request.param == "sqlite":
        yield Location(str(tmp_path / "resolve.db"))
        return
    import psycopg

    url = _require_pg()
    name = f"tourney_contract_{uuid.uuid4().hex[:10]}"
    try:
        with psycopg.connect(url, connect_timeout=5, autocommit=True) as con:
            con.execute(f'CREATE DATABASE "{name}"')
    except psycopg.Error as exc:
        pytest.skip(f"cannot create a scratch database on {url}: {exc}")
    parts = urlparse(url)
    try:
        yield Location(urlunparse(parts._replace(path=f"/{name}")))
    finally:
        with psycopg.connect(url, connect_timeout=5, autocommit=True) as con:
            con.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_resolve_none_one_many(empty_location: Location) -> None:
    with Ledger(empty_location, create=True, clock=FixedClock()) as led:
        assert led.tournament_ids() == []
        with pytest.raises(UsageError, match="holds no tournament"):
            led.resolve(None)
        led.create("only", genesis("only"))
        assert led.resolve(None) == "only"
        assert led.resolve("only") == "only"
        with pytest.raises(UsageError, match="no tournament 'other'"):
            led.resolve("other")
        led.create("other", genesis("other"))
        with pytest.raises(UsageError, match="2 tournaments") as info:
            led.resolve(None)
        assert "only, other" in info.value.message
        assert led.resolve("other") == "other"
        assert led.tournament_ids() == ["only", "other"]


# -- raw leaves ----------------------------------------------------------------------------
def test_raw_leaves_are_the_sealed_bytes_in_order(backend: Backend) -> None:
    log = backend.new_log()
    with backend.open(create=True) as led:
        sealed = build(led, log, players=4)
    with backend.open() as led:
        leaves = list(led.raw_leaves(log))
        assert leaves == [(ev.seq, ev.leaf) for ev in sealed]
        assert [v for v, _ in leaves] == list(range(1, len(sealed) + 1))
        assert all(type(b) is bytes for _, b in leaves)
        assert list(led.raw_leaves(log, after=3)) == leaves[3:]
        assert list(led.raw_leaves(log, after=len(leaves))) == []
        walk_chain(log, leaves)


# -- snapshots -------------------------------------------------------------------------
def test_snapshot_path_equals_full_fold(backend: Backend) -> None:
    log = backend.new_log("snap")
    total = SNAPSHOT_INTERVAL + 12
    with backend.open(create=True) as led:
        led.create(log, genesis(log))
        agg = led.load(log)  # most events in one save (fast) ...
        for n in range(1, SNAPSHOT_INTERVAL - 5):
            agg.register_player(f"P{n}", HJ, led.clock.now(), number=n)
        led.app.save(agg)
        while led.load(log).version < total:  # ... the snapshot is taken on the write path
            led.write(log, lambda t, now: t.register_player("late", HJ, now))
        _, snaps_table = table_names(led)
    with backend.open() as led:  # a fresh Ledger: snapshot + tail
        snaps = list(led.app.snapshots.get(log))  # type: ignore[union-attr]
        assert [s.originator_version for s in snaps] == [SNAPSHOT_INTERVAL], snaps_table
        loaded = led.load(log)
        folded = full_fold(led, log)
        leaves = list(led.raw_leaves(log))
        assert loaded.version == folded.version == len(leaves) == total
        assert loaded.state == folded.state
        assert loaded.state.head == folded.state.head == \
            hashlib.sha256(leaves[-1][1]).hexdigest()
        assert len(loaded.state.players) == total - 1
        # and the next write on the snapshot path chains onto the true head
        ev = led.write(log, lambda t, now: t.register_player("after", HJ, now))
        assert ev.prev == loaded.state.head and ev.seq == total + 1
        walk_chain(log, list(led.raw_leaves(log)))


# -- rows copy verbatim between backends --------------------------------------------------
def _sqlite_rows(db: Path, table: str, log: str) -> list[tuple[str, int, str, bytes]]:
    con = sqlite3.connect(db)
    try:
        return [(r[0], r[1], r[2], bytes(r[3])) for r in con.execute(
            f"SELECT originator_id, originator_version, topic, state FROM {table} "
            "WHERE originator_id = ? ORDER BY originator_version", (log,))]
    finally:
        con.close()


def test_rows_copy_verbatim_sqlite_to_postgres_and_back(tmp_path: Path,
                                                       pg_backend: Backend) -> None:
    import psycopg

    log = pg_backend.new_log("copy")
    src = tmp_path / "src.db"
    with Ledger(Location(str(src)), create=True, clock=FixedClock()) as led:
        sealed = build(led, log, players=5)
        agg = led.load(log)  # cross a snapshot so both tables have rows
        while agg.version < SNAPSHOT_INTERVAL + 3:
            agg.record_seed(material=f"roll {agg.version}", source="dice", reason="filler",
                            signer=HJ, time=led.clock.now())
        led.app.save(agg)
        src_state = led.load(log).state
        src_leaves = list(led.raw_leaves(log))
    assert src_leaves[:len(sealed)] == [(e.seq, e.leaf) for e in sealed]
    events = _sqlite_rows(src, "stored_events", log)
    snaps = _sqlite_rows(src, "stored_snapshots", log)
    assert len(events) == len(src_leaves) and len(snaps) == 1

    # SQLite -> PostgreSQL with plain SQL (the PG tables exist once a Ledger opened them)
    with pg_backend.open(create=True) as pg:
        pg_events, pg_snaps = table_names(pg)
    with psycopg.connect(pg_url(), connect_timeout=5) as con:
        with con.cursor() as cur:
            cur.executemany(
                f'INSERT INTO "{pg_events}" (originator_id, originator_version, topic, state) '
                "VALUES (%s, %s, %s, %s)", events)
            cur.executemany(
                f'INSERT INTO "{pg_snaps}" (originator_id, originator_version, topic, state) '
                "VALUES (%s, %s, %s, %s)", snaps)
    with pg_backend.open() as pg:
        assert log in pg.tournament_ids()
        assert list(pg.raw_leaves(log)) == src_leaves
        assert pg.load(log).state == src_state
        assert full_fold(pg, log).state == src_state
        ev = pg.write(log, lambda t, now: t.record_seed(
            material="written on pg", source="dice", reason="after the copy", signer=HJ,
            time=now))
        assert ev.prev == src_state.head
        pg_leaves = list(pg.raw_leaves(log))
        pg_state = pg.load(log).state
        walk_chain(log, pg_leaves)
    with psycopg.connect(pg_url(), connect_timeout=5) as con:
        back_events = [(r[0], r[1], r[2], bytes(r[3])) for r in con.execute(
            f'SELECT originator_id, originator_version, topic, state FROM "{pg_events}" '
            "WHERE originator_id = %s ORDER BY originator_version", (log,))]
        back_snaps = [(r[0], r[1], r[2], bytes(r[3])) for r in con.execute(
            f'SELECT originator_id, originator_version, topic, state FROM "{pg_snaps}" '
            "WHERE originator_id = %s ORDER BY originator_version", (log,))]
    assert back_events[:len(events)] == events  # stored bytes never re-encoded

    # PostgreSQL -> a fresh SQLite file, again with plain SQL
    dst = tmp_path / "dst.db"
    with Ledger(Location(str(dst)), create=True) as led:
        assert led.tournament_ids() == []
    dcon = sqlite3.connect(dst)
    try:
        with dcon:
            dcon.executemany("INSERT INTO stored_events VALUES (?, ?, ?, ?)", back_events)
            dcon.executemany("INSERT INTO stored_snapshots VALUES (?, ?, ?, ?)", back_snaps)
    finally:
        dcon.close()
    with Ledger(Location(str(dst))) as led:
        assert led.tournament_ids() == [log]
        assert list(led.raw_leaves(log)) == pg_leaves
        assert led.load(log).state == pg_state


# -- a missing ledger ------------------------------------------------------------------
def test_missing_sqlite_ledger_raises_and_creates_nothing(tmp_path: Path) -> None:
    missing = tmp_path / "nope.db"
    with pytest.raises(StorageError, match="does not exist") as info:
        Ledger(Location(str(missing)))
    assert info.value.exit_code == 5
    assert list(tmp_path.iterdir()) == []  # no .db, -wal or -shm appeared
    with pytest.raises(StorageError, match="does not exist"):
        Ledger(Location(str(tmp_path / "no-such-dir" / "t.db")), create=True)
    assert list(tmp_path.iterdir()) == []


def test_snapshot_of_another_layout_is_dropped_and_rebuilt(tmp_path: Path) -> None:
    """Snapshots are caches: one written under another layout topic is ignored (deleted)
    and the state is rebuilt from the signed events (never trusted)."""
    import sqlite3

    from ledger.storage.snapshots import snapshot_topic
    from tests.conftest import build_small

    loc = build_small(tmp_path / "s.db", players=120)
    with Ledger(loc) as led:
        expected = led.load("t1").state
    with sqlite3.connect(loc.text) as db:
        assert db.execute("SELECT count(*) FROM stored_snapshots").fetchone()[0] == 1
        db.execute("UPDATE stored_snapshots SET topic='tourney-snapshot/old', state=x'00'")
    with Ledger(loc) as led:
        assert led.load("t1").state == expected
    with sqlite3.connect(loc.text) as db:
        assert db.execute("SELECT count(*) FROM stored_snapshots").fetchone()[0] == 0
    assert snapshot_topic("hotc-swiss-de").startswith("tourney-snapshot/hotc-swiss-de/")
