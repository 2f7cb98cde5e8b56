"""Issue 19: rejecting a report (REPORT-14), a player's own drop with their credential
(REPORT-15) and staff decisions (``usecases.reports``), on real SQLite ledgers
with real signatures; refusals leave the ledger's bytes unchanged; the audit flags forged
station events of both kinds.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ledger.core.credentials import credential_id
from ledger.core.reports import TableStatus, reports_of, table_status
from ledger.formats.match.events import DropTiming, PlayerDropped
from ledger.wire.events import open_leaf
from ledger.wire.reports import ReportRejected
from tests.conftest import HJ, JUDGE, SCOREKEEPER
from tests.helpers.forgery import chained_next
from tests.helpers.reporting import STATION, Event, _codes, _paired, token
from usecases.reports import (
    accept_matching,
    own_drop,
    own_drop_refusal,
    record_report,
    reject_report,
)


def test_reject_sets_a_report_aside_and_the_player_reports_again(tmp_path: Path) -> None:
    ev = Event(tmp_path / "r.db")
    table, a, b = _paired(ev)
    first = ev.report(a, {"winner": str(b)})           # a wrong report
    ev.report(b, {"winner": str(a)})
    assert table_status(ev.state(), 1, table) is TableStatus.CONFLICTING
    # REPORT-14: a reason is required; only the current report; nothing written
    ev.refused("REPORT-14", lambda t, now: reject_report(t, SCOREKEEPER, now, 1, a, " "))
    ev.refused("REPORT-14", lambda t, now: t.reject_report(1, table, a, first.seq + 99,
                                                           "no", SCOREKEEPER, now))
    ev.refused("RULES-1.3", lambda t, now: reject_report(t, STATION, now, 1, a, "why"))
    rej = ev.write(lambda t, now: reject_report(t, JUDGE, now, 1, a, "wrong winner"))
    assert rej.kind == "report_rejected" and rej.body.report == first.seq
    assert table_status(ev.state(), 1, table) is TableStatus.ONE_SIDED
    assert a not in reports_of(ev.state(), 1, table)
    # the same report again is no duplicate now (REPORT-8 compares to the current one)
    ev.report(a, {"winner": str(b)})
    assert table_status(ev.state(), 1, table) is TableStatus.CONFLICTING


def test_staff_records_one_report_citing_all_and_accepts_matching(tmp_path: Path) -> None:
    ev = Event(tmp_path / "r.db")
    table, a, b = _paired(ev)
    ra = ev.report(a, {"winner": str(a)})
    rb = ev.report(b, {"winner": str(b)})
    events = ev.write(lambda t, now: record_report(t, SCOREKEEPER, now, 1, table, rb.seq))
    assert events[0].body.reports == [ra.seq, rb.seq] and events[0].body.winner == b
    assert table_status(ev.state(), 1, table) is TableStatus.SETTLED
    # a table with matching reports; accept_matching records only those (REPORT-13)
    c = next(n for n in range(1, 9) if n not in (a, b))
    t2, (c, d) = ev.table_of(c)
    ev.issue(c)
    ev.issue(d)
    ev.report(c, {"winner": str(c)})
    ev.report(d, {"winner": str(c)})
    out, tables = ev.write(lambda t, now: accept_matching(t, SCOREKEEPER, now, 1, None))
    assert tables == [t2] and out[0].body.winner == c
    ev.refused("REPORT-13", lambda t, now: accept_matching(t, SCOREKEEPER, now, 1, None))


def test_own_drop_only_with_own_live_credential_and_no_open_match(tmp_path: Path) -> None:
    ev = Event(tmp_path / "r.db")
    table, a, b = _paired(ev)
    cid = credential_id(token(a))
    assert "report it first" in (own_drop_refusal(ev.state(), a) or "")
    ev.refused("REPORT-15", lambda t, now: own_drop(t, STATION, now, a, cid))
    ev.write(ev.desk(table, {"winner": str(b)}))
    # another player's credential; a revoked one
    ev.refused("REPORT-15", lambda t, now: own_drop(t, STATION, now, b, cid))
    events = ev.write(lambda t, now: own_drop(t, STATION, now, a, cid))
    assert [e.kind for e in events] == ["player_dropped"]
    assert events[0].body.credential == cid and events[0].actor == STATION.key_id
    assert b'"credential":"' + cid.encode() in events[0].leaf
    # a desk drop carries no credential on the wire (its bytes as before)
    ev.write(lambda t, now: t.revoke_credential(credential_id(token(b)), "lost", HJ, now))
    ev.refused("REPORT-15", lambda t, now: own_drop(t, STATION, now, b,
                                                    credential_id(token(b))))
    desk = ev.write(lambda t, now: t.drop_player(SCOREKEEPER, now, b))
    assert b'"credential"' not in desk[0].leaf


def test_audit_flags_forged_rejections_and_own_drops(tmp_path: Path) -> None:
    ev = Event(tmp_path / "r.db")
    table, a, b = _paired(ev)
    ra = ev.report(a, {"winner": str(a)})
    ev.write(ev.desk(table, {"winner": str(a)}))
    rows = ev.rows()
    assert not {c for c, _ in _codes(tmp_path, rows)} & {
        "report_rejection_invalid", "player_act_credential", "role_not_permitted"}
    ca, cb = credential_id(token(a)), credential_id(token(b))
    cases = [
        # a rejection of a settled table's report; of a report that is not current
        (ReportRejected(round=1, table=table, number=a, report=ra.seq, reason="x"),
         SCOREKEEPER, "report_rejection_invalid"),
        (ReportRejected(round=1, table=table, number=b, report=ra.seq, reason="x"),
         SCOREKEEPER, "report_rejection_invalid"),
        (ReportRejected(round=1, table=table, number=a, report=ra.seq, reason="x"),
         STATION, "role_not_permitted"),
        # a station drop with another player's credential; without any credential
        (PlayerDropped(number=a, round=1, timing=DropTiming.AFTER_RESULT, credential=cb),
         STATION, "player_act_credential"),
        (PlayerDropped(number=a, round=1, timing=DropTiming.AFTER_RESULT), STATION,
         "role_not_permitted"),
    ]
    for body, signer, code in cases:
        forged = [*rows, chained_next(rows, body, signer, "rp",
                                      time="2026-03-01T09:00:30.000000Z")]
        found = _codes(tmp_path, forged)
        assert (code, len(forged)) in found, (body, found)
    ok = [*rows, chained_next(rows, PlayerDropped(number=a, round=1,
                                                  timing=DropTiming.AFTER_RESULT,
                                                  credential=ca), STATION, "rp",
                              time="2026-03-01T09:00:30.000000Z")]
    assert open_leaf(ok[-1][1]).body.credential == ca
    assert not {c for c, s in _codes(tmp_path, ok) if s == len(ok)}


def test_the_station_closes_the_round_its_last_agreed_result_completes(
        tmp_path: Path) -> None:
    """Under ``self_report_policy=auto`` the station's result of the round's last table
    also closes the round (the format's ``round_closed``, fully derived: REPORT-9 lets a
    station sign the format's ``derived_kinds``); the audit re-derives it."""
    from ledger.core.reports import queue
    from tests.helpers.reporting import AutoEvent
    from usecases.results import agreed_result as _agreed

    ev = AutoEvent(tmp_path / "a.db")
    ev.pair()
    rows = queue(ev.state(), 1)
    for r in rows:
        for n in r.players:
            ev.issue(n)
            ev.report(n, {"winner": str(r.players[0])})
        ev.write(lambda t, now, r=r: _agreed(t, now, STATION, 1, r.table))
    kinds = [open_leaf(leaf).kind for _v, leaf in ev.rows()]
    assert kinds.count("result_recorded") == len(rows) and kinds[-1] == "round_closed"
    assert open_leaf(ev.rows()[-1][1]).actor == STATION.key_id
    assert not {c for c, _ in _codes(tmp_path, ev.rows())} - {"no_checkpoint"}


# -- a phone-held key (REPORT-16/17) --------------------------------------------------------
def _phone_key() -> tuple[Any, str]:
    import base64

    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from ledger.wire.keys import public_raw

    k = Ed25519PrivateKey.from_private_bytes(bytes([7]) * 32)   # fixed: a test phone
    return k, base64.b64encode(public_raw(k.public_key())).decode()


def _sig(key: Any, ev: Event, table: int, number: int, given: dict[str, str],
         use: int = 1) -> str:
    import base64

    from ledger.core.report_rules import report_statement

    msg = report_statement("rp", 1, table, number, credential_id(token(number)), given, use)
    return base64.b64encode(key.sign(msg)).decode()


def test_a_bound_phone_key_signs_every_report_of_its_card(tmp_path: Path) -> None:
    from ledger.core.report_rules import report_statement

    ev = Event(tmp_path / "r.db")
    table, a, b = _paired(ev)
    key, pub = _phone_key()
    ca = credential_id(token(a))
    assert report_statement("rp", 1, table, a, ca, {"winner": "3", "games": "2-1"}, 4) == (
        f"tourney-report/v2\nrp\n{ca}\n{a}\n4\n1\n{table}\ngames=2-1\nwinner=3\n").encode()
    # REPORT-16: the card's own holder, a real key, not another card's key
    ev.refused("REPORT-16", lambda t, now: t.bind_device_key(ca, b, pub, STATION, now))
    ev.refused("REPORT-16", lambda t, now: t.bind_device_key(ca, a, "AAAA", STATION, now))
    ev.refused("RULES-1.3", lambda t, now: t.bind_device_key(ca, a, pub, SCOREKEEPER, now))
    # a signature without a bound key is refused too (REPORT-17)
    given = {"winner": str(a)}
    ev.refused("REPORT-17", lambda t, now: t.report_result(
        1, table, a, ca, given, STATION, now, _sig(key, ev, table, a, given), 1))
    ev.write(lambda t, now: t.bind_device_key(ca, a, pub, STATION, now))
    ev.refused("REPORT-16", lambda t, now: t.bind_device_key(
        credential_id(token(b)), b, pub, STATION, now))
    # REPORT-17: bound, so unsigned, wrongly signed or altered reports are refused
    ev.refused("REPORT-17", lambda t, now: t.report_result(1, table, a, ca, given, STATION,
                                                           now))
    ev.refused("REPORT-17", lambda t, now: t.report_result(
        1, table, a, ca, given, STATION, now, _sig(key, ev, table, a, {"winner": str(b)}), 1))
    rep = ev.write(lambda t, now: t.report_result(1, table, a, ca, given, STATION, now,
                                                  _sig(key, ev, table, a, given), 1))
    assert b'"device_sig":"' in rep.leaf
    # a report of a card with no phone key carries no signature field at all
    other = ev.report(b, {"winner": str(a)})
    assert b'"device_sig"' not in other.leaf
    assert not {c for c, _ in _codes(tmp_path, ev.rows())} - {"no_checkpoint"}


def test_audit_flags_reports_without_the_phones_signature(tmp_path: Path) -> None:
    from ledger.wire.reports import DeviceKeyBound, ResultReported

    ev = Event(tmp_path / "r.db")
    table, a, b = _paired(ev)
    key, pub = _phone_key()
    ca, cb = credential_id(token(a)), credential_id(token(b))
    ev.write(lambda t, now: t.bind_device_key(ca, a, pub, STATION, now))
    rows = ev.rows()
    given = {"winner": str(a)}
    cases = [
        (ResultReported(round=1, table=table, number=a, credential=ca, given=given), STATION,
         "player_report_device_sig"),
        (ResultReported(round=1, table=table, number=a, credential=ca, given=given,
                        device_sig=_sig(key, ev, table, a, {"winner": str(b)}),
                        device_use=1), STATION,
         "player_report_device_sig"),
        (DeviceKeyBound(credential=cb, number=b, public_key=pub), STATION,
         "device_key_invalid"),
        (DeviceKeyBound(credential=cb, number=b, public_key="x"), STATION,
         "device_key_invalid"),
        (DeviceKeyBound(credential=cb, number=b, public_key=pub), JUDGE, "role_not_permitted"),
    ]
    for body, signer, code in cases:
        forged = [*rows, chained_next(rows, body, signer, "rp",
                                      time="2026-03-01T09:00:30.000000Z")]
        assert (code, len(forged)) in _codes(tmp_path, forged), body
