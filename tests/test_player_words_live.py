"""Issue 32 item 5 on a real server with a station key (loopback, the real CLI writing):
a receipt says in words what was reported, for which round and table, under a footer whose
log holds it; a table whose result is recorded offers no report form; the staff queue shown
right after a decision no longer lists the table just decided; a refusal reads without
its rule id.
"""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest

from ledger.core.player_words import jargon
from tests.helpers.cli_runner import CLOCK
from tests.helpers.live import running, wait_until
from tests.helpers.reporting_phones import _phone, _post, reporting_event
from tests.helpers.staff import _csrf, _events, _staff_token
from tests.helpers.standings_play import record


@pytest.fixture(autouse=True)
def _same_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOURNEY_FIXED_CLOCK", CLOCK)


def _footer_size(page: str) -> int:
    m = re.search(r"log size (\d+) ·", page)
    assert m is not None
    return int(m.group(1))


def test_the_receipt_says_what_was_reported_and_its_footer_holds_it(tmp_path: Path) -> None:
    cli, doc, tokens = reporting_event(tmp_path)
    t = doc["tables"][0]  # type: ignore[index]
    a, _b = t["players"]
    with running(cli.ledger, station_key=tmp_path / "station.pem") as (base, hub):
        pa = _phone(base, tokens[a])
        r = _post(pa, base, a)
        assert r.status_code == 303
        seq = int(r.headers["location"].rsplit("/", 1)[1])
        page = pa.get(r.headers["location"]).text            # at once, no waiting
        said = " ".join(re.sub(r"<[^>]+>", " ", page).split())
        label = hub.data.labels[a]
        assert f"reported for round 1, table {t['table']}: Winner: {label}." in said
        assert _footer_size(page) >= seq
        # a second report of exactly this: refused in a player's words
        again = _post(pa, base, a)
        assert again.status_code == 422
        # (the form itself is the report form's own work: here, the refusal's words)
        alert = re.search(r'role="alert">(.*?)</p>', again.text, flags=re.S)
        assert alert is not None
        assert "You already reported exactly this" in alert.group(1)
        assert not jargon(alert.group(1)), alert.group(1)


def test_a_recorded_result_offers_no_report_form(tmp_path: Path) -> None:
    cli, doc, tokens = reporting_event(tmp_path)
    t = doc["tables"][0]  # type: ignore[index]
    a, _b = t["players"]
    record(cli, "hotc-swiss-de", 1, t)
    with running(cli.ledger, station_key=tmp_path / "station.pem") as (base, hub):
        wait_until(lambda: hub.data.rounds[-1]["tables"][0]["result"] != "—", 5)
        pa = _phone(base, tokens[a])
        form = pa.get("/report").text
        assert 'action="/report"' not in form
        assert "The result of your table is recorded" in form and "see a judge" in form
        mine = pa.get(f"/p/{a}").text
        assert 'href="/report"' not in mine and "see a judge" in mine


def test_the_staff_queue_right_after_a_decision_omits_the_table(tmp_path: Path) -> None:
    cli, doc, tokens = reporting_event(tmp_path)
    staff = _staff_token(cli, tmp_path, "sk", "sk")
    t1 = doc["tables"][0]  # type: ignore[index]
    a, b = t1["players"]
    with running(cli.ledger, station_key=tmp_path / "station.pem",
                 staff_keys=(tmp_path / "sk.pem",)) as (base, _hub):
        assert _post(_phone(base, tokens[a]), base, a).status_code == 303
        assert _post(_phone(base, tokens[b]), base, b).status_code == 303    # disagree
        desk = httpx.Client(base_url=base)
        assert desk.get(f"/c/{staff}").status_code == 303
        wait_until(lambda: "1 conflicting" in desk.get("/staff").text, 5)
        page = desk.get("/staff").text
        assert f'id="t{t1["table"]}"' in page
        reps = {e["body"]["number"]: e["seq"] for e in _events(cli)  # type: ignore[index]
                if e["kind"] == "result_reported"}
        r = desk.post("/staff/record", data={"csrf": _csrf(page), "round": "1",
                                              "table": str(t1["table"]),
                                              "report": str(reps[b])},
                      headers={"Origin": base})
        assert r.status_code == 303
        after = desk.get(r.headers["location"]).text         # at once, no waiting
        assert "Recorded (seq" in after
        assert f'id="t{t1["table"]}"' not in after           # not offered a second time
        assert "0 conflicting" in after
