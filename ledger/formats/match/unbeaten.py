"""The count of active players with no loss (X-0), kept as records change (issue 22 item 3).

Owns: ``is_unbeaten`` (one record's share of the count), ``set_status``, ``add_losses``,
``put_record`` and ``retally``: every change of a record's ``status`` or ``losses`` in the
match layer goes through them, so ``MatchState.unbeaten`` always equals the plain recount
(``ledger.formats.hotc.cut.undefeated``).  HotC's stop count (HOTC-STOP-1) reads it at
every drop check instead of recounting the whole field; the audit folds the same apply
code, so it keeps the same count (tests/test_incremental_counts.py compares it with the
recount after every event of random small events).

May import: ``ledger.formats.match.model``.
"""

from __future__ import annotations

from ledger.formats.match.model import MatchState, PlayerRecord, Status

# enum members read as module constants: a member read through its enum class is a
# metaclass lookup on every use, and these are read for every event the audit
# folds (issue 28)
_STATUS_ACTIVE = Status.ACTIVE


def is_unbeaten(r: PlayerRecord) -> int:
    """1 if ``r`` counts as X-0 (active, no loss), else 0."""
    return 1 if r.status is _STATUS_ACTIVE and r.losses == 0 else 0


def set_status(h: MatchState, r: PlayerRecord, status: Status) -> None:
    before = is_unbeaten(r)
    r.status = status
    h.unbeaten += is_unbeaten(r) - before


def add_losses(h: MatchState, r: PlayerRecord, delta: int) -> None:
    before = is_unbeaten(r)
    r.losses += delta
    h.unbeaten += is_unbeaten(r) - before


def put_record(h: MatchState, r: PlayerRecord) -> None:
    """Add (or replace) the record of ``r.number``."""
    old = h.records.get(r.number)
    h.unbeaten += is_unbeaten(r) - (is_unbeaten(old) if old is not None else 0)
    h.records[r.number] = r


def retally(h: MatchState, r: PlayerRecord, before: int) -> None:
    """``r`` changed in several steps since ``before = is_unbeaten(r)``."""
    h.unbeaten += is_unbeaten(r) - before
