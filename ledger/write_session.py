"""A station's batch of writes to one tournament (``result import``, the load test).

Owns: ``WriteSession`` — ``Ledger.write`` with the aggregate kept in memory between
commands: before each command it catches up with the events other writers appended since
(only those are read and folded), then decides through the ledger's own verified
``_decide`` and saves in the writer turn (``Ledger.retrying``).

May import: ``eventsourcing``, ``ledger.store``, ``ledger.aggregate``, ``ledger.state``,
``ledger.errors``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from eventsourcing.persistence import PersistenceError

from ledger.errors import StorageError
from ledger.store import _project

if TYPE_CHECKING:
    from ledger.aggregate import Tournament
    from ledger.state import TournamentState
    from ledger.store import Ledger

T = TypeVar("T")


class WriteSession:
    """``Ledger.write`` with the aggregate kept between commands (see ``Ledger.session``).

    Before each command the kept aggregate catches up with the events other writers
    appended since (only those are read and folded), so every decision — a write, a
    refusal, an "unchanged" — rests on the ledger as it is; a lost race (the aggregate
    then holds our unsaved event) drops it and loads afresh."""

    def __init__(self, ledger: Ledger, log: str) -> None:
        self.ledger = ledger
        self.log = log
        self._agg: Tournament | None = None

    @property
    def state(self) -> TournamentState:
        if self._agg is None:
            self._agg = self.ledger.load(self.log)
        return self._agg.state

    def _current(self) -> Tournament:
        agg, self._agg = self._agg, None  # trusted again only after a clean save
        if agg is None:
            return self.ledger.load(self.log)
        try:
            newer = list(self.ledger.app.events.get(self.log, gt=agg.version))
        except PersistenceError as exc:
            raise StorageError(f"cannot read tournament {self.log}: {exc}") from None
        caught_up: Tournament = _project(agg, newer)
        return caught_up

    def write(self, command: Callable[[Tournament, str], T], *, retries: int = 8) -> T:
        """Decide and save one command (its own transaction), retried on a lost race."""
        agg, result = self.ledger.retrying(
            self.log, lambda: self.ledger._decide(self.log, command, self._current()), retries)
        self._agg = agg
        return result
