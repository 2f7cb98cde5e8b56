"""``POST /api/v1/<path>`` authenticated as the console is (issue 29 item 3: "a staff
card as a bearer token, or the card's cookie plus the form token for the console"), on a
real ``tourney serve`` process: the card's cookie with the form token in
``X-CSRF-Token`` runs the command signed by that official; the cookie without the token,
or with another one, is 403 with nothing written. The served OpenAPI document describes
that second way (``cardCookie`` with ``formToken``) beside the bearer card, on every
command, and the request below is built from the names it gives.
"""

from __future__ import annotations

from pathlib import Path

import httpx
from openapi_spec_validator import validate

from tests.helpers.api_event import round_tables, small_event
from tests.helpers.live import ledger_bytes, serve_process

STAFF = ("--station-key", "st.pem", "--staff-key", "hj.pem", "--staff-key", "sk.pem")


def test_the_consoles_cookie_and_form_token_run_a_command(tmp_path: Path) -> None:
    op = small_event(tmp_path)
    (t1, p1) = (lambda t: (t["table"], t["players"]))(round_tables(op.cli, 1)[0])
    with serve_process(op.d, op.cli.env, serve_args=STAFF) as (url, _proc), \
            httpx.Client(base_url=url, timeout=60) as c:
        assert c.get(f"/c/{op.tokens['sk']}").status_code == 303
        c.get("/desk")
        spec = c.get("/api/v1/openapi.json").json()
        validate(spec)
        schemes = spec["components"]["securitySchemes"]
        cookie, header = schemes["cardCookie"], schemes["formToken"]
        assert (cookie["type"], cookie["in"], header["type"], header["in"]) == (
            "apiKey", "cookie", "apiKey", "header")
        assert schemes["staffCard"] == {**schemes["staffCard"], "type": "http",
                                        "scheme": "bearer"}
        posts = {p: item["post"] for p, item in spec["paths"].items() if "post" in item}
        assert "/api/v1/result/record" in posts and "/api/v1/{path}/prepare" in posts
        for path, post in posts.items():   # either the bearer card, or cookie AND token
            assert post["security"] == [{"staffCard": []},
                                        {"cardCookie": [], "formToken": []}], path
        assert cookie["name"] in c.cookies     # the card's link set the cookie it names
        token = c.cookies["tourney_csrf"]
        body = {"round": 1, "table": t1, "winner": p1[0]}
        raw = ledger_bytes(op.cli.ledger)
        for headers in ({}, {header["name"]: "0" * 32}):
            r = c.post("/api/v1/result/record", json=body,
                       headers={"Origin": url, **headers})
            assert r.status_code == 403 and r.json()["error"]["kind"] == "auth", r.text
            assert ledger_bytes(op.cli.ledger) == raw
        r = c.post("/api/v1/result/record", json=body,
                   headers={"Origin": url, header["name"]: token})
        doc = r.json()
        assert r.status_code == 200 and doc["ok"], r.text
    sk = next(o["key_id"] for o in op.cli("official", "list", "--json").doc["officials"]
              if o["name"] == "sk")
    (event,) = [e["event"] for e in doc["events"]]
    assert event["kind"] == "result_recorded" and event["actor"] == sk
    assert event["body"]["winner"] == p1[0]
