"""Every refusal class of the HTTP API's commands (issue 29 item 3) on a real ``tourney
serve`` process: its status, its body ``{"ok": false, "error": {kind, message, hint,
rule}}``, and nothing written (the ledger's bytes and the log's size unchanged).

400 usage (unknown parameter, wrong type, no outcome, a body that is not JSON), 401 (no
card, an unknown card), 403 (a player's card, an official whose key the server does not
hold, a role the rules refuse: RULES-1.3), 404 (no such command), 409 (a rule), 413 (too
large), 422 (a forged head under the ledger: refusing to sign on top of it), 503 (the
ledger locked by another process).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.api_event import HttpDesk, Opening, round_tables, small_event
from tests.helpers.live import ledger_bytes, serve_process

#: the judge's key is not given: the server cannot sign for the judge
STAFF = ("--station-key", "st.pem", "--staff-key", "hj.pem", "--staff-key", "sk.pem")
#: the server's wait for another process's lock (docs/OPERATIONS.md): 2 s, not 30
LOCK_WAIT = {"TOURNEY_SQLITE_LOCK_TIMEOUT": "2"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Opening, HttpDesk]]:
    op = small_event(tmp_path_factory.mktemp("refusals"))
    with serve_process(op.d, {**op.cli.env, **LOCK_WAIT}, serve_args=STAFF) as (url, _proc):
        yield op, HttpDesk(url, op.tokens)


def _size(op: Opening) -> int:
    return len(op.cli("log", "--json").doc)


def _refused(op: Opening, send: Any, status: int, kind: str) -> dict[str, Any]:
    before, size = ledger_bytes(op.cli.ledger), _size(op)
    r = send()
    assert r.status_code == status, (r.status_code, r.text)
    doc: dict[str, Any] = r.json()
    assert doc["ok"] is False and set(doc["error"]) == {"kind", "message", "hint", "rule"}
    assert doc["error"]["kind"] == kind and doc["error"]["message"], doc
    assert ledger_bytes(op.cli.ledger) == before and _size(op) == size
    err: dict[str, Any] = doc["error"]
    return err


def _table(op: Opening) -> dict[str, Any]:
    return round_tables(op.cli, 1)[0]


CASES: list[tuple[str, str | None, str, Any, int, str]] = [
    ("no card", None, "drop", {"number": 1}, 401, "auth"),
    ("unknown card", "nobody", "drop", {"number": 1}, 401, "auth"),
    ("player's card", "player", "drop", {"number": 1}, 403, "auth"),
    ("key not held", "judge", "drop", {"number": 1}, 403, "auth"),
    ("role refused", "sk", "round/pair", {"seed_material": "17 03 42",
                                          "seed_source": "dice"}, 403, "rule"),
    ("unknown parameter", "sk", "drop", {"number": 1, "colour": "red"}, 400, "usage"),
    ("wrong type", "sk", "result/record", {"round": "one", "table": 1, "winner": 1},
     400, "usage"),
    ("list for one value", "sk", "drop", {"number": [1, 2]}, 400, "usage"),
    ("no outcome", "sk", "result/record", {"round": 1, "table": 1}, 400, "usage"),
    ("missing argument", "sk", "drop", {}, 400, "usage"),
    ("no such command", "sk", "player/teleport", {}, 404, "usage"),
    ("a rule", "sk", "result/record", {"round": 1, "table": 1, "winner": 99}, 409, "rule"),
]


@pytest.mark.parametrize("name, who, path, body, status, kind", CASES,
                         ids=[c[0] for c in CASES])
def test_a_refusal_has_its_status_and_writes_nothing(
        server: tuple[Opening, HttpDesk], name: str, who: str | None, path: str,
        body: Any, status: int, kind: str) -> None:
    op, desk = server
    if who == "nobody":
        desk.tokens["nobody"] = "0" * 32
    err = _refused(op, lambda: desk.post(who, path, body), status, kind)
    if name == "key not held":
        assert "--staff-key" in str(err["hint"])
    if name == "role refused":
        assert err["rule"] == "RULES-1.3" and "head_judge" in err["message"]
    if name == "a rule":
        assert err["rule"] == "LEDGER-RES-1"


def test_bodies_that_are_not_a_json_object(server: tuple[Opening, HttpDesk]) -> None:
    op, desk = server
    auth = {"Authorization": f"Bearer {op.tokens['sk']}"}
    for raw in (b"{not json", b"[1, 2]", b'"drop"'):
        _refused(op, lambda raw=raw: desk.http.post("/api/v1/drop", content=raw,
                                                    headers=auth), 400, "usage")
    big = b'{"reason": "' + b"x" * (5 * 1024 * 1024) + b'"}'
    _refused(op, lambda: desk.http.post("/api/v1/drop", content=big, headers=auth),
             413, "usage")


def test_a_locked_ledger_is_503_and_the_next_command_works(
        server: tuple[Opening, HttpDesk]) -> None:
    op, desk = server
    t = _table(op)
    body = {"round": 1, "table": t["table"], "winner": t["players"][0]}
    before = ledger_bytes(op.cli.ledger)
    lock = sqlite3.connect(op.cli.ledger, timeout=1)
    try:
        lock.execute("BEGIN EXCLUSIVE")
        t0 = time.monotonic()
        r = desk.post("sk", "result/record", body)
        waited = time.monotonic() - t0
    finally:
        lock.rollback()
        lock.close()
    assert r.status_code == 503, r.text
    assert 2 <= waited < 25, waited    # the server's setting (2 s), not the default 30 s
    assert r.json()["error"]["kind"] == "storage"
    assert ledger_bytes(op.cli.ledger) == before
    r = desk.post("sk", "result/record", body)
    assert r.status_code == 200 and r.json()["seq"] == len(op.cli("log", "--json").doc)


def test_a_forged_head_is_422_and_nothing_is_signed_on_it(tmp_path: Path) -> None:
    op = small_event(tmp_path)
    tables = round_tables(op.cli, 1)
    with serve_process(op.d, op.cli.env, serve_args=STAFF) as (url, _proc):
        desk = HttpDesk(url, op.tokens)
        a, b, c = tables[:3]
        assert desk.do("sk", "result/record", round=1, table=a["table"],
                       winner=a["players"][0])["ok"]
        # another writer (the desk) appends; then its event is edited in the file
        op.cli("result", "record", "--round", "1", "--table", str(b["table"]), "--winner",
               str(b["players"][0]), "--key", "sk.pem")
        size = len(op.cli("log", "--json").doc)
        conn = sqlite3.connect(op.cli.ledger)
        (leaf,) = conn.execute("SELECT state FROM stored_events WHERE "
                               "originator_version=?", (size,)).fetchone()
        forged = bytes(leaf).replace(f'"winner":{b["players"][0]}'.encode(),
                                     f'"winner":{b["players"][1]}'.encode())
        assert forged != bytes(leaf)
        conn.execute("UPDATE stored_events SET state=? WHERE originator_version=?",
                     (forged, size))
        conn.commit()
        conn.close()
        err = _refused(op, lambda: desk.post("sk", "result/record", {
            "round": 1, "table": c["table"], "winner": c["players"][0]}), 422,
            "verification")
        assert "refusing to sign on top of" in err["message"]


def test_every_refusal_names_what_to_do(server: tuple[Opening, HttpDesk]) -> None:
    _, desk = server
    r = desk.post(None, "drop", {"number": 1})
    assert "Authorization: Bearer" in r.json()["error"]["hint"]


def test_the_served_openapi_document_validates(server: tuple[Opening, HttpDesk]) -> None:
    from openapi_spec_validator import validate

    from cli.api_book import desk_paths

    _, desk = server
    r = desk.http.get("/api/v1/openapi.json")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    doc = r.json()
    validate(doc)
    assert {f"/api/v1/{p}" for p in desk_paths()} <= set(doc["paths"])


def test_fresh_answers_once_the_pages_hold_the_command(
        server: tuple[Opening, HttpDesk]) -> None:
    op, desk = server
    t = round_tables(op.cli, 1)[1]
    r = desk.http.post("/api/v1/result/record?fresh=1", json={
        "round": 1, "table": t["table"], "winner": t["players"][1]},
        headers={"Authorization": f"Bearer {op.tokens['sk']}"})
    assert r.status_code == 200, r.text
    assert desk.http.get("/health").json()["size"] >= r.json()["seq"]


def test_a_server_without_keys_signs_nothing(tmp_path: Path) -> None:
    """``tourney serve`` with no ``--staff-key``: the API is there (its OpenAPI document
    too) but signs for nobody: 403 with the way out, nothing written."""
    op = small_event(tmp_path)
    with serve_process(op.d, op.cli.env) as (url, _proc):
        desk = HttpDesk(url, op.tokens)
        assert "/api/v1/drop" in desk.http.get("/api/v1/openapi.json").json()["paths"]
        err = _refused(op, lambda: desk.post("hj", "drop", {"number": 1}), 403, "auth")
        assert "browser keys" in str(err["hint"]) and "--staff-key" in str(err["hint"])
