"""The live pages say who is out now and keep the round clock with a played table
(issue 32: "every page tells what is true now"; the page matrix's after-dq and top-cut
findings).

Each event is the page matrix's own (``tests.helpers.page_matrix.build``: real signed
events in a real SQLite file, a head judge's disqualification mid-round — in Wheel of
Time a Declaration of Forfeiture) and its pages are rendered by the server's own
``Hub``/``PageSet`` in-process, without a browser.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from ledger.storage.location import Location
from server.app import Hub
from tests.helpers.page_matrix import Moment, build


def _text(page: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def _moment(tmp_path: Path, fmt: str, moment: str) -> Moment:
    return build(tmp_path, fmt)[moment]


def _page(hub: Hub, key: str) -> str:
    page = hub.pages.get(key)
    assert page is not None, key
    return page.body.decode()


@pytest.mark.parametrize("fmt", ["hotc-swiss-de", "round-robin", "single-elim", "trio"])
def test_standings_kept_from_last_round_mark_a_player_disqualified_mid_round(
        tmp_path: Path, fmt: str) -> None:
    """A DQ mid-round: the standings shown are still those of the last completed round,
    but the disqualified entrant's row (and their own standing) says "disqualified"."""
    m = _moment(tmp_path, fmt, "after-dq")
    assert m.dq is not None
    hub = Hub(Location(str(m.db)), m.log)
    try:
        d = hub.data
        assert d.standings is not None and d.standings["as_of"], "not a kept standings"
        assert m.dq in d.removed and d.removed[m.dq][1] == "disqualified"
        own = [c["text"] for c in d.standing_of[m.dq]]
        assert "disqualified" in own, own
        assert sum("disqualified" in [c["text"] for c in r["cells"]]
                   for r in d.standings["rows"]) == 1
        assert "disqualified since these standings" in _text(_page(hub, "standings"))
    finally:
        hub.close()


@pytest.mark.parametrize("fmt", ["wot-2001", "wot-classic"])
def test_wot_forfeited_player_page_and_standings_say_forfeited(tmp_path: Path,
                                                               fmt: str) -> None:
    """A Judge's Declaration of Forfeiture (WOTOLD-FORF-1) removes the player: their
    page says so in the format's word and offers no drop; the standings mark them."""
    m = _moment(tmp_path, fmt, "after-dq")
    assert m.dq is not None
    hub = Hub(Location(str(m.db)), m.log, reporting=True)
    try:
        me = _text(_page(hub, f"player/{m.dq}"))
        assert "Forfeited: a judge removed you from the event" in me
        assert "/drop" not in _page(hub, f"player/{m.dq}")
        assert "forfeited since these standings" in _text(_page(hub, "standings"))
        assert "forfeited" in [c["text"] for c in hub.data.standing_of[m.dq]]
    finally:
        hub.close()


@pytest.mark.parametrize("fmt,moment", [("round-robin", "after-dq"), ("tag", "after-dq"),
                                        ("bushiroad-swiss", "top-cut"),
                                        ("trio", "top-cut")])
def test_round_clock_stays_with_a_table_whose_result_is_in(tmp_path: Path, fmt: str,
                                                           moment: str) -> None:
    """The round's clock is running and the player's table already has its result: the
    round clock is still shown in their box (the round goes on until it ends)."""
    m = _moment(tmp_path, fmt, moment)
    assert m.clock and m.result_in and m.table is not None
    hub = Hub(Location(str(m.db)), m.log)
    try:
        page = _page(hub, f"player/{m.subject}")
        box = page.split('class="mytable"', 1)[1].split("</section>", 1)[0]
        assert "This result is recorded" in box
        assert 'class="clock"' in box
    finally:
        hub.close()
