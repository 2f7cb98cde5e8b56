"""The judge-call panel the staff page and the desk show (issue 30): the queue of open
calls, oldest first, with their wait, and the closed calls and ended deck checks whose
extension the record proposes and no judge has confirmed yet.

Owns: ``call_panel`` and ``proposals`` (the console's glance lists the same).
The wait of an open call is counted to the server's clock (display
only: nothing here is recorded or replayed).

May import: ``ledger.*``, ``usecases.calls``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ledger.formats.officiating.call_extension import Proposal


def _now() -> str:
    from ledger.wire.clock import SystemClock
    return SystemClock().now()


def proposals(state: Any) -> list[Proposal]:
    """The current round's closed calls and ended deck checks whose extension the record
    proposes (something: minutes or turns) and no judge has confirmed yet — what the staff
    page and the console offer to confirm."""
    from ledger.core.reports import current_round
    from ledger.formats.officiating.call_extension import propose, propose_check

    n = current_round(state)
    out = [propose(state, c) for c in state.calls.calls.values()
           if c.round == n and c.closed_seq is not None
           and c.seq not in state.calls.extended]
    o = getattr(state.fmt, "officiating", None)
    if o is not None:       # ended deck checks: the table's preparation time (BR-EXT-3)
        out += [propose_check(state, seq, rec) for seq, rec in o.deck_checks.items()
                if rec.round == n and rec.ended_seq and seq not in o.deck_extended]
    return [p for p in out if p.minutes > 0 or p.turns > 0]


def call_panel(state: Any) -> dict[str, Any]:
    """The queue (open calls, oldest first, with their wait) and the closed calls whose
    extension the record proposes and no judge has confirmed yet."""
    from usecases.calls import queue_rows

    now = max(_now(), state.last_time or "")
    return {"queue": queue_rows(state, now), "proposals": proposals(state)}
