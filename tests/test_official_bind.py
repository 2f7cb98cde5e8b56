"""``tourney official bind``: the head judge binds a key made in an official's browser
(issue 29 item 2; usecases/official_keys.py).

Through the CLI on a real ledger: the browser's public key (base64 of 32 bytes, as the
console shows it) becomes that official with the usual ``official_added`` event, so the
official is listed with the role and the log audits clean; a key that is not 32 bytes of
base64, an empty name, a signer who may not add officials and a key bound twice are each
refused in one line with the documented exit code, and nothing is written.
"""

from __future__ import annotations

import base64
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.events import open_leaf
from ledger.wire.keys import key_id
from tests.helpers.cli_event import open_event
from tests.helpers.cli_runner import snapshot


def _browser_key() -> tuple[str, str]:
    raw = Ed25519PrivateKey.generate().public_key().public_bytes_raw()
    return base64.b64encode(raw).decode(), key_id(raw)


def test_the_head_judge_binds_a_browser_key(tmp_path: Path) -> None:
    cli, log = open_event(tmp_path, "hotc-swiss-de", [f"P{i}" for i in range(1, 9)],
                          "--cut", "4")
    b64, kid = _browser_key()
    run = cli("official", "bind", "--role", "scorekeeper", "--name", "Sam",
              "--public-key", b64, "--key", "hj.pem", "--json")
    assert run.doc["key_id"] == kid and run.doc["role"] == "scorekeeper"
    rows = {o["key_id"]: o for o in cli("official", "list", "--json").doc["officials"]}
    assert rows[kid]["name"] == "Sam" and rows[kid]["roles"] == ["scorekeeper"]
    with Ledger(Location(str(tmp_path / "t.db")), readonly=True) as led:
        last = list(led.raw_leaves(log))[-1][1]
    ev = open_leaf(last)
    assert ev.kind == "official_added" and ev.body.key_id == kid   # type: ignore[attr-defined]
    assert ev.actor == rows[ev.actor]["key_id"] and "head_judge" in rows[ev.actor]["roles"]
    cli("audit", "verify")


def test_bad_bindings_are_refused_and_write_nothing(tmp_path: Path) -> None:
    cli, log = open_event(tmp_path, "hotc-swiss-de", [f"P{i}" for i in range(1, 9)],
                          "--cut", "4")
    b64, _kid = _browser_key()
    db = tmp_path / "t.db"
    cases = [
        (["--public-key", "not base64!", "--name", "Sam", "--key", "hj.pem"], 2,
         "not an Ed25519 public key"),
        (["--public-key", base64.b64encode(b"x" * 31).decode(), "--name", "Sam",
          "--key", "hj.pem"], 2, "32 bytes"),
        (["--public-key", b64, "--name", "  ", "--key", "hj.pem"], 2, "name is empty"),
        (["--public-key", b64, "--name", "Sam", "--key", "sk.pem"], 3, None),
    ]
    for args, code, words in cases:
        before = snapshot(db)
        run = cli("official", "bind", "--role", "scorekeeper", *args, code=code)
        assert words is None or words in run.err, run.err
        assert snapshot(db) == before
    cli("official", "bind", "--role", "judge", "--name", "Jo", "--public-key", b64,
        "--key", "hj.pem")
    before = snapshot(db)
    run = cli("official", "bind", "--role", "judge", "--name", "Jo again", "--public-key",
              b64, "--key", "hj.pem", code=3)
    assert "already an official" in run.err
    assert snapshot(db) == before
