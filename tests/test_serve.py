"""``tourney serve`` (issue 18): a real server on a loopback port over a real ledger that
the real CLI keeps writing.

Pages and their ETags (304, gzip), search, helpful 404s, names with markup, and the line at
a phone page's foot against the printed sheet's.  Pages following the log as it changes:
``tests/test_serve_updates.py`` and ``tests/test_serve_publishing.py``; every format's
pages: ``tests/test_serve_formats.py`` and ``tests/test_serve_simulated.py``;
``tourney serve`` as a process (start-up errors, kill -9, QR page, granian):
``tests/test_serve_process.py``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.helpers.cli_runner import Cli
from tests.helpers.live import get, running
from tests.helpers.standings_play import pair, start

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
