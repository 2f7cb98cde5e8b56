"""Browser-held keys on PostgreSQL behind the station role (issue 29 item 2; ADR 0046),
against the real server (skipped with the reason when none answers).

The binding is the ordinary ``official_added``, so the database's roles guard
(docs/operations/station-role.sql: which role may sign which kind) admits both the
binding, written by the head judge as the owner, and the browser-signed result, written
by ``tourney serve`` connected as the low-privilege station role and holding no key.  A
forged signature is refused before anything reaches the database; the log audits clean.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import httpx
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ledger.wire.keys import key_id
from tests.helpers.live import serve_process
from tests.helpers.pg_ops import HOST, SQL, _psql, _rows, _tourney
from tests.helpers.pg_ops import scratch as scratch  # noqa: F401 - the fixture


def test_a_browser_signed_result_through_the_station_role(
        scratch: tuple[str, str, str], tmp_path: Path) -> None:  # noqa: F811
    import csv
    import os

    db, owner, station = scratch
    hj_url = f"postgresql://{owner}@{HOST}:5432/{db}"
    st_url = f"postgresql://{station}@{HOST}:5432/{db}"
    _tourney(tmp_path, hj_url, "keys", "new", "--name", "HJ", "--out", "hj.pem")
    _tourney(tmp_path, hj_url, "init", "--name", "Browser Cup", "--format", "hotc-swiss-de",
             "--cut", "4", "--key", "hj.pem")
    _psql(db, owner, "-v", f"station={station}", "-f", str(SQL))
    key = Ed25519PrivateKey.generate()
    raw = key.public_key().public_bytes_raw()
    kid = key_id(raw)
    _tourney(tmp_path, hj_url, "official", "bind", "--role", "scorekeeper", "--name", "Sam",
             "--public-key", base64.b64encode(raw).decode(), "--key", "hj.pem")
    for name in ("Ada", "Bea", "Cy", "Dee"):
        _tourney(tmp_path, hj_url, "player", "add", name, "--key", "hj.pem")
    _tourney(tmp_path, hj_url, "registration", "close", "--key", "hj.pem")
    pair = _tourney(tmp_path, hj_url, "round", "pair", "--seed-material", "browser 1 2 3",
                    "--seed-source", "dice", "--key", "hj.pem", "--json")
    table = json.loads(pair.stdout)["tables"][0]
    _tourney(tmp_path, hj_url, "official", "card", kid, "--url", "http://venue.invalid/",
             "--out", "sam.html", "--csv", "sam.csv", "--key", "hj.pem")
    with open(tmp_path / "sam.csv", newline="") as f:
        token = next(csv.DictReader(f))["url"].rsplit("/c/", 1)[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith("TOURNEY_")}
    env["TOURNEY_LEDGER"] = st_url
    auth = {"Authorization": f"Bearer {token}"}
    args = {"round": 1, "table": table["table"], "winner": table["players"][0]}
    with serve_process(tmp_path, env) as (base, _proc):
        ans = httpx.post(base + "/api/v1/result/record/prepare", json={"args": args},
                         headers=auth, timeout=30).json()
        msg = base64.b64decode(ans["to_sign"])
        before = _rows(db)
        forged = base64.b64encode(Ed25519PrivateKey.generate().sign(msg)).decode()
        bad = httpx.post(base + "/api/v1/result/record/submit", headers=auth, timeout=30,
                         json={"args": args, "time": ans["time"],
                               "signed": [{"bytes": ans["to_sign"], "sig": forged}]})
        assert bad.status_code == 422 and _rows(db) == before
        sig = base64.b64encode(key.sign(msg)).decode()
        done = httpx.post(base + "/api/v1/result/record/submit", headers=auth, timeout=30,
                          json={"args": args, "time": ans["time"],
                                "signed": [{"bytes": ans["to_sign"], "sig": sig}]})
        assert done.status_code == 200 and done.json()["done"], done.text
        assert int(_rows(db)) == int(before) + 1
    leaves = json.loads(_tourney(tmp_path, hj_url, "log", "--json").stdout)
    assert leaves[-1]["event"]["actor"] == kid and leaves[-1]["sig"] == sig
    assert json.loads(_tourney(tmp_path, hj_url, "audit", "verify", "--json").stdout)["ok"]
