"""The rules of judge calls (issue 30; ADR 0052): CALL-1..5, registered by
``ledger.core.rules`` as the core checks of ``call_opened``, ``call_claimed`` and
``call_closed``, so the command side and the audit run the one implementation.  Who signs
what is the roles table (``ledger.core.signing``): officials who may open, claim and close a
call; a station only a player's own call (REPORT-15, checked by ``rules.check``).

Owns: ``check_opened``, ``check_claimed``, ``check_closed``, ``open_queue`` (open calls,
oldest first) and ``ruling_seconds`` / ``waiting_seconds`` (the intervals read from the
log's times: claim → close is the ruling; open → claim is the wait).
Format-agnostic: a table is read through the format plug-in (``entry.table_at``).

May import: ``ledger.core.state``, ``ledger.core.calls_state``, ``ledger.core.format_socket``,
``ledger.errors``, ``ledger.wire.calls``, ``ledger.wire.clock``, ``msgspec``.
"""

from __future__ import annotations

import msgspec

from ledger.core.calls_state import Call, table_key
from ledger.core.format_socket import plugin_for
from ledger.core.state import TournamentState
from ledger.errors import RuleError
from ledger.wire.calls import CallClaimed, CallClosed, CallOpened
from ledger.wire.clock import parse_time

MAX_NOTE = 200


def _seconds(a: str, b: str) -> int:
    return int((parse_time(b) - parse_time(a)).total_seconds())


def ruling_seconds(call: Call) -> int | None:
    """Claim → close: how long the ruling took (None until the call is closed)."""
    if call.claimed_time is None or call.closed_time is None:
        return None
    return _seconds(call.claimed_time, call.closed_time)


def waiting_seconds(call: Call, now: str | None = None) -> int | None:
    """Open → claim (or open → ``now`` while unclaimed; None with neither)."""
    end = call.claimed_time or now
    return None if end is None else _seconds(call.opened_time, end)


def open_queue(state: TournamentState) -> list[Call]:
    """Calls not closed yet, oldest first (the queue judges work from)."""
    cs = state.calls
    return [cs.calls[s] for s in sorted(cs.open_at.values())]


def check_opened(state: TournamentState, body: CallOpened, actor: str) -> None:
    """CALL-1: a call names a table of a round that has no result yet, and a player who
    calls plays at that table; CALL-2: one open call per table."""
    plugin = plugin_for(state.format.id if state.format else None)
    found = plugin.entry.table_at(state, body.round, body.table) if plugin else None
    if found is None:
        raise RuleError("CALL-1", f"round {body.round} has no table {body.table}",
                        hint="see 'tourney round show'", finding="call_invalid")
    players, result = found
    if result is not None:
        raise RuleError("CALL-1", f"round {body.round} table {body.table} already has its "
                        "result: a judge call is for a match in progress",
                        hint="a wrong result is corrected, not called",
                        finding="call_invalid")
    if body.number is not msgspec.UNSET and body.number not in players:
        raise RuleError("CALL-1", f"player {body.number} does not play at round {body.round} "
                        f"table {body.table}", hint="a player calls a judge to their own "
                        "table", finding="call_invalid")
    if len(body.note) > MAX_NOTE:
        raise RuleError("CALL-1", f"the note is longer than {MAX_NOTE} characters",
                        hint="say it to the judge", finding="call_invalid")
    held = state.calls.open_at.get(table_key(body.round, body.table))
    if held is not None:
        raise RuleError("CALL-2", f"table {body.table} already has an open judge call "
                        f"(seq {held}): a judge is on the way",
                        hint=f"wait, or close it: tourney call close {held}",
                        finding="call_invalid")


def _call(state: TournamentState, seq: int) -> Call:
    call = state.calls.calls.get(seq)
    if call is None:
        raise RuleError("CALL-3", f"seq {seq} is not a judge call",
                        hint="see 'tourney call list'", finding="call_invalid")
    if call.closed_seq is not None:
        raise RuleError("CALL-3", f"judge call {seq} was closed at seq {call.closed_seq}",
                        hint="open a new call", finding="call_invalid")
    return call


def check_claimed(state: TournamentState, body: CallClaimed, actor: str) -> None:
    """CALL-3: only an open call not yet claimed is claimed."""
    call = _call(state, body.call)
    if call.claimed_seq is not None:
        raise RuleError("CALL-3", f"judge call {body.call} was claimed at seq "
                        f"{call.claimed_seq}", hint="one judge takes a call",
                        finding="call_invalid")


def check_closed(state: TournamentState, body: CallClosed, actor: str) -> None:
    """CALL-4: a claimed, open call is closed with its outcome in words; CALL-5: what it
    cites is an event of this log after the call was opened, and a ruling, penalty or
    appeal (the format says which, ``entry.call_citable``)."""
    call = _call(state, body.call)
    if call.claimed_seq is None:
        raise RuleError("CALL-4", f"judge call {body.call} has not been claimed",
                        hint=f"claim it first: tourney call claim {body.call}",
                        finding="call_invalid")
    if not body.outcome.strip() or len(body.outcome) > MAX_NOTE:
        raise RuleError("CALL-4", "a closed call says its outcome in a few words "
                        f"(at most {MAX_NOTE} characters)", hint="pass --outcome TEXT",
                        finding="call_invalid")
    if body.cites is not msgspec.UNSET and not call.seq < body.cites <= state.size:
        raise RuleError("CALL-5", f"seq {body.cites} is not an event after the call "
                        f"(seq {call.seq})", hint="cite the ruling, penalty or appeal's seq",
                        finding="call_invalid")
    if body.cites is not msgspec.UNSET:
        plugin = plugin_for(state.format.id if state.format else None)
        if plugin is None or not plugin.entry.call_citable(state, body.cites):
            raise RuleError("CALL-5", f"seq {body.cites} is not a ruling, penalty or appeal",
                            hint="cite the seq of the ruling, penalty or appeal the call "
                            "led to, or none", finding="call_cites_not_ruling")
