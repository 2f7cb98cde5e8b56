"""The HTTP API's reads (issue 29 item 3, ``server.api_reads``) on a real ``tourney serve``
(uvicorn in a thread on a loopback port) over real ledgers written by the CLI: each read of
a HotC, a Bushiroad and a Wheel of Time event is what the pages show and fits its OpenAPI
schema; the posting gate and the names mode hold (a held round invisible, its pairing leaf
not served; a number-only event shows no name, its leaves are not served); ETag / 304; a
mirror following ``/api/v1/log?after=`` page by page rebuilds ``tourney export``'s
``log.jsonl`` byte for byte and audits it clean; bad input is a JSON usage error, never a
5xx, and writes nothing; the SSE stream nudges after an append.
"""

from __future__ import annotations

import json
import threading
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest
from markupsafe import escape

from server.api_read_schemas import OPENAPI_PATHS, SCHEMAS
from server.api_reads import routes
from tests.helpers.checks import pg_skip_reason, pg_url
from tests.helpers.cli_runner import Cli
from tests.helpers.json_shape import problems
from tests.helpers.live import get, ledger_bytes, running, serve_process, wait_until
from tests.helpers.standings_play import pair, play, record, start

API = "/api/v1"
HJ = ("--key", "hj.pem")
FORMATS = ("hotc-swiss-de", "bushiroad-swiss", "wot-2001")
SCHEMA_OF = {"event": "Event", "rounds": "Round", "standings": "Standings",
             "players": "Player"}


def _event(d: Path, fmt: str, *pages: str, names: list[str] | None = None,
           second: bool = True) -> Cli:
    """Round 1 played, ``pages set`` with ``pages`` (if any), round 2 paired and one of
    its results in."""
    cli, _log = start(d, fmt, names or [f"Player{c} Surname{c}" for c in "ABCDEFGH"])
    play(cli, fmt, 1, pair(cli, fmt, 1))
    if pages:
        cli("pages", "set", *pages, *HJ)
    if second:
        doc = pair(cli, fmt, 2)
        record(cli, fmt, 2, doc["tables"][0])
    return cli


def _read(base: str, path: str, **headers: str) -> dict[str, Any]:
    """A read that must answer 200 with JSON fitting its OpenAPI schema."""
    r = get(base + API + path, **headers)
    assert r.status_code == 200, (path, r.status_code, r.text[:300])
    assert r.headers["content-type"].startswith("application/json")
    assert r.headers["access-control-allow-origin"] == "*"
    doc: dict[str, Any] = r.json()
    schema = SCHEMA_OF[path.strip("/").split("/")[0]]
    assert problems(doc, SCHEMAS[schema], SCHEMAS) == [], (path, doc)
    return doc


def _tag(r: httpx.Response) -> str:
    return r.headers["etag"].strip('"').removesuffix("-gz")


@pytest.mark.parametrize("fmt", FORMATS)
def test_each_read_of_each_format_is_what_the_pages_show(tmp_path: Path, fmt: str) -> None:
    cli = _event(tmp_path, fmt)
    with running(cli.ledger) as (base, hub):
        d = hub.pages.data
        ev = _read(base, "/event")
        assert ev["format"]["id"] == fmt and ev["tournament"] == d.log
        assert [r["round"] for r in ev["rounds"]] == [1, 2] and ev["current_round"] == 2
        assert ev["log"]["size"] == d.checkable.size and ev["log"]["root"] == d.checkable.root
        assert ev["pages"] == {"names": "full", "penalties": False, "hold_pairings": False}
        assert str(escape(ev["status"])) in get(base + "/").text
        for n in (1, 2):
            rd = _read(base, f"/rounds/{n}")
            page = get(base + f"/round/{n}").text
            assert rd["round"] == n and len(rd["tables"]) == len(d.round(n)["tables"])  # type: ignore[index]
            for t in rd["tables"]:
                assert str(escape(t["a"])) in page and str(escape(t["result"])) in page
                a, b = t["entrants"]
                assert t["a"].startswith(d.labels[a]) and t["b"].startswith(d.labels[b])
        results = [t["result"] for t in _read(base, "/rounds/2")["tables"]]
        assert results.count("—") == len(results) - 1   # the one result of round 2 is in
        st = _read(base, "/standings")
        page = get(base + "/standings").text
        assert len(st["rows"]) == len(d.standings["rows"]) == 8  # type: ignore[index]
        keys = [c["key"] for c in st["columns"]]
        for row in st["rows"]:
            assert set(row["cells"]) == set(keys)
            assert all(str(escape(v)) in page for v in row["cells"].values())
        for n in d.labels:
            p = _read(base, f"/players/{n}")
            mine = get(base + f"/p/{n}").text
            assert p["number"] == n and str(escape(p["label"])) in mine
            assert [m["round"] for m in p["matches"]] == \
                [d.rounds[a.round_index]["round"] for a in d.appearances(n)]
            assert p["now"] is not None and p["now"]["round"] == 2
            assert str(escape(p["now"]["opponent"])) in mine
            assert p["penalties"] is None                  # not published (the default)


def test_a_number_only_event_shows_no_name_and_serves_no_leaves(tmp_path: Path) -> None:
    """The names mode applies to every read as to the pages; the signed leaves hold the
    names, so they are not served."""
    cli = _event(tmp_path, "bushiroad-swiss", "--names", "number", "--penalties",
                 names=[f"Zork{c} Quimby{c}" for c in "ABCDEF"])
    with running(cli.ledger) as (base, hub):
        bodies = [get(base + API + p).text for p in
                  ("/event", "/rounds/1", "/rounds/2", "/standings",
                   *(f"/players/{n}" for n in range(1, 7)))]
        assert all("Zork" not in b and "Quimby" not in b for b in bodies)
        assert _read(base, "/players/3")["label"] == "#3"
        assert _read(base, "/event")["log"]["served"] is False
        r = get(base + API + "/log?after=0")
        assert r.status_code == 403 and "Zork" not in r.text
        err = r.json()["error"]
        assert err["kind"] == "usage" and "full names" in err["message"] and err["hint"]


def test_a_held_round_is_not_read_and_its_pairing_leaf_is_not_served(tmp_path: Path) -> None:
    """The posting gate (ADR 0023): round 2 paired while held is in no read, and the log
    is served only up to the leaf before its pairing; once posted, both are."""
    cli = _event(tmp_path, "hotc-swiss-de", "--hold-pairings", "--penalties", second=False)
    pair(cli, "hotc-swiss-de", 2)                       # held
    with running(cli.ledger) as (base, hub):
        paired = hub.follower.state.pages.paired[2]
        ev = _read(base, "/event")
        assert ev["held"] == [2] and [r["round"] for r in ev["rounds"]] == [1]
        assert ev["log"]["public_size"] == paired - 1 < ev["log"]["size"]
        r = get(base + API + "/rounds/2")
        assert r.status_code == 404 and r.json()["error"]["kind"] == "usage"
        p = _read(base, "/players/1")
        assert p["now"] is None and p["held_next"] == 2
        leaves = get(base + API + "/log?after=0&limit=5000")
        lines = leaves.content.splitlines()
        assert len(lines) == paired - 1 == int(leaves.headers["tourney-public-size"])
        assert json.loads(lines[-1])["event"]["seq"] == paired - 1
        beyond = get(base + API + f"/log?after={paired}")
        assert beyond.status_code == 404 and "posted" in beyond.json()["error"]["hint"]
        cli("round", "post", *HJ)
        wait_until(lambda: get(base + API + "/rounds/2").status_code == 200, 5)
        ev = _read(base, "/event")
        assert ev["held"] == [] and ev["log"]["public_size"] == ev["log"]["size"]
        rest = get(base + API + f"/log?after={paired - 1}").content.splitlines()
        assert json.loads(rest[0])["event"]["kind"] == "round_paired"
        assert len(rest) == ev["log"]["size"] - paired + 1


def test_etags_answer_304_and_change_with_the_log(tmp_path: Path) -> None:
    cli = _event(tmp_path, "hotc-swiss-de", "--penalties")
    with running(cli.ledger) as (base, hub):
        paths = ["/event", "/rounds/2", "/standings", "/players/1", "/log?after=0&limit=5"]
        first = {p: get(base + API + p) for p in paths}
        for p, r in first.items():
            assert r.status_code == 200 and r.headers["cache-control"] == "no-cache"
            again = get(base + API + p, **{"If-None-Match": r.headers["etag"]})
            assert again.status_code == 304 and again.content == b""
        size = hub.pages.data.checkable.size
        open_before = [t["result"] for t in _read(base, "/rounds/2")["tables"]].count("—")
        round1 = get(base + API + "/rounds/1", **{"Accept-Encoding": "identity"})
        table = cli("round", "show", "2", "--json").doc["tables"][1]
        record(cli, "hotc-swiss-de", 2, table)
        wait_until(lambda: hub.pages.data.checkable.size > size, 5)
        for p, r in first.items():
            now = get(base + API + p, **{"If-None-Match": r.headers["etag"]})
            if p.startswith("/log"):                     # leaves 1-5 never change
                assert now.status_code == 304
            else:
                assert now.status_code == 200 and _tag(now) != _tag(r)
                assert _tag(now) == hub.pages.etag
        # round 1's body is kept from the last log size; round 2's shows the new result
        assert [t["result"] for t in _read(base, "/rounds/2")["tables"]].count("—") == \
            open_before - 1
        assert get(base + API + "/rounds/1", **{"Accept-Encoding": "identity"}).content \
            == round1.content
        assert _tag(get(base + API + "/rounds/1")) != _tag(round1)


def test_a_mirror_following_the_log_rebuilds_the_export_and_audits_clean(
        tmp_path: Path) -> None:
    cli = _event(tmp_path / "ev", "bushiroad-swiss", "--penalties")
    cli("penalty", "issue", "2", "--infraction", "3.5.3.2", "--penalty", "warning", *HJ)
    cli("export", str(tmp_path / "bundle"))
    exported = (tmp_path / "bundle" / "log.jsonl").read_bytes()
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    with running(cli.ledger) as (base, _hub):
        got, after, pages = b"", 0, 0
        while True:
            r = get(base + API + f"/log?after={after}&limit=7")
            assert r.status_code == 200 and r.headers["content-type"].startswith(
                "application/x-ndjson")
            if not r.content:
                break
            got += r.content
            pages += 1
            after = int(r.headers["tourney-next-after"])
        assert after == int(r.headers["tourney-public-size"])
    assert got == exported and pages == -(-exported.count(b"\n") // 7)
    (mirror / "log.jsonl").write_bytes(got)
    doc = cli("audit", "verify", str(mirror), "--json").doc
    assert doc["ok"] is True and not [f for f in doc["findings"]
                                      if f["severity"] == "error"], doc


BAD = [
    ("/rounds/0", 400), ("/rounds/abc", 400), ("/rounds/%C2%B2", 400),
    ("/rounds/99999999999999999999", 400), ("/rounds/3", 404), ("/rounds/999", 404),
    ("/players/abc", 400), ("/players/0", 400), ("/players/-1", 400), ("/players/9", 404),
    ("/log?after=-1", 400), ("/log?after=abc", 400), ("/log?after=1e3", 400),
    ("/log?limit=0", 400), ("/log?limit=5001", 400), ("/log?after=100000", 404),
]


def test_bad_input_is_a_json_usage_error_and_writes_nothing(tmp_path: Path) -> None:
    cli = _event(tmp_path, "hotc-swiss-de", "--penalties")
    before = ledger_bytes(cli.ledger)
    with running(cli.ledger) as (base, _hub):
        for path, status in BAD:
            r = get(base + API + path)
            assert r.status_code == status, (path, r.status_code, r.text[:200])
            assert r.headers["content-type"].startswith("application/json")
            doc = r.json()
            assert problems(doc, SCHEMAS["ReadError"], SCHEMAS) == [], (path, doc)
            assert doc["error"]["message"] and doc["error"]["hint"], path
    assert ledger_bytes(cli.ledger) == before


def test_the_stream_nudges_api_clients_after_an_append(tmp_path: Path) -> None:
    cli = _event(tmp_path, "hotc-swiss-de")
    with running(cli.ledger) as (base, _hub):
        nudges: list[dict[str, Any]] = []

        def listen() -> None:
            try:
                with httpx.stream("GET", base + API + "/stream", timeout=30) as s:
                    if s.headers["content-type"].startswith("text/event-stream") and \
                            s.headers["access-control-allow-origin"] == "*":
                        for line in s.iter_lines():
                            if line.startswith("data: "):
                                nudges.append(json.loads(line[6:]))
            except httpx.HTTPError:      # the server stopping at the end of the test
                pass

        threading.Thread(target=listen, daemon=True).start()
        wait_until(lambda: len(nudges) == 1, 5)
        table = cli("round", "show", "2", "--json").doc["tables"][1]
        record(cli, "hotc-swiss-de", 2, table)
        wait_until(lambda: len(nudges) == 2, 5)
        assert nudges[1]["size"] == nudges[0]["size"] + 1
        assert nudges[1]["v"] == _tag(get(base + API + "/event"))


def test_the_openapi_paths_describe_every_read() -> None:
    """Every route has a path item; every $ref resolves; every answer has a schema."""
    paths = {r.path for r in routes}                     # type: ignore[attr-defined]
    assert paths == set(OPENAPI_PATHS)
    blob = json.dumps(OPENAPI_PATHS)
    for ref in {part.split('"')[0] for part in blob.split('"$ref": "')[1:]}:
        assert ref.removeprefix("#/components/schemas/") in SCHEMAS, ref
    for path, item in OPENAPI_PATHS.items():
        op = item["get"]
        assert op["operationId"] and op["summary"] and "200" in op["responses"], path
        for p in op.get("parameters", []):
            assert p["in"] in ("path", "query", "header") and "schema" in p
            assert p["in"] != "path" or "{" + p["name"] + "}" in path


@pytest.mark.parametrize("fmt", ["hotc-swiss-de", "bushiroad-swiss"])
def test_every_read_of_a_whole_event_with_its_cut_fits_its_schema(tmp_path: Path,
                                                                   fmt: str) -> None:
    """``tourney simulate``: Swiss, the cut, the bracket and the champion, every read."""
    cli = Cli(tmp_path, tmp_path / "whole.db")
    cli("simulate", "--players", "12", "--format", fmt, "--cut", "4", "--seed", f"api {fmt}")
    with running(cli.ledger) as (base, hub):
        d = hub.pages.data
        ev = _read(base, "/event")
        assert ev["over"] is True and ev["champion"] == d.champion is not None
        assert ev["bracket"]["rounds"] and ev["bracket"]["seeds"]
        for r in ev["rounds"]:
            rd = _read(base, f"/rounds/{r['round']}")
            assert rd["name"] == r["name"] and len(rd["tables"]) == r["tables"]
        assert {r["round"] for r in ev["rounds"]} >= set(ev["bracket"]["rounds"])
        assert len(_read(base, "/standings")["rows"]) == 12
        for n in range(1, 13):
            p = _read(base, f"/players/{n}")
            assert len(p["matches"]) == len(d.appearances(n))


def test_a_team_event_names_each_seat_and_its_players(tmp_path: Path) -> None:
    """A trio table (issue 20): the teams are the entrants, each seat names its players."""
    cli = Cli(tmp_path, tmp_path / "trio.db")
    cli("simulate", "--players", "18", "--format", "bushiroad-swiss", "--param",
        "team_mode=trio", "--seed", "api trio")
    with running(cli.ledger) as (base, hub):
        d = hub.pages.data
        rd = _read(base, "/rounds/1")
        table = rd["tables"][0]
        assert len(table["seats"]) == 3 and table["a"] not in d.labels.values()
        for seat in table["seats"]:
            x, y = seat["players"]
            assert d.labels[x] == seat["a"] and d.labels[y] == seat["b"]
            assert _read(base, f"/players/{x}")["matches"][0]["table"] == \
                f"{table['table']} seat {seat['seat']}"


def test_a_ledger_that_cannot_be_read_is_a_json_503_for_the_log(tmp_path: Path) -> None:
    cli = _event(tmp_path, "hotc-swiss-de", "--penalties")
    with running(cli.ledger) as (base, _hub):
        assert get(base + API + "/log?after=0&limit=3").status_code == 200
        moved = tmp_path / "elsewhere"
        moved.mkdir()
        for p in tmp_path.glob("t.db*"):
            p.rename(moved / p.name)
        r = get(base + API + "/log?after=3&limit=3")
        assert r.status_code == 503 and r.headers["retry-after"]
        assert r.json()["error"]["kind"] == "storage"


@pytest.mark.postgres
@pytest.mark.skipif(pg_skip_reason() is not None, reason=pg_skip_reason() or "")
def test_a_mirror_of_a_postgresql_ledger_through_tourney_serve(tmp_path: Path) -> None:
    """The real ``tourney serve`` process over PostgreSQL: pages of the log read alone
    (``Ledger.raw_leaves(upto=)``) rebuild the export byte for byte."""
    log = f"api-{uuid.uuid4().hex[:10]}"
    cli = Cli(tmp_path, pg_url())  # type: ignore[arg-type]  # the CLI takes a URL as --ledger
    cli.env["TOURNEY_TOURNAMENT"] = log
    cli("keys", "new", "--name", "hj person", "--out", "hj.pem")
    cli("init", "--name", "API PG", "--id", log, "--format", "hotc-swiss-de", "--cut", "4",
        "--another-event", *HJ)
    (tmp_path / "players.csv").write_text("number,name\n" + "".join(
        f"{i},Player {i}\n" for i in range(1, 9)))
    cli("player", "import", "players.csv", *HJ)
    cli("registration", "close", *HJ)
    cli("pages", "set", "--penalties", *HJ)
    cli("round", "pair", "--seed-material", "api pg 1", "--seed-source", "dice", *HJ)
    cli("export", str(tmp_path / "bundle"))
    exported = (tmp_path / "bundle" / "log.jsonl").read_bytes()
    with serve_process(tmp_path, cli.env) as (base, _proc):
        got, after = b"", 0
        while True:
            r = get(base + API + f"/log?after={after}&limit=4")
            assert r.status_code == 200, r.text
            if not r.content:
                break
            got += r.content
            after = int(r.headers["tourney-next-after"])
        assert _read(base, "/rounds/1")["tables"]
    assert got == exported
