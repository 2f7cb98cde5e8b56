"""The rules of players' credentials and self-reported results (issue 19, ADR 0027):
REPORT-1..8, 10..12, 14 and 15 (REPORT-9, who signs what, is ``ledger.core.rules``; the
phone-held keys' REPORT-16..20 are ``ledger.core.device_rules``, called from here).

Owns: ``check_issued`` (``credential_issued``), ``check_revoked`` (``credential_revoked``),
``check_reported`` (``result_reported``), ``check_rejected`` (``report_rejected``,
REPORT-14), ``check_own_act`` (a player's own act citing their credential, REPORT-15) —
registered by ``ledger.core.rules`` as the core checks of those kinds, so the command
side and the audit run the one implementation — and
``check_citation`` / ``check_station_result`` (a result citing reports, REPORT-10..12:
``ledger.core.rules.check`` calls them for any body with a ``reports`` list) and
``parse_report`` (a report's ``given`` → the format's vocabulary entry and its
``record_result`` keywords: the path ``result record`` and ``result import`` take).
Format-agnostic: a report is read through the format plug-in (``result_vocabulary``,
``round_phase``, ``table_at``, ``result_kwargs``, ``progress``), never by name.

May import: ``msgspec``, ``ledger.core.state``, ``ledger.core.reports_state``,
``ledger.core.format_socket``, ``ledger.core.vocabulary``, ``ledger.core.device_rules``,
``ledger.core.seat_reports`` (a team member's report of their seat, REPORT-21),
``ledger.errors``, ``ledger.wire.events``, ``ledger.wire.reports``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import msgspec

from ledger.core.device_rules import check_act_sig, check_report_sig
from ledger.core.device_rules import report_statement as report_statement  # the read API
from ledger.core.format_socket import plugin_for
from ledger.core.reports_state import Report
from ledger.core.seat_reports import check_seat_report, check_station_seat, has_seats
from ledger.core.vocabulary import FieldKind
from ledger.errors import RuleError, TourneyError
from ledger.wire.events import SelfReportPolicy
from ledger.wire.reports import (
    CredentialIssued,
    CredentialRevoked,
    ReportRejected,
    ResultReported,
)

if TYPE_CHECKING:
    from ledger.core.entry_facet import ResultFields
    from ledger.core.format_plugin import FormatPlugin
    from ledger.core.state import TournamentState
    from ledger.core.vocabulary import Given

_HEX64 = re.compile(r"[0-9a-f]{64}")


def check_issued(state: TournamentState, body: CredentialIssued, actor: str) -> None:
    """REPORT-1: a well-formed credential for exactly one known holder; REPORT-2: one live
    credential per holder, and a credential id is never issued twice."""
    if not _HEX64.fullmatch(body.token_sha256) or body.credential != body.token_sha256[:16]:
        raise RuleError("REPORT-1", "token_sha256 must be 64 lowercase hex digits and the "
                        "credential its first 16", finding="credential_malformed")
    if (body.number is None) == (body.official is None):
        raise RuleError("REPORT-1", "a credential names exactly one holder: a player number "
                        "or an official's key id", finding="credential_malformed")
    rs = state.reports
    if body.number is not None:
        if body.number not in state.players:
            raise RuleError("REPORT-1", f"player {body.number} is not registered",
                            hint="see 'tourney player list'", finding="credential_unknown_holder")
        live = rs.live_player.get(body.number)
        who = f"player {body.number}"
    else:
        off = state.officials.get(body.official or "")
        if off is None or off.revoked_seq is not None:
            raise RuleError("REPORT-1", f"key {body.official} is not a current official",
                            hint="see 'tourney official list'",
                            finding="credential_unknown_holder")
        live = rs.live_official.get(body.official or "")
        who = f"official {body.official}"
    if live is not None:
        raise RuleError("REPORT-2", f"{who} already holds live credential {live} (issued at "
                        f"seq {rs.credentials[live].issued_seq})",
                        hint="re-issue it: 'tourney player card N --reissue --reason TEXT'"
                        if body.number is not None else "re-issue it: 'tourney official card "
                        "KEY_ID --reissue --reason TEXT'",
                        finding="credential_twice")
    if body.credential in rs.credentials:
        raise RuleError("REPORT-2", f"credential {body.credential} was already issued at seq "
                        f"{rs.credentials[body.credential].issued_seq}",
                        hint="issue a fresh token", finding="credential_twice")


def check_revoked(state: TournamentState, body: CredentialRevoked, actor: str) -> None:
    """REPORT-3: only a known, live credential is revoked, with a reason."""
    cred = state.reports.credentials.get(body.credential)
    if cred is None:
        raise RuleError("REPORT-3", f"credential {body.credential} was never issued",
                        hint="see 'tourney report list --json' or the cards' CSV",
                        finding="credential_not_live")
    if cred.revoked_seq is not None:
        raise RuleError("REPORT-3", f"credential {body.credential} was already revoked at "
                        f"seq {cred.revoked_seq}", hint="nothing to revoke",
                        finding="credential_not_live")
    if not body.reason.strip():
        raise RuleError("REPORT-3", "a revocation needs a reason", hint="pass --reason TEXT")


def parse_report(state: TournamentState, round_no: int, table: int,
                 given: dict[str, str]) -> tuple[Given, ResultFields]:
    """REPORT-7: ``given`` read by the format's vocabulary as a slip row is, choosing
    exactly one entry valid in that round's phase, then the format's ``result_kwargs``
    (the one path of ``result record``); returns the parsed values and the keywords."""
    plugin = plugin_for(state.format.id if state.format else None)
    if plugin is None:
        raise RuleError("REPORT-7", "this event's format is not known here",
                        finding="player_report_invalid")
    vocab = plugin.entry.result_vocabulary()
    names = {f.name for f in vocab.fields}
    unknown = sorted(k for k in given if k not in names)
    if unknown:
        raise RuleError("REPORT-7", f"{vocab.title} results have no field "
                        f"{', '.join(unknown)}", finding="player_report_invalid",
                        hint=f"{vocab.title} result fields: {', '.join(sorted(names))}")
    try:
        parsed = vocab.from_slip(given)
        entry = vocab.entry_for(parsed, plugin.entry.round_phase(state, round_no))
        kw = plugin.entry.result_kwargs(state, entry, parsed, round_no=round_no, table=table)
    except TourneyError as exc:
        raise RuleError("REPORT-7", f"the reported result is not one outcome of this "
                        f"format: {exc.message}", hint=exc.hint,
                        finding="player_report_invalid") from None
    found = plugin.entry.table_at(state, round_no, table)
    seat = parsed.get("seat")
    in_seat = plugin.entry.seat_at(state, round_no, table, seat) if isinstance(seat, int) \
        else None
    if in_seat is not None:                   # a team table's seat (REPORT-21)
        found = in_seat
    seated = set(found[0]) if found is not None else set()
    for f in vocab.fields:           # a player the result names plays at this table
        if f.kind is FieldKind.PLAYER and f.name in parsed and parsed[f.name] not in seated:
            raise RuleError("REPORT-7", f"player #{parsed[f.name]} does not play at round "
                            f"{round_no} table {table}",
                            hint="name one of the two players of your table",
                            finding="player_report_invalid")
    return parsed, kw


def check_reported(state: TournamentState, body: ResultReported, actor: str) -> None:
    """REPORT-4..8 for one player's report of their table."""
    rs = state.reports
    cred = rs.credentials.get(body.credential)
    if cred is None or cred.number != body.number:
        raise RuleError("REPORT-4", f"credential {body.credential} is not player "
                        f"{body.number}'s", hint="the player scans their own card",
                        finding="player_report_credential")
    if cred.revoked_seq is not None:
        raise RuleError("REPORT-4", f"credential {body.credential} was revoked at seq "
                        f"{cred.revoked_seq}", hint="ask the head judge for a new card",
                        finding="player_report_credential")
    plugin = plugin_for(state.format.id if state.format else None)
    seat = plugin.entry.table_at(state, body.round, body.table) if plugin else None
    team = has_seats(state, body.round, body.table)
    if seat is None or (body.number not in seat[0] and not team):
        raise RuleError("REPORT-5", f"player {body.number} does not play at round "
                        f"{body.round} table {body.table}",
                        hint="report the result of your own table",
                        finding="player_report_wrong_table")
    rnd = plugin.views.progress(state).round if plugin else None
    if rnd is None or rnd.number != body.round or not rnd.open:
        raise RuleError("REPORT-6", f"round {body.round} is closed: reports are taken only "
                        "while a round is open; if your table's result is wrong, tell a judge "
                        "at the scorekeeper's desk", hint="a judge corrects a recorded result",
                        finding="player_report_closed")
    if seat[1] is not None:
        raise RuleError("REPORT-6", f"round {body.round} table {body.table} already has its "
                        "result; if it is wrong, tell a judge at the scorekeeper's desk",
                        hint="a judge corrects a recorded result",
                        finding="player_report_closed")
    if team:
        check_seat_report(state, body.round, body.table, body.number, body.given)
    parsed, _ = parse_report(state, body.round, body.table, body.given)
    check_report_sig(state, body)                  # REPORT-17/19
    mine = rs.current.get(body.round, {}).get(body.table, {}).get(body.number)
    if mine is not None and _same_given(state, body.round, body.table, mine.given, parsed):
        raise RuleError("REPORT-8", f"player {body.number} already reported exactly this "
                        f"(seq {mine.seq})", hint="nothing to record",
                        finding="player_report_duplicate")


def _same_given(state: TournamentState, round_no: int, table: int, earlier: dict[str, str],
                parsed: Given) -> bool:
    try:
        return parse_report(state, round_no, table, earlier)[0] == parsed
    except RuleError:
        return False


def check_rejected(state: TournamentState, body: ReportRejected, actor: str) -> None:
    """REPORT-14: only a player's current report of a table still waiting for its result
    is set aside, with a reason."""
    mine = state.reports.current.get(body.round, {}).get(body.table, {}).get(body.number)
    if mine is None or mine.seq != body.report:
        raise RuleError("REPORT-14", f"seq {body.report} is not player {body.number}'s "
                        f"current report of round {body.round} table {body.table}",
                        hint="see 'tourney report list'", finding="report_rejection_invalid")
    plugin = plugin_for(state.format.id if state.format else None)
    seat = plugin.entry.table_at(state, body.round, body.table) if plugin else None
    if seat is not None and seat[1] is not None:
        raise RuleError("REPORT-14", f"round {body.round} table {body.table} already has its "
                        "result: its reports no longer count", hint="nothing to reject",
                        finding="report_rejection_invalid")
    if not body.reason.strip():
        raise RuleError("REPORT-14", "a rejection needs a reason (the player reads it)",
                        hint="pass --reason TEXT")


def check_own_act(state: TournamentState, body: Any, actor: str) -> None:
    """REPORT-15: an act a player takes themselves from their page (a drop) names the
    credential it was taken with, which must be that player's and live."""
    cred = state.reports.credentials.get(body.credential)
    if cred is None or cred.number != getattr(body, "number", None):
        raise RuleError("REPORT-15", f"credential {body.credential} is not player "
                        f"{getattr(body, 'number', None)}'s",
                        hint="a player acts only for themselves, with their own card",
                        finding="player_act_credential")
    if cred.revoked_seq is not None:
        raise RuleError("REPORT-15", f"credential {body.credential} was revoked at seq "
                        f"{cred.revoked_seq}", hint="ask the head judge for a new card",
                        finding="player_act_credential")
    check_act_sig(state, body)                     # REPORT-20/19


# -- results citing reports (REPORT-10..12) --------------------------------------------------
def _cited(state: TournamentState, body: Any) -> list[Report]:
    return [r for r in state.reports.current.get(body.round, {}).get(body.table, {}).values()
            if r.seq in body.reports]


def check_citation(state: TournamentState, body: Any, actor: str) -> None:
    """REPORT-10: a result cites only current reports of its own table, each once."""
    cited = _cited(state, body)
    if len(set(body.reports)) != len(body.reports) or len(cited) != len(body.reports):
        raise RuleError("REPORT-10", f"the result of round {body.round} table {body.table} "
                        f"cites {body.reports}, which are not all current reports of that "
                        "table", hint="see 'tourney report list'",
                        finding="result_citation_invalid")


def check_station_result(state: TournamentState, body: Any, actor: str) -> None:
    """REPORT-11: a station records a result only citing the agreeing current reports of
    every player of that table, made with credentials live now, and equal to them;
    REPORT-12: only under the genesis policy ``self_report_policy=auto``."""
    if state.ledger_policy.self_reports is not SelfReportPolicy.AUTO:
        raise RuleError("REPORT-12", "a station records results only when the event was "
                        "created with self_report_policy=auto",
                        hint="a scorekeeper accepts them: tourney report accept",
                        finding="station_result_invalid")
    plugin = plugin_for(state.format.id if state.format else None)
    seat = plugin.entry.table_at(state, body.round, body.table) if plugin else None
    cited = _cited(state, body)
    if plugin is not None and check_station_seat(
            state, body, cited, parse_report,
            lambda kw: _equals_decided(state, plugin, body, kw)):
        return                                     # a team table: REPORT-21
    if plugin is None or seat is None or sorted(r.number for r in cited) != sorted(seat[0]) \
            or len(cited) != len(body.reports):
        raise RuleError("REPORT-11", f"a station's result of round {body.round} table "
                        f"{body.table} must cite the current report of each of its players",
                        finding="station_result_invalid")
    creds = state.reports.credentials
    if any(creds[r.credential].revoked_seq is not None for r in cited):
        raise RuleError("REPORT-11", "a cited report's credential has been revoked since",
                        hint="a scorekeeper decides", finding="station_result_invalid")
    parsed = [parse_report(state, body.round, body.table, r.given) for r in cited]
    if any(p[0] != parsed[0][0] for p in parsed[1:]):
        raise RuleError("REPORT-11", "the cited reports disagree",
                        hint="a scorekeeper decides", finding="station_result_invalid")
    _equals_decided(state, plugin, body, parsed[0][1])


def _equals_decided(state: TournamentState, plugin: FormatPlugin, body: Any,
                    kw: ResultFields) -> None:
    """REPORT-11: the station's result is the one the reports' keywords decide."""
    try:
        decided = plugin.entry.decided_result(state, kw)
    except TourneyError as exc:
        raise RuleError("REPORT-11", f"the format cannot decide the reports' result: "
                        f"{exc.message}", finding="station_result_invalid") from None
    games = None if isinstance(body.games, msgspec.UnsetType) else list(body.games)
    if (decided[0], list(decided[1]), list(decided[2]), decided[3],
            None if decided[4] is None else list(decided[4])) != \
            (body.winner, list(body.losers), list(body.loss_reasons), body.outcome, games):
        raise RuleError("REPORT-11", f"the station's result of round {body.round} table "
                        f"{body.table} is not the one its cited reports give",
                        finding="station_result_invalid")
