"""Judge calls on the live server (issue 30), over HTTP as a phone with JavaScript off
sends them: a player calls a judge from their card (signed by the station as their own
act), a repeated tap writes nothing, the staff page shows the queue and a judge claims,
closes and confirms the extension the record proposes; the player's call page shows
"a judge is coming", then the outcome and the extra time.  A real server on loopback over
a ledger the real CLI writes; the station's clock is fixed, 100 s a reading."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from tests.helpers.calls import calls_event, slow_station_clock
from tests.helpers.live import ledger_bytes, running, wait_until
from tests.helpers.phone_keys import signed_form
from tests.helpers.reporting_phones import _phone
from tests.helpers.staff import _csrf


def test_a_player_calls_a_judge_who_claims_closes_and_extends(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cli, doc, tokens, staff = calls_event(tmp_path)
    slow_station_clock(monkeypatch)
    t1 = doc["tables"][0]  # type: ignore[index]
    a, _b = t1["players"]
    with running(cli.ledger, station_key=tmp_path / "station.pem",
                 staff_keys=(tmp_path / "judge.pem",)) as (base, hub):
        phone = _phone(base, tokens[a])
        assert "Call a judge" in phone.get(f"/p/{a}").text
        form = phone.get("/call")
        assert form.status_code == 200 and 'action="/call"' in form.text
        r = phone.post("/call", data={"csrf": _csrf(form.text), "note": "rules question"},
                       headers={"Origin": base})
        assert r.status_code == 303
        page = phone.get(r.headers["location"]).text
        assert "A judge is coming" in page and f"table {t1['table']}" in page
        opened_seq = int(r.headers["location"].split("done=")[1])
        assert phone.get(f"/receipt/{opened_seq}").status_code == 200  # the player's act
        # a second tap: the call stands, nothing is written
        before = ledger_bytes(cli.ledger)
        again = phone.post("/call", data={"csrf": _csrf(form.text)},
                           headers={"Origin": base})
        assert again.status_code == 303 and ledger_bytes(cli.ledger) == before
        # too many taps in a minute: 429, nothing written
        codes = [phone.post("/call", data={"csrf": _csrf(form.text)},
                            headers={"Origin": base}).status_code for _ in range(5)]
        assert codes[-1] == 429 and ledger_bytes(cli.ledger) == before
        # staff: the queue, claim, close, confirm
        desk = httpx.Client(base_url=base)
        assert desk.get(f"/c/{staff}").status_code == 303
        sp = desk.get("/staff").text
        assert "Judge calls" in sp and "rules question" in sp and "waiting" in sp
        call = int(sp.split('name="call" value="')[1].split('"')[0])
        r = desk.post("/staff/calls/claim", data={"csrf": _csrf(sp), "call": str(call)},
                      headers={"Origin": base})
        assert r.status_code == 303, r.text
        wait_until(lambda: hub.follower.state.calls.calls[call].claimed_seq is not None, 5)
        assert "has your call" in phone.get("/call").text
        sp = desk.get("/staff").text
        r = desk.post("/staff/calls/close", data={"csrf": _csrf(sp), "call": str(call),
                                                  "outcome": "X resolves first"},
                      headers={"Origin": base})
        assert r.status_code == 303, r.text
        wait_until(lambda: hub.follower.state.calls.calls[call].closed_seq is not None, 5)
        c = hub.follower.state.calls.calls[call]
        assert c.outcome == "X resolves first"
        sp = desk.get("/staff").text
        assert "Extensions to confirm" in sp and "+2 min" in sp, sp
        r = desk.post("/staff/calls/extend", data={"csrf": _csrf(sp), "call": str(call),
                                                   "minutes": "2"},
                      headers={"Origin": base})
        assert r.status_code == 303, r.text
        wait_until(lambda: call in hub.follower.state.calls.extended, 5)
        mine = phone.get("/call").text
        assert "X resolves first" in mine and "+2 minutes" in mine
        # the player's page and the table's clock show the table's own extra time
        wait_until(lambda: "2 extra minutes" in phone.get(f"/p/{a}").text, 10)
        # a judge opens a call at another table from the staff page
        sp = desk.get("/staff").text
        t2 = doc["tables"][1]["table"]  # type: ignore[index]
        r = desk.post("/staff/calls/open", data={"csrf": _csrf(sp), "table": str(t2),
                                                 "note": "judge's own call"},
                      headers={"Origin": base})
        assert r.status_code == 303, r.text
        wait_until(lambda: f"1/{t2}" in hub.follower.state.calls.open_at, 5)
        # a player's card cannot claim a call
        refused = phone.post("/staff/calls/claim", data={"csrf": _csrf(form.text),
                                                         "call": str(call)},
                             headers={"Origin": base})
        assert refused.status_code == 403
    events = [leaf["event"] for leaf in cli("log", "--json").doc]
    opened = [e for e in events if e["kind"] == "call_opened"]
    assert len(opened) == 2 and opened[0]["body"]["number"] == a
    assert "number" not in opened[1]["body"] and "credential" not in opened[1]["body"]
    assert opened[0]["body"]["credential"]
    ext = [e for e in events if e["kind"] == "time_extended"]
    assert ext[0]["body"]["call"] == call and ext[0]["body"]["proposed"] == 2
    cli("audit", "verify", str(cli.ledger))


def test_a_card_with_a_phone_key_calls_only_with_that_phone_s_signature(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """REPORT-20 holds for a judge call as for a drop: the station alone cannot open a call
    in the name of a card whose phone holds a key; the phone's signature of the statement
    the rule names records it (``report.js`` does this in the browser)."""
    import base64

    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from ledger.wire.keys import public_raw

    cli, doc, tokens, _staff = calls_event(tmp_path)
    slow_station_clock(monkeypatch)
    a = doc["tables"][0]["players"][0]  # type: ignore[index]
    key = Ed25519PrivateKey.from_private_bytes(bytes([9]) * 32)
    pub = base64.b64encode(public_raw(key.public_key())).decode()
    with running(cli.ledger, station_key=tmp_path / "station.pem") as (base, hub):
        phone = _phone(base, tokens[a])
        bound = phone.post("/bind", data={"csrf": _csrf(phone.get("/report").text),
                                          "public_key": pub}, headers={"Origin": base})
        assert bound.status_code == 303
        wait_until(lambda: bool(hub.follower.state.reports.devices), 10)
        before = ledger_bytes(cli.ledger)
        step = phone.post("/call", data={"csrf": _csrf(phone.get("/call").text)},
                          headers={"Origin": base})
        assert step.status_code == 200 and 'id="sign"' in step.text
        assert "judge call is signed" in step.text
        assert ledger_bytes(cli.ledger) == before            # nothing without the phone
        form = signed_form(step, key)
        done = phone.post("/call", data=form, headers={"Origin": base})
        assert done.status_code == 303, done.text
        wait_until(lambda: bool(hub.follower.state.calls.open_at), 10)
    opened = [leaf["event"] for leaf in cli("log", "--json").doc
              if leaf["event"]["kind"] == "call_opened"]
    assert opened[0]["body"]["device_sig"] == form["device_sig"]
    cli("audit", "verify", str(cli.ledger))
