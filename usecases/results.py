"""Entering a result: the desk's slip, a correction, and the result the players' reports
agree on (issue 28 item 2: one home for the CLI and the live server).

Owns: ``enter_result`` — what ``result record``, each row of ``result import`` and the
station's agreed reports do inside one ``Ledger.write``: when the table already holds
exactly this result, nothing is written and the earlier event is returned (``Unchanged``:
a retried or doubly keyed slip is a success); when it holds another result, the refusal
(LEDGER-RES-1) says what is recorded, at which seq and by whom, and how a judge corrects
it; otherwise the ledger records it, citing the reports it settles (REPORT-10).
``correct_entry`` does the same for ``result correct`` (an identical correction writes
nothing).  ``agreed_result`` is the station's: under ``self_report_policy=auto`` the
result both players' (or a team seat's members') reports agree on (REPORT-11/12/21,
BR-TEAM-7; ADR 0027).  What an entry decides (winner, losers, reasons, games) is the
format's own ``decided_result``, the decision its ``record_result`` makes, never redone
here; ``record`` is the one place a result of the desk, the staff page or the station
reaches the aggregate (``usecases.reports`` records through it too).

May import: ``ledger.*``, ``projections.result_words``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ledger.core.citing import citing_scope
from ledger.core.plugin import plugin_of
from ledger.core.rules import authorize
from ledger.errors import RuleError
from projections.result_words import describe

if TYPE_CHECKING:
    from ledger.core.aggregate import Tournament
    from ledger.core.state import TournamentState
    from ledger.wire.events import SignedEvent
    from ledger.wire.keys import Signer

#: the key id that signed an earlier event (read only to word a refusal)
ActorOf = Callable[[int], "str | None"]


@dataclass(frozen=True)
class Unchanged:
    """The table already holds exactly the entered result: nothing was written."""

    seq: int
    round: int
    table: int


def _same(t: Tournament, res: Any, kw: dict[str, Any]) -> bool:
    """Whether entry ``kw`` decides exactly the recorded result ``res``: the format's
    own answer (``FormatPlugin.same_result``)."""
    args = {k: v for k, v in kw.items() if k not in ("reason", "note")}
    return plugin_of(t).same_result(t, res, args)


def recorded_by(state: TournamentState, actor: str | None) -> str:
    """``Sam (scorekeeper, key 1a2b…)`` for the key that signed an event."""
    if actor is None:
        return "an unknown key"
    off = state.officials.get(actor)
    if off is None:
        return f"key {actor}"
    roles = "/".join(r.value.replace("_", " ") for r in off.roles if r.value != "organizer")
    return f"{off.name} ({roles}, key {actor})"


def record(t: Tournament, signer: Signer, time: str, kw: dict[str, Any],
            settles: Sequence[int] | None = None) -> list[SignedEvent]:
    """The result ``kw`` recorded, citing the reports ``settles`` (None: cites nothing)."""
    if settles is None:
        return t.record_result(signer, time, **kw)
    with citing_scope(list(settles)):
        return t.record_result(signer, time, **kw)


def enter_result(t: Tournament, signer: Signer, time: str, actor_of: ActorOf,
                 settles: Sequence[int] | None = None, **kw: Any) -> list[SignedEvent] | Unchanged:
    """Record one result (``kw`` as for ``Tournament.record_result``), idempotently,
    citing the reports ``settles`` (``result record --settles``)."""
    st = t.state
    authorize(st, signer.key_id, "result_recorded")   # before any shortcut (issue 17 #21)
    seat = plugin_of(t).table_at(st, kw["round_no"], kw["table"])
    if seat is not None and seat[1] is not None:
        res = seat[1]
        if _same(t, res, kw):
            return Unchanged(res.seq, kw["round_no"], kw["table"])
        raise RuleError(
            "LEDGER-RES-1",
            f"round {kw['round_no']} table {kw['table']} already has a different result: "
            f"{describe(st, res)} (seq {res.seq}, recorded by "
            f"{recorded_by(st, actor_of(res.seq))})",
            hint="if the slip says otherwise, a judge corrects it: tourney result correct "
                 f"--round {kw['round_no']} --table {kw['table']} … --reason TEXT")
    return record(t, signer, time, kw, settles)


def correct_entry(t: Tournament, signer: Signer, time: str,
                  **kw: Any) -> list[SignedEvent] | Unchanged:
    """Correct one result, or nothing when the table already holds exactly that result."""
    st = t.state
    authorize(st, signer.key_id, "result_corrected")  # before any shortcut (issue 17 #21)
    seat = plugin_of(t).table_at(st, kw["round_no"], kw["table"])
    if seat is not None and seat[1] is not None:
        if _same(t, seat[1], kw):
            return Unchanged(seat[1].seq, kw["round_no"], kw["table"])
    return t.correct_result(signer, time, **kw)


def agreed_result(t: Tournament, time: str, signer: Signer, round_no: int, table: int,
                  number: int | None = None) -> list[SignedEvent]:
    """With the genesis policy ``self_report_policy=auto`` (ADR 0027): both players'
    current reports agree, so the station records the result, citing both (REPORT-11/12
    check it, here and in the audit).  A team table: both members of the reporter's seat
    agree, so the station records that seat, citing both, and the team result with the
    last seat (REPORT-21, BR-TEAM-7).  Nothing to record: no events."""
    from ledger.core.report_rules import parse_report
    from ledger.core.reports import TableStatus, reports_of, table_status
    from ledger.core.seat_reports import agreed_seat, has_seats
    from ledger.wire.events import SelfReportPolicy

    st = t.state
    if st.ledger_policy.self_reports is not SelfReportPolicy.AUTO:
        return []
    if has_seats(st, round_no, table):
        got = None if number is None else agreed_seat(st, round_no, table, number,
                                                       parse_report)
        if got is None:
            return []
        return record(t, signer, time, got[0], got[1])
    if table_status(st, round_no, table) is not TableStatus.MATCHING:
        return []
    reps = sorted(reports_of(st, round_no, table).values(), key=lambda r: r.seq)
    kw = parse_report(st, round_no, table, reps[0].given)[1]
    return record(t, signer, time, kw, [r.seq for r in reps])
