"""The head judge's announcements to the hall (issue 30 item 5): ``tourney announce``
records a signed ``announcement_made`` shown on ``/screen`` until withdrawn; a judge's,
an empty one, a two-line or an over-long one are refused and write nothing; a forged one
signed by a judge is flagged by the audit; the log audits clean."""

from __future__ import annotations

from pathlib import Path

import httpx

from ledger.wire.pages import AnnouncementMade
from tests.conftest import JUDGE
from tests.helpers.cli_runner import raw_bytes, snapshot
from tests.helpers.desk_event import desk_event
from tests.helpers.live import running
from tests.helpers.officiating import _append_forged, _codes, setup


def test_announcements_on_the_screen(tmp_path: Path) -> None:
    ev = desk_event(tmp_path, "wot-2001")
    cli = ev.cli
    first = cli("announce", "Lunch until 13:00", "--key", "hj.pem", "--json").doc
    second = cli("announce", "Deck checks at tables 4 & 9", "--key", "hj.pem", "--json").doc
    for args in (("Judge's own news", "--key", "judge.pem"), ("", "--key", "hj.pem"),
                 ("x" * 161, "--key", "hj.pem"), ("two\nlines", "--key", "hj.pem"),
                 ("", "--withdraw", "1", "--key", "hj.pem")):
        before = snapshot(cli.ledger)
        run = cli("announce", *args, code=None)
        assert run.code in (2, 3) and raw_bytes(cli.ledger) == before, args
        assert len(run.err.strip().splitlines()) == 1, run.err
    with running(cli.ledger) as (base, _hub):
        page = httpx.get(base + "/screen", timeout=30).text
    assert "Lunch until 13:00" in page and "Deck checks at tables 4 &amp; 9" in page
    cli("announce", "--withdraw", str(first["seq"]), "--key", "hj.pem")
    with running(cli.ledger) as (base, _hub):
        page = httpx.get(base + "/screen", timeout=30).text
    assert "Lunch until 13:00" not in page and "tables 4 &amp; 9" in page
    assert second["on_show"] == {str(first["seq"]): "Lunch until 13:00",
                                 str(second["seq"]): "Deck checks at tables 4 & 9"}
    assert cli("audit", "verify", "--json").doc["ok"] is True


def test_a_forged_announcement_is_flagged(tmp_path: Path) -> None:
    loc, _led = setup(tmp_path, players=6)
    seq = _append_forged(loc, AnnouncementMade(text="all matches are draws"), JUDGE)
    assert seq in _codes(loc)["role_not_permitted"]
