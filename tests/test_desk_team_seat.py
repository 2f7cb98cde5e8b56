"""The desk's result by table for a team table (trio): it asks for the seat, and a seat's
result is entered as ``result record --seat`` (never a team result typed by hand, which
the ledger refuses, BR-TEAM-2), over HTTP with the real server and its runner.

May import: ``tests.helpers.*``, ``httpx``, the standard library.
"""

from __future__ import annotations

import re
from pathlib import Path

import httpx

from tests.helpers.desk_whole import opening, tables
from tests.helpers.live import ledger_bytes, running


def test_a_team_tables_result_is_entered_seat_by_seat(tmp_path: Path) -> None:
    from cli.api_runner import ApiRunner
    from ledger.storage.location import Location

    d = tmp_path / "trio"
    op = opening(d, "bushiroad-swiss", "--param", "team_mode=trio", "--param",
                 "swiss_rounds=2")
    (d / "p.csv").write_text("number,name\n" + "".join(f"{i},F{i}\n" for i in range(1, 13)))
    op.cli("player", "import", "p.csv", "--key", "sk.pem")
    (d / "t.csv").write_text("first,second,third\n1,2,3\n4,5,6\n7,8,9\n10,11,12\n")
    op.cli("team", "import", "t.csv", "--key", "sk.pem")
    op.cli("registration", "close", "--key", "hj.pem")
    op.cli("round", "pair", "--seed-material", "seat 1", "--seed-source", "d", "--key",
           "hj.pem")
    _, ts = tables(op.cli, 1)
    t = ts[0]
    seat2 = next(s for s in t["seats"] if s["seat"] == 2)
    with running(op.cli.ledger, station_key=d / "st.pem", staff_keys=(d / "sk.pem",),
                 runner=ApiRunner(Location(str(op.cli.ledger)))) as (base, _hub):
        c = httpx.Client(base_url=base, timeout=60)
        assert c.get(f"/c/{op.tokens['sk']}").status_code == 303
        ask = c.get(f"/desk/result?round=1&table={t['table']}")
        assert ask.status_code == 200
        assert "seat by seat" in ask.text and 'name="choice"' not in ask.text
        assert f"table={t['table']}&amp;seat=3" in ask.text
        form = c.get(f"/desk/result?round=1&table={t['table']}&seat=2")
        assert f"table {t['table']}, seat 2" in form.text
        shown = re.findall(r'<select id="c0\.winner" name="c0\.winner">(.*?)</select>',
                           form.text, re.S)[0]
        assert sorted(int(v) for v in re.findall(r'value="(\d+)"', shown)) == \
            sorted(seat2["players"])
        csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', form.text)
        assert csrf is not None
        before = ledger_bytes(op.cli.ledger)
        bad = c.post("/desk/result", data={"csrf": csrf.group(1), "round": "1",
                                           "table": str(t["table"]), "seat": "2",
                                           "choice": "0", "c0.winner": "99"})
        assert bad.status_code >= 400 and "Nothing was written" in bad.text
        assert ledger_bytes(op.cli.ledger) == before
        done = c.post("/desk/result", data={"csrf": csrf.group(1), "round": "1",
                                            "table": str(t["table"]), "seat": "2",
                                            "choice": "0",
                                            "c0.winner": str(seat2["players"][1])})
        assert done.status_code == 200 and "Done" in done.text, done.text[-800:]
    last = op.cli("log", "--json").doc[-1]["event"]
    assert last["kind"] == "seat_result_recorded", last
    assert last["body"]["seat"] == 2, last
    assert last["body"]["losers"] == [seat2["players"][0]], last
