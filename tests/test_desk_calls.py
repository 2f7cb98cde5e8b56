"""Judge calls on the staff console (issue 30): ``call/open|claim|close`` and the reads
``call/list`` and ``floor/stats`` are desk commands (the API and the console run the CLI's
own use cases); the glance shows the open calls oldest first and, once calls are claimed,
the head judge's numbers.  A real server with the officials' keys over a ledger the CLI
writes."""

from __future__ import annotations

import re
from pathlib import Path

from tests.helpers.desk_event import desk_event, desk_server, signed_in
from tests.helpers.live import ledger_bytes, wait_until


def _post(c, base: str, url: str, data: dict[str, str]):  # type: ignore[no-untyped-def]
    c.get("/desk")
    return c.post(url, data={"csrf": c.cookies["tourney_csrf"], **data},
                  headers={"Origin": base})


def _main(text: str) -> str:
    m = re.search(r"<main>(.*)</main>", text, re.S)
    body = re.sub(r"<[^>]+>", " ", m.group(1) if m else text)
    return re.sub(r"\s+", " ", body)


def test_the_console_opens_claims_and_closes_a_call_and_the_glance_shows_them(
        tmp_path: Path) -> None:
    ev = desk_event(tmp_path, "bushiroad-swiss")
    t1, t2 = ev.round1["tables"][:2]
    with desk_server(ev) as (base, hub):
        judge = signed_in(base, ev.cards["judge"])
        r = _post(judge, base, "/desk/do/call/open", {"table": str(t2["table"]),
                                                      "note": "rules question"})
        assert r.status_code == 200 and "Done" in r.text, _main(r.text)
        r = _post(judge, base, "/desk/do/call/open", {"table": str(t1["table"])})
        assert r.status_code == 200 and "Done" in r.text, _main(r.text)
        wait_until(lambda: len(hub.follower.state.calls.open_at) == 2, 10)
        first, second = sorted(hub.follower.state.calls.open_at.values())
        page = judge.get("/desk").text
        q = _main(page)
        assert f"Table {t2['table']}: rules question" in q and "waiting" in q
        assert q.index(f"call {first}") < q.index(f"call {second}")   # oldest first
        # one open call per table: refused with its rule, nothing written
        before = ledger_bytes(ev.cli.ledger)
        r = _post(judge, base, "/desk/do/call/open", {"table": str(t2["table"])})
        assert r.status_code in (400, 409) and "CALL-2" in _main(r.text), r.status_code
        assert ledger_bytes(ev.cli.ledger) == before
        # the glance's own claim button, then close from the console
        r = _post(judge, base, "/desk/do/call/claim", {"call": str(first), "back": "desk"})
        assert r.status_code in (200, 303), _main(r.text)
        wait_until(lambda: hub.follower.state.calls.calls[first].claimed_seq is not None, 10)
        r = _post(judge, base, "/desk/do/call/close", {"call": str(first),
                                                       "outcome": "answered"})
        assert r.status_code == 200 and "Done" in r.text, _main(r.text)
        wait_until(lambda: hub.follower.state.calls.calls[first].closed_seq is not None, 10)
        q = _main(judge.get("/desk").text)
        assert f"call {first}" not in q and f"call {second}" in q
        assert "Floor: calls, deck checks and extensions" in q and "1 open" in q
        r = _post(judge, base, "/desk/do/floor/stats", {})
        assert r.status_code == 200, _main(r.text)
