"""A long-lived writer of one tournament (``result import``, the load test, the live
server of docs/LIVE.md).

Owns: ``WriteSession`` — ``Ledger.write`` with the aggregate kept in memory between
commands: before each command it catches up with the events other writers appended since
(only those are read and folded), then decides through the ledger's own verified
``_decide`` and saves in the writer turn (``Ledger.retrying``).  The head it wrote itself
and the authority leaves it verified are held in a ``Trust`` and not checked again (a
head written by another writer is); ``write_batch`` decides queued commands together and
commits them in one transaction (ADR 0020).

May import: ``eventsourcing``, ``ledger.storage.storage_handle``, ``ledger.core.aggregate``,
``ledger.core.state``,
``ledger.errors``, ``ledger.storage.write_guard``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from eventsourcing.persistence import PersistenceError

from ledger.errors import StorageError, TourneyError, WriteAborted
from ledger.storage.write_guard import Trust

if TYPE_CHECKING:
    from ledger.core.aggregate import Tournament
    from ledger.core.state import TournamentState
    from ledger.storage.storage_handle import LedgerHandle

T = TypeVar("T")


def _project(aggregate: Any, events: Any) -> Any:
    """Fold stored events onto the aggregate (the library's default also runs a runtime
    Protocol check per event, which costs more than the fold itself)."""
    for event in events:
        aggregate = event.mutate(aggregate)
    return aggregate


class WriteSession:
    """``Ledger.write`` with the aggregate kept between commands (see ``Ledger.session``).

    Before each command the kept aggregate catches up with the events other writers
    appended since (only those are read and folded), so every decision — a write, a
    refusal, an "unchanged" — rests on the ledger as it is; a lost race (the aggregate
    then holds our unsaved event) drops it and loads afresh."""

    def __init__(self, ledger: LedgerHandle, log: str) -> None:
        self.ledger = ledger
        self.log = log
        self._agg: Tournament | None = None
        #: the head this session wrote and the authorities it verified (ADR 0020)
        self.trust = Trust()

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
        """Decide and save one command (its own transaction), retried on a lost race.  A
        decision its signer stopped before any event (``WriteAborted``: a browser's key
        asked for a signature) left the aggregate as it was: it is kept, not reloaded."""
        used: list[Tournament] = []

        def decide() -> tuple[Tournament, T]:
            agg = self._current()
            used[:] = [agg]
            return self.ledger._decide(self.log, command, agg, self.trust)
        try:
            agg, result = self.ledger.retrying(self.log, decide, retries)
        except WriteAborted:
            if used and not getattr(used[0], "_pending_events", None) and \
                    used[0].state.size == used[0].version:
                self._agg = used[0]
            raise
        self._keep(agg)
        return result

    def write_batch(self, commands: Sequence[Callable[[Tournament, str], T]], *,
                    retries: int = 8) -> list[T | TourneyError | WriteAborted]:
        """Decide queued commands in order on the kept aggregate, each on the state the
        ones before it left, and save all their events in one transaction (one writer
        turn, one commit); per command its result or its refusal.  A refused command
        writes nothing; if it had emitted events before refusing, the batch is decided
        again without it.  A lost race re-decides the whole batch on the caught-up
        state.  Nothing is acknowledged before the commit.  A command whose signer stopped
        it (``WriteAborted``: a key held in a browser) is set aside the same way."""
        refused: dict[int, TourneyError | WriteAborted] = {}
        while True:
            try:
                agg, results = self.ledger.retrying(
                    self.log, lambda: self.ledger._decide(
                        self.log, lambda t, now: _run_batch(t, now, commands, refused),
                        self._current(), self.trust), retries)
            except _Dirty:
                continue  # ``refused`` grew: decide the rest again on a fresh aggregate
            self._keep(agg)
            return [refused[k] if k in refused else results[k] for k in range(len(commands))]

    def _keep(self, agg: Tournament) -> None:
        """After a commit: keep the aggregate, and trust the head it wrote itself."""
        self._agg = agg
        self.trust.head = (agg.state.size, agg.state.head)


class _Dirty(Exception):
    """A command refused after emitting events: the aggregate holds them, so drop it."""


def _run_batch(agg: Tournament, now: str, commands: Sequence[Callable[[Tournament, str], T]],
               refused: dict[int, TourneyError | WriteAborted]) -> dict[int, T]:
    """The batch's commands in order on ``agg`` (those not refused already)."""
    results: dict[int, T] = {}
    for k, command in enumerate(commands):
        if k in refused:
            continue
        before = len(getattr(agg, "_pending_events", ()))
        try:
            results[k] = command(agg, now)
        except (TourneyError, WriteAborted) as exc:
            refused[k] = exc
            if len(getattr(agg, "_pending_events", ())) != before:
                raise _Dirty() from None
    return results
