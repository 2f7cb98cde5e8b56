"""Who is still in the event at a seq: the universe of player draws (THREATS T25).

Owns: ``registered`` (every registered player number, ascending) and ``roster`` (the
active roster: registered and neither dropped nor disqualified).  The one definition the
draw rules (command side and audit) use.

May import: ``ledger.state``, ``ledger.hotc.model``.
"""

from __future__ import annotations

from ledger.hotc.model import Status
from ledger.state import TournamentState

_GONE = frozenset({Status.DROPPED, Status.DISQUALIFIED})


def registered(state: TournamentState) -> list[int]:
    return sorted(state.players)


def roster(state: TournamentState) -> list[int]:
    """Registered players that have not dropped or been disqualified, ascending."""
    recs = state.hotc.records
    return [n for n in sorted(state.players)
            if (rec := recs.get(n)) is None or Status(rec.status) not in _GONE]
