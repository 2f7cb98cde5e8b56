"""``tourney serve`` as a process (issue 18): the start-up errors of the CLI contract (not
a tournament, a port in use), its address and QR page, kill -9 losing nothing, and
``--server granian``.  The pages themselves: ``tests/test_serve.py``.
"""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.cli_runner import Cli, snapshot
from tests.helpers.live import get, serve_process, wait_until
from tests.helpers.standings_play import pair, record, start

NAMES = ["Ana Alves", "Bo Brandt", "<script>alert(1)</script> Mallory", "Dee Alder",
         "Eve \u05e2\u05d3\u05df Eggers", "Fay Foster", "Gus " + "G" * 95, "Hal Hart"]


@pytest.fixture()
def event(tmp_path: Path) -> tuple[Cli, str, dict[str, Any]]:
    """A HotC event with round 1 paired and no result yet."""
    cli, log = start(tmp_path, "hotc-swiss-de", NAMES)
    doc = pair(cli, "hotc-swiss-de", 1)
    return cli, log, doc


def test_serve_refuses_what_is_not_a_tournament(tmp_path: Path) -> None:
    cli = Cli(tmp_path, tmp_path / "junk.db")
    (tmp_path / "junk.db").write_bytes(b"this is not a ledger\n" * 40)
    run = cli("serve", "--host", "127.0.0.1", "--port", "0", code=5)
    assert "junk.db" in run.err
    missing = Cli(tmp_path, tmp_path / "none.db")("serve", "--host", "127.0.0.1", code=None)
    assert missing.code in (2, 5) and "none.db" in missing.err
    pg = cli("--ledger", "postgresql://postgres@127.0.0.1:9/nothing", "serve", "--host",
             "127.0.0.1", "--port", "0", code=5)
    assert "127.0.0.1:9" in pg.err



def test_serve_refuses_a_port_in_use(event: tuple[Cli, str, dict[str, Any]]) -> None:
    cli, _log, _doc = event
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        run = cli("serve", "--host", "127.0.0.1", "--port", str(port), code=2)
        assert f"127.0.0.1:{port}" in run.err and "--port" in run.err



def test_kill_9_of_the_server_loses_nothing(event: tuple[Cli, str, dict[str, Any]]) -> None:
    cli, log, doc = event
    with serve_process(cli.cwd, cli.env) as (base, proc):
        record(cli, "hotc-swiss-de", 1, doc["tables"][0])
        wait_until(lambda: "wins" in get(base + "/pairings").text, 5)
        before = snapshot(cli.ledger)
        proc.kill()                                       # SIGKILL
        proc.wait(10)
    assert snapshot(cli.ledger) == before                 # the server wrote nothing
    cli("audit", "verify", str(cli.ledger))
    shown = cli("round", "show", "1", "--json").doc
    assert shown["tables"][0]["result"] is not None



def test_serve_prints_its_address_and_a_qr_page(
        event: tuple[Cli, str, dict[str, Any]]) -> None:
    cli, _log, _doc = event
    with serve_process(cli.cwd, cli.env) as (base, proc):
        qr = get(base + "/qr")
        assert qr.status_code == 200 and "<svg" in qr.text and base in qr.text
        proc.terminate()
        out, _err = proc.communicate(timeout=10)
    assert base + "/" in out and "printable QR page" in out



def test_serve_with_granian(event: tuple[Cli, str, dict[str, Any]]) -> None:
    """``--server granian`` serves the same pages (its worker builds its own hub)."""
    pytest.importorskip("granian", reason="granian is not installed (pip install granian)")
    cli, _log, doc = event
    with serve_process(cli.cwd, cli.env, serve_args=("--server", "granian")) as (base, _p):
        page = get(base + "/pairings")
        assert page.status_code == 200 and f"#{doc['tables'][0]['players'][0]} " in page.text
        assert get(base + "/pairings", **{"If-None-Match": page.headers["etag"]}
                   ).status_code == 304
        record(cli, "hotc-swiss-de", 1, doc["tables"][0])
        # the update itself is benchmarked (bench_serve.py: ~0.1 s); here granian's worker
        # process only has to show it, on 2 cores shared with the rest of the suite
        wait_until(lambda: "wins" in get(base + "/pairings").text, 15)
