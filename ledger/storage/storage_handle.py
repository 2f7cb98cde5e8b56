"""What the storage helpers ask of an open ledger (issue 17: the storage modules' import
graph without a circle).

Owns: ``LedgerHandle`` — the Protocol of ``ledger.storage.store.Ledger`` that the writer turn,
the write session, the checkpoint and cosignature tables and the PostgreSQL station
helpers use: its event-store application, its location, the stored checkpoints, the
write preparation, and the load / decide / retry steps of a write.  ``Ledger`` imports
those helpers; they name only this Protocol, never the store.

May import: ``ledger.storage.location``, ``ledger.core.aggregate`` and
``ledger.storage.write_guard`` (types).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from ledger.core.aggregate import Tournament
    from ledger.storage.location import Location
    from ledger.storage.write_guard import Trust

T = TypeVar("T")


class LedgerHandle(Protocol):
    app: Any                   # the event store (``ledger.storage.snapshots.LedgerApp``)
    location: Location

    @property
    def checkpoints(self) -> Any: ...

    def prepare_write(self) -> None: ...

    def load(self, log: str) -> Tournament: ...

    def retrying(self, log: str, decide: Callable[[], tuple[Tournament, T]],
                 retries: int) -> tuple[Tournament, T]: ...

    def _decide(self, log: str, command: Callable[[Tournament, str], T],
                agg: Tournament | None = None, trust: Trust | None = None
                ) -> tuple[Tournament, T]: ...
