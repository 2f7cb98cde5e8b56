"""Team members' reports of their own seat (REPORT-21; issue 32; BR-TEAM-2, BR-TEAM-7).

In a team event a table's entrants are the teams; its matches are its seats (position k
of each team, BR-TEAM-2).  A member reports the result of their own seat, naming it
(``given["seat"]``, inside the signed statement of a phone-held key, REPORT-17); the two
opposing members of a seat agreeing record that seat's result; the team result is derived
from the seats when the last one is in (BR-TEAM-7), never reported.

Owns: ``has_seats`` / ``member_seat`` / ``member_table`` / ``given_seat`` (readers),
``check_seat_report`` (REPORT-21 for a ``result_reported`` of a team table, called by
``report_rules.check_reported``), ``seat_reports`` (the current reports naming one seat),
``agreed_seat`` (the ``record_result`` keywords the agreeing reports of a member's seat
give, and their seqs: the station's auto path) and ``check_station_seat`` (REPORT-21 for a
station's seat result or derived team result, called by
``report_rules.check_station_result``: the command side and the audit run it alike).
Format-agnostic: seats come from the format plug-in (``seat_at``), never by name.

May import: ``ledger.core.state``, ``ledger.core.reports_state``,
``ledger.core.format_socket``, ``ledger.errors``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ledger.core.format_socket import plugin_for
from ledger.core.reports_state import Report
from ledger.errors import RuleError

if TYPE_CHECKING:
    from ledger.core.entry_facet import ResultFields
    from ledger.core.format_plugin import FormatPlugin
    from ledger.core.state import TournamentState

REPORT_21 = "REPORT-21"
Parse = Callable[["TournamentState", int, int, dict[str, str]], tuple[Any, "ResultFields"]]


def _plugin(state: TournamentState) -> FormatPlugin | None:
    return plugin_for(state.format.id if state.format else None)


def _seat_at(state: TournamentState, round_no: int, table: int,
             seat: int) -> tuple[list[int], Any] | None:
    plugin = _plugin(state)
    return None if plugin is None else plugin.entry.seat_at(state, round_no, table, seat)


def has_seats(state: TournamentState, round_no: int, table: int) -> bool:
    """Whether the table is a team table (its matches are seats)."""
    plugin = _plugin(state)
    return plugin is not None and plugin.entry.seat_at(state, round_no, table, 1) is not None


def member_seat(state: TournamentState, round_no: int, table: int,
                number: int) -> int | None:
    """The seat (1, 2, …) fighter ``number`` plays at a team table, or None."""
    plugin = _plugin(state)
    k = 1
    while plugin is not None:
        found = plugin.entry.seat_at(state, round_no, table, k)
        if found is None:
            return None
        if number in found[0]:
            return k
        k += 1
    return None


def member_table(state: TournamentState, round_no: int,
                 number: int) -> tuple[int, int] | None:
    """(table, seat) fighter ``number`` plays in round ``round_no`` of a team event, or
    None (not a member seated in that round)."""
    plugin = _plugin(state)
    table = 1
    while plugin is not None and plugin.entry.table_at(state, round_no, table) is not None:
        seat = member_seat(state, round_no, table, number)
        if seat is not None:
            return table, seat
        table += 1
    return None


def given_seat(given: dict[str, str]) -> int | None:
    text = (given.get("seat") or "").strip()
    return int(text) if text.isdigit() else None


def check_seat_report(state: TournamentState, round_no: int, table: int, number: int,
                      given: dict[str, str]) -> None:
    """REPORT-21: a team table's report is a member's report of their own seat — it names
    that seat — while the seat has no result yet."""
    mine = member_seat(state, round_no, table, number)
    if mine is None:
        raise RuleError("REPORT-5", f"player {number} does not play at round {round_no} "
                        f"table {table}", hint="report the result of your own table",
                        finding="player_report_wrong_table")
    named = given_seat(given)
    if named is None:
        raise RuleError(REPORT_21, f"round {round_no} table {table} is a team match: report "
                        f"your own seat's match (seat {mine}); the team result follows "
                        "from the seats (BR-TEAM-7)", hint=f"seat={mine}",
                        finding="player_report_seat")
    if named != mine:
        raise RuleError(REPORT_21, f"player {number} plays seat {mine} of round {round_no} "
                        f"table {table}, not seat {named}: a member reports their own seat "
                        "only", hint=f"seat={mine}", finding="player_report_seat")
    found = _seat_at(state, round_no, table, mine)
    if found is not None and found[1] is not None:
        raise RuleError("REPORT-6", f"seat {mine} of round {round_no} table {table} already "
                        "has its result; if it is wrong, tell a judge at the scorekeeper's "
                        "desk", hint="a judge corrects a recorded result",
                        finding="player_report_closed")


def seat_reports(state: TournamentState, round_no: int, table: int,
                 seat: int) -> list[Report]:
    """The current reports of a team table naming seat ``seat`` (oldest first)."""
    reps = state.reports.current.get(round_no, {}).get(table, {}).values()
    return sorted((r for r in reps if given_seat(r.given) == seat), key=lambda r: r.seq)


def _agreeing(state: TournamentState, round_no: int, table: int, seat: int,
              parse: Parse) -> tuple[list[Report], ResultFields] | None:
    """Both fighters' current reports of ``seat``, agreeing, and their keywords."""
    found = _seat_at(state, round_no, table, seat)
    if found is None or found[1] is not None:
        return None
    reps = [r for r in seat_reports(state, round_no, table, seat) if r.number in found[0]]
    if sorted(r.number for r in reps) != sorted(found[0]):
        return None
    try:
        parsed = [parse(state, round_no, table, r.given) for r in reps]
    except RuleError:
        return None
    if any(p[0] != parsed[0][0] for p in parsed[1:]):
        return None
    return reps, parsed[0][1]


def agreed_seat(state: TournamentState, round_no: int, table: int, number: int,
                parse: Parse) -> tuple[ResultFields, list[int]] | None:
    """The keywords of the result both members of ``number``'s seat report alike, and
    their reports' seqs; None while they do not (yet) agree."""
    seat = member_seat(state, round_no, table, number)
    got = None if seat is None else _agreeing(state, round_no, table, seat, parse)
    return None if got is None else (got[1], [r.seq for r in got[0]])


def check_station_seat(state: TournamentState, body: Any, cited: list[Report],
                       parse: Parse, decide: Callable[[ResultFields], Any]) -> bool:
    """REPORT-21 for a station's result of a team table (False: not a team table, the
    individual rule REPORT-11 applies).  A seat result cites exactly the agreeing current
    reports of the seat's two fighters and equals what they give; the team result is
    recorded only when every seat has its result, citing the last seat's reports (its
    value is the derivation, BR-TEAM-7, the format's check)."""
    if not has_seats(state, body.round, body.table):
        return False
    seat = getattr(body, "seat", None)
    where = f"round {body.round} table {body.table}"
    if seat is None:
        k, missing = 1, []
        while (found := _seat_at(state, body.round, body.table, k)) is not None:
            if found[1] is None:
                missing.append(k)
            k += 1
        named = {given_seat(r.given) for r in cited}
        if missing or len(named) != 1 or not cited:
            raise RuleError(REPORT_21, f"a station's team result of {where} follows only "
                            "from all its seats' results, citing the last seat's reports",
                            finding="station_result_invalid")
        return True
    got = _agreeing(state, body.round, body.table, seat, parse)
    if got is None or sorted(r.seq for r in got[0]) != sorted(r.seq for r in cited) \
            or len(cited) != len(body.reports):
        raise RuleError(REPORT_21, f"a station's result of {where} seat {seat} must cite "
                        "the agreeing current report of each of its two fighters",
                        finding="station_result_invalid")
    creds = state.reports.credentials
    if any(creds[r.credential].revoked_seq is not None for r in cited):
        raise RuleError(REPORT_21, "a cited report's credential has been revoked since",
                        hint="a scorekeeper decides", finding="station_result_invalid")
    decide(got[1])
    return True
