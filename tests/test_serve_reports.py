"""Players report their results from their phones (issue 19, second part): a real server
with a station key on loopback, over a ledger the real CLI writes.

A card signs the phone in; the form is the format's vocabulary; a report is a signed
``result_reported`` with a receipt (the leaf and its hash); a double tap is recorded once;
forged or cross-site posts and phones without a card are refused and write nothing; two
agreeing reports are accepted at the desk with one command and the result shows.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import httpx
import pytest

from tests.helpers.cli_runner import CLOCK, snapshot
from tests.helpers.live import running, wait_until
from tests.helpers.reporting_phones import _phone, _post, _win_choice, reporting_event
from tests.helpers.standings_play import start


@pytest.fixture(autouse=True)
def _same_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The station in this process signs with the CLI's fixed test clock (LEDGER-TIME-1:
    times never go backwards)."""
    monkeypatch.setenv("TOURNEY_FIXED_CLOCK", CLOCK)


def test_both_players_report_get_receipts_and_the_desk_accepts(tmp_path: Path) -> None:
    cli, doc, tokens = reporting_event(tmp_path)
    t = doc["tables"][0]  # type: ignore[index]
    a, b = t["players"]
    with running(cli.ledger, station_key=tmp_path / "station.pem") as (base, hub):
        pa = _phone(base, tokens[a])
        assert "Report your result" in pa.get(f"/p/{a}").text
        r = _post(pa, base, a)
        assert r.status_code == 303 and r.headers["location"].startswith("/receipt/")
        seq = int(r.headers["location"].rsplit("/", 1)[1])
        receipt = pa.get(f"/receipt/{seq}.json").json()
        leaf = receipt["leaf"].encode()
        assert hashlib.sha256(leaf).hexdigest() == receipt["leaf_sha256"]
        event = json.loads(leaf)["event"]
        assert event["kind"] == "result_reported" and event["body"]["number"] == a
        assert event["body"]["given"] == {"winner": str(a)}
        assert tokens[a] not in cli.ledger.read_bytes().decode("latin-1")
        wait_until(lambda: hub.data.checkable.size >= seq, 5)
        again = _post(pa, base, a)                       # a double tap: recorded once
        assert again.status_code == 422 and "You already reported exactly this" in again.text
        assert "REPORT-8" not in again.text              # a player's words (issue 32)
        pb = _phone(base, tokens[b])
        assert _post(pb, base, a).status_code == 303
        queue = cli("report", "list", "--json").doc
        assert json.dumps(queue).count("matching") >= 1
        cli("report", "accept", "--table", str(t["table"]), "--key", "sk.pem")
        wait_until(lambda: f"#{a} wins" in httpx.get(base + "/pairings").text, 5)
    cli("audit", "verify", str(cli.ledger))


def test_forged_and_cardless_posts_are_refused_and_write_nothing(tmp_path: Path) -> None:
    cli, doc, tokens = reporting_event(tmp_path)
    a = doc["tables"][0]["players"][0]  # type: ignore[index]
    with running(cli.ledger, station_key=tmp_path / "station.pem") as (base, _hub):
        before = snapshot(cli.ledger)
        c = _win_choice()
        cardless = httpx.Client(base_url=base)
        assert cardless.get("/report").status_code == 403
        pa = _phone(base, tokens[a])
        page = pa.get("/report").text
        token = re.search(r'name="csrf" value="([0-9a-f]+)"', page).group(1)  # type: ignore[union-attr]
        form = {"csrf": token, "choice": str(c), f"c{c}.winner": str(a)}
        assert pa.post("/report", data={**form, "csrf": "0" * 32},
                       headers={"Origin": base}).status_code == 403      # wrong token
        assert pa.post("/report", data=form,
                       headers={"Origin": "http://evil.invalid"}).status_code == 403
        assert cardless.post("/report", data=form, headers={"Origin": base},
                             cookies={"tourney_csrf": token}).status_code == 403
        other = next(n for n in tokens if n not in doc["tables"][0]["players"])  # type: ignore[index]
        bad = pa.post("/report", data={**form, f"c{c}.winner": str(other)},
                      headers={"Origin": base})
        assert bad.status_code == 422 and "Not recorded" in bad.text
        assert snapshot(cli.ledger) == before


def test_a_server_without_a_station_role_refuses_to_start(tmp_path: Path) -> None:
    cli, _log = start(tmp_path, "hotc-swiss-de", ["Ana A", "Bo B"])
    cli("keys", "new", "--name", "Not a station", "--out", "other.pem")
    run = cli("serve", "--host", "127.0.0.1", "--port", "0", "--station-key", "other.pem",
              code=2)
    assert "not a station" in run.err and "--role station" in run.err


def test_with_the_auto_policy_two_agreeing_reports_record_the_result(tmp_path: Path) -> None:
    """``init --self-report-policy auto``: the station records the result citing both
    reports as soon as they agree (REPORT-11/12), and the audit re-checks it."""
    cli, doc, tokens = reporting_event(tmp_path, "--self-report-policy", "auto")
    t = doc["tables"][0]  # type: ignore[index]
    a, b = t["players"]
    with running(cli.ledger, station_key=tmp_path / "station.pem") as (base, _hub):
        assert _post(_phone(base, tokens[a]), base, b).status_code == 303
        assert "wins" not in httpx.get(base + "/pairings").text   # one report: waits
        assert _post(_phone(base, tokens[b]), base, b).status_code == 303
        wait_until(lambda: f"#{b} wins" in httpx.get(base + "/pairings").text, 5)
    shown = cli("round", "show", "1", "--json").doc
    res = next(x for x in shown["tables"] if x["table"] == t["table"])["result"]
    assert res is not None and res["winner"] == b
    cli("audit", "verify", str(cli.ledger))


def test_a_receipt_upgrades_to_an_inclusion_proof_after_the_next_checkpoint(
        tmp_path: Path) -> None:
    cli, doc, tokens = reporting_event(tmp_path)
    t = doc["tables"][0]  # type: ignore[index]
    a = t["players"][0]
    with running(cli.ledger, station_key=tmp_path / "station.pem") as (base, hub):
        r = _post(_phone(base, tokens[a]), base, a)
        seq = int(r.headers["location"].rsplit("/", 1)[1])
        early = httpx.get(f"{base}/receipt/{seq}/proof.json")
        assert early.status_code == 404 and "No proof yet" in early.text
        size = hub.data.checkable.size
        cli("checkpoint", "--key", "hj.pem")            # the head judge seals the log
        wait_until(lambda: httpx.get(f"{base}/receipt/{seq}/proof.json").status_code
                   == 200, 5)
        (tmp_path / "proof.json").write_bytes(
            httpx.get(f"{base}/receipt/{seq}/proof.json").content)
        assert hub.data.checkable.size >= size
    cli("audit", "proof", "proof.json")


def test_kill_9_keeps_every_receipted_report_once(tmp_path: Path) -> None:
    """kill -9 of the server right after reports: each report that got a receipt is in
    the log exactly once and the audit is clean."""
    from tests.helpers.live import serve_process

    cli, doc, tokens = reporting_event(tmp_path)
    with serve_process(cli.cwd, cli.env,
                       serve_args=("--station-key", "station.pem")) as (base, proc):
        seqs = []
        for t in doc["tables"]:  # type: ignore[attr-defined]
            for me in t["players"]:
                r = _post(_phone(base, tokens[me]), base, t["players"][0])
                assert r.status_code == 303
                seqs.append(int(r.headers["location"].rsplit("/", 1)[1]))
        proc.kill()
        proc.wait(10)
    cli("audit", "verify", str(cli.ledger))
    events = [leaf["event"] for leaf in cli("log", "--json").doc]
    reported = [e["seq"] for e in events if e["kind"] == "result_reported"]
    assert sorted(reported) == sorted(seqs) and len(set(seqs)) == len(seqs)


def test_the_server_speaks_https_with_a_certificate(tmp_path: Path) -> None:
    """``--tls-cert/--tls-key``: the pages over HTTPS (where phones may hold their own
    key); one of the two alone is a usage error that starts nothing."""
    import datetime
    import subprocess
    import sys
    import time

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    from tests.helpers.live import ROOT, free_port

    cli, _doc, _tokens = reporting_event(tmp_path)
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(1).not_valid_before(now)
            .not_valid_after(now + datetime.timedelta(days=3650)).sign(key, hashes.SHA256()))
    (tmp_path / "cert.pem").write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    (tmp_path / "key.pem").write_bytes(key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption()))
    alone = cli("serve", "--host", "127.0.0.1", "--port", "0", "--tls-cert", "cert.pem",
                code=2)
    assert "both --tls-cert and --tls-key" in alone.err
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "cli.main", "serve", "--host", "127.0.0.1",
                             "--port", str(port), "--tls-cert", "cert.pem", "--tls-key",
                             "key.pem", "--station-key", "station.pem"], cwd=tmp_path,
                            env={**cli.env, "PYTHONPATH": str(ROOT)},
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        end = time.monotonic() + 30
        while True:
            try:
                r = httpx.get(f"https://127.0.0.1:{port}/health", verify=False, timeout=1)
                break
            except httpx.HTTPError:
                if time.monotonic() > end or proc.poll() is not None:
                    raise
                time.sleep(0.1)
        assert r.status_code == 200 and r.json()["live"] is True
        assert httpx.get(f"https://127.0.0.1:{port}/report.js", verify=False).status_code \
            == 200
    finally:
        proc.kill()
        proc.wait(10)
