"""Deck registration and a deck check, a report set aside, a drop and its undrop — from
the console's forms alone with JavaScript off (issue 29 item 1: "deck registration and
deck checks", "accept or reject reports", "drops and undrops"), on a real server with
the officials' keys, each the CLI's own event signed by the official who posted it.

A deck list is uploaded as a file (the scorekeeper); the head judge's check picks
``--matches`` from the flag's two spellings; a player's report from their phone is set
aside with a reason (its table is back to "no report" on the glance); a drop is undone by
the head judge, whose reason is kept; the scorekeeper's undrop is the CLI's role refusal
with nothing written.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import httpx
import pytest

from tests.helpers.cli_runner import CLOCK
from tests.helpers.desk_event import (
    desk_event,
    desk_server,
    form_token,
    main_words,
    posted_form,
    signed_in,
)
from tests.helpers.live import ledger_bytes, wait_until

DECK = "4 Card A\n4 Card B\n42 Card C\n"


@pytest.fixture(autouse=True)
def _same_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOURNEY_FIXED_CLOCK", CLOCK)


def test_decks_a_rejected_report_and_an_undrop_from_the_console(tmp_path: Path) -> None:
    ev = desk_event(tmp_path, "bushiroad-swiss")
    ev.cli("player", "cards", "--url", "http://venue.invalid/", "--out", "cards.html",
           "--csv", "cards.csv", "--key", "hj.pem")
    with open(tmp_path / "cards.csv", newline="") as f:
        tokens = {int(r["number"]): r["url"].rsplit("/c/", 1)[1] for r in csv.DictReader(f)}
    t1, t2 = ev.round1["tables"][:2]
    a, b = t1["players"]
    with desk_server(ev) as (base, _hub):
        sk, hj = signed_in(base, ev.cards["sk"]), signed_in(base, ev.cards["hj"])
        # a deck list handed in, uploaded as its file; then checked by the head judge
        r = posted_form(sk, base, "deck/register", {"number": str(a)},
                  {"file": ("deck.txt", DECK.encode(), "text/plain")})
        assert r.status_code == 200 and "Done" in main_words(r.text), main_words(r.text)
        check = hj.get("/desk/do/deck/check").text
        assert '<option value="--matches">' in check and '<option value="--mismatch">' in check
        r = posted_form(hj, base, "deck/check", {"number": str(a), "matches": "--matches",
                                           "note": "all 50 cards"})
        assert r.status_code == 200 and "Done" in main_words(r.text), main_words(r.text)
        # a player's report, set aside with a reason: the table has no report again
        phone = httpx.Client(base_url=base)
        assert phone.get(f"/c/{tokens[a]}").status_code == 303
        form = phone.get("/report").text
        win = re.search(r'name="choice" value="(\d+)"[^>]*>\s*(?:<[^>]+>\s*)*One of us won',
                        form)
        assert win is not None
        r = phone.post("/report", data={"csrf": form_token(form), "choice": win.group(1),
                                        f"c{win.group(1)}.winner": str(a)},
                       headers={"Origin": base})
        assert r.status_code == 303, r.text
        wait_until(lambda: "1 one-sided" in main_words(hj.get("/desk").text), 10)
        r = posted_form(sk, base, "report/reject", {"player": str(a),
                                              "reason": "the slip says otherwise"})
        assert r.status_code == 200 and "Done" in main_words(r.text), main_words(r.text)
        wait_until(lambda: "0 one-sided" in main_words(hj.get("/desk").text), 10)
        # a drop, then undone: the scorekeeper may not (the CLI's refusal), the head judge may
        r = posted_form(sk, base, "drop", {"number": str(t2["players"][0]),
                                     "reason": "left the venue"})
        assert r.status_code == 200, main_words(r.text)
        raw = ledger_bytes(ev.cli.ledger)
        r = posted_form(sk, base, "undrop", {"number": str(t2["players"][0]),
                                       "reason": "came back"})
        shown = main_words(r.text)
        assert r.status_code == 403 and "RULES-1.3" in shown and "Nothing was written" in shown
        assert ledger_bytes(ev.cli.ledger) == raw
        r = posted_form(hj, base, "undrop", {"number": str(t2["players"][0]),
                                       "reason": "came back"})
        assert r.status_code == 200 and "Done" in main_words(r.text), main_words(r.text)
    log = [leaf["event"] for leaf in ev.cli("log", "--json").doc]
    by_kind = {e["kind"]: e for e in log}
    assert by_kind["deck_registered"]["actor"] == ev.kids["sk"]
    assert by_kind["deck_registered"]["body"]["number"] == a
    assert by_kind["deck_checked"]["actor"] == ev.kids["hj"]
    assert by_kind["deck_checked"]["body"]["matches"] is True
    assert by_kind["report_rejected"]["actor"] == ev.kids["sk"]
    assert by_kind["report_rejected"]["body"]["reason"] == "the slip says otherwise"
    assert by_kind["player_undropped"]["actor"] == ev.kids["hj"]
    assert by_kind["player_undropped"]["body"]["reason"] == "came back"
    assert ev.cli("audit", "verify", "--json").doc["ok"] is True
