"""Issue 19 (ADR 0027): players' credentials, the station role and self-reported results, on
the ledger side.

Real SQLite ledgers and real signatures (``Ledger`` and the ``Tournament`` aggregate, as
the CLI and the server do); every refusal leaves the ledger's bytes unchanged; the audit
runs over real bundles with forged but correctly chained and signed leaves.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest

from ledger.core.aggregate import Tournament
from ledger.core.citing import citing_scope
from ledger.core.credentials import (
    credential_for_token,
    credential_id,
    live_credential,
    live_official_credential,
    token_sha256,
    valid_at,
)
from ledger.core.draw import seed_from_material
from ledger.core.format_socket import require_plugin
from ledger.core.report_rules import parse_report
from ledger.core.reports import (
    TableStatus,
    current_round,
    queue,
    report_options,
    reports_of,
    table_status,
)
from ledger.formats.wot.model import Revision
from ledger.formats.wot.sim import simulated_result
from ledger.wire.events import LedgerPolicy, SelfReportPolicy, open_leaf
from ledger.wire.keys import Signer
from ledger.wire.reports import CredentialIssued, CredentialRevoked, ResultReported
from tests.conftest import HJ, JUDGE, SCOREKEEPER
from tests.helpers.forgery import chained_next
from tests.helpers.reporting import FMT, LOG, STATION, AutoEvent, Event, _codes, _paired, token


@pytest.fixture()
def ev(tmp_path: Path) -> Event:
    return Event(tmp_path / "r.db")


# -- the station role (REPORT-9) ------------------------------------------------------------
def test_station_signs_reports_only(ev: Event) -> None:
    table, a, b = _paired(ev)
    ev.report(a, {"winner": str(a)})
    assert table_status(ev.state(), 1, table) is TableStatus.ONE_SIDED
    ev.refused("RULES-1.3", ev.desk(table, {"winner": str(a)}, STATION))
    ev.refused("RULES-1.3", lambda t, now: t.issue_credential(token_sha256("x" * 32), STATION,
                                                              now, number=3))
    msg = ev.refused("RULES-1.3", lambda t, now: t.report_result(
        1, table, b, credential_id(token(b)), {"winner": str(a)}, SCOREKEEPER, now))
    assert "must be signed by station" in msg
    ev.refused("RULES-1.3", lambda t, now: t.issue_credential(
        token_sha256("y" * 32), SCOREKEEPER, now, number=3))


# -- credentials (REPORT-1..3) --------------------------------------------------------------
def test_credentials_issue_revoke_and_read_api(ev: Event) -> None:
    cid = ev.issue(3)
    st = ev.state()
    cred = credential_for_token(st, token(3))
    assert cred is not None and cred.credential == cid and cred.number == 3
    assert live_credential(st, 3) is cred and live_credential(st, 4) is None
    assert credential_for_token(st, token(4)) is None
    assert credential_for_token(st, token(3) + "0") is None
    issued = cred.issued_seq
    assert not valid_at(st, cred, issued) and valid_at(st, cred, issued + 5)
    assert token(3) not in Path(ev.loc.text).read_bytes().decode("latin-1")
    msg = ev.refused("REPORT-2", lambda t, now: t.issue_credential(
        token_sha256(token(30)), HJ, now, number=3))
    assert f"already holds live credential {cid}" in msg
    ev.refused("REPORT-2", lambda t, now: t.issue_credential(token_sha256(token(3)), HJ, now,
                                                             number=4))
    ev.refused("REPORT-1", lambda t, now: t.issue_credential(token_sha256("z"), HJ, now,
                                                             number=99))
    ev.refused("REPORT-1", lambda t, now: t.issue_credential(token_sha256("z"), HJ, now))
    ev.refused("REPORT-1", lambda t, now: t.issue_credential(
        token_sha256("z"), HJ, now, number=4, official=JUDGE.key_id))
    ev.refused("REPORT-1", lambda t, now: t.record(CredentialIssued(
        credential="0" * 16, token_sha256=token_sha256("z"), number=4), HJ, now))
    ev.refused("REPORT-3", lambda t, now: t.revoke_credential("0" * 16, "lost", HJ, now))
    ev.refused("REPORT-3", lambda t, now: t.revoke_credential(cid, " ", HJ, now))
    ev.write(lambda t, now: t.revoke_credential(cid, "lost card", HJ, now))
    st = ev.state()
    revoked = st.reports.credentials[cid].revoked_seq
    assert revoked == st.size and live_credential(st, 3) is None
    assert revoked is not None
    assert not valid_at(st, st.reports.credentials[cid], revoked)
    assert not valid_at(st, st.reports.credentials[cid], revoked + 1)
    ev.refused("REPORT-3", lambda t, now: t.revoke_credential(cid, "again", HJ, now))
    new = ev.issue(3, token(33))                      # re-issue = revoke + issue
    assert live_credential(ev.state(), 3).credential == new  # type: ignore[union-attr]


def test_official_credentials(ev: Event) -> None:
    ev.write(lambda t, now: t.issue_credential(token_sha256("staff"), HJ, now,
                                               official=SCOREKEEPER.key_id))
    st = ev.state()
    assert live_official_credential(st, SCOREKEEPER.key_id) is not None
    ev.refused("REPORT-1", lambda t, now: t.issue_credential(token_sha256("staff2"), HJ, now,
                                                             official="0" * 16))
    ev.refused("REPORT-2", lambda t, now: t.issue_credential(token_sha256("staff3"), HJ, now,
                                                             official=SCOREKEEPER.key_id))


# -- reports (REPORT-4..8) ------------------------------------------------------------------
def test_reports_supersede_match_conflict_and_settle(ev: Event) -> None:
    table, a, b = _paired(ev)
    st = ev.state()
    assert current_round(st) == 1 and table_status(st, 1, table) is TableStatus.NONE
    ev.report(a, {"winner": str(b), "games": "0-1"})
    ev.report(a, {"winner": str(a), "games": "1-0"})          # supersedes (both in the log)
    st = ev.state()
    assert reports_of(st, 1, table)[a].given == {"winner": str(a), "games": "1-0"}
    assert table_status(st, 1, table) is TableStatus.ONE_SIDED
    msg = ev.refused("REPORT-8", lambda t, now: t.report_result(
        1, table, a, credential_id(token(a)), {"winner": f"0{a}", "games": "1-0"}, STATION,
        now))
    assert "already reported exactly this" in msg
    ev.report(b, {"winner": str(b), "games": "0-1"})
    assert table_status(ev.state(), 1, table) is TableStatus.CONFLICTING
    ev.report(b, {"winner": str(a), "games": "1-0"})
    st = ev.state()
    assert table_status(st, 1, table) is TableStatus.MATCHING
    row = next(r for r in queue(st, 1) if r.table == table)
    assert row.status is TableStatus.MATCHING and sorted(row.reports) == sorted([a, b])
    assert {r.status for r in queue(st, 1) if r.table != table} == {TableStatus.NONE}
    ev.write(ev.desk(table, {"winner": str(a), "games": "1-0"}))
    assert table_status(ev.state(), 1, table) is TableStatus.SETTLED
    msg = ev.refused("REPORT-6", lambda t, now: t.report_result(
        1, table, b, credential_id(token(b)), {"winner": str(b)}, STATION, now))
    assert "already has its result" in msg


def test_reports_refused(ev: Event) -> None:
    table, a, b = _paired(ev)
    other, others = ev.table_of(next(n for n in range(1, 9) if n not in (a, b)))
    c = others[0]
    ev.issue(c)
    cid_a, cid_b = credential_id(token(a)), credential_id(token(b))

    def rep(number: int, cid: str, given: dict[str, str], tbl: int = table,
            rnd: int = 1) -> Callable[[Tournament, str], Any]:
        return lambda t, now: t.report_result(rnd, tbl, number, cid, given, STATION, now)

    ev.refused("REPORT-4", rep(a, cid_b, {"winner": str(a)}))             # b's credential
    ev.refused("REPORT-4", rep(a, "f" * 16, {"winner": str(a)}))          # never issued
    ev.refused("REPORT-5", rep(c, credential_id(token(c)), {"winner": str(c)}))  # not his
    ev.refused("REPORT-5", rep(a, cid_a, {"winner": str(a)}, tbl=99))
    ev.refused("REPORT-5", rep(a, cid_a, {"winner": str(a)}, rnd=2))
    for bad in ({}, {"winner": "x"}, {"winner": str(a), "draw": "yes"}, {"colour": "red"},
                {"winner": str(a), "games": "2-0-0-1"}):
        ev.refused("REPORT-7", rep(a, cid_a, bad))
    ev.write(lambda t, now: t.revoke_credential(cid_a, "lost", HJ, now))
    msg = ev.refused("REPORT-4", rep(a, cid_a, {"winner": str(a)}))
    assert "revoked" in msg
    assert other != table


def test_report_for_a_closed_round_explains(ev: Event) -> None:
    ev.pair()
    plugin = require_plugin(FMT)
    st = ev.state()
    for table in range(1, 5):
        players = plugin.entry.table_at(st, 1, table)[0]  # type: ignore[index]
        ev.write(ev.desk(table, {"winner": str(players[0])}))
    ev.issue(1)
    table = ev.table_of(1)[0]
    msg = ev.refused("REPORT-6", lambda t, now: t.report_result(
        1, table, 1, credential_id(token(1)), {"winner": "1"}, STATION, now))
    assert "desk" in msg or "judge" in msg


def test_audit_flags_forged_station_events(ev: Event, tmp_path: Path) -> None:
    table, a, b = _paired(ev)
    ev.report(a, {"winner": str(a)})
    ev.write(lambda t, now: t.revoke_credential(credential_id(token(b)), "lost", HJ, now))
    rows = ev.rows()
    clean = {c for c, _ in _codes(tmp_path, rows)}
    assert not clean & {"role_not_permitted", "rule_violation", "player_report_credential",
                        "player_report_wrong_table"}, clean
    c = next(n for n in range(1, 9) if n not in (a, b))
    cases: list[tuple[Any, Signer, str]] = [
        # a report by a revoked credential
        (ResultReported(round=1, table=table, number=b, credential=credential_id(token(b)),
                        given={"winner": str(b)}), STATION, "player_report_credential"),
        # a report for another table
        (ResultReported(round=1, table=table, number=c, credential=credential_id(token(a)),
                        given={"winner": str(c)}), STATION, "player_report_credential"),
        (ResultReported(round=1, table=table + 1, number=a,
                        credential=credential_id(token(a)), given={"winner": str(a)}),
         STATION, "player_report_wrong_table"),
        # a double tap recorded twice
        (ResultReported(round=1, table=table, number=a, credential=credential_id(token(a)),
                        given={"winner": str(a)}), STATION, "player_report_duplicate"),
        (ResultReported(round=1, table=table, number=a, credential=credential_id(token(a)),
                        given={"winner": "x"}), STATION, "player_report_invalid"),
        # a station signing kinds it may not; a judge signing a report
        (CredentialIssued(credential=token_sha256("q")[:16], token_sha256=token_sha256("q"),
                          number=c), STATION, "role_not_permitted"),
        (CredentialRevoked(credential=credential_id(token(a)), reason="x"), STATION,
         "role_not_permitted"),
        (ResultReported(round=1, table=table, number=a, credential=credential_id(token(a)),
                        given={"winner": str(b)}), JUDGE, "role_not_permitted"),
    ]
    for body, signer, code in cases:
        forged = [*rows, chained_next(rows, body, signer, LOG,
                                      time="2026-03-01T09:00:30.000000Z")]
        found = _codes(tmp_path, forged)
        assert (code, len(forged)) in found, (body, found)


def _cite(ev: Event, table: int, given: dict[str, str], seqs: list[int],
          signer: Signer) -> Callable[[Tournament, str], Any]:
    def fn(t: Tournament, now: str) -> Any:
        kw = parse_report(t.state, 1, table, given)[1]
        with citing_scope(seqs):
            return t.record_result(signer, now, **kw)
    return fn


def _seqs(ev: Event, table: int) -> list[int]:
    return sorted(r.seq for r in reports_of(ev.state(), 1, table).values())


def test_policy_is_on_the_wire_only_when_set() -> None:
    assert b"self_report" not in msgspec.json.encode(LedgerPolicy(witness_quorum=2))
    assert LedgerPolicy().self_reports is SelfReportPolicy.CONFIRM
    auto = LedgerPolicy(self_report_policy=SelfReportPolicy.AUTO)
    assert b'"self_report_policy":"auto"' in msgspec.json.encode(auto)
    assert auto.self_reports is SelfReportPolicy.AUTO and auto != LedgerPolicy()


def test_station_records_agreeing_reports_only_under_auto(tmp_path: Path) -> None:
    ev = AutoEvent(tmp_path / "a.db")
    table, a, b = _paired(ev)
    win = {"winner": str(a), "games": "1-0"}
    ev.report(a, win)
    one = _seqs(ev, table)
    ev.refused("REPORT-11", _cite(ev, table, win, one, STATION))          # one-sided
    ev.report(b, {"winner": str(b), "games": "0-1"})
    both = _seqs(ev, table)
    ev.refused("REPORT-11", _cite(ev, table, win, both, STATION))         # conflicting
    ev.report(b, win)
    both = _seqs(ev, table)
    ev.refused("REPORT-10", _cite(ev, table, win, [both[0], 1], STATION))  # not a report
    ev.refused("REPORT-11", _cite(ev, table, {"winner": str(b), "games": "0-1"}, both,
                                  STATION))                              # not what they say
    [res] = [e for e in ev.write(_cite(ev, table, win, both, STATION))
             if e.kind == "result_recorded"]
    assert res.body.reports == both and res.actor == STATION.key_id
    assert table_status(ev.state(), 1, table) is TableStatus.SETTLED


def test_confirm_policy_station_refused_desk_may_cite(ev: Event) -> None:
    table, a, b = _paired(ev)
    win = {"winner": str(a)}
    ev.report(a, win)
    ev.report(b, win)
    both = _seqs(ev, table)
    msg = ev.refused("REPORT-12", _cite(ev, table, win, both, STATION))
    assert "self_report_policy=auto" in msg
    other = ev.table_of(next(n for n in range(1, 9) if n not in (a, b)))[0]
    ev.refused("REPORT-10", _cite(ev, other, {"winner": str(ev.table_of(
        next(n for n in range(1, 9) if n not in (a, b)))[1][0])}, both, SCOREKEEPER))
    # the desk settles a one-sided or conflicting table citing what it settles, or none
    [res] = [e for e in ev.write(_cite(ev, table, {"winner": str(b)}, both, SCOREKEEPER))
             if e.kind == "result_recorded"]
    assert res.body.reports == both


def test_audit_flags_forged_station_results(tmp_path: Path) -> None:
    ev = AutoEvent(tmp_path / "a.db")
    table, a, b = _paired(ev)
    ev.report(a, {"winner": str(a)})
    ev.report(b, {"winner": str(a)})
    both = _seqs(ev, table)
    ev.write(_cite(ev, table, {"winner": str(a)}, both, STATION))
    rows = ev.rows()
    assert not {c for c, _ in _codes(tmp_path, rows)} & {
        "station_result_invalid", "result_citation_invalid", "role_not_permitted",
        "rule_violation", "result_mismatch"}
    good = open_leaf(rows[-1][1]).body
    assert good.reports == both                              # type: ignore[attr-defined]
    rows = rows[:-1]
    replace = msgspec.structs.replace
    for forged_body, code in (
            (replace(good, winner=b, losers=[a]), "station_result_invalid"),  # not the reports
            (replace(good, reports=both[:1]), "station_result_invalid"),      # one player
            (replace(good, reports=[both[0], 2]), "result_citation_invalid")):
        forged = [*rows, chained_next(rows, forged_body, STATION, LOG,
                                      time="2026-03-01T09:00:30.000000Z")]
        assert (code, len(forged)) in _codes(tmp_path, forged), forged_body


def test_wheel_of_time_reports_in_its_own_outcome_codes(tmp_path: Path) -> None:
    """The same core reads a Wheel of Time report (outcome codes, support amounts) through
    that format's vocabulary: nothing in the report path names a format."""
    ev = Event(tmp_path / "w.db", players=6, fmt="wot-classic")
    table, hero, villain = _paired(ev)
    kw = simulated_result(Revision.WOT_OLD, seed_from_material("reports"), "G1/T1", hero,
                          villain)
    given = {"outcome": kw["wot_outcome"]}
    if kw.get("winner") is not None:
        given["winner"] = str(kw["winner"])
    if kw.get("support"):
        given["support"] = ",".join(f"{p}={v}" for p, v in kw["support"].items())
    if kw.get("conceded_by") is not None:
        given["conceded_by"] = str(kw["conceded_by"])
    if kw.get("last_battle") is not None:
        given["last_battle"] = "yes" if kw["last_battle"] else "no"
    ev.report(hero, given)
    ev.report(villain, given)
    st = ev.state()
    assert table_status(st, 1, table) is TableStatus.MATCHING
    assert report_options(st, reports_of(st, 1, table)[hero]).startswith(
        f"--outcome {kw['wot_outcome']}")
    ev.refused("REPORT-7", lambda t, now: t.report_result(
        1, table, hero, credential_id(token(hero)), {"outcome": "Z9"}, STATION, now))
    ev.refused("REPORT-7", lambda t, now: t.report_result(
        1, table, hero, credential_id(token(hero)), {"games": "1-0"}, STATION, now))
    [res] = [e for e in ev.write(_cite(ev, table, given, _seqs(ev, table), SCOREKEEPER))
             if e.kind == "result_recorded"]
    assert res.body.reports == _seqs(ev, table)
    assert table_status(ev.state(), 1, table) is TableStatus.SETTLED
