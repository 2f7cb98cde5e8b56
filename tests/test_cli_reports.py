"""Issue 19 (ADR 0027) through the real CLI: ``official add --role station``, ``player
cards``, ``player card N --reissue|--revoke`` and ``report list``, each a real ``tourney``
process over a real SQLite ledger; the players' reports are signed in process with the
station's key file (the live server's part), exactly as ``tourney serve`` will.  Every
refusal: one line naming what was wrong and what to do, its documented exit code, the
ledger's bytes unchanged and no card file left behind.
"""

from __future__ import annotations

import csv
import hashlib
import io
import stat
from datetime import timedelta
from pathlib import Path

from ledger.core.credentials import credential_for_token
from ledger.core.format_socket import require_plugin
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.clock import FixedClock
from ledger.wire.events import open_leaf
from ledger.wire.keys import load_signer
from tests.helpers.cli_event import open_event
from tests.helpers.cli_runner import CLOCK, Cli, raw_bytes, snapshot

NAMES = ["Ann", "Bob <b>", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
URL = "http://192.168.1.20:8000"


def _refuse(cli: Cli, d: Path, *args: str, code: int) -> str:
    db = d / "t.db"
    before, files = snapshot(db), sorted(p.name for p in d.iterdir())
    run = cli(*args, code=code)
    assert raw_bytes(db) == before, f"tourney {' '.join(args)} wrote"
    assert sorted(p.name for p in d.iterdir()) == files, "a refused command left a file"
    return run.err.strip()


def _tokens(csv_file: Path) -> dict[int, str]:
    rows = list(csv.DictReader(io.StringIO(csv_file.read_text())))
    assert all(r["url"].startswith(URL + "/c/") for r in rows)
    return {int(r["number"]): r["url"].rsplit("/", 1)[1] for r in rows}


def test_cards_reissue_revoke_and_the_report_queue(tmp_path: Path) -> None:
    cli, log = open_event(tmp_path, "hotc-swiss-de", NAMES)
    d, db = tmp_path, tmp_path / "t.db"
    hj, sk = ("--key", "hj.pem"), ("--key", "sk.pem")
    cli("keys", "new", "--name", "Live server", "--out", "station.pem")
    added = cli("official", "add", "--role", "station", "--name", "Live server",
                "--public-key", "station.pem.pub", *hj, "--json").doc
    assert added["role"] == "station"
    # refusals before any card
    assert "--url" in _refuse(cli, d, "player", "cards", "--url", "ftp://x", "--out", "c.html",
                              *hj, code=2)
    assert "[RULES-1.3]" in _refuse(cli, d, "player", "cards", "--url", URL, "--out",
                                    "c.html", *sk, code=3)
    assert "[REPORT-1]" in _refuse(cli, d, "player", "cards", "--players", "2,99", "--url",
                                   URL, "--out", "c.html", *hj, code=3)
    assert "--players" in _refuse(cli, d, "player", "cards", "--players", "2,x", "--url",
                                  URL, "--out", "c.html", *hj, code=2)
    assert "[RULES-1.3]" in _refuse(cli, d, "player", "cards", "--url", URL, "--out",
                                    "c.html", "--key", "station.pem", code=3)
    # every player's card
    doc = cli("player", "cards", "--url", URL + "/", "--out", "cards.html", "--csv",
              "cards.csv", *hj, "--json").doc
    assert [c["number"] for c in doc["credentials"]] == list(range(1, 9))
    for f in ("cards.html", "cards.csv"):
        assert stat.S_IMODE((d / f).stat().st_mode) == 0o600
    tokens = _tokens(d / "cards.csv")
    assert all(len(t) == 32 for t in tokens.values())            # 128 bits, hex
    page = (d / "cards.html").read_text()
    assert page.count("<svg") == 8 and "Bob &lt;b&gt;" in page and "<b>" not in page
    assert "Test Night" in page
    logged = b"".join(snapshot(db))
    assert not any(t.encode() in logged for t in tokens.values())  # never the token
    with Ledger(Location(str(db)), readonly=True) as led:
        state = led.load(log).state
    for n, tok in tokens.items():
        cred = credential_for_token(state, tok)
        assert cred is not None and cred.number == n
        assert cred.token_sha256 == hashlib.sha256(tok.encode()).hexdigest()
    assert "already has a live card" in _refuse(cli, d, "player", "cards", "--url", URL,
                                                "--out", "again.html", *hj, code=2)
    assert "already exists" in _refuse(cli, d, "player", "card", "3", "--reissue", "--reason",
                                       "lost", "--url", URL, "--out", "cards.html", *hj,
                                       code=2)
    assert "[REPORT-2]" in _refuse(cli, d, "player", "card", "3", "--url", URL, "--out",
                                   "c3.html", *hj, code=3)
    assert "reason" in _refuse(cli, d, "player", "card", "3", "--reissue", "--url", URL,
                               "--out", "c3.html", *hj, code=2)
    assert "exclude" in _refuse(cli, d, "player", "card", "3", "--reissue", "--revoke",
                                "--reason", "x", *hj, code=2)
    # a lost card: revoke + issue in one write; the old token stops working
    re = cli("player", "card", "3", "--reissue", "--reason", "lost card", "--url", URL,
             "--out", "c3.html", "--csv", "c3.csv", *hj, "--json").doc
    assert [e["kind"] for e in re["events"]] == ["credential_revoked", "credential_issued"]
    new = _tokens(d / "c3.csv")[3]
    with Ledger(Location(str(db)), readonly=True) as led:
        state = led.load(log).state
    old = credential_for_token(state, tokens[3])
    assert old is not None and old.revoked_seq is not None
    assert credential_for_token(state, new).revoked_seq is None  # type: ignore[union-attr]
    cli("player", "card", "8", "--revoke", "--reason", "left the venue", *hj)
    assert "[REPORT-3]" in _refuse(cli, d, "player", "card", "8", "--revoke", "--reason",
                                   "again", *hj, code=3)
    # a round: reports signed by the station's key (the server's part)
    assert "no round is paired" in cli("report", "list", code=2).err
    cli("round", "pair", "--seed-material", "7 7 1 3", "--seed-source", "dice", *hj)
    station = load_signer(d / "station.pem")
    plugin = require_plugin("hotc-swiss-de")
    with Ledger(Location(str(db)), clock=FixedClock(CLOCK, timedelta(0))) as led:
        state = led.load(log).state
        tables = {t: plugin.entry.table_at(state, 1, t)[0]  # type: ignore[index]
                  for t in range(1, 5)}

        def report(table: int, number: int, given: dict[str, str]) -> None:
            cred = state.reports.live_player[number]
            led.write(log, lambda t, now: t.report_result(1, table, number, cred, given,
                                                          station, now))
        a, b = tables[1]
        report(1, a, {"winner": str(a)})
        report(1, b, {"winner": str(a)})                  # matching
        c, e = tables[2]
        report(2, c, {"winner": str(c)})
        report(2, e, {"winner": str(e)})                  # conflicting
        f = tables[3][0]
        report(3, f, {"timeout": "yes"})                  # one-sided
    q = cli("report", "list", "--json").doc
    status = {t["table"]: t["status"] for t in q["tables"]}
    assert status == {1: "matching", 2: "conflicting", 3: "one_sided", 4: "none"}, q
    assert q["counts"] == {"none": 1, "one_sided": 1, "matching": 1, "conflicting": 1,
                           "settled": 0}
    text = cli("report", "list").out
    assert f"record: tourney result record --round 1 --table 1 --winner {a} --key sk.pem" \
        in text
    assert f"#{c} (seq" in text and f"--winner {e}" in text
    assert f"#{f} (seq" in text and "--timeout" in text
    assert "[REPORT-13]" in _refuse(cli, d, "report", "accept", "--table", "2", *sk, code=3)
    assert "--table" in _refuse(cli, d, "report", "accept", *sk, code=2)
    assert "[REPORT-12]" in _refuse(cli, d, "report", "accept", "--table", "1", "--key",
                                    "station.pem", code=3)      # confirm: not the station
    acc = cli("report", "accept", "--round", "1", "--all-matching", *sk, "--json").doc
    assert acc["tables"] == [1]
    seqs = sorted(r["seq"] for r in q["tables"][0]["reports"])
    with Ledger(Location(str(db)), readonly=True) as led:
        leaf = dict(led.raw_leaves(log))[acc["events"][0]["seq"]]
    body = open_leaf(leaf).body
    assert (body.reports, body.table) == (seqs, 1), body  # type: ignore[attr-defined]
    assert "[REPORT-13]" in _refuse(cli, d, "report", "accept", "--all-matching", *sk, code=3)
    # the desk settles the conflicting table, citing both reports
    pending = sorted(r["seq"] for r in q["tables"][1]["reports"])
    rec = ("result", "record", "--round", "1", "--table", "2", "--winner", str(c))
    assert "--settles" in _refuse(cli, d, *rec, "--settles", "x", *sk, code=2)
    assert "[REPORT-10]" in _refuse(cli, d, *rec, "--settles", f"{pending[0]},1", *sk, code=3)
    done = cli(*rec, "--settles", ",".join(map(str, pending)), *sk, "--json").doc
    with Ledger(Location(str(db)), readonly=True) as led:
        leaf = dict(led.raw_leaves(log))[done["events"][0]["seq"]]
    assert open_leaf(leaf).body.reports == pending  # type: ignore[attr-defined]
    q = cli("report", "list", "--round", "1", "--json").doc
    assert q["tables"][0]["status"] == "settled" and q["tables"][0]["result"]
    assert "table 1 " not in cli("report", "list").out
    assert "table 1 " in cli("report", "list", "--all").out
    audit = cli("audit", "verify", "--json").doc
    assert audit["ok"] is True, audit
    assert [x for x in audit["findings"] if x["severity"] == "error"] == [], audit


def test_init_self_report_policy_on_the_wire_only_when_given(tmp_path: Path) -> None:
    cli = Cli(tmp_path, tmp_path / "t.db")
    cli("keys", "new", "--name", "hj", "--out", "hj.pem")
    cli("init", "--name", "Auto Night", "--format", "hotc-swiss-de",
        "--self-report-policy", "auto", "--key", "hj.pem")
    genesis = b"".join(snapshot(tmp_path / "t.db"))
    assert b'"self_report_policy":"auto"' in genesis
    other = Cli(tmp_path, tmp_path / "u.db")
    other("init", "--name", "Plain Night", "--format", "hotc-swiss-de", "--key", "hj.pem")
    assert b"self_report" not in b"".join(snapshot(tmp_path / "u.db"))
    assert "--self-report-policy" in other("init", "--self-report-policy", "sometimes",
                                           "--name", "X", "--format", "hotc-swiss-de",
                                           "--key", "hj.pem", code=2).err
