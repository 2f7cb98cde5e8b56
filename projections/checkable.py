"""The checkable line every page carries: "log size N · root … · k witness cosignatures".

Owns: ``Checkable`` (the log size and Merkle root a page was rendered from, and the
witness cosignatures stored for a signed checkpoint of exactly that size) and
``checkable_of`` (computed from the folded state's Merkle frontier and the ledger's
checkpoint and cosignature tables, never by re-reading the log).  The live server's pages,
the printed wall sheets (``round show --html``) and the published site all show the same
line, so two phones, a sheet on the wall and the site can be compared by eye (issue 18).

May import: ``ledger.*``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ledger.core.state import TournamentState
from ledger.proofs.merkle import frontier_root


@dataclass(frozen=True)
class Checkable:
    """What a page was rendered from.  ``signed``: the ledger holds the head judge's
    checkpoint of exactly this size; ``cosignatures``: witness lines stored for it;
    ``latest``: the size of the newest signed checkpoint (None: none yet)."""

    size: int
    root: str
    signed: bool = False
    cosignatures: int = 0
    latest: int | None = None

    @property
    def short(self) -> str:
        return self.root[:16]

    def text(self) -> str:
        k = self.cosignatures
        line = (f"log size {self.size} · root {self.short}… · {k} witness "
                f"cosignature{'' if k == 1 else 's'}")
        if self.signed:
            return line + " · checkpoint signed"
        if self.latest is not None:
            return line + f" · latest signed checkpoint: size {self.latest}"
        return line + " · no signed checkpoint yet"

    def json(self) -> dict[str, Any]:
        return {"size": self.size, "root": self.root, "signed": self.signed,
                "cosignatures": self.cosignatures, "latest_checkpoint": self.latest}


def checkable_of(state: TournamentState, ledger: Any | None = None) -> Checkable:
    """The line for ``state`` (its size and frontier root); with ``ledger`` (any
    ``LedgerHandle``), whether a signed checkpoint of that size is stored and how many
    witness cosignatures it carries.  A ledger whose tables cannot be read gives the
    line without them (a page is never refused for it)."""
    root = frontier_root(state.merkle).hex()
    if ledger is None:
        return Checkable(size=state.size, root=root)
    from ledger.storage.cosignature_table import CosignatureTable

    try:
        latest = ledger.checkpoints.latest(state.log)
        lines = CosignatureTable(ledger).lines(state.log).get(state.size, []) \
            if latest is not None else []
    except Exception:  # noqa: BLE001 - a page shows what it can; the audit checks notes
        return Checkable(size=state.size, root=root)
    size = None if latest is None else int(latest[0])
    return Checkable(size=state.size, root=root, signed=size == state.size,
                     cosignatures=len(lines), latest=size)
