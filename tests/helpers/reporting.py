"""Players' self-reports through the aggregate: a paired event with a station and cards.

Owns: ``Event``/``AutoEvent`` (a ledger with a station key and players' cards, reports
written through the same commands the server uses), ``_paired``, ``token``, ``_codes``,
``STATION`` and ``LOG``.  Each opening (class, players, format) is built once per test
process and copied into each test's file (the ledger's bytes: a fixed clock and
deterministic signatures make a copy what a build would write).

May import: ``ledger.*``, ``audit.*``, ``tests.conftest``, ``tests.helpers.*``, the
standard library.
"""

from __future__ import annotations

import atexit
import hashlib
import shutil
import sqlite3
import tempfile
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from audit.verify import verify_bundle
from ledger.core.aggregate import Tournament
from ledger.core.credentials import (
    credential_id,
    token_sha256,
)
from ledger.core.format_socket import require_plugin
from ledger.core.report_rules import parse_report
from ledger.core.state import TournamentState
from ledger.errors import RuleError
from ledger.formats.registry import make_format
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.clock import FixedClock
from ledger.wire.events import LedgerPolicy, Role, SelfReportPolicy
from ledger.wire.keys import Signer
from tests.conftest import HJ, JUDGE, SCOREKEEPER, public
from tests.helpers.cli_runner import raw_bytes

LOG = "rp"


FMT = "bushiroad-swiss"


STATION = Signer.from_seed(bytes([9]) * 32, "Live server")


def token(i: int) -> str:
    """A fixed 128-bit token per test player (the CLI draws them with ``secrets``)."""
    return hashlib.sha256(b"test token %d" % i).hexdigest()[:32]


_OPENINGS: dict[tuple[str, int, str], Path] = {}


def _opened(key: tuple[str, int, str], path: Path, build: Callable[[Location], None]) -> None:
    """``path`` becomes a copy of the opening ``key``, built by ``build`` the first time
    this process asks for it (its WAL folded in, so the one file is the whole ledger)."""
    src = _OPENINGS.get(key)
    if src is None:
        d = Path(tempfile.mkdtemp(prefix="tourney-opening-"))
        atexit.register(shutil.rmtree, d, True)
        src = d / "opening.db"
        build(Location(str(src)))
        with closing(sqlite3.connect(src)) as con:
            con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        _OPENINGS[key] = src
    shutil.copyfile(src, path)


class Event:
    def __init__(self, path: Path, players: int = 8, fmt: str = FMT) -> None:
        self.loc = Location(str(path))
        self.fmt = fmt
        _opened(("report", players, fmt), path, lambda loc: self._open(loc, players, fmt))

    @staticmethod
    def _open(loc: Location, players: int, fmt: str) -> None:
        with Ledger(loc, create=True, clock=FixedClock()) as led:
            led.create(LOG, lambda now: Tournament.create(
                log=LOG, name="Report Open", fmt=make_format(fmt, None),
                signer=HJ, time=now))
            for s, role in ((JUDGE, Role.JUDGE), (SCOREKEEPER, Role.SCOREKEEPER),
                            (STATION, Role.STATION)):
                led.write(LOG, lambda t, now, s=s, role=role: t.add_official(
                    public(s), role, s.name, HJ, now))
            for i in range(players):
                led.write(LOG, lambda t, now, i=i: t.register_player(f"P{i + 1}", SCOREKEEPER,
                                                                     now))
            led.write(LOG, lambda t, now: t.close_registration(HJ, now))

    def write(self, fn: Callable[[Tournament, str], Any]) -> Any:
        with Ledger(self.loc, clock=FixedClock()) as led:
            return led.write(LOG, fn)

    def state(self) -> TournamentState:
        with Ledger(self.loc, readonly=True) as led:
            return led.load(LOG).state

    def rows(self) -> list[tuple[int, bytes]]:
        with Ledger(self.loc, readonly=True) as led:
            return list(led.raw_leaves(LOG))

    def issue(self, number: int, tok: str | None = None, signer: Signer = HJ) -> str:
        tok = tok or token(number)
        self.write(lambda t, now: t.issue_credential(token_sha256(tok), signer, now,
                                                     number=number))
        return credential_id(tok)

    def pair(self) -> None:
        self.write(lambda t, now: t.pair_round(HJ, now, material="dice 1 2 3 4",
                                               source="test dice"))

    def table_of(self, number: int, round_no: int = 1) -> tuple[int, list[int]]:
        st = self.state()
        plugin = require_plugin(self.fmt)
        for table in range(1, 20):
            seat = plugin.entry.table_at(st, round_no, table)
            if seat is not None and number in seat[0]:
                return table, list(seat[0])
        raise AssertionError(f"player {number} has no table")

    def report(self, number: int, given: dict[str, str], *, table: int | None = None,
               cred: str | None = None, round_no: int = 1,
               signer: Signer = STATION) -> Any:
        tbl = self.table_of(number, round_no)[0] if table is None else table
        cid = cred or credential_id(token(number))
        return self.write(lambda t, now: t.report_result(round_no, tbl, number, cid, given,
                                                         signer, now))

    def desk(self, table: int, given: dict[str, str],
             signer: Signer = SCOREKEEPER) -> Callable[[Tournament, str], Any]:
        """A result entered at the desk, through the vocabulary as ``result record``."""
        def fn(t: Tournament, now: str) -> Any:
            kw = parse_report(t.state, 1, table, given)[1]
            return t.record_result(signer, now, **kw)
        return fn

    def refused(self, rule: str, fn: Callable[[Tournament, str], Any]) -> str:
        before = raw_bytes(Path(self.loc.text))
        with pytest.raises(RuleError) as err:
            self.write(fn)
        assert err.value.rule == rule, err.value.message
        assert raw_bytes(Path(self.loc.text)) == before
        return err.value.message


def _paired(ev: Event) -> tuple[int, int, int]:
    """Round 1 paired, both players of table 1 carded: (table, first, second)."""
    ev.pair()
    table, players = ev.table_of(1)
    a, b = players
    ev.issue(a)
    ev.issue(b)
    return table, a, b


# -- the audit replays the same rules -------------------------------------------------------
def _codes(tmp: Path, rows: list[tuple[int, bytes]]) -> set[tuple[str, int | None]]:
    d = tmp / f"bundle-{len(list(tmp.glob('bundle-*')))}"
    (d / "checkpoints").mkdir(parents=True)
    (d / "log.jsonl").write_bytes(b"".join(leaf + b"\n" for _v, leaf in rows))
    return {(f.code, f.seq) for f in verify_bundle(d).findings}


# -- results citing reports (REPORT-10..12) --------------------------------------------------
class AutoEvent(Event):
    """An event created with ``self_report_policy=auto``."""

    def __init__(self, path: Path) -> None:
        self.loc = Location(str(path))
        self.fmt = FMT
        _opened(("auto", 8, FMT), path, self._open_auto)

    @staticmethod
    def _open_auto(loc: Location) -> None:
        with Ledger(loc, create=True, clock=FixedClock()) as led:
            led.create(LOG, lambda now: Tournament.create(
                log=LOG, name="Auto Open", fmt=make_format(FMT, None), signer=HJ, time=now,
                policy=LedgerPolicy(self_report_policy=SelfReportPolicy.AUTO)))
            for s, role in ((SCOREKEEPER, Role.SCOREKEEPER), (STATION, Role.STATION)):
                led.write(LOG, lambda t, now, s=s, role=role: t.add_official(
                    public(s), role, s.name, HJ, now))
            for i in range(8):
                led.write(LOG, lambda t, now, i=i: t.register_player(f"P{i + 1}", SCOREKEEPER,
                                                                     now))
            led.write(LOG, lambda t, now: t.close_registration(HJ, now))
