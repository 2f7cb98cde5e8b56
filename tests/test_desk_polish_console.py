"""The console and the API with the desk's specs complete (issue 29 item 1; ADR
"desk-polish"), over HTTP against a real server on loopback and a ledger the real CLI
wrote: a time-keeper's key held by the server signs the round's clock (and nothing the
roles table keeps from time-keepers: refused, nothing written); the console marks what
the signed-in official may not sign (``?mine=1`` leaves it out) and shows commands in the
API's groups; the head judge commits to a seed from the console and is handed the secret
file (kept nowhere on the server) and publishes the site into the server's own
directory (a scorekeeper's publish is refused, nothing written); a command saved in
several steps that a second run changes is never prepared for a browser's key.
"""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest

from tests.helpers.cli_runner import CLOCK
from tests.helpers.desk_event import desk_event, desk_server, signed_in
from tests.helpers.live import ledger_bytes


@pytest.fixture(autouse=True)
def _same_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOURNEY_FIXED_CLOCK", CLOCK)


def _post(c: httpx.Client, base: str, url: str, data: dict[str, str]) -> httpx.Response:
    c.get("/desk")
    return c.post(url, data={"csrf": c.cookies["tourney_csrf"], **data},
                  headers={"Origin": base})


def _main(text: str) -> str:
    m = re.search(r"<main>(.*)</main>", text, re.S)
    body = re.sub(r"<[^>]+>", " ", m.group(1) if m else text)
    return re.sub(r"\s+", " ", body.replace("&#39;", "'").replace("&quot;", '"'))


def _item(page: str, path: str) -> str:
    m = re.search(rf'<li[^>]*><a href="/desk/do/{re.escape(path)}">.*?</li>', page)
    assert m is not None, f"{path} is not listed"
    return m.group(0)


def test_a_time_keepers_key_on_the_server_signs_the_clock_and_nothing_else(
        tmp_path: Path) -> None:
    ev = desk_event(tmp_path, "bushiroad-swiss")
    ev.keys["tk"] = ev.dir / "tk.pem"
    with desk_server(ev, hold=("hj", "sk", "judge", "tk")) as (base, _hub):
        tk = httpx.Client(base_url=base, timeout=60)
        go = tk.get(f"/c/{ev.cards['tk']}")     # with a station: the console, not /staff
        assert go.status_code == 303 and go.headers["location"] == "/desk"
        page = tk.get("/desk").text
        assert "this server holds your key" in _main(page)
        assert "needs" not in _item(page, "round/start")
        assert "needs head judge or judge" in _item(page, "penalty/issue")
        assert "needs head judge or judge" in _item(page, "round/extend")
        assert 'href="/desk/do/forfeit"' not in page    # WoT's: nobody signs it in this event
        mine = tk.get("/desk?mine=1").text
        assert 'href="/desk/do/round/start"' in mine
        assert 'href="/desk/do/penalty/issue"' not in mine
        # the panels are the API's groups, in its order
        assert re.findall(r'id="panel-(\w+)"', page) == ["registration", "rounds",
                                                         "results", "officiating", "cut"]
        r = _post(tk, base, "/desk/do/round/start", {"minutes": "50"})
        assert r.status_code == 200 and "Done" in _main(r.text), _main(r.text)
        before = ledger_bytes(ev.cli.ledger)
        t1 = ev.round1["tables"][0]
        r = _post(tk, base, "/desk/do/round/extend",
                  {"round": "1", "table": str(t1["table"]), "minutes": "5",
                   "reason": "judge call"})
        assert r.status_code in (400, 403) and "Nothing was written" in _main(r.text)
        assert ledger_bytes(ev.cli.ledger) == before
        # the API: the time-keeper's card as the bearer token
        api = httpx.post(base + "/api/v1/round/time", json={},
                         headers={"Authorization": f"Bearer {ev.cards['tk']}"}, timeout=60)
        assert api.status_code == 200 and api.json()["ok"], api.text
        kinds = [e["event"]["kind"] for e in api.json()["events"]]
        assert kinds == ["round_time_called"]
        assert api.json()["events"][0]["event"]["actor"] == ev.kids["tk"]
    log = ev.cli("log", "--json").doc
    assert [e["event"]["actor"] for e in log
            if e["event"]["kind"] == "round_started"] == [ev.kids["tk"]]
    assert ev.cli("audit", "verify", "--json").doc["ok"]


def test_a_seed_commitment_from_the_console_hands_the_secret_over(tmp_path: Path) -> None:
    ev = desk_event(tmp_path, "bushiroad-swiss")
    with desk_server(ev) as (base, _hub):
        hj = signed_in(base, ev.cards["hj"])
        form = hj.get("/desk/do/seed/commit").text
        assert 'name="out"' not in form and "data-sign" not in form    # no path; no browser
        assert "data-sign" in hj.get("/desk/do/round/start").text
        r = _post(hj, base, "/desk/do/seed/commit", {"reason": "cut draw",
                                                     "ctx": "cut-x"})
        assert r.status_code == 200, _main(r.text)
        said = _main(r.text)
        assert "Keep this file" in said and "tourney-api-" not in r.text
        m = re.search(r'download="(seed-commit-\d+\.secret)" href="data:text/plain;'
                      r'charset=utf-8,([^"]+)"', r.text)
        assert m is not None, said
        from urllib.parse import unquote

        secret = unquote(m.group(2))
        assert '"salt"' in secret and '"secret"' in secret and '"commit_seq"' in secret
        # a scorekeeper's card: the roles table's refusal, nothing written
        sk = signed_in(base, ev.cards["sk"])
        before = ledger_bytes(ev.cli.ledger)
        r = _post(sk, base, "/desk/do/seed/commit", {"reason": "x"})
        assert r.status_code == 403 and "Nothing was written" in _main(r.text)
        assert ledger_bytes(ev.cli.ledger) == before
        # never prepared for a browser's key (a second run commits to another secret)
        pre = httpx.post(base + "/api/v1/seed/commit/prepare",
                         json={"args": {"reason": "x"}}, timeout=60,
                         headers={"Authorization": f"Bearer {ev.cards['hj']}"})
        assert pre.status_code == 400, pre.text
        assert "cannot be signed in the browser" in pre.json()["error"]["message"]
        assert ledger_bytes(ev.cli.ledger) == before
        pub = httpx.post(base + "/api/v1/publish/prepare", json={"args": {}}, timeout=60,
                         headers={"Authorization": f"Bearer {ev.cards['hj']}"})
        assert pub.status_code == 400 and ledger_bytes(ev.cli.ledger) == before


def test_publish_from_the_console_writes_the_servers_directory(tmp_path: Path) -> None:
    from cli.api_runner import ApiRunner
    from ledger.storage.location import Location
    from tests.helpers.live import running

    ev = desk_event(tmp_path, "bushiroad-swiss")
    site = tmp_path / "served-site"
    runner = ApiRunner(Location(str(ev.cli.ledger)), publish_dir=site)
    with running(ev.cli.ledger, station_key=ev.dir / "station.pem",
                 staff_keys=(ev.keys["hj"], ev.keys["sk"]), runner=runner) as (base, _hub):
        hj = signed_in(base, ev.cards["hj"])
        form = hj.get("/desk/do/publish").text
        assert 'name="directory"' not in form and "data-sign" not in form
        assert 'name="pairings_only"' in form
        sk = signed_in(base, ev.cards["sk"])
        before = ledger_bytes(ev.cli.ledger)
        r = _post(sk, base, "/desk/do/publish", {})
        assert r.status_code == 403 and "Nothing was written" in _main(r.text)
        assert ledger_bytes(ev.cli.ledger) == before and not site.exists()
        r = _post(hj, base, "/desk/do/publish", {})
        assert r.status_code == 200 and "report_published" in _main(r.text), _main(r.text)
        assert (site / "index.html").is_file() and (site / "report.json").is_file()
    assert ev.cli("audit", "verify", "--json").doc["ok"]
