"""Keys that never leave the official, over HTTP and in a real browser (issue 29 item 2).

``tourney serve`` started with no key at all (no ``--station-key``, no ``--staff-key``;
its command runner is the CLI's own, ``cli.api_runner``) over a real SQLite ledger
opened by the CLI.  Over HTTP, with a key from ``cryptography`` playing the browser: no
card is 401, a bad form token 403; prepare gives the bytes, submit appends them; a forged
signature is 422, a replay writes nothing, a write by the desk's CLI in between is 409
"decided again" and then succeeds; a head judge's browser key closing a round gets its
checkpoint deferred, said in the answer.  In headless Debian chromium: the console makes a
non-extractable Ed25519 key (``exportKey("pkcs8")`` rejects), the head judge binds its
public key, and a result signed in the page is appended; the server process holds no
private key file; every log audits clean.
"""

from __future__ import annotations

import base64
import csv
import os
import re
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ledger.wire.keys import key_id
from tests.helpers.browser import _skip_reason, launched
from tests.helpers.cli_event import open_event
from tests.helpers.cli_runner import Cli, snapshot
from tests.helpers.live import serve_process

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = [f"P{i}" for i in range(1, 9)]


def _card(cli: Cli, kid: str, stem: str) -> str:
    cli("official", "card", kid, "--url", "http://venue.invalid/", "--out", f"{stem}.html",
        "--csv", f"{stem}.csv", "--key", "hj.pem")
    with open(cli.cwd / f"{stem}.csv", newline="") as f:
        return next(csv.DictReader(f))["url"].rsplit("/c/", 1)[1]


def _tables(cli: Cli) -> list[tuple[int, list[int]]]:
    doc = cli("round", "show", "1", "--json").doc
    return [(t["table"], t["players"]) for t in doc["tables"]]


def _until_known(base: str, token: str) -> None:
    """The server follows the log (about a second): wait until it knows the new card."""
    end = time.monotonic() + 20
    while "Signed in as" not in httpx.get(base + "/desk/keys", timeout=30, headers={
            "Authorization": f"Bearer {token}"}).text:
        if time.monotonic() > end:
            raise AssertionError("the server never saw the staff card")
        time.sleep(0.2)


class Served:
    def __init__(self, cli: Cli, base: str, proc: subprocess.Popen[str]) -> None:
        self.cli, self.base, self.proc = cli, base, proc
        self.db = cli.ledger

    def post(self, path: str, body: Any, token: str | None = None,
             **headers: str) -> httpx.Response:
        h = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.post(self.base + path, json=body, headers={**h, **headers}, timeout=30)


@pytest.fixture()
def served(tmp_path: Path) -> Iterator[Served]:
    """``tourney serve`` without --station-key or --staff-key: it holds no key."""
    cli, _log = open_event(tmp_path, "hotc-swiss-de", PLAYERS, "--cut", "4")
    cli("round", "pair", "--seed-material", "keys 3 1 4", "--seed-source", "test dice",
        "--key", "hj.pem")
    env = {k: v for k, v in cli.env.items() if k != "TOURNEY_KEY"}
    with serve_process(tmp_path, env) as (base, proc):
        yield Served(cli, base, proc)


def _holds_no_private_key(proc: subprocess.Popen[str]) -> None:
    """The server's arguments, environment and open files name no private key."""
    pid = proc.pid
    args = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    assert not any(a.endswith(b".pem") for a in args), args
    env = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    assert not any(e.startswith(b"TOURNEY_KEY=") for e in env)
    opened = [os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")
              if os.path.exists(f"/proc/{pid}/fd/{fd}")]
    assert not [p for p in opened if p.endswith(".pem")], opened
    for p in opened:
        if os.path.isfile(p) and os.path.getsize(p) < 1 << 20:
            assert b"PRIVATE KEY" not in Path(p).read_bytes(), p


class PyBrowser:
    def __init__(self) -> None:
        self.key = Ed25519PrivateKey.generate()
        self.raw = self.key.public_key().public_bytes_raw()
        self.b64 = base64.b64encode(self.raw).decode()
        self.kid = key_id(self.raw)

    def signed(self, answer: dict[str, Any], before: list[dict[str, str]]
               ) -> list[dict[str, str]]:
        msg = base64.b64decode(answer["to_sign"])
        return [*before[:answer["index"]],
                {"bytes": answer["to_sign"], "sig": base64.b64encode(self.key.sign(msg))
                 .decode()}]


def test_prepare_sign_submit_over_http(served: Served) -> None:
    cli = served.cli
    sam = PyBrowser()
    cli("official", "bind", "--role", "scorekeeper", "--name", "Sam", "--public-key",
        sam.b64, "--key", "hj.pem")
    token = _card(cli, sam.kid, "sam")
    _until_known(served.base, token)
    (t1, p1), (t2, p2) = _tables(cli)[:2]
    url = "/api/v1/result/record"
    args = {"round": 1, "table": t1, "winner": p1[0]}
    before = snapshot(served.db)
    assert served.post(url + "/prepare", {"args": args}).status_code == 401
    r = httpx.post(served.base + url + "/prepare", json={"args": args}, timeout=30,
                   cookies={"tourney_card": token})
    assert r.status_code == 403                    # a cookie without the form token
    bad_bodies = [b"not json", b'{"args": [1]}', b'{"args": {}, "signed": [{"bytes": "%%"}]}',
                  b'{"args": {}, "time": "x", "signed": [{"bytes": "aGVsbG8=", "sig": '
                  b'"aGVsbG8="}]}']
    for raw in bad_bodies:
        r = httpx.post(served.base + url + "/submit", content=raw, timeout=30,
                       headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 400 and r.json()["error"]["kind"] == "usage", r.text
    no_such = served.post("/api/v1/no/such/prepare", {"args": {}}, token)
    assert no_such.status_code == 404 and "no signed command" in no_such.text
    assert snapshot(served.db) == before
    # prepare: the bytes; nothing written
    first = served.post(url + "/prepare", {"args": args}, token)
    assert first.status_code == 200, first.text
    doc = first.json()
    assert doc["ask"] == "sign" and doc["summary"]["kind"] == "result_recorded"
    assert doc["summary"]["actor"] == sam.kid
    assert snapshot(served.db) == before
    # a forged signature over the right bytes: 422, nothing written
    forged = [{"bytes": doc["to_sign"], "sig": base64.b64encode(
        Ed25519PrivateKey.generate().sign(base64.b64decode(doc["to_sign"]))).decode()}]
    bad = served.post(url + "/submit", {"args": args, "time": doc["time"],
                                        "signed": forged}, token)
    assert bad.status_code == 422 and bad.json()["error"]["kind"] == "verification"
    assert snapshot(served.db) == before
    # signed: appended
    signed = sam.signed(doc, [])
    done = served.post(url + "/submit", {"args": args, "time": doc["time"],
                                         "signed": signed}, token)
    assert done.status_code == 200, done.text
    assert done.json()["ok"] and done.json()["done"]
    leaves = cli("log", "--json").doc
    assert leaves[-1]["event"]["actor"] == sam.kid
    assert leaves[-1]["sig"] == signed[0]["sig"]
    # replayed: the table holds that result already, nothing is written
    after = snapshot(served.db)
    again = served.post(url + "/submit", {"args": args, "time": doc["time"],
                                          "signed": signed}, token)
    assert again.status_code == 200 and again.json()["signatures_used"] == 0
    assert snapshot(served.db) == after
    # a race with the CLI: prepared, then the desk writes, then submitted
    args2 = {"round": 1, "table": t2, "winner": p2[0]}
    prep = served.post(url + "/prepare", {"args": args2}, token).json()
    t3, p3 = _tables(cli)[2]
    cli("result", "record", "--round", "1", "--table", str(t3), "--winner", str(p3[0]),
        "--key", "hj.pem")
    moved = snapshot(served.db)
    stale = served.post(url + "/submit", {"args": args2, "time": prep["time"],
                                          "signed": sam.signed(prep, [])}, token)
    assert stale.status_code == 409, stale.text
    assert stale.json()["ask"] == "decided_again"
    assert snapshot(served.db) == moved
    prep = stale.json()
    ok = served.post(url + "/submit", {"args": args2, "time": prep["time"],
                                       "signed": sam.signed(prep, [])}, token)
    assert ok.status_code == 200, ok.text
    cli("audit", "verify")
    _holds_no_private_key(served.proc)
    # the OpenAPI document describes both steps, and validates
    from openapi_spec_validator import validate

    spec = httpx.get(served.base + "/api/v1/openapi.json", timeout=30).json()
    assert {"/api/v1/{path}/prepare", "/api/v1/{path}/submit"} <= set(spec["paths"])
    validate(spec)


def test_a_head_judges_browser_key_defers_the_checkpoint(served: Served) -> None:
    cli = served.cli
    hana = PyBrowser()
    cli("official", "bind", "--role", "head-judge", "--name", "Hana", "--public-key",
        hana.b64, "--key", "hj.pem")
    token = _card(cli, hana.kid, "hana")
    _until_known(served.base, token)
    answers = []
    for table, players in _tables(cli):
        args = {"round": 1, "table": table, "winner": players[0]}
        ans = served.post("/api/v1/result/record/prepare", {"args": args}, token).json()
        signed: list[dict[str, str]] = []
        while not ans.get("done"):
            signed = hana.signed(ans, signed)
            r = served.post("/api/v1/result/record/submit",
                            {"args": args, "time": ans["time"], "signed": signed}, token)
            assert r.status_code in (200, 409), r.text
            ans = r.json()
        answers.append(ans)
    assert "deferred" in answers[-1]["checkpoint"]       # the round closed
    assert all("checkpoint" not in a for a in answers[:-1])
    size = cli("log", "--json").doc[-1]["event"]["seq"]
    before = cli("audit", "verify", "--json").doc["checkpoints"]
    # the deferred checkpoint, signed in the browser as its own command
    ans = served.post("/api/v1/checkpoint/prepare", {"args": {}}, token).json()
    assert ans["summary"]["kind"] == "checkpoint" and ans["summary"]["size"] == size
    done = served.post("/api/v1/checkpoint/submit", {"args": {}, "time": ans["time"],
                                                     "signed": hana.signed(ans, [])}, token)
    assert done.status_code == 200 and done.json()["done"], done.text
    report = cli("audit", "verify", "--json").doc
    assert report["ok"] and report["checkpoints"] == before + 1, report
    # binding is the organizer's (RULES-1.3): a head judge's browser key is refused from
    # the console too, by the ledger's own rule, and nothing is written
    sam = PyBrowser()
    args = {"role": "judge", "name": "Sam", "public_key": sam.b64}
    before_bind = snapshot(served.db)
    no = served.post("/api/v1/official/bind/prepare", {"args": args}, token)
    assert no.status_code == 403 and no.json()["error"]["rule"] == "RULES-1.3", no.text
    assert snapshot(served.db) == before_bind
    cli("audit", "verify")


@pytest.mark.skipif(_skip_reason() is not None, reason=str(_skip_reason()))
def test_a_result_signed_in_chromium(served: Served) -> None:
    cli = served.cli
    with launched() as browser:
        page = browser.new_page()
        page.goto(served.base + "/desk/keys")
        page.click("#make-key")
        page.wait_for_selector("#public-key:not(:empty)")
        pub = page.inner_text("#public-key").strip()
        kid = page.inner_text("#key-id").strip()
        assert kid == key_id(base64.b64decode(pub))
        refused = page.evaluate("""async () => {
            const pair = await window.tourneyKeys.load();
            try { await crypto.subtle.exportKey("pkcs8", pair.privateKey); return "exported"; }
            catch (e) { return [e.name, pair.privateKey.extractable].join(" "); }
        }""")
        assert refused == "InvalidAccessError false"
        cli("official", "bind", "--role", "scorekeeper", "--name", "Sam", "--public-key", pub,
            "--key", "hj.pem")
        token = _card(cli, kid, "sam")
        end = time.monotonic() + 20       # the server follows the log: about a second
        while True:
            page.goto(served.base + f"/c/{token}")
            page.goto(served.base + "/desk/keys")
            if "Signed in as" in page.inner_text("main") or time.monotonic() > end:
                break
            time.sleep(0.3)
        page.wait_for_selector("#run:not([hidden])", timeout=10_000)
        assert "browser key" in page.inner_text("#mode")
        assert page.inner_text("#public-key").strip() == pub    # kept in IndexedDB
        table, players = _tables(cli)[0]
        page.fill("#run-path", "result/record")
        page.fill("#run-args", f'{{"round": 1, "table": {table}, "winner": {players[0]}}}')
        page.click("#run-form button")
        page.locator("#run-log li", has_text=re.compile("done|refused|not signed")
                     ).wait_for(timeout=30_000)
        log_text = page.inner_text("#run-log")
        assert re.search(r"done \(seq \d+\)", log_text), log_text
    leaves = cli("log", "--json").doc
    assert leaves[-1]["event"]["actor"] == kid
    assert leaves[-1]["event"]["kind"] == "result_recorded"
    cli("audit", "verify")
    _holds_no_private_key(served.proc)


@pytest.mark.skipif(_skip_reason() is not None, reason=str(_skip_reason()))
def test_bytes_naming_another_key_are_refused_in_the_page_s_language(served: Served) -> None:
    """Signed in with the scorekeeper's card while this browser holds a key of its own:
    the server's bytes name the card's key, and ``run`` refuses them with both keys in the
    page's words (Japanese, then English), nothing signed nor written (ADR 0071's fields)."""
    from ledger.wire.keys import load_signer

    cli = served.cli
    sk = load_signer(cli.cwd / "sk.pem").key_id
    token = _card(cli, sk, "sk")
    _until_known(served.base, token)
    table, players = _tables(cli)[0]
    before = snapshot(served.db)
    said: dict[str, str] = {}
    with launched() as browser:
        page = browser.new_page()
        page.goto(served.base + f"/c/{token}")
        page.goto(served.base + "/desk/keys")
        page.click("#make-key")
        page.wait_for_selector("#key-id:not(:empty)")
        kid = page.inner_text("#key-id").strip()
        for lang in ("ja", "en"):
            page.goto(served.base + f"/desk/keys?lang={lang}")
            page.wait_for_selector("#key-id:not(:empty)")
            said[lang] = page.evaluate("""async (args) => {
                try { await window.tourneyKeys.run("result/record", args); return "ran"; }
                catch (e) { return e.message; }
            }""", {"round": 1, "table": table, "winner": players[0]})
    assert kid != sk
    assert said["ja"] == f"バイト列が示す鍵は{sk}で、このブラウザの鍵{kid}ではありません"
    assert said["en"] == f"the bytes name key {sk}, not this browser's {kid}"
    assert snapshot(served.db) == before
