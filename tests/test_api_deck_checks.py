"""Deck checks through the desk's HTTP API (issue 30 item 3) on a real ``tourney serve``
process: the head judge records a seed after the pairing and draws the round's tables
(``deck/draw``), a judge starts and ends a check (``deck/start``, ``deck/end``); a judge's
draw is refused with 403/409 and writes nothing; the log audits clean and the draw
re-derives from its seed."""

from __future__ import annotations

from pathlib import Path

from ledger.core.draw import draw_v1, seed_from_material
from tests.helpers.api_event import HttpDesk, opening, players_csv, round_tables
from tests.helpers.live import serve_process

STAFF = ("--station-key", "st.pem", "--staff-key", "hj.pem", "--staff-key", "sk.pem",
         "--staff-key", "judge.pem")


def test_deck_checks_over_http(tmp_path: Path) -> None:
    op = opening(tmp_path / "api", name="Deck Api")
    with serve_process(op.d, op.cli.env, serve_args=STAFF) as (url, _proc):
        desk = HttpDesk(url, op.tokens)
        assert desk.do("sk", "player/import", file=players_csv(16))["ok"]
        assert desk.do("hj", "registration/close")["ok"]
        assert desk.do("hj", "round/pair", seed_material="deck api R1",
                       seed_source="dice")["ok"]
        ctx = f"{op.log}/R1/deck-checks"
        assert desk.do("hj", "seed/record", material="after pairing 4 4 2",
                       source="dice", reason="deck checks", ctx=ctx)["ok"]
        size = len(op.cli("log", "--json").doc)
        refused = desk.do("judge", "deck/draw", round=1, count=2)
        assert not refused["ok"] and refused["status"] in (403, 409), refused
        assert len(op.cli("log", "--json").doc) == size
        drawn = desk.do("hj", "deck/draw", round=1, count=2)
        assert drawn["ok"], drawn
        body = drawn["events"][0]["event"]["body"]
        tables = sorted(t["table"] for t in round_tables(op.cli, 1))
        assert body["result"] == draw_v1(seed_from_material("after pairing 4 4 2"), ctx,
                                         tables)
        first = body["result"][0]
        started = desk.do("judge", "deck/start", round=1, table=first,
                          draw=drawn["events"][0]["event"]["seq"])
        assert started["ok"], started
        ended = desk.do("judge", "deck/end", start_seq=started["events"][0]["event"]["seq"],
                        outcome="matches")
        assert ended["ok"], ended
    report = op.cli("audit", "verify", "--json").doc
    assert report["ok"] is True, report
