"""The table's own end time (issue 30 item 2; ``clock`` ADR): the round clock's start
plus its minutes plus that table's extensions — one function
(``server.view_reads.table_ends``) behind the desk glance's time left, the player's page
(``/p/N``), their call page (``/call``) and the match slips (``/desk/slips/N``).  A real
server on loopback over a ledger the real CLI writes (fixed clocks); a judge call's
extension confirmed with ``round extend --call`` and a deck check's with ``round extend
--deck-check`` both move the table's end, and only that table's."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import httpx

from server.view_reads import Clock, iso_z, table_ends
from tests.helpers.calls import calls_event
from tests.helpers.live import running, wait_until
from tests.helpers.reporting_phones import _phone


def _at(hms: str) -> dict[str, str]:
    return {"TOURNEY_FIXED_CLOCK": f"2026-03-01T{hms}.000000Z"}


def test_table_ends_is_the_clock_end_plus_the_table_s_minutes() -> None:
    c = Clock(round=2, started="2026-03-01T09:00:00.000000Z", minutes=40,
              ends="2026-03-01T09:40:00Z", called=False)
    assert iso_z(table_ends(c, 2, 0)) == "2026-03-01T09:40:00Z"
    assert iso_z(table_ends(c, 2, 7)) == "2026-03-01T09:47:00Z"
    assert table_ends(c, 1, 7) is None          # another round's clock
    assert table_ends(None, 2, 7) is None       # no clock started


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_extended_end_on_the_player_s_pages_the_slips_and_the_glance(
        tmp_path: Path) -> None:
    from server.desk_glance import glance

    cli, doc, tokens, staff = calls_event(tmp_path)
    t1, t2 = doc["tables"][0], doc["tables"][1]  # type: ignore[index]
    a, b = t1["players"][0], t2["players"][0]
    j = ("--key", "judge.pem")
    cli("round", "start", "--minutes", "40", "--key", "hj.pem", env=_at("09:00:00"))
    call = str(cli("call", "open", "--table", str(t1["table"]), *j, "--json",
                   env=_at("09:10:00")).doc["seq"])
    cli("call", "claim", call, *j, env=_at("09:10:30"))
    cli("call", "close", call, "--outcome", "ruled", *j, env=_at("09:13:40"))   # 190 s
    cli("round", "extend", "--call", call, *j, env=_at("09:14:00"))              # +4
    start = str(cli("deck", "start", "--round", "1", "--table", str(t2["table"]), *j,
                    "--json", env=_at("09:15:00")).doc["seq"])
    cli("deck", "end", start, "--outcome", "matches", *j, env=_at("09:17:30"))  # 150 s
    cli("round", "extend", "--deck-check", start, *j, env=_at("09:18:00"))       # +3
    with running(cli.ledger, station_key=tmp_path / "station.pem",
                 staff_keys=(tmp_path / "judge.pem",)) as (base, hub):
        wait_until(lambda: hub.pages.data.clock is not None, 5)
        pa = _text(_phone(base, tokens[a]).get(f"/p/{a}").text)
        assert "4 extra minutes" in pa and "it ends at 09:44 UTC" in pa, pa
        pb = _text(_phone(base, tokens[b]).get(f"/p/{b}").text)
        assert "3 extra minutes" in pb and "it ends at 09:43 UTC" in pb, pb
        called = _text(_phone(base, tokens[a]).get("/call").text)
        assert f"Your table ({t1['table']}) ends at 09:44 UTC" in called
        assert "4 extra minutes" in called
        desk = httpx.Client(base_url=base)
        assert desk.get(f"/c/{staff}").status_code == 303
        slips = desk.get("/desk/slips/1")
        assert slips.status_code == 200, slips.text
        s = _text(slips.text)
        assert f"Table {t1['table']} Ends at 09:44 UTC (+4 min extension)" in s, s
        assert f"Table {t2['table']} Ends at 09:43 UTC (+3 min extension)" in s
        others = [tb["table"] for tb in doc["tables"][2:]]  # type: ignore[index]
        for t in others:
            assert re.search(rf"Table {t} Ends at 09:40 UTC(?! \(\+)", s)
        g = glance(hub.follower.state, hub.pages.data,
                   now=datetime(2026, 3, 1, 9, 30, tzinfo=UTC))
        ends = {r.table: (r.ends, r.extra, r.left) for r in g.rows}
        assert ends[t1["table"]] == ("2026-03-01T09:44:00Z", 4, 14)
        assert ends[t2["table"]] == ("2026-03-01T09:43:00Z", 3, 13)


def test_without_a_started_clock_no_end_is_shown(tmp_path: Path) -> None:
    cli, doc, tokens, staff = calls_event(tmp_path)
    a = doc["tables"][0]["players"][0]  # type: ignore[index]
    with running(cli.ledger, station_key=tmp_path / "station.pem",
                 staff_keys=(tmp_path / "judge.pem",)) as (base, _hub):
        assert "ends at" not in _phone(base, tokens[a]).get("/call").text
        desk = httpx.Client(base_url=base)
        assert desk.get(f"/c/{staff}").status_code == 303
        assert "Ends at" not in desk.get("/desk/slips/1").text
