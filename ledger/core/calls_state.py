"""Judge calls in the folded state (issue 30; ADR 0052).

Owns: ``Call`` (one call: where, who, and the log's time of each step), ``CallsState`` (one
sub-struct of ``TournamentState``, snapshotted with it) and its pure transitions
``note_opened``, ``note_claimed``, ``note_closed``.  Never validates (``ledger.core.call_rules``
does: CALL-1..6) and never reads a clock: every time is an event's own.

May import: ``msgspec``.
"""

from __future__ import annotations

import msgspec


class Call(msgspec.Struct, kw_only=True, array_like=True, gc=False):
    seq: int                         # the call_opened: the call's id
    round: int
    table: int
    opened_time: str
    opened_by: str                   # key id of the signer (the station for a player)
    number: int | None = None        # the player who called from their page
    note: str = ""
    claimed_seq: int | None = None
    claimed_time: str | None = None
    judge: str | None = None         # key id of the judge who claimed it
    closed_seq: int | None = None
    closed_time: str | None = None
    outcome: str | None = None
    cites: int | None = None


class CallsState(msgspec.Struct, kw_only=True, array_like=True, gc=False):
    calls: dict[int, Call] = {}
    #: "round/table" -> seq of the open call there (CALL-2: one open call per table)
    open_at: dict[str, int] = {}
    #: call seq -> [seq of the ``time_extended`` citing it (CALL-6: one per call), the
    #: minutes it gave, the minutes the record proposed then]
    extended: dict[int, list[int]] = {}
    #: call seq -> [the turns that extension gave, the turns the record proposed then]
    #: (BR-XTURN-1; only when either is not 0); appended last (array-like snapshots)
    extended_turns: dict[int, list[int]] = {}


def table_key(round_no: int, table: int) -> str:
    return f"{round_no}/{table}"


def note_opened(cs: CallsState, call: Call) -> None:
    cs.calls[call.seq] = call
    cs.open_at[table_key(call.round, call.table)] = call.seq


def note_claimed(cs: CallsState, call: int, seq: int, time: str, judge: str) -> None:
    c = cs.calls[call]
    c.claimed_seq, c.claimed_time, c.judge = seq, time, judge


def note_closed(cs: CallsState, call: int, seq: int, time: str, outcome: str,
                cites: int | None) -> None:
    c = cs.calls[call]
    c.closed_seq, c.closed_time, c.outcome, c.cites = seq, time, outcome, cites
    cs.open_at.pop(table_key(c.round, c.table), None)
