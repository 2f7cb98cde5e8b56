"""``tourney serve`` and what the head judge publishes (issue 18, ADR 0023): a round paired
while pairings are held stays off the pages and sends no nudge until it is posted (names
shown as the head judge chose), and penalties show on a player's page only once published.
The pages following the log: ``tests/test_serve_updates.py``.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import httpx

from tests.helpers.live import get, running, wait_until
from tests.helpers.standings_play import pair, play, start


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
        done = threading.Event()            # set before the server stops: the stream's end
        failed: list[BaseException] = []   # is then expected, never an error

        def listen() -> None:
            try:
                with httpx.stream("GET", base + "/live", timeout=30) as s:
                    for line in s.iter_lines():
                        if line.startswith("data: "):
                            nudges.append(json.loads(line[6:]))
            except httpx.HTTPError as exc:
                if not done.is_set():
                    failed.append(exc)

        listener = threading.Thread(target=listen, daemon=True)
        listener.start()
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
        assert not failed, failed
        done.set()
    listener.join(30)                       # the server stopped: its stream ended
    assert not listener.is_alive() and not failed, failed



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
