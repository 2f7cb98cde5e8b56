"""A HotC event driven through the aggregate for the officiating tests.

Owns: ``setup`` (a signed ledger with officials and players, registration closed),
``pair``/``finish_round``/``table_of``/``penalize`` (rounds and penalties through the same
commands as the CLI), ``_append_forged`` (a signed event appended behind the rules'
back), ``_codes``/``_rows`` (the audit's findings, the raw rows) and ``LOG``.

May import: ``ledger.*``, ``audit.*``, ``tests.conftest``, the standard library.
"""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path
from typing import Any

from audit.verify import verify_ledger
from ledger.core.aggregate import Tournament
from ledger.formats.match.model import Outcome
from ledger.formats.match.plan import open_round
from ledger.formats.officiating.catalogue import Penalty
from ledger.formats.officiating.commands import apply_pending, issue_penalty
from ledger.formats.registry import make_format
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.clock import FixedClock, pinned_time
from ledger.wire.events import Role, parse_leaf, seal
from tests.conftest import HJ, JUDGE, SCOREKEEPER, public

LOG = "off"


def setup(tmp_path: Path, fmt: str = "bushiroad-swiss", players: int = 6,
          **params: Any) -> tuple[Location, Ledger]:
    loc = Location(str(tmp_path / "o.db"))
    led = Ledger(loc, create=True, clock=FixedClock())
    cut = 0 if fmt != "hotc-swiss-de" else 4
    led.create(LOG, lambda now: Tournament.create(
        log=LOG, name="Officiated", fmt=make_format(fmt, cut, params), signer=HJ, time=now))
    led.write(LOG, lambda t, now: t.add_official(public(SCOREKEEPER), Role.SCOREKEEPER, "S",
                                                 HJ, now))
    led.write(LOG, lambda t, now: t.add_official(public(JUDGE), Role.JUDGE, "J", HJ, now))

    def reg(t: Tournament, now: str) -> None:
        for i in range(players):
            t.register_player(f"P{i + 1}", SCOREKEEPER, now)
    led.write(LOG, reg)
    led.write(LOG, lambda t, now: t.close_registration(HJ, now))
    return loc, led


def pair(led: Ledger) -> list[Any]:
    return led.write(LOG, lambda t, now: t.pair_round(HJ, now, material=f"m{now}", source="x")
                     + apply_pending(t, HJ, now))


def table_of(led: Ledger, number: int) -> Any:
    rnd = open_round(led.load(LOG).state)
    assert rnd is not None
    return rnd, next(t for t in rnd.tables if number in t.players)


def finish_round(led: Ledger, games: list[int] | None = None) -> None:
    """Every table without a result: the first player at the table wins."""
    rnd = open_round(led.load(LOG).state)
    assert rnd is not None
    for tab in rnd.tables:
        if tab.result is None:
            led.write(LOG, lambda t, now, tab=tab: t.record_result(
                SCOREKEEPER, now, round_no=rnd.number, table=tab.table, outcome=Outcome.WIN,
                winner=tab.players[0], games=games))


def penalize(led: Ledger, number: int, section: str, penalty: Penalty, *,
             signer: Any = JUDGE, **kw: Any) -> list[Any]:
    return led.write(LOG, lambda t, now: issue_penalty(
        t, signer, now, number=number, section=section, penalty=penalty, **kw))


# -- authority and the audit on forged events --------------------------------------------------
def _rows(loc: Location) -> list[tuple[int, bytes]]:
    with sqlite3.connect(loc.text) as db:
        return [(v, bytes(s)) for v, s in db.execute(
            "SELECT originator_version, state FROM stored_events ORDER BY originator_version")]


def _append_forged(loc: Location, body: Any, signer: Any) -> int:
    """Append a signed event the rules would refuse (as a rogue writer could)."""
    rows = _rows(loc)
    v, leaf = rows[-1]
    last = parse_leaf(leaf).event
    forged = seal(log=LOG, seq=v + 1, prev=hashlib.sha256(leaf).hexdigest(), time=last.time,
                  body=body, signer=signer)
    with sqlite3.connect(loc.text) as db:
        cols = [r[1] for r in db.execute("PRAGMA table_info(stored_events)")]
        row = db.execute("SELECT * FROM stored_events WHERE originator_version=?",
                         (v,)).fetchone()
        new = dict(zip(cols, row, strict=True))
        new.update(originator_version=v + 1, state=forged.leaf)
        db.execute(f"INSERT INTO stored_events ({','.join(cols)}) VALUES "
                   f"({','.join('?' * len(cols))})", [new[c] for c in cols])
        db.execute("DELETE FROM stored_snapshots")
    return v + 1


def _codes(loc: Location) -> dict[str, list[int | None]]:
    out: dict[str, list[int | None]] = {}
    for f in verify_ledger(loc, LOG, None).findings:
        out.setdefault(f.code, []).append(f.seq)
    return out


def at_time(hms: str) -> str:
    """A log time on the floor tests' day (``10:02:01`` → 2026-06-01T10:02:01Z)."""
    return f"2026-06-01T{hms}.000000Z"


def write_at(led: Ledger, time: str, fn: Any) -> Any:
    """``fn(tournament, now)`` written to the officiating log with the clock pinned at
    ``time`` (what the floor's commands record as the log's time)."""
    with pinned_time(time):
        return led.write(LOG, lambda t, now: fn(t, now))
