"""The round at a glance on the staff console (issue 29 item 1): the current round's
tables without a result, their pending reports side by side, the time left at each table,
the drops, the rounds held for checking, the open judge calls and the floor's numbers.

Owns: ``Row`` (one table without a result), ``Glance`` and ``glance`` (built from the
folded state and the live pages' data of one log size, at a wall-clock moment that only
says how many minutes are left: nothing here re-runs on replay).  Which tables wait and
how their reports stand is ``ledger.core.reports.queue`` (the staff page's queue: one
implementation); the round clock is the live pages' (``server.view_reads.Clock``) plus
each table's own extensions (BR-EXT-1, BR-EXT-3): ``server.view_reads.table_ends``, the
one implementation the player's pages and the slips use too.

May import: ``ledger.*``, ``server.view``, ``server.view_reads``, ``server.staff_routes``
(a report's words), ``usecases.calls`` and ``usecases.floor_stats`` (the judge calls and
the head judge's numbers, issue 30), ``server.call_panel`` (the extensions to confirm: the
staff page's list), the standard library.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ledger.core.reports import TableStatus, current_round, queue
from ledger.core.state import TournamentState
from ledger.formats.officiating.call_extension import Proposal
from server.call_panel import proposals
from server.view import LiveData
from server.view_reads import Clock, iso_z, table_ends, table_extra
from usecases.calls import QueueRow, queue_rows
from usecases.floor_stats import FloorStats, floor_stats


@dataclass(frozen=True)
class Row:
    """One table of the round without its result."""

    table: int
    players: tuple[tuple[int, str], ...]
    status: TableStatus
    reports: tuple[tuple[str, int, str], ...]    # (who, seq, what they reported)
    extra: int                                   # the table's extension, minutes
    ends: str | None                             # ISO UTC, None without a clock
    left: int | None                             # whole minutes left (< 0: over time)


@dataclass(frozen=True)
class Glance:
    round: int | None
    noun: str
    clock: Clock | None
    rows: tuple[Row, ...]
    counts: dict[str, int]          # TableStatus value → tables
    tables: int
    drops: tuple[tuple[int, str], ...]
    held: tuple[int, ...]
    #: issue 30: open judge calls, oldest first, and the head judge's numbers
    calls: tuple[QueueRow, ...] = ()
    stats: FloorStats | None = None
    #: the extensions the record proposes, to confirm (``server.call_panel.proposals``)
    proposals: tuple[Proposal, ...] = ()

    @property
    def waiting(self) -> int:
        return len(self.rows)


def glance(state: TournamentState, data: LiveData, now: datetime | None = None) -> Glance:
    """The current round as the desk sees it at ``now`` (default: the wall clock; only
    the minutes left depend on it)."""
    from server.staff_routes import _shown

    now = now or datetime.now(UTC)
    n = current_round(state)
    rows = queue(state, n) if n is not None else []
    clock = data.clock if data.clock is not None and data.clock.round == n else None
    labels = data.labels
    counts = {s.value: 0 for s in TableStatus}
    out: list[Row] = []
    for r in rows:
        counts[r.status.value] += 1
        if r.status is TableStatus.SETTLED:
            continue
        extra = table_extra(state, n, r.table)
        end = table_ends(clock, n, extra)
        left = None if end is None or clock is None or clock.called else \
            int((end - now).total_seconds() // 60)
        reps = tuple((labels.get(k, f"#{k}"), rep.seq, _shown(rep.given, labels))
                     for k, rep in sorted(r.reports.items()))
        out.append(Row(table=r.table,
                       players=tuple((p, labels.get(p, f"#{p}")) for p in r.players),
                       status=r.status, reports=reps, extra=extra,
                       ends=iso_z(end),
                       left=left))
    # conflicting first, then reports to confirm, then the silent tables
    order = {TableStatus.CONFLICTING: 0, TableStatus.MATCHING: 1,
             TableStatus.ONE_SIDED: 2, TableStatus.NONE: 3}
    out.sort(key=lambda row: (order.get(row.status, 4), row.table))
    drops = tuple(sorted((k, labels.get(k, f"#{k}")) for k in data.dropped))
    return Glance(round=n, noun=data.noun, clock=clock, rows=tuple(out), counts=counts,
                  tables=len(rows), drops=drops, held=tuple(data.held),
                  calls=tuple(queue_rows(state, max(now.strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
                                                    state.last_time or ""))),
                  stats=floor_stats(state), proposals=tuple(proposals(state)))


def as_json(g: Glance) -> dict[str, Any]:
    """The glance as a document (the console's quick refresh reads it)."""
    return {"round": g.round, "tables": g.tables, "counts": g.counts,
            "waiting": [{"table": r.table, "status": r.status.value, "ends": r.ends,
                         "left": r.left, "reports": len(r.reports)} for r in g.rows],
            "drops": [k for k, _ in g.drops], "held": list(g.held),
            "calls": [{"call": c.call, "table": c.table, "waiting_s": c.waiting_s,
                       "claimed": c.claimed} for c in g.calls]}
