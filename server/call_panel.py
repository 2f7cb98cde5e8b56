"""The judge-call panel the staff page and the desk show (issue 30): the queue of open
calls, oldest first, with their wait, and the closed calls and ended deck checks whose
extension the record proposes and no judge has confirmed yet.

Owns: ``call_panel``.  The wait of an open call is counted to the server's clock (display
only: nothing here is recorded or replayed).

May import: ``ledger.*``, ``usecases.calls``.
"""

from __future__ import annotations

from typing import Any


def _now() -> str:
    from ledger.wire.clock import SystemClock
    return SystemClock().now()


def call_panel(state: Any) -> dict[str, Any]:
    """The queue (open calls, oldest first, with their wait) and the closed calls whose
    extension the record proposes and no judge has confirmed yet."""
    from ledger.core.reports import current_round
    from ledger.formats.officiating.call_extension import propose, propose_check
    from usecases.calls import queue_rows

    now = max(_now(), state.last_time or "")
    n = current_round(state)
    proposals = [propose(state, c) for c in state.calls.calls.values()
                 if c.round == n and c.closed_seq is not None
                 and c.seq not in state.calls.extended]
    o = getattr(state.fmt, "officiating", None)
    if o is not None:       # ended deck checks: the table's preparation time (BR-EXT-3)
        proposals += [propose_check(state, seq, rec) for seq, rec in o.deck_checks.items()
                      if rec.round == n and rec.ended_seq and seq not in o.deck_extended]
    return {"queue": queue_rows(state, now),
            "proposals": [p for p in proposals if p.minutes > 0 or p.turns > 0]}
