"""A head judge (or anyone holding the keys) who re-signs a forged Bushiroad event and
every event after it still cannot pass the audit: the audit re-derives every pairing,
result, selection and bracket from the recorded seeds with the same rule code.

The forged logs are built from the committed bushiroad-swiss sample: the event at one seq
is replaced by a forged body, and it and every later event are re-signed with their
original (demo) keys and re-chained, so signatures and the hash chain are all valid.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest

import ledger.formats.registry  # noqa: F401
from audit.verify import audit_leaves
from ledger.formats.bushiroad.events import FinalistsDecided
from ledger.formats.match.events import ResultRecorded, RoundPaired, Table
from ledger.formats.simulation import demo_key
from ledger.wire.events import Body, SignedEvent, open_leaf, seal

SAMPLE = Path(__file__).resolve().parents[1] / "samples" / "bushiroad" / "bushiroad-swiss"
LOG = "sample-bushiroad-swiss"


def _events() -> list[SignedEvent]:
    lines = (SAMPLE / "bundle" / "log.jsonl").read_bytes().splitlines()
    return [open_leaf(line) for line in lines]


def _resign(events: list[SignedEvent], at: int, body: Body) -> list[tuple[int, bytes]]:
    keys = {k.key_id: k for k in (demo_key(f"{LOG} fixture", r)
                                  for r in ("head-judge", "scorekeeper"))}
    out: list[tuple[int, bytes]] = []
    prev = "0" * 64
    for ev in events:
        b = body if ev.seq == at else ev.body
        if ev.seq < at:
            leaf = ev.leaf
        else:
            leaf = seal(log=ev.log, seq=ev.seq, prev=prev, time=ev.time, body=b,
                        signer=keys[ev.actor]).leaf
        out.append((ev.seq, leaf))
        prev = hashlib.sha256(leaf).hexdigest()
    return out


def _first(events: list[SignedEvent], kind: type[Body],
           pred: Callable[[Any], bool] = lambda b: True) -> SignedEvent:
    return next(e for e in events if isinstance(e.body, kind) and pred(e.body))


def _codes_at(leaves: list[tuple[int, bytes]], seq: int) -> set[str]:
    report = audit_leaves(leaves, [], log=LOG)
    assert not report.ok
    return {f.code for f in report.findings if f.seq == seq and f.severity == "error"}


def test_untouched_resigned_log_audits_clean() -> None:
    events = _events()
    leaves = _resign(events, events[5].seq, events[5].body)
    assert audit_leaves(leaves, [], log=LOG).ok


def test_forged_pairing_is_a_pairing_mismatch() -> None:
    events = _events()
    ev = _first(events, RoundPaired, lambda b: b.round == 2)
    b = ev.body
    assert isinstance(b, RoundPaired)
    t1, t2 = b.tables[0], b.tables[1]
    tables = [Table(table=1, players=[t1.players[0], t2.players[0]], groups=t1.groups),
              Table(table=2, players=[t1.players[1], t2.players[1]], groups=t2.groups),
              *b.tables[2:]]
    forged = msgspec.structs.replace(b, tables=tables)
    assert "pairing_mismatch" in _codes_at(_resign(events, ev.seq, forged), ev.seq)


def test_forged_result_winner_is_a_result_mismatch() -> None:
    events = _events()
    ev = _first(events, ResultRecorded, lambda b: b.winner is not None
                and b.decided_by.value == "played")
    b = ev.body
    assert isinstance(b, ResultRecorded) and b.winner is not None
    forged = msgspec.structs.replace(b, winner=b.losers[0], losers=[b.winner])
    assert "result_mismatch" in _codes_at(_resign(events, ev.seq, forged), ev.seq)


def test_forged_finalist_is_a_cut_mismatch() -> None:
    events = _events()
    ev = _first(events, FinalistsDecided)
    b = ev.body
    assert isinstance(b, FinalistsDecided)
    outsider = b.eliminated[0]
    forged = msgspec.structs.replace(
        b, finalists=[*b.finalists[:-1], outsider],
        eliminated=sorted([*b.eliminated[1:], b.finalists[-1]]))
    assert "cut_mismatch" in _codes_at(_resign(events, ev.seq, forged), ev.seq)


@pytest.mark.parametrize("games", [[0, 1, 0], [1, 1, 0]])
def test_forged_game_score_is_a_result_mismatch(games: list[int]) -> None:
    events = _events()
    ev = _first(events, ResultRecorded, lambda b: b.winner is not None
                and b.decided_by.value == "played")
    b = ev.body
    assert isinstance(b, ResultRecorded)
    forged = msgspec.structs.replace(b, games=games)
    assert _codes_at(_resign(events, ev.seq, forged), ev.seq)
