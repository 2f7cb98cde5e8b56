"""Commit-reveal from the console's forms alone (issue 29 item 1: "pair (… commit-reveal)"),
JavaScript off, on a real ``tourney serve`` process: the head judge commits to a seed for
round 1 from ``/desk/do/seed/commit`` and is handed the secret file; once the committed
drand round is out (the server started again with a later clock) the head judge reveals
it from ``/desk/do/seed/reveal`` — a wrong secret typed in the paste box is refused with
nothing written, the file uploaded as it was handed over records the seed — and pairs
round 1 from ``/desk/do/round/pair`` with that seed. The log audits clean.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import httpx

from ledger.core.draw import seed_from_material
from ledger.randomness.commit import commitment, reveal_material
from tests.helpers.api_event import opening, players_csv
from tests.helpers.cli_runner import Cli
from tests.helpers.live import ledger_bytes, serve_process
from tests.helpers.randomness import AFTER_ROUND_1000, BEFORE_ROUND_1000, QUICK

STAFF = ("--station-key", "st.pem", "--staff-key", "hj.pem", "--staff-key", "sk.pem")
#: the event opens an hour and more before quicknet round 1000 is published
OPENS = "2023-08-23T14:00:00.000000Z"


def _main(text: str) -> str:
    m = re.search(r"<main>(.*)</main>", text, re.S)
    body = re.sub(r"<[^>]+>", " ", m.group(1) if m else text)
    return re.sub(r"\s+", " ", body.replace("&#39;", "'").replace("&quot;", '"'))


def _form(c: httpx.Client, path: str) -> tuple[str, str]:
    """The command's form as the browser gets it: (its HTML, its form token)."""
    page = c.get(f"/desk/do/{path}")
    assert page.status_code == 200, page.text
    m = re.search(r'<form[^>]*class="cmd"[^>]*>.*?</form>', page.text, re.S)
    assert m is not None, f"no form on /desk/do/{path}"
    token = re.search(r'name="csrf" value="([0-9a-f]+)"', m.group(0))
    assert token is not None
    return m.group(0), token.group(1)


def _events(cli: Cli) -> list[dict[str, Any]]:
    return [e["event"] for e in cli("log", "--json").doc]


def test_commit_then_reveal_from_the_console_pairs_the_round(tmp_path: Path) -> None:
    op = opening(tmp_path, "Reveal Open", clock=OPENS)
    (tmp_path / "players.csv").write_text(players_csv(8))
    op.cli("player", "import", "players.csv", "--key", "sk.pem")
    op.cli("registration", "close", "--key", "hj.pem")
    ctx = f"{op.log}/R1"

    # before round 1000: commit from the console, the secret handed over as a download
    with serve_process(op.d, {**op.cli.env, "TOURNEY_FIXED_CLOCK": BEFORE_ROUND_1000},
                       serve_args=STAFF) as (url, _proc), \
            httpx.Client(base_url=url, timeout=60) as hj:
        assert hj.get(f"/c/{op.tokens['hj']}").status_code == 303
        form, csrf = _form(hj, "seed/commit")
        assert 'name="reason"' in form and 'name="ctx"' in form and 'name="out"' not in form
        r = hj.post("/desk/do/seed/commit", headers={"Origin": url}, data={
            "csrf": csrf, "reason": "round 1 pairing", "round": "1000", "ctx": ctx})
        assert r.status_code == 200 and "Keep this file" in _main(r.text), _main(r.text)
        m = re.search(r'download="(seed-commit-(\d+)\.secret)" href="data:text/plain;'
                      r'charset=utf-8,([^"]+)"', r.text)
        assert m is not None, _main(r.text)
        name, commit_seq, handed = m.group(1), int(m.group(2)), unquote(m.group(3))
    secret = json.loads(handed)
    assert secret["commit_seq"] == commit_seq and secret["round"] == 1000
    committed = [e for e in _events(op.cli) if e["kind"] == "seed_committed"]
    assert [e["seq"] for e in committed] == [commit_seq]
    assert committed[0]["body"]["commitment"] == commitment(
        bytes.fromhex(secret["salt"]), bytes.fromhex(secret["secret"])).hex()

    # after round 1000: reveal from the console's form, then pair from it
    with serve_process(op.d, {**op.cli.env, "TOURNEY_FIXED_CLOCK": AFTER_ROUND_1000},
                       serve_args=STAFF) as (url, _proc), \
            httpx.Client(base_url=url, timeout=60) as hj:
        assert hj.get(f"/c/{op.tokens['hj']}").status_code == 303
        form, csrf = _form(hj, "seed/reveal")
        assert re.search(r'<input[^>]*type="file"[^>]*name="secret"|<input[^>]*name="secret"'
                         r'[^>]*type="file"', form), form
        assert 'name="secret.paste"' in form and 'name="signature"' in form
        assert 'enctype="multipart/form-data"' in form
        # a wrong secret, typed into the paste box: refused, nothing written
        wrong = json.dumps(dict(secret, secret="00" * 32))
        before = ledger_bytes(op.cli.ledger)
        r = hj.post("/desk/do/seed/reveal", headers={"Origin": url}, data={
            "csrf": csrf, "secret.paste": wrong, "signature": QUICK["sig"]})
        said = _main(r.text)
        assert r.status_code == 409 and "Nothing was written" in said, said
        assert f"does not open commitment seq {commit_seq}" in said, said
        assert ledger_bytes(op.cli.ledger) == before
        # the file itself, uploaded as it was handed over: the seed is recorded
        form, csrf = _form(hj, "seed/reveal")
        r = hj.post("/desk/do/seed/reveal", headers={"Origin": url},
                    data={"csrf": csrf, "signature": QUICK["sig"]},
                    files={"secret": (name, handed.encode("utf-8"), "text/plain")})
        assert r.status_code == 200 and "Done" in _main(r.text), _main(r.text)
        # round 1 paired from the console, no seed material typed: the revealed seed
        form, csrf = _form(hj, "round/pair")
        r = hj.post("/desk/do/round/pair", headers={"Origin": url}, data={"csrf": csrf})
        assert r.status_code == 200 and "Done" in _main(r.text), _main(r.text)

    log = _events(op.cli)
    seeds = [e for e in log if e["kind"] == "seed_recorded"]
    assert len(seeds) == 1, "the refused reveal recorded a seed"
    body = seeds[0]["body"]
    material = reveal_material(bytes.fromhex(secret["salt"]), bytes.fromhex(secret["secret"]),
                               bytes.fromhex(QUICK["randomness"]))
    assert body["material"] == material
    assert body["ctx"] == ctx
    assert body["seed"] == seed_from_material(material).hex()
    paired = [e for e in log if e["kind"] == "round_paired"]
    assert len(paired) == 1
    (drew,) = paired[0]["body"]["draws"]
    draw = next(e for e in log if e["seq"] == drew)
    assert draw["kind"] == "draw_made" and draw["body"]["seed_seq"] == seeds[0]["seq"]
    assert draw["body"]["seed"] == body["seed"]
    assert op.cli("round", "show", "1", "--json").doc["tables"]
    assert op.cli("audit", "verify", "--json").doc["ok"]
