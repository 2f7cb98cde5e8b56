"""The live server's staff page and a player's own drop (issue 19): a real server on
loopback over a ledger the real CLI writes.

Disagreeing reports reach the staff queue side by side; a staff decision is signed with
the deciding official's own key (not the station's) and cites the reports it settles; a
rejected report's reason shows on the player's page; a server that does not hold the
official's key refuses to decide and writes nothing; a player's card cannot open the staff
page; a player drops themselves only once their match has its result, the drop signed by
the station and citing their credential; the audit is clean after all of it.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import httpx
import pytest

from tests.helpers.cli_runner import CLOCK
from tests.helpers.live import ledger_bytes, running, wait_until
from tests.helpers.reporting_phones import _phone, _post, reporting_event
from tests.helpers.staff import _csrf, _events, _staff_token


@pytest.fixture(autouse=True)
def _same_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOURNEY_FIXED_CLOCK", CLOCK)








def test_conflicting_reports_reach_the_staff_page_and_a_decision_settles_them(
        tmp_path: Path) -> None:
    cli, doc, tokens = reporting_event(tmp_path)
    staff = _staff_token(cli, tmp_path, "sk", "sk")
    t1, t2 = doc["tables"][:2]  # type: ignore[index]
    a, b = t1["players"]
    c, d = t2["players"]
    with running(cli.ledger, station_key=tmp_path / "station.pem",
                 staff_keys=(tmp_path / "sk.pem",)) as (base, hub):
        assert _post(_phone(base, tokens[a]), base, a).status_code == 303
        assert _post(_phone(base, tokens[b]), base, b).status_code == 303    # disagree
        pc = _phone(base, tokens[c])
        assert _post(pc, base, d).status_code == 303                        # c: d won
        # a player's card cannot open the staff page; a staff card goes there
        assert pc.get("/staff").status_code == 403
        desk = httpx.Client(base_url=base)
        r = desk.get(f"/c/{staff}")
        assert r.status_code == 303 and r.headers["location"] == "/staff"
        wait_until(lambda: all(w in desk.get("/staff").text
                               for w in ("1 conflicting", "1 one-sided")), 5)
        page = desk.get("/staff").text
        assert "Conflicting reports" in page
        assert "signed with your own key" in page
        reps = {e["body"]["number"]: e["seq"] for e in _events(cli)  # type: ignore[index]
                if e["kind"] == "result_reported"}
        csrf = _csrf(page)
        # forged: no CSRF token, or another origin: refused, nothing written
        before = ledger_bytes(cli.ledger)
        assert desk.post("/staff/record", data={"round": "1", "table": str(t1["table"]),
                                                 "report": str(reps[b])},
                         headers={"Origin": base}).status_code == 403
        assert desk.post("/staff/record", data={"csrf": csrf, "round": "1",
                                                 "table": str(t1["table"]),
                                                 "report": str(reps[b])},
                         headers={"Origin": "http://evil.invalid"}).status_code == 403
        assert ledger_bytes(cli.ledger) == before
        # the scorekeeper decides: b's report is right
        r = desk.post("/staff/record", data={"csrf": csrf, "round": "1",
                                              "table": str(t1["table"]),
                                              "report": str(reps[b])},
                      headers={"Origin": base})
        assert r.status_code == 303 and r.headers["location"].startswith("/staff?done=")
        # c's report is wrong: set aside with a reason the player reads
        r = desk.post("/staff/reject", data={"csrf": csrf, "round": "1", "number": str(c),
                                              "reason": "wrong winner: see the slip"},
                      headers={"Origin": base})
        assert r.status_code == 303
        wait_until(lambda: "wrong winner: see the slip" in pc.get("/report").text, 5)
        wait_until(lambda: f"#{b} wins" in httpx.get(base + "/pairings").text, 5)
    events = _events(cli)
    sk = next(o["key_id"] for o in cli("official", "list", "--json").doc["officials"]
              if o["name"] == "sk")
    decided = [e for e in events if e["kind"] == "result_recorded"]
    assert len(decided) == 1 and decided[0]["actor"] == sk
    assert sorted(decided[0]["body"]["reports"]) == sorted([reps[a], reps[b]])  # type: ignore[index]
    rejected = [e for e in events if e["kind"] == "report_rejected"]
    assert rejected[0]["actor"] == sk and rejected[0]["body"]["report"] == reps[c]  # type: ignore[index]
    cli("audit", "verify", str(cli.ledger))


def test_a_server_without_the_officials_key_does_not_decide(tmp_path: Path) -> None:
    cli, doc, tokens = reporting_event(tmp_path)
    staff = _staff_token(cli, tmp_path, "sk", "sk")
    t1 = doc["tables"][0]  # type: ignore[index]
    a, b = t1["players"]
    with running(cli.ledger, station_key=tmp_path / "station.pem") as (base, _hub):
        assert _post(_phone(base, tokens[a]), base, a).status_code == 303
        assert _post(_phone(base, tokens[b]), base, a).status_code == 303
        desk = httpx.Client(base_url=base)
        desk.get(f"/c/{staff}")
        page = desk.get("/staff").text
        assert "does not hold your key" in page and "Confirm all" not in page
        before = ledger_bytes(cli.ledger)
        r = desk.post("/staff/accept", data={"csrf": desk.cookies["tourney_csrf"],
                                              "round": "1"},
                      headers={"Origin": base})
        assert r.status_code == 422 and "does not hold your key" in r.text
        assert ledger_bytes(cli.ledger) == before
    # the head judge revokes the staff card: it opens nothing any more
    kid = next(o["key_id"] for o in cli("official", "list", "--json").doc["officials"]
               if o["name"] == "sk")
    cli("official", "card", kid, "--revoke", "--reason", "left the event", "--key", "hj.pem")
    with running(cli.ledger, station_key=tmp_path / "station.pem") as (base, _hub):
        desk = httpx.Client(base_url=base)
        assert desk.get(f"/c/{staff}").status_code == 404
        assert desk.get("/staff").status_code == 403


def test_a_player_drops_themselves_once_their_match_has_its_result(tmp_path: Path) -> None:
    cli, doc, tokens = reporting_event(tmp_path)
    t1 = doc["tables"][0]  # type: ignore[index]
    a, b = t1["players"]
    with running(cli.ledger, station_key=tmp_path / "station.pem") as (base, hub):
        pa = _phone(base, tokens[a])
        form = pa.get("/drop")
        assert "You cannot drop now" in form.text and "report it first" in form.text
        before = ledger_bytes(cli.ledger)
        r = pa.post("/drop", data={"csrf": _csrf(form.text), "confirm": "yes"},
                    headers={"Origin": base})
        assert r.status_code == 422 and "Not recorded" in r.text
        assert "report it first" in r.text
        assert ledger_bytes(cli.ledger) == before
        cli("result", "record", "--round", "1", "--table", str(t1["table"]), "--winner",
            str(b), "--key", "sk.pem")
        wait_until(lambda: "You cannot drop now" not in pa.get("/drop").text, 5)
        form = pa.get("/drop")
        nocheck = pa.post("/drop", data={"csrf": _csrf(form.text)}, headers={"Origin": base})
        assert nocheck.status_code == 422 and "confirm" in nocheck.text
        r = pa.post("/drop", data={"csrf": _csrf(form.text), "confirm": "yes"},
                    headers={"Origin": base})
        assert r.status_code == 303 and r.headers["location"].startswith("/receipt/")
        receipt = pa.get(r.headers["location"] + ".json").json()
        event = json.loads(receipt["leaf"])["event"]
        assert event["kind"] == "player_dropped" and event["body"]["number"] == a
        with open(tmp_path / "cards.csv", newline="") as f:
            assert all(tokens[int(row["number"])] not in cli.ledger.read_bytes().decode(
                "latin-1") for row in csv.DictReader(f))
        assert event["body"]["credential"]
        # a second drop is refused by the format's own rule, in plain words
        again = pa.post("/drop", data={"csrf": _csrf(form.text), "confirm": "yes"},
                        headers={"Origin": base})
        assert again.status_code == 422 and "Not recorded" in again.text
    cli("audit", "verify", str(cli.ledger))
