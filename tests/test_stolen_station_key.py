"""Issue 27 item 1: a stolen station key defeats phone-held keys (undetected tamper).

Each defect has its test: forged leaves — signed with the real station key, correctly
chained — spliced onto a real SQLite log and audited (``audit.verify.verify_bundle``), and
the command side's refusal of the same act (the ledger's bytes unchanged).  Before the fix
the audit found nothing in any of them:

* a station binds a key of its own to a card whose phone already holds one, signs that
  player's report with it, reports for the opponent (no phone key) and records the agreed
  result (REPORT-18: ``device_key_rebound``);
* an older phone-signed report of the same table submitted again (REPORT-19:
  ``device_statement_replayed``);
* a station drops a player whose card has a phone key, with no phone signature (REPORT-20:
  ``player_act_device_sig``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest

from ledger.core.credentials import credential_id, token_sha256
from ledger.errors import RuleError
from ledger.formats.match.events import DropTiming, PlayerDropped
from ledger.wire.events import open_leaf
from ledger.wire.reports import DeviceKeyBound, ResultReported
from tests.conftest import HJ
from tests.helpers.cli_runner import raw_bytes
from tests.helpers.forgery import chained_next
from tests.helpers.phone_keys import _b64, _key
from tests.helpers.reporting import LOG, STATION, AutoEvent, Event, _codes, _paired, token

LATER = "2026-03-01T09:00:30.000000Z"


def _report_sig(key: Any, table: int, number: int, given: dict[str, str], use: int) -> str:
    from ledger.core.device_rules import report_statement

    return _b64(key, report_statement(LOG, 1, table, number, credential_id(token(number)),
                                      given, use))


def _report(ev: Event, key: Any, table: int, number: int, given: dict[str, str],
            use: int) -> Any:
    cid = credential_id(token(number))
    sig = _report_sig(key, table, number, given, use)
    return ev.write(lambda t, now: t.report_result(1, table, number, cid, given, STATION, now,
                                                   sig, use))


def _errors_at(tmp: Path, rows: list[tuple[int, bytes]]) -> set[tuple[str, int | None]]:
    return {(c, s) for c, s in _codes(tmp, rows) if c != "no_checkpoint"}


def _phone_bound(ev: Event, number: int, pub: str) -> None:
    cid = credential_id(token(number))
    ev.write(lambda t, now: t.bind_device_key(cid, number, pub, STATION, now))


# -- REPORT-18: a station rebinding a bound card ---------------------------------------------
def test_station_rebinding_a_bound_card_without_the_old_phone_is_flagged(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The issue's attack, whole: under ``self_report_policy=auto`` a station with a
    stolen key rebinds player a's card to its own key (no old phone's signature), reports
    for a with it, reports for b (no phone key) and records the agreed result.  Written
    by a station that skips the rules (a rogue one), audited: the rebinding is flagged."""
    from ledger.core import rules
    from usecases.results import agreed_result as _agreed

    ev = AutoEvent(tmp_path / "a.db")
    table, a, b = _paired(ev)
    phone, pub = _key(7)
    rogue, rogue_pub = _key(8)
    _phone_bound(ev, a, pub)
    assert not _errors_at(tmp_path, ev.rows())
    ca = credential_id(token(a))
    with monkeypatch.context() as m:        # the rogue station checks nothing
        m.setitem(rules._CHECKS, DeviceKeyBound, lambda *_a: None)
        rebind = ev.write(lambda t, now: t.bind_device_key(ca, a, rogue_pub, STATION, now))
    _report(ev, rogue, table, a, {"winner": str(b)}, 1)
    ev.report(b, {"winner": str(b)})
    result = ev.write(lambda t, now: _agreed(t, now, STATION, 1, table))
    assert result and result[0].body.winner == b
    found = _errors_at(tmp_path, ev.rows())
    assert ("device_key_rebound", rebind.seq) in found, found
    # the command side refuses the rebinding itself; nothing is written
    ev2 = Event(tmp_path / "r.db")
    table, a, b = _paired(ev2)
    _phone_bound(ev2, a, pub)
    msg = ev2.refused("REPORT-18", lambda t, now: t.bind_device_key(
        credential_id(token(a)), a, rogue_pub, STATION, now))
    assert "head judge re-issues the card" in msg


def test_a_forged_rebinding_leaf_spliced_onto_a_real_log_is_flagged(tmp_path: Path) -> None:
    ev = Event(tmp_path / "r.db")
    table, a, b = _paired(ev)
    phone, pub = _key(7)
    _rogue, rogue_pub = _key(8)
    _phone_bound(ev, a, pub)
    rows = ev.rows()
    ca = credential_id(token(a))
    cases: list[tuple[Any, str]] = [
        (DeviceKeyBound(credential=ca, number=a, public_key=rogue_pub), "device_key_rebound"),
        # a signature by the rogue key itself, or of another statement, is no handover
        (DeviceKeyBound(credential=ca, number=a, public_key=rogue_pub, device_use=1,
                        device_sig=_b64(_rogue, _bind(a, rogue_pub, 1))),
         "device_key_rebound"),
        (DeviceKeyBound(credential=ca, number=a, public_key=rogue_pub, device_use=1,
                        device_sig=_report_sig(phone, table, a, {"winner": str(a)}, 1)),
         "device_key_rebound"),
    ]
    for body, code in cases:
        forged = [*rows, chained_next(rows, body, STATION, LOG, time=LATER)]
        assert (code, len(forged)) in _codes(tmp_path, forged), body
    # the old phone's own signature of the handover is a valid rebinding
    ok = DeviceKeyBound(credential=ca, number=a, public_key=rogue_pub, device_use=1,
                        device_sig=_b64(phone, _bind(a, rogue_pub, 1)))
    spliced = [*rows, chained_next(rows, ok, STATION, LOG, time=LATER)]
    assert not {c for c, s in _codes(tmp_path, spliced) if s == len(spliced)}


def _bind(number: int, public_key: str, use: int) -> bytes:
    from ledger.core.device_rules import bind_statement

    return bind_statement(LOG, number, credential_id(token(number)), public_key, use)


def test_a_card_moves_to_a_new_phone_only_with_the_old_phone_or_a_reissue(
        tmp_path: Path) -> None:
    """Command side: the old phone signs the new key over (REPORT-18), after which only the
    new phone signs, its act numbers continuing; or the head judge re-issues the card (a
    new credential with no key), which any first binding may take."""
    ev = Event(tmp_path / "r.db")
    table, a, b = _paired(ev)
    old, pub = _key(7)
    new, new_pub = _key(8)
    ca = credential_id(token(a))
    _phone_bound(ev, a, pub)
    _report(ev, old, table, a, {"winner": str(b)}, 1)
    # a first binding carries no signature; a replacing one needs the old key's (REPORT-18)
    ev.refused("REPORT-18", lambda t, now: t.bind_device_key(
        ca, a, new_pub, STATION, now, _b64(new, _bind(a, new_pub, 2)), 2))
    moved = ev.write(lambda t, now: t.bind_device_key(
        ca, a, new_pub, STATION, now, _b64(old, _bind(a, new_pub, 2)), 2))
    assert b'"device_use":2' in moved.leaf
    ev.refused("REPORT-17", lambda t, now: t.report_result(
        1, table, a, ca, {"winner": str(a)}, STATION, now,
        _report_sig(old, table, a, {"winner": str(a)}, 3), 3))
    _report(ev, new, table, a, {"winner": str(a)}, 3)
    # the phone is lost: the head judge re-issues the card; the new card binds afresh
    ev.write(lambda t, now: t.revoke_credential(ca, "phone lost", HJ, now))
    fresh = "f" * 32
    cid = ev.issue(a, fresh)
    third, third_pub = _key(9)
    ev.write(lambda t, now: t.bind_device_key(cid, a, third_pub, STATION, now))
    assert ev.state().reports.devices[cid] == third_pub
    assert not _errors_at(tmp_path, ev.rows())


# -- REPORT-19: a phone's statement is good for one act ----------------------------------------
def test_a_replayed_phone_signed_report_is_flagged(tmp_path: Path) -> None:
    """Player a reports b's win from their phone, then corrects it to their own win; a
    station submits the first signed report again (its valid signature, its spent act
    number) to make b the winner once more."""
    ev = Event(tmp_path / "r.db")
    table, a, b = _paired(ev)
    phone, pub = _key(7)
    _phone_bound(ev, a, pub)
    first = _report(ev, phone, table, a, {"winner": str(b)}, 1)
    _report(ev, phone, table, a, {"winner": str(a)}, 2)
    rows = ev.rows()
    assert not _errors_at(tmp_path, rows)
    replay = open_leaf(first.leaf).body
    assert isinstance(replay, ResultReported) and replay.device_use == 1
    forged = [*rows, chained_next(rows, replay, STATION, LOG, time=LATER)]
    assert _errors_at(tmp_path, forged) == {("device_statement_replayed", len(forged))}
    # a statement whose act number is not in its signature: the signature fails
    bumped = msgspec.structs.replace(replay, device_use=3)
    forged = [*rows, chained_next(rows, bumped, STATION, LOG, time=LATER)]
    assert ("player_report_device_sig", len(forged)) in _codes(tmp_path, forged)
    # the command side refuses the replay; nothing is written
    sig = replay.device_sig
    assert isinstance(sig, str)
    msg = ev.refused("REPORT-19", lambda t, now: t.report_result(
        1, table, a, credential_id(token(a)), {"winner": str(b)}, STATION, now, sig, 1))
    assert "next act is 3" in msg


def test_an_unsigned_report_of_a_bound_card_asks_for_the_statement_to_sign(
        tmp_path: Path) -> None:
    """The refusal of a bound card's unsigned act names the very statement the rule
    checks, with the card's next act number (what the server hands the phone)."""
    from ledger.core.device_rules import PhoneSignatureNeeded, report_statement

    ev = Event(tmp_path / "r.db")
    table, a, b = _paired(ev)
    phone, pub = _key(7)
    _phone_bound(ev, a, pub)
    ca = credential_id(token(a))
    before = raw_bytes(Path(ev.loc.text))
    with pytest.raises(PhoneSignatureNeeded) as err:
        ev.write(lambda t, now: t.report_result(1, table, a, ca, {"winner": str(a)},
                                                STATION, now))
    assert err.value.rule == "REPORT-17" and err.value.use == 1
    assert err.value.statement == report_statement(LOG, 1, table, a, ca, {"winner": str(a)},
                                                   1)
    assert raw_bytes(Path(ev.loc.text)) == before


# -- REPORT-20: a bound card's drop carries its phone's signature ------------------------------
def _drop_statement(number: int, use: int) -> bytes:
    from ledger.core.device_rules import act_statement

    return act_statement(LOG, "player_dropped", number, credential_id(token(number)), use)


def test_a_bound_cards_unsigned_drop_is_flagged(tmp_path: Path) -> None:
    ev = Event(tmp_path / "r.db")
    table, a, b = _paired(ev)
    phone, pub = _key(7)
    _phone_bound(ev, a, pub)
    ev.write(ev.desk(table, {"winner": str(b)}))
    rows = ev.rows()
    assert not _errors_at(tmp_path, rows)
    ca, cb = credential_id(token(a)), credential_id(token(b))
    drop = PlayerDropped(number=a, round=1, timing=DropTiming.AFTER_RESULT, credential=ca)
    cases: list[tuple[Any, str]] = [
        (drop, "player_act_device_sig"),                         # no phone signature
        (msgspec.structs.replace(drop, device_sig=_b64(_key(8)[0], _drop_statement(a, 1)),
                                 device_use=1), "player_act_device_sig"),   # another key
        (msgspec.structs.replace(drop, device_sig=_report_sig(
            phone, table, a, {"winner": str(a)}, 1), device_use=1),
         "player_act_device_sig"),                               # a report's statement
        # an unbound card's drop carries no signature
        (PlayerDropped(number=b, round=1, timing=DropTiming.AFTER_RESULT, credential=cb,
                       device_sig=_b64(phone, _drop_statement(b, 1)), device_use=1),
         "player_act_device_sig"),
    ]
    for body, code in cases:
        forged = [*rows, chained_next(rows, body, STATION, LOG, time=LATER)]
        assert (code, len(forged)) in _codes(tmp_path, forged), body
    signed = msgspec.structs.replace(drop, device_sig=_b64(phone, _drop_statement(a, 1)),
                                     device_use=1)
    ok = [*rows, chained_next(rows, signed, STATION, LOG, time=LATER)]
    assert not {c for c, s in _codes(tmp_path, ok) if s == len(ok)}


def test_a_bound_card_drops_only_with_its_phones_fresh_signature(tmp_path: Path) -> None:
    """Command side (``own_drop``, what the server's /drop runs): unsigned, the refusal
    carries the drop's statement; signed, the drop names the card and the act number; a
    drop statement used again is refused (REPORT-19); nothing is written when refused."""
    from ledger.core.device_rules import PhoneSignatureNeeded
    from usecases.reports import own_drop

    ev = Event(tmp_path / "r.db")
    table, a, b = _paired(ev)
    phone, pub = _key(7)
    ca = credential_id(token(a))
    _phone_bound(ev, a, pub)
    _report(ev, phone, table, a, {"winner": str(b)}, 1)
    ev.write(ev.desk(table, {"winner": str(b)}))
    before = raw_bytes(Path(ev.loc.text))
    with pytest.raises(PhoneSignatureNeeded) as err:
        ev.write(lambda t, now: own_drop(t, STATION, now, a, ca))
    assert err.value.rule == "REPORT-20" and err.value.statement == _drop_statement(a, 2)
    assert raw_bytes(Path(ev.loc.text)) == before
    stale = _b64(phone, _drop_statement(a, 1))     # a statement naming a spent act
    with pytest.raises(RuleError) as refused:
        ev.write(lambda t, now: own_drop(t, STATION, now, a, ca, stale, 1))
    assert refused.value.rule == "REPORT-19"
    assert raw_bytes(Path(ev.loc.text)) == before
    sig = _b64(phone, _drop_statement(a, 2))
    events = ev.write(lambda t, now: own_drop(t, STATION, now, a, ca, sig, 2))
    assert events[0].body.device_sig == sig and events[0].body.device_use == 2
    assert ev.state().reports.device_uses[ca] == 2
    assert not _errors_at(tmp_path, ev.rows())


def test_unbound_acts_keep_their_bytes(tmp_path: Path) -> None:
    """An unbound card's report and drop carry no phone fields (their bytes as before)."""
    from usecases.reports import own_drop

    ev = Event(tmp_path / "r.db")
    table, a, b = _paired(ev)
    rep = ev.report(a, {"winner": str(a)})
    assert b'"device_' not in rep.leaf
    ev.write(ev.desk(table, {"winner": str(a)}))
    drop = ev.write(lambda t, now: own_drop(t, STATION, now, b, credential_id(token(b))))
    assert b'"device_' not in drop[0].leaf
    assert token_sha256(token(a))[:16] == credential_id(token(a))
