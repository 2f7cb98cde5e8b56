"""What ``tourney cut`` says of a Bushiroad selection: the finalists by ranking
(BR-FIN-5) or, without a top cut, the final standings; a recorded draw orders fighters
still tied (BR-SWISS-TB-7).  Issue 17: the CLI asks the format (``selection_report``).

Owns: ``selection_report``.

May import: ``ledger.wire.events``, ``ledger.formats.bushiroad.events``, ``ledger.core.state``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ledger.core.state import TournamentState
from ledger.formats.bushiroad.events import FinalistsDecided, StandingsFinalized
from ledger.wire.events import SignedEvent


def selection_report(state: TournamentState, events: list[SignedEvent],
                     names: Callable[[list[int]], str]
                     ) -> tuple[SignedEvent, list[str], dict[str, Any]]:
    ev = events[-1]
    b = ev.body
    drawn = any(e.kind == "draw_made" for e in events)
    head = "tie-break drawn (BR-SWISS-TB-7); " if drawn else ""
    lines: list[str] = []
    data: dict[str, Any] = {}
    if isinstance(b, FinalistsDecided):
        lines = [f"{head}top cut of {len(b.finalists)} by ranking (BR-FIN-5)",
                 f"finalists (seeds, best first): {names(b.finalists)}",
                 f"eliminated: {names(b.eliminated)}",
                 "next: seed the bracket with tourney bracket"]
        data = {"finalists": b.finalists, "eliminated": b.eliminated,
                "tiebreak_draw_seq": b.tiebreak_draw_seq}
    elif isinstance(b, StandingsFinalized):
        lines = [f"{head}final standings recorded (no top cut)",
                 f"winner: {names([b.champion]) if b.champion else 'none'}",
                 f"order: {names(b.order)}"]
        data = {"order": b.order, "champion": b.champion,
                "tiebreak_draw_seq": b.tiebreak_draw_seq}
    return ev, lines, data
