"""The console confirms the extensions the record proposes (issue 30, task floor2): an ended
deck check's preparation time (BR-EXT-3) and a closed call's ruling time (BR-EXT-1) are
listed on ``/desk`` under "Extensions to confirm" — the staff page's partial, fed by one
function (``server.call_panel.proposals``) — and each form posts to the CLI's own
``round extend --deck-check|--call`` (``/desk/do/round/extend``).  JS off: plain forms over
HTTP.  A refusal is the CLI's sentence with the ledger's bytes unchanged; ``floor stats``
then lists what each extension cites, proposed vs given.  The calls and checks are written
by the real CLI with a fixed clock, so the proposals are hand-computed."""

from __future__ import annotations

import re
from pathlib import Path

from tests.helpers.desk_event import desk_event, desk_server, signed_in
from tests.helpers.floor_proposals import floor_with_proposals
from tests.helpers.live import ledger_bytes, wait_until


def _post(c, base: str, url: str, data: dict[str, str]):  # type: ignore[no-untyped-def]
    c.get("/desk")
    return c.post(url, data={"csrf": c.cookies["tourney_csrf"], **data},
                  headers={"Origin": base}, follow_redirects=False)


def _main(text: str) -> str:
    m = re.search(r"<main>(.*)</main>", text, re.S)
    body = re.sub(r"<[^>]+>", " ", m.group(1) if m else text)
    return re.sub(r"\s+", " ", body)


def test_the_console_confirms_a_deck_check_and_a_call_extension_without_javascript(
        tmp_path: Path) -> None:
    ev = desk_event(tmp_path, "bushiroad-swiss")
    check, t1, call, t2 = floor_with_proposals(ev)
    with desk_server(ev) as (base, hub):
        judge = signed_in(base, ev.cards["judge"])
        page = judge.get("/desk").text
        q = _main(page)
        assert "Extensions to confirm" in q
        assert f"Table {t1}, deck check {check}: +3 min proposed" in q, q
        assert f"Table {t2}, call {call}: +4 min proposed" in q, q
        forms = re.findall(r'<form method="post" action="/desk/do/round/extend"[^>]*>(.*?)'
                           r"</form>", page, re.S)
        assert len(forms) == 2 and all('name="back" value="desk"' in f for f in forms)
        assert f'name="deck_check" value="{check}"' in forms[0] + forms[1]
        assert 'name="minutes" value="3"' in forms[0] + forms[1]

        # refusals: the CLI's sentence, nothing written
        before = ledger_bytes(ev.cli.ledger)
        r = _post(judge, base, "/desk/do/round/extend",
                  {"call": str(call), "deck_check": str(check), "back": "desk"})
        assert r.status_code == 400 and "--call and --deck-check together" in _main(r.text)
        r = _post(judge, base, "/desk/do/round/extend",
                  {"call": str(check), "minutes": "2", "back": "desk"})
        assert r.status_code == 400 and \
            f"Not done: seq {check} is not a judge call" in _main(r.text), _main(r.text)
        assert ledger_bytes(ev.cli.ledger) == before

        # the deck check changed to 2 minutes, the call as proposed
        r = _post(judge, base, "/desk/do/round/extend",
                  {"deck_check": str(check), "minutes": "2", "back": "desk"})
        assert r.status_code == 303 and r.headers["location"].startswith("/desk?done="), \
            _main(r.text)
        r = _post(judge, base, "/desk/do/round/extend",
                  {"call": str(call), "minutes": "4", "back": "desk"})
        assert r.status_code == 303, _main(r.text)
        wait_until(lambda: call in hub.follower.state.calls.extended, 10)
        # confirmed twice: refused (CALL-6), nothing written
        before = ledger_bytes(ev.cli.ledger)
        r = _post(judge, base, "/desk/do/round/extend", {"call": str(call), "back": "desk"})
        assert r.status_code != 303 and "CALL-6" in _main(r.text), _main(r.text)
        assert ledger_bytes(ev.cli.ledger) == before

        q = _main(judge.get("/desk").text)
        assert "Extensions to confirm" not in q
        assert f"table {t1} +2 min (deck check {check}: proposed 3, given 2)" in q, q
        assert f"table {t2} +4 min (call {call}: proposed 4)" in q, q
        assert "1 deck check, 0 drawn, 1 on suspicion" in q, q

    stats = ev.cli("floor", "stats", "--json").doc
    exts = {e["table"]: e for e in stats["extensions"]}
    assert exts[t1]["given"][0] | {"seq": 0} == {
        "seq": 0, "cites": "deck_check", "cited": check, "proposed": 3, "minutes": 2}
    assert exts[t2]["given"][0] | {"seq": 0} == {
        "seq": 0, "cites": "call", "cited": call, "proposed": 4, "minutes": 4}
    assert stats["checks"] == [{"round": 1, "checks": 1, "drawn": 0, "suspicion": 1,
                                "open": 0, "median_s": 121, "longest_s": 121}]
    text = ev.cli("floor", "stats").out
    assert "round 1: 1 deck check(s), 0 drawn, 1 on suspicion, 0 open; median 2:01, " \
        "longest 2:01" in text, text
    assert f"+2 min for deck check {check} (proposed 3)" in text
    assert f"+4 min for call {call} (proposed 4)" in text
    assert ev.cli("audit", "verify", "--json", code=None).code == 0


def test_the_staff_page_lists_the_same_proposals_posting_to_its_own_route(
        tmp_path: Path) -> None:
    """The staff page's list is the same partial: its form posts to /staff/calls/extend."""
    ev = desk_event(tmp_path, "bushiroad-swiss")
    check, _t1, call, _t2 = floor_with_proposals(ev)
    with desk_server(ev) as (base, _hub):
        judge = signed_in(base, ev.cards["judge"])
        staff = judge.get("/staff").text
        assert staff.count('action="/staff/calls/extend"') == 2
        assert f'name="deck_check" value="{check}"' in staff
        assert f'name="call" value="{call}"' in staff
        assert "/desk/do/round/extend" not in staff


def test_where_the_format_counts_turns_the_console_confirms_turns(tmp_path: Path) -> None:
    """002 with ``extra_turns=3`` (BR-XTURN-1): the ruling of 3:10 is proposed as one extra
    turn; the console's box is "Turns"; the judge gives 2; the deck check stays minutes
    (BR-EXT-3)."""
    ev = desk_event(tmp_path, "bushiroad-swiss", params=("--param", "extra_turns=3"))
    check, _t1, call, t2 = floor_with_proposals(ev)
    with desk_server(ev) as (base, hub):
        judge = signed_in(base, ev.cards["judge"])
        page = judge.get("/desk").text
        assert f"Table {t2}, call {call}: +1 turn proposed" in _main(page)
        item = re.search(rf'<li id="ext{call}">(.*?)</li>', page, re.S)
        assert item is not None and 'name="turns" value="1"' in item.group(1)
        assert 'name="minutes"' not in item.group(1)
        assert f"deck check {check}: +3 min proposed" in _main(page)
        # without back=desk the console shows the CLI's own line
        r = _post(judge, base, "/desk/do/round/extend", {"call": str(call), "turns": "2"})
        assert r.status_code == 200, _main(r.text)
        assert f"+0 min (proposed 1 turn(s)) +2 turn(s) for judge call {call}" in \
            _main(r.text), _main(r.text)
        wait_until(lambda: call in hub.follower.state.calls.extended, 10)
        assert f"id=\"ext{call}\"" not in judge.get("/desk").text
