"""``tourney serve`` (issue 18): a real server on a loopback port over a real ledger that
the real CLI keeps writing.

Pages and their ETags (304, gzip), a page and its SSE nudge updating after the CLI records
a result, search, helpful 404s, names with markup, every format's pages, the start-up
errors of the CLI contract, and kill -9 losing nothing.
"""

from __future__ import annotations

import json
import re
import socket
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.helpers.cli_runner import Cli, snapshot
from tests.helpers.live import get, running, serve_process, wait_until
from tests.helpers.standings_play import FORMATS, pair, play, record, start

NAMES = ["Ana Alves", "Bo Brandt", "<script>alert(1)</script> Mallory", "Dee Alder",
         "Eve \u05e2\u05d3\u05df Eggers", "Fay Foster", "Gus " + "G" * 95, "Hal Hart"]
PAGES = ("/", "/find", "/pairings", "/standings", "/bracket", "/verify")


@pytest.fixture()
def event(tmp_path: Path) -> tuple[Cli, str, dict[str, Any]]:
    """A HotC event with round 1 paired and no result yet."""
    cli, log = start(tmp_path, "hotc-swiss-de", NAMES)
    doc = pair(cli, "hotc-swiss-de", 1)
    return cli, log, doc


def test_pages_etag_304_and_gzip(event: tuple[Cli, str, dict[str, Any]]) -> None:
    cli, log, doc = event
    with running(cli.ledger) as (base, hub):
        size = hub.data.checkable.size
        for path in PAGES:
            r = get(base + path)
            assert r.status_code == 200, path
            assert "Traceback" not in r.text
            tag = r.headers["etag"]
            assert tag.startswith(f'"{size}-'), tag        # the log size and root
            assert f"log size {size} · root {hub.data.checkable.short}…" in r.text
            again = get(base + path, **{"If-None-Match": tag})
            assert again.status_code == 304 and again.content == b""
        r = httpx.get(base + "/pairings", headers={"Accept-Encoding": "gzip"})
        assert r.headers["content-encoding"] == "gzip" and r.headers["etag"].endswith('-gz"')
        assert get(base + "/pairings", **{"If-None-Match": r.headers["etag"]}).status_code \
            == 304
        # the pairings of round 1, each table with both players
        page = get(base + "/pairings").text
        for t in doc["tables"]:
            cell = rf'<td class="num">{t["table"]}</td><td><bdi>#{t["players"][0]} '
            assert re.search(cell, page)


def test_result_recorded_by_the_cli_updates_the_page_and_nudges(
        event: tuple[Cli, str, dict[str, Any]]) -> None:
    cli, log, doc = event
    with running(cli.ledger) as (base, hub):
        first = get(base + "/pairings")
        nudges: list[dict[str, Any]] = []

        def listen() -> None:
            with httpx.stream("GET", base + "/live", timeout=10) as s:
                for line in s.iter_lines():
                    if line.startswith("data: "):
                        nudges.append(json.loads(line[6:]))
                        if len(nudges) >= 2:
                            return

        t = threading.Thread(target=listen, daemon=True)
        t.start()
        wait_until(lambda: len(nudges) >= 1, 5)          # the stream says where it starts
        assert nudges[0]["size"] == hub.data.checkable.size
        record(cli, "hotc-swiss-de", 1, doc["tables"][0])
        took = wait_until(lambda: get(base + "/pairings", **{
            "If-None-Match": first.headers["etag"]}).status_code == 200, 3)
        assert took < 3
        fresh = get(base + "/pairings")
        assert fresh.headers["etag"] != first.headers["etag"]
        winner = doc["tables"][0]["players"][0]
        assert f"#{winner} wins" in fresh.text
        wait_until(lambda: len(nudges) >= 2, 4)           # coalesced, trailing send
        assert nudges[1]["size"] == hub.data.checkable.size > nudges[0]["size"]
        assert set(nudges[1]) == {"size", "root", "live", "v", "spread"}  # content-free


def test_find_by_name_or_number_lands_on_the_players_page(
        event: tuple[Cli, str, dict[str, Any]]) -> None:
    cli, log, doc = event
    with running(cli.ledger) as (base, _hub):
        r = get(base + "/find?q=brA")                     # a word's prefix, any case
        assert r.status_code == 303 and r.headers["location"] == "/p/2"
        assert get(base + "/find?q=%237").headers["location"] == "/p/7"
        many = get(base + "/find?q=a")
        assert many.status_code == 200 and 'href="/p/1"' in many.text and 'href="/p/4"' in many.text
        none = get(base + "/find?q=zzz")
        assert "No player matches" in none.text
        me = get(base + "/p/2").text
        table = next(t for t in doc["tables"] if 2 in t["players"])
        assert f"table {table['table']}" in me and "Opponent: <bdi>#" in me


def test_unknown_pages_are_helpful_404s(event: tuple[Cli, str, dict[str, Any]]) -> None:
    cli, log, _doc = event
    with running(cli.ledger) as (base, _hub):
        for path, says in (("/p/999", "No player #999"), ("/round/9", "Round 9 has no"),
                           ("/p/abc", "No player #abc"), ("/nope", "no such page"),
                           ("/proof/9.json", "has no posted")):
            r = get(base + path)
            assert r.status_code == 404, path
            assert says in r.text and 'action="/find"' in r.text
            assert "Traceback" not in r.text


def test_names_with_markup_and_bidi_are_escaped(
        event: tuple[Cli, str, dict[str, Any]]) -> None:
    cli, log, _doc = event
    with running(cli.ledger) as (base, _hub):
        for path in ("/pairings", "/standings", "/p/3", "/find?q=mal"):
            text = httpx.get(base + path, follow_redirects=True).text
            assert "<script>alert" not in text
            assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text or path == "/standings"
        assert "\u05e2\u05d3\u05df" in get(base + "/p/5").text  # right-to-left text kept


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_every_format_serves_every_page(tmp_path: Path, fmt: str) -> None:
    names = [f"Player {c}" for c in "ABCDEFGH"]
    cli, log = start(tmp_path, fmt, names)
    doc = pair(cli, fmt, 1)
    play(cli, fmt, 1, doc)
    second = pair(cli, fmt, 2)
    record(cli, fmt, 2, second["tables"][0])
    with running(cli.ledger) as (base, hub):
        data = hub.data
        assert [r["round"] for r in data.rounds] == [1, 2]
        for path in (*PAGES, "/round/1", "/round/2",
                     *(f"/p/{n}" for n in range(1, len(names) + 1))):
            r = get(base + path)
            assert r.status_code == 200, (fmt, path, r.text[:300])
            assert "Traceback" not in r.text and data.checkable.text() in r.text
        noun = data.noun
        assert f"{noun} 2" in get(base + "/pairings").text
        player = second["tables"][0]["players"][0] if "players" in second["tables"][0] \
            else second["tables"][0]["hero"]
        mine = get(base + f"/p/{player}").text
        # a bracket round is named by what it is (issue 32: "Semifinal", not "Round 2")
        assert "Matches" in mine and f"{data.rounds[-1]['name']}:" in mine
        if fmt.startswith("wot"):
            assert "Hero" in mine or "Villain" in mine
            assert "pile pairing: the Hero pile against the Villain pile" in \
                get(base + "/round/2").text


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


def test_an_earlier_round_amended_mid_round_shows_once_the_log_is_quiet(
        tmp_path: Path) -> None:
    """A result of round 2 reads only round 2 again (a partial build); an amendment of
    round 1 made while round 2 is played shows after the whole is built again."""
    cli, _log = start(tmp_path, "hotc-swiss-de", [f"P{c}" for c in "ABCDEFGH"])
    first = pair(cli, "hotc-swiss-de", 1)
    play(cli, "hotc-swiss-de", 1, first)
    second = pair(cli, "hotc-swiss-de", 2)
    t = first["tables"][0]
    with running(cli.ledger) as (base, hub):
        record(cli, "hotc-swiss-de", 2, second["tables"][0])
        wait_until(lambda: "wins" in get(base + "/pairings").text, 5)
        assert f"#{t['players'][0]} wins" in get(base + "/round/1").text
        cli("result", "amend", "--round", "1", "--table", str(t["table"]), "--winner",
            str(t["players"][1]), "--reason", "slip swapped", "--key", "hj.pem")
        wait_until(lambda: f"#{t['players'][1]} wins" in get(base + "/round/1").text, 8)
        page = get(base + "/round/1")
        assert hub.data.partial is False and page.headers["etag"].startswith(
            f'"{hub.data.checkable.size}-')


def test_phone_wall_sheet_and_info_show_the_same_log(
        event: tuple[Cli, str, dict[str, Any]]) -> None:
    """The line at the foot of a phone's page is the printed sheet's, and the size and
    root are what 'tourney info' says of the log (issue 18: compare them by eye)."""
    cli, _log, _doc = event
    sheet = cli("round", "show", "1", "--html").out
    standings = cli("standings", "--html").out
    info = cli("info", "--json").doc
    with running(cli.ledger) as (base, _hub):
        phone = get(base + "/pairings").text
    line = re.compile(r"log size \d+ · root [0-9a-f]{16}… · \d+ witness cosignatures?[^<]*")
    shown = {m.group(0) for m in (line.search(phone), line.search(sheet),
                                  line.search(standings)) if m}
    assert len(shown) == 1, shown
    assert f"log size {info['size']} · root {info['root'][:16]}…" in shown.pop()


def test_the_round_clock_and_a_tables_extension_show(tmp_path: Path) -> None:
    """``round start`` gives the clock (start + minutes: the end), ``round time`` says
    time was called, ``round extend`` shows on that table's players' pages (BR-TIME-5,
    BR-EXT-1)."""
    cli, _log = start(tmp_path, "bushiroad-swiss", [f"P{c}" for c in "ABCDEF"])
    doc = pair(cli, "bushiroad-swiss", 1)
    t = doc["tables"][0]
    with running(cli.ledger) as (base, hub):
        assert 'class="clock"' not in get(base + "/").text
        cli("round", "start", "--minutes", "50", "--key", "hj.pem")
        wait_until(lambda: "50 minutes from" in get(base + "/").text, 5)
        clock = hub.data.clock
        assert clock is not None and clock.minutes == 50
        assert f'data-ends="{clock.ends}"' in get(base + "/pairings").text
        cli("round", "extend", "--round", "1", "--table", str(t["table"]), "--minutes", "3",
            "--reason", "a ruling took 3 minutes", "--key", "hj.pem")
        wait_until(lambda: "3 extra minutes" in get(base + f"/p/{t['players'][0]}").text, 5)
        other = next(tb for tb in doc["tables"] if tb is not t)
        assert "extra minute" not in get(base + f"/p/{other['players'][0]}").text
        cli("round", "time", "--key", "hj.pem")
        wait_until(lambda: "time has been called" in get(base + "/").text, 5)


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_a_simulated_event_of_every_format_renders_every_page(tmp_path: Path,
                                                              fmt: str) -> None:
    """``tourney simulate`` (a whole event, top cut and bracket included) served: every
    page of every round and every player renders, and the bracket shows the champion."""
    cli = Cli(tmp_path, tmp_path / "sim.db")
    cli("simulate", "--players", "12", "--format", fmt, "--seed", f"live {fmt}")
    with running(cli.ledger) as (base, hub):
        data = hub.data
        assert data.rounds and data.standings is not None
        paths = [*PAGES, *(f"/round/{r['round']}" for r in data.rounds),
                 *(f"/p/{n}" for n in data.labels)]
        for path in paths:
            r = get(base + path)
            assert r.status_code == 200, (fmt, path)
            assert "Traceback" not in r.text and data.checkable.text() in r.text
        if data.champion:
            assert f"champion <bdi>{data.champion}</bdi>" in get(base + "/").text.replace(
                "&#34;", '"')
        if data.bracket["rounds"]:
            assert 'class="match"' in get(base + "/bracket").text


def test_held_pairings_stay_off_the_pages_and_phones_are_nudged_when_posted(
        tmp_path: Path) -> None:
    """The posting gate (ADR 0023): a round paired while held is not shown and sends no
    nudge; 'tourney round post' shows it and nudges."""
    cli, _log = start(tmp_path, "hotc-swiss-de", [f"Ann{c} Zed{c}" for c in "ABCDEFGH"])
    first = pair(cli, "hotc-swiss-de", 1)
    play(cli, "hotc-swiss-de", 1, first)
    cli("pages", "set", "--hold-pairings", "--names", "initial", "--key", "hj.pem")
    with running(cli.ledger) as (base, hub):
        nudges: list[dict[str, Any]] = []

        def listen() -> None:
            with httpx.stream("GET", base + "/live", timeout=30) as s:
                for line in s.iter_lines():
                    if line.startswith("data: "):
                        nudges.append(json.loads(line[6:]))

        threading.Thread(target=listen, daemon=True).start()
        wait_until(lambda: len(nudges) == 1, 5)
        pair(cli, "hotc-swiss-de", 2)
        wait_until(lambda: "being checked" in get(base + "/").text, 5)
        assert "Round 2" not in get(base + "/pairings").text
        assert get(base + "/round/2").status_code == 404
        import time as _t
        _t.sleep(2.0)                                     # past the coalescing window
        assert len(nudges) == 1, nudges                   # no nudge for a held round
        cli("round", "post", "--key", "hj.pem")
        wait_until(lambda: len(nudges) == 2, 5)
        assert "Round 2" in get(base + "/pairings").text
        assert get(base + "/round/2").status_code == 200
        for path in ("/p/1", "/pairings", "/standings", "/find?q=zed"):
            page = get(base + path).text                  # "First L.": no surname shown
            assert "ZedA" not in page and ("AnnA Z." in page or path == "/find?q=zed")
        assert "No player matches" in get(base + "/find?q=zed").text  # nor searchable


def test_penalties_show_on_the_players_page_only_when_published(tmp_path: Path) -> None:
    cli, _log = start(tmp_path, "bushiroad-swiss", [f"P{c}" for c in "ABCDEF"])
    pair(cli, "bushiroad-swiss", 1)
    cli("penalty", "issue", "2", "--infraction", "3.5.3.2", "--penalty", "warning",
        "--key", "hj.pem")
    with running(cli.ledger) as (base, _hub):
        assert "Penalties" not in get(base + "/p/2").text
        cli("pages", "set", "--penalties", "--key", "hj.pem")
        wait_until(lambda: "Penalties" in get(base + "/p/2").text, 5)
        mine = get(base + "/p/2").text
        assert "round 1: warning" in mine
        assert "None." in get(base + "/p/3").text          # published, and none for #3


def test_a_trio_event_shows_team_tables_with_seats_and_finds_members(
        tmp_path: Path) -> None:
    """Issue 20 on the live pages: a team table lists its seats; a member who is not the
    representative finds their own seat by name."""
    cli = Cli(tmp_path, tmp_path / "trio.db")
    cli("simulate", "--players", "18", "--format", "bushiroad-swiss", "--param",
        "team_mode=trio", "--seed", "live trio")
    with running(cli.ledger) as (base, hub):
        r1 = get(base + "/round/1").text
        assert r1.count('<tr class="seat">') >= 3 and "seat 3" in r1
        first = hub.data.rounds[0]["tables"][0]
        assert first["a"] != first["seats"][-1]["a"]  # the team's name, not its captain's
        member = first["seats"][0]["a"]              # position 1: not the representative
        n = int(member.split()[0].lstrip("#"))
        mine = get(base + f"/p/{n}").text
        assert f"{first['table']} seat 1" in mine and "(team:" in mine


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
