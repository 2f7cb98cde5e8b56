"""Who is still in the event at a seq: the universe of player draws (THREATS T25).

Owns: ``registered`` (every registered player number, ascending), ``still_in`` (one
player: registered and neither dropped nor disqualified) and ``roster`` (all such players,
ascending: the active roster).  The one definition the
draw rules (command side and audit) use.

May import: ``ledger.state``, ``ledger.hotc.model``.
"""

from __future__ import annotations

from ledger.hotc.model import Status
from ledger.state import TournamentState

_GONE = frozenset({Status.DROPPED.value, Status.DISQUALIFIED.value})


def registered(state: TournamentState) -> list[int]:
    return sorted(state.players)


def still_in(state: TournamentState, number: int) -> bool:
    """Registered, and neither dropped nor disqualified (O(1))."""
    if number not in state.players:
        return False
    rec = state.hotc.records.get(number)
    return rec is None or str(getattr(rec.status, "value", rec.status)) not in _GONE


def roster(state: TournamentState) -> list[int]:
    """Registered players that have not dropped or been disqualified, ascending."""
    return [n for n in sorted(state.players) if still_in(state, n)]
