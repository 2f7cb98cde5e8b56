"""The long-lived writer (issue 22 item 8, ADR 0020): ``WriteSession.write_batch`` and the
session's ``Trust``.

On real SQLite files and the real PostgreSQL server (skipped with the reason when none
answers): queued slips decided in order and committed together, a refused slip in the
middle writes nothing and does not stop the others, two batching writers racing never
fork the chain and the audit of the result is clean; a session signs on top of the head
it wrote itself without verifying it again (counted signature checks) but verifies a head
another writer appended — and refuses to sign on top of one whose stored bytes were
forged (exit 4), exactly as a fresh process does.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import ledger.storage.write_guard as write_guard
from audit.verify import verify_ledger
from ledger.core.aggregate import Tournament
from ledger.errors import RuleError, VerificationError
from ledger.formats.match.model import Outcome
from ledger.formats.registry import make_format
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.clock import FixedClock
from tests.conftest import HJ
from tests.helpers.checks import full_fold, pg_skip_reason, pg_url, unique_log, walk_chain
from usecases.results import Unchanged, enter_result

Slip = Callable[[Tournament, str], Any]


def _event(loc: Location, log: str, players: int = 16) -> None:
    with Ledger(loc, create=True, clock=FixedClock()) as led:
        led.create(log, lambda now: Tournament.create(
            log=log, name="Batches", fmt=make_format("hotc-swiss-de", 4), signer=HJ,
            time=now))

        def register(t: Tournament, now: str) -> None:
            for i in range(players):
                t.register_player(f"P{i + 1}", HJ, now)
        led.write(log, register)
        led.write(log, lambda t, now: t.close_registration(HJ, now))
        led.write(log, lambda t, now: t.pair_round(HJ, now, material="batches 5 9",
                                                   source="test"))


def _slip(led: Ledger, log: str, table: int, winner: int) -> Slip:
    return lambda t, now: enter_result(t, HJ, now, lambda q: led.actor_of(log, q),
                                       round_no=1, table=table, outcome=Outcome.WIN,
                                       winner=winner)


@pytest.fixture(params=["sqlite", "postgres"])
def where(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Location, str]]:
    if request.param == "sqlite":
        yield Location(str(tmp_path / "b.db")), "b"
        return
    reason = pg_skip_reason()
    if reason:
        pytest.skip(reason)
    yield Location(pg_url()), unique_log("batch")


def test_a_batch_commits_in_order_and_a_refusal_writes_nothing(
        where: tuple[Location, str]) -> None:
    loc, log = where
    _event(loc, log)
    with Ledger(loc, clock=FixedClock()) as led:
        s = led.session(log)
        tables = [(t.table, t.players) for t in s.state.fmt.rounds[-1].tables]
        size = s.state.size
        (t1, p1), (t2, p2), (t3, p3) = tables[:3]
        out = s.write_batch([_slip(led, log, t1, p1[0]),
                             _slip(led, log, 999, 1),            # no such table
                             _slip(led, log, t2, p2[1]),
                             _slip(led, log, t2, p2[1]),         # the same slip again
                             _slip(led, log, t3, p3[0])])
        assert isinstance(out[1], RuleError)
        assert isinstance(out[3], Unchanged) and out[3].seq == size + 2
        written = [e for k in (0, 2, 4) for e in out[k]]  # type: ignore[union-attr]
        assert [e.seq for e in written] == [size + 1, size + 2, size + 3]
        assert s.state.size == size + 3
        leaves = list(led.raw_leaves(log))
        walk_chain(log, leaves)
        assert full_fold(led, log).state == s.state
    assert verify_ledger(loc, log, None).ok


def test_racing_batches_never_fork(where: tuple[Location, str]) -> None:
    loc, log = where
    _event(loc, log, players=32)
    with Ledger(loc, clock=FixedClock()) as a, Ledger(loc, clock=FixedClock()) as b:
        sa, sb = a.session(log), b.session(log)
        tables = [(t.table, t.players) for t in sa.state.fmt.rounds[-1].tables]
        first = sa.write_batch([_slip(a, log, tab, ps[0]) for tab, ps in tables[:6]])
        sb.write_batch([_slip(b, log, tab, ps[0]) for tab, ps in tables[4:10]])  # overlap
        again = sa.write_batch([_slip(a, log, tab, ps[1]) for tab, ps in tables[8:12]])
        assert all(isinstance(r, list) for r in first)
        assert all(isinstance(r, RuleError) for r in again[:2])   # b decided those
        assert all(isinstance(r, list) for r in again[2:])
        walk_chain(log, list(a.raw_leaves(log)))
        assert full_fold(a, log).state == sa.state
    assert verify_ledger(loc, log, None).ok


@pytest.fixture()
def counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls = [0]
    real = write_guard.verify_signature  # type: ignore[attr-defined]

    def counting(*args: Any) -> bool:
        calls[0] += 1
        return real(*args)
    monkeypatch.setattr(write_guard, "verify_signature", counting)
    return calls


def test_a_session_trusts_its_own_head_not_another_writers(
        tmp_path: Path, counted: list[int]) -> None:
    loc = Location(str(tmp_path / "t.db"))
    _event(loc, "t")
    counted[0] = 0
    with Ledger(loc, clock=FixedClock()) as a, Ledger(loc, clock=FixedClock()) as b:
        sa = a.session("t")
        tables = [(t.table, t.players) for t in sa.state.fmt.rounds[-1].tables]
        sa.write(_slip(a, "t", *_first(tables[0])))
        assert counted[0] == 2            # the head it loaded, genesis (the organizer)
        sa.write(_slip(a, "t", *_first(tables[1])))
        sa.write_batch([_slip(a, "t", *_first(tables[2])), _slip(a, "t", *_first(tables[3]))])
        assert counted[0] == 2            # its own heads: nothing checked again
        b.write("t", _slip(b, "t", *_first(tables[4])))
        counted[0] = 0
        sa.write(_slip(a, "t", *_first(tables[5])))
        assert counted[0] == 1            # the head b appended is verified


def _first(table: tuple[int, list[int]]) -> tuple[int, int]:
    return table[0], table[1][0]


def test_a_forged_head_of_another_writer_is_refused(tmp_path: Path) -> None:
    loc = Location(str(tmp_path / "t.db"))
    _event(loc, "t")
    with Ledger(loc, clock=FixedClock()) as a, Ledger(loc, clock=FixedClock()) as b:
        sa = a.session("t")
        tables = [(t.table, t.players) for t in sa.state.fmt.rounds[-1].tables]
        sa.write(_slip(a, "t", *_first(tables[0])))
        b.write("t", _slip(b, "t", *_first(tables[1])))
        size = sa.state.size + 1
        conn = sqlite3.connect(tmp_path / "t.db")  # the head b wrote: winner changed
        (leaf,) = conn.execute("SELECT state FROM stored_events WHERE originator_id='t' "
                               "AND originator_version=?", (size,)).fetchone()
        loser = tables[1][1][1]
        forged = bytes(leaf).replace(f'"winner":{tables[1][1][0]}'.encode(),
                                     f'"winner":{loser}'.encode())
        assert forged != bytes(leaf)
        conn.execute("UPDATE stored_events SET state=? WHERE originator_id='t' AND "
                     "originator_version=?", (forged, size))
        conn.commit()
        conn.close()
        with pytest.raises(VerificationError, match="refusing to sign on top of t"):
            sa.write_batch([_slip(a, "t", *_first(tables[2]))])
