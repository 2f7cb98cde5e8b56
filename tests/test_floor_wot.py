"""A Wheel of Time event's floor (issue 30 Proof: "every format gets the parts its rules
have (a WoT event has judge calls; extensions follow its round rules)"; task floor3).

A wot-2001 event written by the real CLI, a real ``tourney serve`` over it with a station
key and the judge's key; the station's clock is fixed and moves 100 s a reading, so every
ruling is over a minute.  A player calls a judge from their phone (HTTP, JavaScript off,
signed by the station as the player's act); the judge claims and closes it on the staff
page citing nothing; the record proposes 0 (WoT has no per-table time: WOT01-TIME-1, from
the format's time facet), so nothing is offered to confirm and the player's page shows
the outcome with no extra time; a second player's call waits in the console's call queue
(``/desk``); ``floor stats`` counts both; the audit is clean.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import httpx
import pytest

from ledger.formats.officiating.call_extension import propose
from tests.helpers.calls import slow_station_clock
from tests.helpers.desk_event import desk_event, signed_in
from tests.helpers.live import running, wait_until
from tests.helpers.reporting_phones import _phone
from tests.helpers.staff import _csrf
from tests.helpers.standings_play import sides


def _text(html: str) -> str:
    m = re.search(r"<main>(.*)</main>", html, re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", m.group(1) if m else html))


def test_a_wot_player_calls_a_judge_from_the_phone(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    ev = desk_event(tmp_path, "wot-2001")
    cli = ev.cli
    cli("player", "cards", "--url", "http://venue.invalid/", "--out", "cards.html", "--csv",
        "cards.csv", "--key", "hj.pem")
    with open(tmp_path / "cards.csv", newline="") as f:
        tokens = {int(r["number"]): r["url"].rsplit("/c/", 1)[1] for r in csv.DictReader(f)}
    t1, t2 = ev.round1["tables"][:2]
    a, _b = sides(t1)
    c, _d = sides(t2)
    slow_station_clock(monkeypatch)
    with running(cli.ledger, station_key=tmp_path / "station.pem",
                 staff_keys=(ev.keys["judge"],)) as (base, hub):
        phone = _phone(base, tokens[a])
        assert "Call a judge" in phone.get(f"/p/{a}").text
        form = phone.get("/call")
        r = phone.post("/call", data={"csrf": _csrf(form.text), "note": "Last Battle"},
                       headers={"Origin": base})
        assert r.status_code == 303, r.text
        assert "A judge is coming" in phone.get(r.headers["location"]).text
        wait_until(lambda: f"1/{t1['table']}" in hub.follower.state.calls.open_at, 5)
        call = hub.follower.state.calls.open_at[f"1/{t1['table']}"]
        # the judge claims and closes it on the staff page, citing nothing
        staff = httpx.Client(base_url=base)
        assert staff.get(f"/c/{ev.cards['judge']}").status_code == 303
        sp = staff.get("/staff").text
        assert "Judge calls" in sp and "Last Battle" in sp
        r = staff.post("/staff/calls/claim", data={"csrf": _csrf(sp), "call": str(call)},
                       headers={"Origin": base})
        assert r.status_code == 303, r.text
        wait_until(lambda: hub.follower.state.calls.calls[call].claimed_seq is not None, 5)
        sp = staff.get("/staff").text
        r = staff.post("/staff/calls/close", data={"csrf": _csrf(sp), "call": str(call),
                                                   "outcome": "timing explained"},
                       headers={"Origin": base})
        assert r.status_code == 303, r.text
        wait_until(lambda: hub.follower.state.calls.calls[call].closed_seq is not None, 5)
        st = hub.follower.state
        closed = st.calls.calls[call]
        assert closed.cites is None and closed.outcome == "timing explained"
        p = propose(st, closed)
        assert p.ruling_s >= 100        # over a minute: a 002 match would be proposed 2
        assert (p.minutes, p.turns, p.rule) == (0, 0, "WOT01-TIME-1")
        assert "Extensions to confirm" not in staff.get("/staff").text
        mine = phone.get("/call").text
        assert "timing explained" in mine and "minutes" not in _text(mine), _text(mine)
        # a second player calls; the console's queue shows that call waiting
        other = _phone(base, tokens[c])
        f2 = other.get("/call")
        r = other.post("/call", data={"csrf": _csrf(f2.text), "note": "shuffle"},
                       headers={"Origin": base})
        assert r.status_code == 303, r.text
        wait_until(lambda: f"1/{t2['table']}" in hub.follower.state.calls.open_at, 5)
        waiting = hub.follower.state.calls.open_at[f"1/{t2['table']}"]
        desk = signed_in(base, ev.cards["hj"])
        page = desk.get("/desk").text
        item = re.search(rf'<li id="call{waiting}">(.*?)</li>', page, re.S)
        assert item is not None and f"Table {t2['table']}: shuffle" in _text(item.group(1))
        assert "waiting" in item.group(1)
        assert f'id="call{call}"' not in page              # closed: off the queue
    stats = cli("floor", "stats", "--json").doc
    assert stats["rounds"] == [{"round": 1, "calls": 2, "open": 1, "median_wait_s": 100,
                                "longest_wait_s": 100}], stats
    assert stats["open_calls"] == 1 and stats["extensions"] == []
    shown = cli("call", "show", str(call), "--json").doc
    assert shown["proposal"]["minutes"] == 0 and shown["proposal"]["rule"] == "WOT01-TIME-1"
    rep = cli("audit", "verify", "--json").doc
    assert rep["ok"] is True, rep
