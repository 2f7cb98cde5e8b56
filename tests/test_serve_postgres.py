"""``tourney serve`` over PostgreSQL (issue 18): several server processes serve one event
and learn of appends through LISTEN/NOTIFY; a database that goes away leaves the last
pages served with a "not live" notice, and the pages recover when it returns.

Real server processes on loopback ports, the real PostgreSQL at ``TOURNEY_TEST_PG``
(skipped with the reason when none answers), the real CLI as the third process.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse, urlunparse

import pytest

from tests.helpers.checks import pg_skip_reason, pg_url
from tests.helpers.cli_runner import Cli
from tests.helpers.live import get, serve_process, wait_until

pytestmark = [pytest.mark.postgres,
              pytest.mark.skipif(pg_skip_reason() is not None,
                                 reason=pg_skip_reason() or "")]

NAMES = ["Ana", "Bo", "Cy", "Dee", "Eve", "Fay"]


def _open(d: Path, url: str, log: str, *init: str) -> tuple[Cli, dict[str, Any]]:
    """A HotC event in ``url`` with round 1 paired (each step a real ``tourney``)."""
    cli = Cli(d, url)  # type: ignore[arg-type]  # the CLI takes a URL as --ledger
    cli.env["TOURNEY_TOURNAMENT"] = log
    cli("keys", "new", "--name", "hj person", "--out", "hj.pem")
    cli("init", "--name", "Live PG", "--id", log, "--format", "hotc-swiss-de", "--cut", "4",
        *init, "--key", "hj.pem")
    (d / "players.csv").write_text("number,name\n" + "".join(
        f"{i},{n}\n" for i, n in enumerate(NAMES, 1)))
    cli("player", "import", "players.csv", "--key", "hj.pem")
    cli("registration", "close", "--key", "hj.pem")
    cli("round", "pair", "--seed-material", "live pg 1", "--seed-source", "dice",
        "--key", "hj.pem")
    return cli, cli("round", "show", "1", "--json").doc


def test_two_servers_show_a_result_written_by_a_third_process(tmp_path: Path) -> None:
    log = f"live-{uuid.uuid4().hex[:10]}"
    cli, doc = _open(tmp_path, pg_url(), log, "--another-event")
    with serve_process(tmp_path, cli.env) as (a, _pa), \
            serve_process(tmp_path, cli.env) as (b, _pb):
        assert "wins" not in get(a + "/pairings").text
        t = doc["tables"][0]
        cli("result", "record", "--round", "1", "--table", str(t["table"]), "--winner",
            str(t["players"][0]), "--key", "hj.pem")
        for base in (a, b):
            took = wait_until(lambda base=base: f"#{t['players'][0]} wins" in
                              get(base + "/pairings").text, 3)
            assert took < 3
        size = cli("info", "--json").doc["size"]
        assert get(a + "/health").json()["size"] == get(b + "/health").json()["size"] == size


@pytest.fixture()
def own_database() -> Iterator[str]:
    """A database of its own (dropped afterwards), so the test can take it away."""
    import psycopg

    name = f"tourney_live_{uuid.uuid4().hex[:8]}"
    admin = pg_url()
    with psycopg.connect(admin, autocommit=True) as con:
        con.execute(f'CREATE DATABASE "{name}"'.encode())
    parts = urlparse(admin)
    try:
        yield urlunparse(parts._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(admin, autocommit=True) as con:
            con.execute(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS true'.encode())
            con.execute(b"SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                        b"WHERE datname = %s", (name,))
            con.execute(f'DROP DATABASE IF EXISTS "{name}"'.encode())


def _take_away(name: str, allow: bool) -> None:
    import psycopg

    with psycopg.connect(pg_url(), autocommit=True) as con:
        con.execute(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS '
                    f'{"true" if allow else "false"}'.encode())
        if not allow:
            con.execute(b"SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                        b"WHERE datname = %s", (name,))


def test_a_database_that_goes_away_leaves_pages_not_live_then_recovers(
        tmp_path: Path, own_database: str) -> None:
    name = urlparse(own_database).path.lstrip("/")
    cli, doc = _open(tmp_path, own_database, "live-away")
    with serve_process(tmp_path, cli.env) as (base, _proc):
        page = get(base + "/pairings").text
        assert "Not live" not in page
        _take_away(name, allow=False)
        wait_until(lambda: "Not live" in get(base + "/pairings").text, 10)
        gone = get(base + "/pairings")
        assert gone.status_code == 200 and f"#{doc['tables'][0]['players'][0]}" in gone.text
        assert get(base + "/health").json()["live"] is False
        _take_away(name, allow=True)
        wait_until(lambda: get(base + "/health").json()["live"] is True, 15)
        t = doc["tables"][0]
        cli("result", "record", "--round", "1", "--table", str(t["table"]), "--winner",
            str(t["players"][1]), "--key", "hj.pem")
        wait_until(lambda: f"#{t['players'][1]} wins" in get(base + "/pairings").text, 5)
        assert "Not live" not in get(base + "/pairings").text


def test_two_reporting_servers_never_record_one_table_twice(tmp_path: Path) -> None:
    """Issue 19: with ``self_report_policy=auto`` the two players of every table report at
    the same moment, one through each of two server processes over one PostgreSQL
    database; each table's result is recorded exactly once (citing both reports) and the
    audit is clean."""
    import csv
    import re
    import threading

    import httpx

    from tests.helpers.reporting_phones import _win_choice

    log = f"live-{uuid.uuid4().hex[:10]}"
    cli, doc = _open(tmp_path, pg_url(), log, "--another-event", "--self-report-policy", "auto")
    cli("keys", "new", "--name", "Live server", "--out", "station.pem")
    cli("official", "add", "--role", "station", "--name", "Live server", "--public-key",
        "station.pem.pub", "--key", "hj.pem")
    cli("player", "cards", "--url", "http://venue.invalid/", "--out", "cards.html", "--csv",
        "cards.csv", "--key", "hj.pem")
    with open(tmp_path / "cards.csv", newline="") as f:
        tokens = {int(r["number"]): r["url"].rsplit("/c/", 1)[1] for r in csv.DictReader(f)}
    c = _win_choice()
    station = ("--station-key", "station.pem")
    with serve_process(tmp_path, cli.env, serve_args=station) as (a, _pa), \
            serve_process(tmp_path, cli.env, serve_args=station) as (b, _pb):
        phones = {}
        for t in doc["tables"]:
            for base, n in zip((a, b), t["players"], strict=True):
                phone = httpx.Client(base_url=base, timeout=20)
                assert phone.get(f"/c/{tokens[n]}").status_code == 303
                page = phone.get("/report").text
                csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', page)
                assert csrf is not None, page
                phones[n] = (phone, base, csrf.group(1), t["players"][0])
        go = threading.Barrier(len(phones))
        codes: dict[int, int] = {}

        def report(n: int) -> None:
            phone, base, csrf, winner = phones[n]
            go.wait()
            codes[n] = phone.post("/report", data={"csrf": csrf, "choice": str(c),
                                                   f"c{c}.winner": str(winner)},
                                  headers={"Origin": base}).status_code

        threads = [threading.Thread(target=report, args=(n,)) for n in phones]
        for th in threads:
            th.start()
        for th in threads:
            th.join(60)
        assert set(codes.values()) == {303}, codes
    events = [leaf["event"] for leaf in cli("log", "--json").doc]
    results = [e for e in events if e["kind"] == "result_recorded"]
    tables = [e["body"]["table"] for e in results]
    assert sorted(tables) == sorted(t["table"] for t in doc["tables"]), tables
    assert all(len(e["body"]["reports"]) == 2 for e in results)
    cli("audit", "verify", "--tournament", log)
