"""Players' self-reported results (issue 19, ADR 0027): the read API the live server and
``tourney report list`` call, pure functions of the folded ``TournamentState``.

Owns: ``TableStatus`` (the closed set: none, one_sided, matching, conflicting, settled),
``reports_of`` (the current report of each player of a table), ``table_status``,
``report_options`` (a report as the ``result record`` options that record it, in the
format's vocabulary), ``current_round`` and ``queue`` (``QueueRow``: every table of a
round with its players, result, reports and status — the staff queue; a team table's
seats too: ``seat_statuses``, REPORT-21) and ``seat_of`` (a player's table of a round).
Format-agnostic: tables and results come from the format plug-in (``table_at``,
``progress``, ``seat_at``); two reports match when the format's vocabulary parses them
to the same values (``ledger.core.report_rules.parse_report``).

May import: ``msgspec``, ``ledger.core.state``, ``ledger.core.reports_state``,
``ledger.core.report_rules``, ``ledger.core.seat_reports``, ``ledger.core.format_socket``,
``ledger.core.vocabulary``,
``ledger.errors``.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

import msgspec

from ledger.core.format_socket import plugin_for
from ledger.core.report_rules import parse_report
from ledger.core.reports_state import Report
from ledger.core.seat_reports import has_seats, seat_reports
from ledger.core.state import TournamentState
from ledger.errors import RuleError

__all__ = ["QueueRow", "Report", "TableStatus", "current_round", "queue", "report_options",
           "reports_of", "seat_of", "seat_statuses", "table_status"]


class TableStatus(str, Enum):
    NONE = "none"                # no result, no report
    ONE_SIDED = "one_sided"      # some players reported, not all
    MATCHING = "matching"        # every player reported, all the same
    CONFLICTING = "conflicting"  # reports disagree
    SETTLED = "settled"          # the table has its result


def reports_of(state: TournamentState, round_no: int, table: int) -> dict[int, Report]:
    """The current report of each player of round ``round_no`` table ``table`` that
    reported (a later report supersedes an earlier one), by player number."""
    return dict(state.reports.current.get(round_no, {}).get(table, {}))


def _parsed(state: TournamentState, r: Report) -> Any:
    try:
        return parse_report(state, r.round, r.table, r.given)[0]
    except RuleError:
        return ("unparsable", r.seq)


def table_status(state: TournamentState, round_no: int, table: int) -> TableStatus:
    """Where round ``round_no`` table ``table`` stands (a table unknown to the format
    reads ``none``)."""
    plugin = plugin_for(state.format.id if state.format else None)
    seat = plugin.entry.table_at(state, round_no, table) if plugin else None
    if seat is not None and seat[1] is not None:
        return TableStatus.SETTLED
    reps = reports_of(state, round_no, table)
    if not reps:
        return TableStatus.NONE
    if has_seats(state, round_no, table):         # a team table: its seats (REPORT-21)
        pending = set(seat_statuses(state, round_no, table).values())
        return next((s for s in (TableStatus.CONFLICTING, TableStatus.MATCHING,
                                 TableStatus.ONE_SIDED) if s in pending), TableStatus.NONE)
    values = [_parsed(state, r) for r in reps.values()]
    if any(v != values[0] for v in values[1:]):
        return TableStatus.CONFLICTING
    players = seat[0] if seat is not None else []
    if all(p in reps for p in players):
        return TableStatus.MATCHING
    return TableStatus.ONE_SIDED


def seat_statuses(state: TournamentState, round_no: int,
                  table: int) -> dict[int, TableStatus]:
    """A team table's seats that have reports and no result yet, each with its status
    (its two fighters' reports naming it: one-sided, matching or conflicting)."""
    plugin = plugin_for(state.format.id if state.format else None)
    out: dict[int, TableStatus] = {}
    k = 1
    while plugin is not None:
        found = plugin.entry.seat_at(state, round_no, table, k)
        if found is None:
            break
        reps = [r for r in seat_reports(state, round_no, table, k) if r.number in found[0]]
        if reps and found[1] is None:
            values = [_parsed(state, r) for r in reps]
            out[k] = TableStatus.CONFLICTING if any(v != values[0] for v in values[1:]) \
                else TableStatus.MATCHING if len(reps) == len(found[0]) \
                else TableStatus.ONE_SIDED
        k += 1
    return out


class QueueRow(msgspec.Struct, frozen=True, kw_only=True):
    round: int
    table: int
    players: list[int]
    status: TableStatus
    result: Any                      # the format's table result state (None: none yet)
    reports: dict[int, Report]
    #: a team table (REPORT-21): its seats waiting with reports, each with its status
    seats: dict[int, TableStatus] = {}


def current_round(state: TournamentState) -> int | None:
    """The format's current round (a Game in Wheel of Time), or None."""
    plugin = plugin_for(state.format.id if state.format else None)
    rnd = plugin.views.progress(state).round if plugin else None
    return None if rnd is None else rnd.number


def queue(state: TournamentState, round_no: int) -> list[QueueRow]:
    """Every table of round ``round_no`` (1, 2, … while the format knows it) with its
    status: the staff queue."""
    plugin = plugin_for(state.format.id if state.format else None)
    rows: list[QueueRow] = []
    known = set(state.reports.current.get(round_no, {}))
    table = 1
    while plugin is not None:
        seat = plugin.entry.table_at(state, round_no, table)
        if seat is None and table > max(known, default=0):
            break
        if seat is not None:
            rows.append(QueueRow(round=round_no, table=table, players=list(seat[0]),
                                 status=table_status(state, round_no, table), result=seat[1],
                                 reports=reports_of(state, round_no, table),
                                 seats=seat_statuses(state, round_no, table)))
        table += 1
    return rows


def seat_of(state: TournamentState, round_no: int,
            number: int) -> tuple[int, list[int], Any] | None:
    """(table, its players, its result) of player ``number`` in round ``round_no``, or
    None (not seated: a bye, dropped, not paired) — the format's tables, read without
    the reports' statuses."""
    plugin = plugin_for(state.format.id if state.format else None)
    table = 1
    while plugin is not None:
        seat = plugin.entry.table_at(state, round_no, table)
        if seat is None:
            return None
        if number in seat[0]:
            return table, list(seat[0]), seat[1]
        table += 1
    return None


def report_options(state: TournamentState, report: Report) -> str:
    """``--winner 3 --games 1-0``: the report's fields as the format's own ``result
    record`` options, in the vocabulary's order (what a scorekeeper types to record it)."""
    from ledger.core.vocabulary import FieldKind

    plugin = plugin_for(state.format.id if state.format else None)
    if plugin is None:
        return " ".join(f"{k}={v}" for k, v in sorted(report.given.items()))
    parts: list[str] = []
    for f in plugin.entry.result_vocabulary().fields:
        text = report.given.get(f.name)
        if text is None:
            continue
        if f.kind in (FieldKind.FLAG, FieldKind.SWITCH):
            on = text.strip().lower() in ("yes", "true", "1")
            parts.append(f.option if on else (f"--{f.off}" if f.off else ""))
        else:
            parts.append(f"{f.option} {text.strip()}")
    return " ".join(p for p in parts if p)
