"""What ``tourney cut`` says of a HotC top cut (HOTC-CUT-1..3, AMB-H9): the admitted
undefeated, the random spots and their eligible pool, the players drawn, the eliminated,
and how the event goes on (issue 17: the CLI asks the format, ``selection_report``).

Owns: ``cut_report``.

May import: ``ledger.wire.events``, ``ledger.formats.hotc.events``, ``ledger.core.state``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ledger.core.state import TournamentState
from ledger.formats.hotc.events import CutMade
from ledger.wire.events import SignedEvent


def cut_report(state: TournamentState, events: list[SignedEvent],
               names: Callable[[list[int]], str]
               ) -> tuple[SignedEvent, list[str], dict[str, Any]]:
    ev = next(e for e in events if isinstance(e.body, CutMade))
    b = ev.body
    assert isinstance(b, CutMade)
    ending = events[-1] if events[-1] is not ev else None
    lines = [f"top cut of {len(b.cut)} selected",
             f"undefeated (admitted): {names(b.undefeated)}",
             f"random spots: {b.spots}; eligible pool: {names(b.pool)}",
             f"drawn: {names(b.drawn)}",
             f"top cut: {names(b.cut)}",
             f"eliminated: {names(b.eliminated)}"]
    if ending is None:
        lines.append("next: seed the bracket with tourney bracket")
    elif ending.kind == "champion_declared":
        lines.append(f"seq {ending.seq}: champion {names(b.cut)} (a cut of one: no "
                     "match, AMB-H9)")
    else:
        lines.append(f"seq {ending.seq}: the event ends with no champion (head judge's "
                     "ruling, AMB-H9)")
    return ev, lines, {"spots": b.spots, "undefeated": b.undefeated, "pool": b.pool,
                       "drawn": b.drawn, "cut": b.cut, "eliminated": b.eliminated,
                       "draw_seq": b.draw_seq, "champion": state.fmt.champion,
                       "no_champion_seq": getattr(state.fmt, "no_champion_seq", None)}
