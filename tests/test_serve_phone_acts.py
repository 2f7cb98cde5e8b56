"""Issue 27 item 1 on the live server: a card whose phone holds a key reports and drops
only with that phone's signature of a one-use statement the rule names, another phone
cannot rebind the card, and every player's page lists each act recorded with their card
with its receipt code.  A real server with a station key on loopback over a ledger the
real CLI writes; the phone's key is a fixed Ed25519 key standing for the browser's (the
browser itself signs in ``test_serve_browser::test_a_phone_held_key_signs_the_players_reports``).
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.helpers.cli_runner import CLOCK
from tests.helpers.live import ledger_bytes, running, wait_until
from tests.helpers.phone_keys import sign_and_send
from tests.helpers.reporting_phones import _phone, _post, reporting_event


@pytest.fixture(autouse=True)
def _same_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOURNEY_FIXED_CLOCK", CLOCK)


def _key(seed: int) -> tuple[Any, str]:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from ledger.wire.keys import public_raw

    k = Ed25519PrivateKey.from_private_bytes(bytes([seed]) * 32)
    return k, base64.b64encode(public_raw(k.public_key())).decode()


def _csrf(text: str) -> str:
    m = re.search(r'name="csrf" value="([0-9a-f]+)"', text)
    assert m is not None, text
    return m.group(1)


def _bind(phone: httpx.Client, base: str, pub: str) -> httpx.Response:
    csrf = _csrf(phone.get("/report").text)
    return phone.post("/bind", data={"csrf": csrf, "public_key": pub},
                      headers={"Origin": base})


def test_a_bound_card_reports_and_drops_with_its_phone_and_its_page_lists_every_act(
        tmp_path: Path) -> None:
    cli, doc, tokens = reporting_event(tmp_path)
    t = doc["tables"][0]  # type: ignore[index]
    a, b = t["players"]
    key, pub = _key(7)
    _rogue, rogue_pub = _key(8)
    with running(cli.ledger, station_key=tmp_path / "station.pem") as (base, hub):
        pa = _phone(base, tokens[a])
        assert _bind(pa, base, pub).status_code == 303
        wait_until(lambda: bool(hub.follower.state.reports.devices), 15)
        # another phone with the same card cannot hand it to its own key (REPORT-18)
        before = ledger_bytes(cli.ledger)
        other = _phone(base, tokens[a])
        refused = _bind(other, base, rogue_pub)
        assert refused.status_code == 422 and "only that phone can hand it over" in refused.text
        assert ledger_bytes(cli.ledger) == before
        # a report: the server asks the phone to sign the rule's statement (act 1)
        signing = _post(pa, base, a)
        assert "tourney-report/v2" in signing.text and ledger_bytes(cli.ledger) == before
        sent = sign_and_send(pa, base, signing, key, "/report")
        assert sent.status_code == 303, sent.text
        rep = int(sent.headers["location"].rsplit("/", 1)[1])
        body = json.loads(pa.get(f"/receipt/{rep}.json").json()["leaf"])["event"]["body"]
        assert body["device_use"] == 1 and len(body["device_sig"]) == 88
        # the same signed form posted again is a replay: refused, nothing written
        wait_until(lambda: hub.data.checkable.size >= rep, 15)
        before = ledger_bytes(cli.ledger)
        again = sign_and_send(pa, base, signing, key, "/report")
        assert again.status_code == 422 and "already used" in again.text
        assert ledger_bytes(cli.ledger) == before
        pb = _phone(base, tokens[b])
        assert _post(pb, base, a).status_code == 303
        cli("report", "accept", "--table", str(t["table"]), "--key", "sk.pem")
        wait_until(lambda: f"#{a} wins" in httpx.get(base + "/pairings").text, 15)
        # a drop: the phone signs the drop's statement (act 2)
        csrf = _csrf(pa.get("/drop").text)
        signing = pa.post("/drop", data={"csrf": csrf, "confirm": "yes"},
                          headers={"Origin": base})
        assert "tourney-act/v1" in signing.text and "player_dropped" in signing.text
        dropped = sign_and_send(pa, base, signing, key, "/drop")
        assert dropped.status_code == 303, dropped.text
        drop = int(dropped.headers["location"].rsplit("/", 1)[1])
        wait_until(lambda: hub.data.checkable.size >= drop, 15)
        # the player's page lists each act recorded with the card, with its receipt code
        page = httpx.get(f"{base}/p/{a}").text
        for seq in (rep, drop):
            code = pa.get(f"/receipt/{seq}").text
            m = re.search(r"R\d+-[0-9a-f]{16}", code)
            assert m is not None and m.group(0) in page, (seq, page)
        assert page.count("signed by the card&#39;s phone") == 2
        assert "phone key bound" in page
        assert "signed by the live server alone" in httpx.get(f"{base}/p/{b}").text
    cli("audit", "verify", str(cli.ledger))


def test_a_phone_held_key_signs_the_players_drop_in_a_real_browser(
        tmp_path: Path) -> None:
    """Headless chromium on the machine itself (a secure page): the phone binds its
    WebCrypto key, reports twice (acts 1 and 2: each statement signed once), drops (act
    3, the drop's statement) and its player's page lists the four acts with their codes;
    the audit verifies every signature and act number."""
    from tests.helpers.browser import ARGS, CHROMIUM, PHONE, _fits, _shot, _skip_reason

    if _skip_reason() is not None:
        pytest.skip(_skip_reason() or "")
    from playwright.sync_api import sync_playwright

    cli, doc, tokens = reporting_event(tmp_path)
    t = doc["tables"][0]  # type: ignore[index]
    a, b = t["players"]
    with running(cli.ledger, station_key=tmp_path / "station.pem") as (base, hub), \
            sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        phone = browser.new_context(viewport=PHONE).new_page()
        phone.goto(f"{base}/c/{tokens[a]}")
        phone.goto(base + "/report")
        phone.click("#bind button")
        phone.wait_for_selector("text=Your reports are signed by the key")
        for winner in (b, a):                       # a report, then a corrected one
            phone.goto(base + "/report")
            box = phone.locator("fieldset", has_text="One of us won").first
            box.locator("input[type=radio]").check()
            box.locator("select[name$=\".winner\"]").select_option(str(winner))
            phone.click("button[type=submit]")
            phone.wait_for_url(re.compile(r".*/receipt/\d+$"))
        pb = _phone(base, tokens[b])
        assert _post(pb, base, a).status_code == 303
        cli("report", "accept", "--table", str(t["table"]), "--key", "sk.pem")
        wait_until(lambda: f"#{a} wins" in httpx.get(base + "/pairings").text, 15)
        phone.goto(base + "/drop")
        phone.check("input[name=confirm]")
        phone.click("button[type=submit]")
        phone.wait_for_url(re.compile(r".*/receipt/\d+$"))
        assert "player dropped" in phone.inner_text("main")
        drop = int(phone.url.rsplit("/", 1)[1])
        wait_until(lambda: hub.data.checkable.size >= drop, 15)
        phone.goto(f"{base}/p/{a}")
        acts = phone.inner_text("section.acts")
        assert acts.count("signed by the card's phone") == 3, acts
        assert len(re.findall(r"R\d+-[0-9a-f]{16}", acts)) == 4
        assert _fits(phone)
        _shot(phone, "player-page-acts")
        browser.close()
    events = [leaf["event"] for leaf in cli("log", "--json").doc]
    signed = [e["body"]["device_use"] for e in events if "device_sig" in e["body"]]
    assert signed == [1, 2, 3]
    cli("audit", "verify", str(cli.ledger))
