"""What staff and players decide about self-reported results (issue 19, ADR 0027; a use
case since issue 28): one implementation for ``tourney report accept|reject``, the live
server's staff page and a player's own drop from their page.

Owns: ``accept_matching`` (record a table's — or every table's — matching reports as its
result, citing them: REPORT-13 on the command side), ``record_report`` (a staff decision:
the result one report gives, citing every current report of that table, which it
settles; a team table's seat: the reports naming that seat, REPORT-21),
``reject_report`` (REPORT-14) and ``own_drop`` / ``own_drop_refusal`` (a player
drops themselves with their credential, REPORT-15, only while the drop records no result:
their table of the open round has its result, or they are not seated in it).  Each is a
command ``(tournament, signer, time, …) -> events``; the rules themselves are
``ledger.core.report_rules`` and the format's, checked when the events are recorded; a
result is recorded through ``usecases.results.record``, as every other entry is.

May import: ``ledger.core.citing``, ``ledger.core.report_rules``, ``ledger.core.reports``,
``ledger.core.seat_reports``, ``ledger.core.format_socket``, ``ledger.errors``,
``usecases.results``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ledger.core.citing import acting_scope
from ledger.core.format_socket import plugin_for
from ledger.core.report_rules import parse_report
from ledger.core.reports import TableStatus, current_round, queue, reports_of, seat_of
from ledger.core.seat_reports import given_seat, has_seats, member_table, seat_reports
from ledger.errors import RuleError, UsageError
from usecases.results import record

if TYPE_CHECKING:
    from ledger.core.aggregate import Tournament
    from ledger.core.state import TournamentState
    from ledger.wire.events import SignedEvent
    from ledger.wire.keys import Signer

REPORT_13 = "REPORT-13"   # accept records only a table whose reports all match (command side)


def _round(state: TournamentState, round_no: int | None) -> int:
    n = current_round(state) if round_no is None else round_no
    if n is None:
        raise UsageError("no round is paired yet", hint="see 'tourney report list'")
    return n


def accept_matching(t: Tournament, signer: Signer, time: str, round_no: int | None,
                    table: int | None) -> tuple[list[SignedEvent], list[int]]:
    """Record ``table``'s matching reports (or, with ``table`` None, every matching table
    of the round) as the result they give, citing them; returns (events, tables)."""
    n = _round(t.state, round_no)
    rows = [r for r in queue(t.state, n) if table is None or r.table == table]
    if table is not None and not rows:
        raise UsageError(f"round {n} has no table {table}", hint="see 'tourney report list'")
    if table is not None and rows[0].status is not TableStatus.MATCHING:
        raise RuleError(REPORT_13, f"round {n} table {table} is "
                        f"{rows[0].status.value.replace('_', '-')}: only matching reports "
                        "are accepted", hint="record the result at the desk: tourney result "
                        f"record --round {n} --table {table} …")
    events: list[SignedEvent] = []
    accepted: list[int] = []
    for r in rows:
        if r.status is not TableStatus.MATCHING:
            continue
        if r.seats:                                # a team table: its matching seats
            for k, status in sorted(r.seats.items()):
                seat = seat_reports(t.state, n, r.table, k)
                if status is TableStatus.MATCHING:
                    kw = parse_report(t.state, n, r.table, seat[0].given)[1]
                    events += record(t, signer, time, kw, [x.seq for x in seat])
            accepted.append(r.table)
            continue
        reps = sorted(r.reports.values(), key=lambda x: x.seq)
        kw = parse_report(t.state, n, r.table, reps[0].given)[1]
        events += record(t, signer, time, kw, [x.seq for x in reps])
        accepted.append(r.table)
    if not events:
        raise RuleError(REPORT_13, f"round {n} has no table with matching reports",
                        hint="see 'tourney report list'")
    return events, accepted


def record_report(t: Tournament, signer: Signer, time: str, round_no: int, table: int,
                  report: int) -> list[SignedEvent]:
    """A staff decision: the result report ``report`` gives, citing every current report
    of the table (all settled by it)."""
    reps = sorted(reports_of(t.state, round_no, table).values(), key=lambda x: x.seq)
    chosen = [r for r in reps if r.seq == report]
    if not chosen:
        raise RuleError("REPORT-10", f"seq {report} is not a current report of round "
                        f"{round_no} table {table}", hint="reload the staff page")
    kw = parse_report(t.state, round_no, table, chosen[0].given)[1]
    seat = given_seat(chosen[0].given)
    if seat is not None and has_seats(t.state, round_no, table):   # REPORT-21: its seat's
        reps = seat_reports(t.state, round_no, table, seat)
    return record(t, signer, time, kw, [x.seq for x in reps])


def reject_report(t: Tournament, signer: Signer, time: str, round_no: int | None,
                  number: int, reason: str) -> SignedEvent:
    """Set aside ``number``'s current report of the round (REPORT-14)."""
    n = _round(t.state, round_no)
    where = seat_of(t.state, n, number)
    table = where[0] if where is not None else \
        (member_table(t.state, n, number) or (None,))[0]     # a team member (REPORT-21)
    mine = reports_of(t.state, n, table).get(number) if table is not None else None
    if mine is None:
        raise RuleError("REPORT-14", f"player {number} has no current report in round {n}",
                        hint="see 'tourney report list'")
    return t.reject_report(n, mine.table, number, mine.seq, reason.strip(), signer, time)


def own_drop_refusal(state: TournamentState, number: int) -> str | None:
    """Why player ``number`` may not drop themselves now (None: they may): a drop while
    their match of the open round is unfinished would record its result, which only the
    reports or the desk do."""
    plugin = plugin_for(state.format.id if state.format else None)
    if plugin is None:
        return "this event's format is not known here"
    if number not in state.players:
        return f"player {number} is not registered"
    rnd = plugin.progress(state).round
    if rnd is None or not rnd.open:
        return None
    where = seat_of(state, rnd.number, number)
    if where is not None and where[2] is None:
        return (f"your match of round {rnd.number} (table {where[0]}) has no result "
                "yet: report it first (a concession if you leave now), then drop")
    return None


def own_drop(t: Tournament, signer: Signer, time: str, number: int, credential: str,
             device_sig: str | None = None, device_use: int | None = None
             ) -> list[SignedEvent]:
    """Player ``number`` drops themselves with ``credential`` (REPORT-15) — with the
    signature of the card's phone key of the drop's statement naming the card's act
    ``device_use``, when one is bound (REPORT-19/20: without it the refusal,
    ``PhoneSignatureNeeded``, carries the statement to sign); the format's own drop rules
    decide whether and how (a Wheel of Time event refuses: no drops)."""
    why = own_drop_refusal(t.state, number)
    if why is not None:
        raise RuleError("REPORT-15", why, hint="or see a judge at the scorekeeper's desk")
    with acting_scope(credential, device_sig, device_use):
        events: list[SignedEvent] = t.drop_player(signer, time, number,
                                          reason="dropped from their own page")
    return events
