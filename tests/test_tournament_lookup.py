"""A tournament is looked up by its key, not found by listing every tournament (issue 22
item 7, ADR 0020).

Real SQLite ledgers holding several tournaments: a named tournament resolves, an unknown
name is a usage error that lists what is there, a second genesis under a used id is
refused, the only tournament is found without a name and several without one are a usage
error.  The cost of resolving a named tournament is measured in SQLite virtual-machine
steps (a progress handler called on every instruction): the same in a ledger holding one
tournament as in one holding 150 (a scan of the events table would grow with them).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from ledger.core.aggregate import Tournament
from ledger.errors import UsageError
from ledger.formats.registry import make_format
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.clock import FixedClock
from tests.conftest import HJ


def _ledger(path: Path, ids: list[str]) -> Location:
    loc = Location(str(path))
    with Ledger(loc, create=True, clock=FixedClock()) as led:
        for log in ids:
            led.create(log, lambda now, log=log: Tournament.create(
                log=log, name=f"Lookup {log}", fmt=make_format("hotc-swiss-de", 4),
                signer=HJ, time=now))
            led.write(log, lambda t, now: t.register_player("Ann", HJ, now))
    return loc


def test_named_unknown_only_and_several(tmp_path: Path) -> None:
    loc = _ledger(tmp_path / "t.db", ["a", "b", "c"])
    with Ledger(loc, readonly=True) as led:
        assert [led.resolve(x) for x in ("a", "b", "c")] == ["a", "b", "c"]
        assert led.has_tournament("b") and not led.has_tournament("d")
        with pytest.raises(UsageError) as unknown:
            led.resolve("d")
        assert "no tournament 'd'" in str(unknown.value) and unknown.value.hint == \
            "tournaments here: a, b, c"
        with pytest.raises(UsageError, match="ledger holds 3 tournaments: a, b, c"):
            led.resolve(None)
    with Ledger(loc, clock=FixedClock()) as led:
        with pytest.raises(UsageError, match="tournament 'b' already exists"):
            led.create("b", lambda now: Tournament.create(
                log="b", name="again", fmt=make_format("hotc-swiss-de", 4), signer=HJ,
                time=now))
    only = _ledger(tmp_path / "one.db", ["solo"])
    with Ledger(only, readonly=True) as led:
        assert led.resolve(None) == "solo"


def test_a_stream_without_genesis_is_no_tournament(tmp_path: Path) -> None:
    """Only a genesis row makes a tournament: rows of another kind at version 1 under an
    id (not something ``tourney`` writes, but a foreign table could) are not one."""
    loc = _ledger(tmp_path / "t.db", ["a"])
    conn = sqlite3.connect(tmp_path / "t.db")
    table = next(r[0] for r in conn.execute(
        "SELECT name FROM sqlite_master WHERE type='table' AND sql LIKE '%originator_id%' "
        "AND sql LIKE '%topic%' AND name NOT LIKE '%snapshot%'"))
    conn.execute(f"INSERT INTO {table} (originator_id, originator_version, topic, state) "
                 "VALUES ('x', 1, 'player_registered', x'7b7d')")
    conn.commit()
    conn.close()
    with Ledger(loc, readonly=True) as led:
        assert led.has_tournament("a") and not led.has_tournament("x")


def _vm_steps(led: Ledger, log: str) -> int:
    led.resolve(log)  # warm: the connection exists and the schema is read
    pool: Any = led._sqlite_pool()
    conns = [c._sqlite_conn for c in [*pool._pool, *pool._in_use.values()]]
    assert conns, "no SQLite connection to count on"
    steps = [0]

    def tick() -> int:
        steps[0] += 1
        return 0
    for c in conns:
        c.set_progress_handler(tick, 1)
    try:
        led.resolve(log)
    finally:
        for c in conns:
            c.set_progress_handler(None, 1)
    return steps[0]


def test_lookup_cost_does_not_grow_with_other_tournaments(tmp_path: Path) -> None:
    one = _ledger(tmp_path / "one.db", ["t0000"])
    many = _ledger(tmp_path / "many.db", [f"t{i:04d}" for i in range(150)])
    with Ledger(one, readonly=True) as a, Ledger(many, readonly=True) as b:
        alone, crowded = _vm_steps(a, "t0000"), _vm_steps(b, "t0000")
        last = _vm_steps(b, "t0149")
    assert alone > 0
    # a B-tree one level deeper costs a few steps; a scan of 300 rows costs thousands
    assert crowded <= alone + 40 and last <= alone + 40, (alone, crowded, last)
