"""A real HotC event on a SQLite file for rule tests: fixed keys and clock, commands
through the aggregate (the same path as the CLI), and the audit over the raw rows.

Named for what it builds; used by tests/test_hotc_revised_*.py.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from audit.findings import Report
from audit.verify import verify_ledger
from ledger.core.aggregate import Tournament
from ledger.core.params import Param
from ledger.core.state import TournamentState, apply_event
from ledger.formats.match.model import Outcome, Status
from ledger.formats.match.plan import open_round
from ledger.formats.registry import make_format
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.clock import FixedClock
from ledger.wire.events import Role, SignedEvent, parse_leaf
from ledger.wire.keys import PublicKey, Signer

LOG = "hotc-r2"


def key(role: str) -> Signer:
    return Signer.from_seed(hashlib.sha256(f"tourney-test/{role}".encode()).digest(), role)


HJ, SK, JUDGE = key("head-judge"), key("scorekeeper"), key("judge")


class HotcEvent:
    def __init__(self, path: Path, players: int, *, cut: int = 8,
                 params: dict[str, Param] | None = None, register: bool = True) -> None:
        self.loc = Location(str(path))
        self.led = Ledger(self.loc, create=True, clock=FixedClock("2026-01-01T09:00:00.000000Z"))
        self.led.create(LOG, lambda now: Tournament.create(
            log=LOG, name="test", fmt=make_format("hotc-swiss-de", cut, params),
            signer=HJ, time=now))
        for s, role in ((SK, Role.SCOREKEEPER), (JUDGE, Role.JUDGE)):
            self.led.write(LOG, lambda t, now, s=s, role=role: t.add_official(
                PublicKey(s.public_key_raw, s.name), role, s.name, HJ, now))
        if register:
            self.led.write(LOG, lambda t, now: [t.register_player(f"P{i}", SK, now)
                                                for i in range(1, players + 1)])
            self.led.write(LOG, lambda t, now: t.close_registration(HJ, now))
        self.n = 0

    # -- reading ------------------------------------------------------------------------
    @property
    def state(self) -> TournamentState:
        return self.led.load(LOG).state

    def bytes(self) -> bytes:
        """The ledger file and its write-ahead log, as stored."""
        wal = self.loc.path.with_name(self.loc.path.name + "-wal")
        return self.loc.path.read_bytes() + (wal.read_bytes() if wal.exists() else b"")

    def events(self) -> list[SignedEvent]:
        return [parse_leaf(b).event for _v, b in self.led.raw_leaves(LOG)]

    def states(self) -> Iterator[tuple[TournamentState, SignedEvent]]:
        """(state before the event, event) for every event, folded from the raw rows."""
        st = TournamentState()
        for ev in self.events():
            yield st, ev
            apply_event(st, ev)

    def audit(self) -> Report:
        return verify_ledger(self.loc, LOG, None)

    def undefeated(self) -> list[int]:
        return sorted(r.number for r in self.state.fmt.records.values()
                      if r.status is Status.ACTIVE and r.losses == 0)

    # -- commands -----------------------------------------------------------------------
    def write(self, fn: Any) -> Any:
        return self.led.write(LOG, fn)

    def pair(self, material: str | None = None) -> list[SignedEvent]:
        self.n += 1
        mat = material or f"test seed {self.n}"
        return self.write(lambda t, now: t.pair_round(HJ, now, material=mat, source="test"))

    def result(self, round_no: int, table: int, **kw: Any) -> list[SignedEvent]:
        return self.write(lambda t, now: t.record_result(SK, now, round_no=round_no,
                                                         table=table, **kw))

    def play(self, winner: Any = min, timeouts: frozenset[int] = frozenset()) -> None:
        """Record every open table: ``winner(players)`` wins, tables in ``timeouts`` time out."""
        rnd = open_round(self.state)
        assert rnd is not None
        for tab in rnd.tables:
            if tab.result is not None:
                continue
            if tab.table in timeouts:
                kw: dict[str, Any] = {"outcome": Outcome.TIMEOUT}
                if rnd.phase.value == "top_cut":
                    kw["turn_player"] = tab.players[0]
                self.result(rnd.number, tab.table, **kw)
            else:
                self.result(rnd.number, tab.table, outcome=Outcome.WIN,
                            winner=winner(tab.players))

    def drop(self, number: int) -> list[SignedEvent]:
        return self.write(lambda t, now: t.drop_player(SK, now, number, "test"))

    def cut(self, no_champion: str | None = None) -> list[SignedEvent]:
        return self.write(lambda t, now: t.select_cut(HJ, now, material="test cut",
                                                      source="test", no_champion=no_champion))

    def bracket(self) -> list[SignedEvent]:
        return self.write(lambda t, now: t.seed_bracket(HJ, now, material="test bracket",
                                                        source="test"))

    def close(self) -> None:
        self.led.close()
