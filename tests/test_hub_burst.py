"""A burst of results from one official (issue 29's benchmark; ADR 0051): the hub folds
every append at once but builds and renders the pages at most once per ``BUILD_GAP_S``
while appends stream in, with a trailing build once the writer is idle.  What must still
hold (ADR 0032): a page read after the nudge shows every append the nudge names; a
response waiting for the pages (``Hub.fresh(shown=True)``, ``?fresh=1``) has them built
at once; the fold itself (``Hub.fresh``) is never delayed.

The rule on a real ledger with real signed commands (``Hub.refresh`` called directly, no
threads: deterministic), then a real ``tourney serve`` process taking a burst over the
API.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from cli.api_runner import ApiRunner
from ledger.storage.location import Location
from ledger.wire.keys import load_signer
from server import hub as hub_mod
from server.hub import Hub
from tests.helpers.api_event import HttpDesk, Opening, round_tables, small_event
from tests.helpers.live import serve_process, wait_until

STAFF = ("--station-key", "st.pem", "--staff-key", "sk.pem")


@pytest.fixture
def event(tmp_path: Path) -> Iterator[tuple[Opening, ApiRunner, Hub]]:
    op = small_event(tmp_path)
    runner = ApiRunner(Location(str(op.cli.ledger)))
    hub = Hub(Location(str(op.cli.ledger)), None)
    yield op, runner, hub
    hub.close()
    runner.close()


def _body(hub: Hub, key: str) -> str:
    page = hub.pages.get(key)
    assert page is not None, key
    return page.body.decode()


def _enter(op: Opening, runner: ApiRunner, t: dict[str, Any]) -> int:
    out = runner.run("result/record", {"round": 1, "table": t["table"],
                                       "winner": t["players"][0]},
                     load_signer(op.d / "sk.pem"))
    assert out.ok and out.seq is not None, out.error
    return out.seq


def test_after_a_quiet_log_an_append_is_built_at_once(
        event: tuple[Opening, ApiRunner, Hub]) -> None:
    op, runner, hub = event
    t = round_tables(op.cli, 1)[0]
    seq = _enter(op, runner, t)
    hub.refresh()                                # the last build was long ago
    assert hub.follower.state.size == hub.data.checkable.size == seq
    assert f"#{t['players'][0]} wins" in _body(hub, "pairings")


def test_appends_streaming_in_are_folded_at_once_and_built_when_due(
        event: tuple[Opening, ApiRunner, Hub]) -> None:
    op, runner, hub = event
    tables = round_tables(op.cli, 1)
    shown = hub.data.checkable.size
    seqs = []
    for t in tables[:3]:
        seqs.append(_enter(op, runner, t))
        hub.published_at = time.monotonic()      # a build just done: appends stream in
        hub.refresh()
    assert hub.follower.state.size == seqs[-1]   # folded: the staff page, the form show it
    assert hub.data.checkable.size == shown      # coalesced: the pages not built yet
    assert hub.unbuilt_since is not None
    assert 0 < hub.due_in(time.monotonic()) <= max(hub_mod.BUILD_GAP_S, hub_mod.IDLE_S)
    # the writer goes idle: the trailing build is due IDLE_S after the last fold
    assert hub.due_in(hub.last_fold + hub_mod.IDLE_S) <= 0
    hub.last_fold -= hub_mod.IDLE_S              # as if IDLE_S had passed
    hub.refresh()
    assert hub.data.checkable.size == seqs[-1] and hub.unbuilt_since is None
    body = _body(hub, "pairings")
    assert all(f"#{t['players'][0]} wins" in body for t in tables[:3])


def test_a_response_waiting_for_the_pages_has_them_built_at_once(
        event: tuple[Opening, ApiRunner, Hub]) -> None:
    op, runner, hub = event
    t = round_tables(op.cli, 1)[0]
    seq = _enter(op, runner, t)
    hub.published_at = time.monotonic()          # a build just done
    hub.refresh()
    assert hub.data.checkable.size < seq         # coalesced …
    hub.wanted = seq                             # … until ``fresh(seq, shown=True)`` asks
    assert hub.due_in(time.monotonic()) == 0
    hub.refresh()
    assert hub.data.checkable.size == seq


def _listen(base: str, nudges: list[dict[str, Any]], stop: threading.Event) -> None:
    try:
        with httpx.stream("GET", base + "/live", timeout=60) as s:
            for line in s.iter_lines():
                if line.startswith("data: "):
                    nudges.append(json.loads(line[6:]))
                if stop.is_set():
                    return
    except httpx.HTTPError:      # the server stopped at the end of the test
        return


PAGES = ("/", "/pairings", "/standings", "/round/1", "/api/v1/rounds/1",
         "/api/v1/standings", "/api/v1/event")


def _size_of(r: httpx.Response) -> int:
    return int(r.headers["etag"].strip('W/"').split("-")[0])


def test_a_burst_over_the_api_then_every_page_after_the_nudge_shows_the_last_result(
        tmp_path: Path) -> None:
    op = small_event(tmp_path / "e", players=32)
    tables = round_tables(op.cli, 1)
    with serve_process(op.d, op.cli.env, serve_args=STAFF) as (base, _proc):
        nudges: list[dict[str, Any]] = []
        stop = threading.Event()
        th = threading.Thread(target=_listen, args=(base, nudges, stop), daemon=True)
        th.start()
        wait_until(lambda: len(nudges) >= 1, 10)
        desk = HttpDesk(base, op.tokens)
        last = 0
        for t in tables:                         # one after another, as fast as answered
            out = desk.do("sk", "result/record", round=1, table=t["table"],
                          winner=t["players"][0])
            assert out["ok"], out
            last = out["seq"]
        wait_until(lambda: any(n["size"] >= last for n in nudges), 10)
        stop.set()
        winner = tables[-1]["players"][0]
        for path in PAGES:                       # read after the nudge: the last result
            r = httpx.get(base + path, timeout=10)
            assert r.status_code == 200, path
            assert _size_of(r) == last, (path, r.headers["etag"], last)
        assert f"#{winner} wins" in httpx.get(base + "/pairings", timeout=10).text
        doc = httpx.get(base + "/api/v1/rounds/1", timeout=10).json()
        assert all(t["result"] for t in doc["tables"]), doc["tables"]


def test_fresh_1_on_the_last_result_of_a_burst_shows_it_on_the_next_read(
        tmp_path: Path) -> None:
    op = small_event(tmp_path / "e", players=32)
    tables = round_tables(op.cli, 1)
    with serve_process(op.d, op.cli.env, serve_args=STAFF) as (base, _proc):
        desk = HttpDesk(base, op.tokens)
        for t in tables[:-1]:
            assert desk.do("sk", "result/record", round=1, table=t["table"],
                           winner=t["players"][0])["ok"]
        t = tables[-1]
        r = desk.post("sk", "result/record?fresh=1",
                      {"round": 1, "table": t["table"], "winner": t["players"][0]})
        assert r.status_code == 200, r.text
        last = r.json()["seq"]
        for path in PAGES:                       # no wait: the answer came after the build
            got = httpx.get(base + path, timeout=10)
            assert _size_of(got) == last, (path, got.headers["etag"], last)
        assert f"#{t['players'][0]} wins" in httpx.get(base + "/pairings", timeout=10).text


def test_a_build_inside_a_burst_renders_ahead_only_what_phones_asked_for(
        event: tuple[Opening, ApiRunner, Hub]) -> None:
    op, runner, hub = event
    tables = round_tables(op.cli, 1)
    _enter(op, runner, tables[0])
    hub.refresh()                                # after a quiet log: the shared pages
    assert all(hub.pages.cached(k) is not None for k in hub_mod.PRERENDER)
    _enter(op, runner, tables[1])
    hub.published_at = time.monotonic()          # held back: within the gap …
    hub.refresh()
    assert hub.unbuilt_since is not None
    assert hub.in_burst(time.monotonic())        # … while the writer is busy
    gap = hub.gap_s()                            # the gap has passed since the build
    hub.published_at -= gap                      # and the first append held back, while
    assert hub.unbuilt_since is not None         # the last came just now
    hub.unbuilt_since -= gap
    hub.refresh()
    assert hub.data.checkable.size == hub.follower.state.size
    assert all(hub.pages.cached(k) is None for k in hub_mod.PRERENDER)   # on demand
    assert "#" in _body(hub, "pairings")
    _enter(op, runner, tables[2])
    hub.published_at = time.monotonic()
    hub.refresh()
    hub.last_fold -= hub_mod.IDLE_S              # the writer went idle: the trailing build
    assert not hub.in_burst(time.monotonic())
    hub.refresh()
    assert hub.data.checkable.size == hub.follower.state.size
    assert all(hub.pages.cached(k) is not None for k in hub_mod.PRERENDER)
