"""Command helpers every format with rounds shares (decide, then record on the aggregate).

Owns: ``seed_for`` — which recorded seed a draw uses (the material given now, else the
latest seed recorded for that ctx, else the latest unused seed without a ctx: a seed never
silently serves two draws, LEDGER-RAND-1).

May import: ``ledger.aggregate`` (type hints), ``ledger.errors``, ``ledger.events``,
``ledger.keys``, ``ledger.formats.match.*``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ledger.errors import RuleError
from ledger.events import SignedEvent
from ledger.formats.match.plan import ctx
from ledger.keys import Signer

if TYPE_CHECKING:
    from ledger.aggregate import Tournament


def seed_for(t: Tournament, what: str, signer: Signer, time: str, out: list[SignedEvent], *,
             material: str | None, source: str | None) -> int:
    """The seed for ``<log>/<what>``: the given material is recorded now (and appended to
    ``out``); else the latest seed recorded with that ctx; else the latest seed recorded
    without a ctx that no draw has used yet (so a seed never silently serves twice)."""
    want = ctx(t.state, what)
    if material is not None:
        ev = t.record_seed(material=material, source=source or "entered", ctx=want,
                           reason=f"{what} draw", signer=signer, time=time)
        out.append(ev)
        return ev.seq
    seqs = [s.seq for s in t.state.seeds.values() if s.ctx == want]
    if not seqs:
        seqs = [s.seq for s in t.state.seeds.values()
                if s.ctx is None and s.seq not in t.state.used_seeds]
    if not seqs:
        raise RuleError("LEDGER-RAND-1", f"no seed is recorded for {want}",
                        hint=f"tourney seed record [--ctx {want}] … (a fresh seed), or "
                             "pass --seed-material")
    return max(seqs)
