"""Issue 32 item 1 (team events): a team member reports their own seat from their phone
(REPORT-21; docs/TEAMS.md).

Before: the report rules took only a table's entrants (the teams' representatives), the
form hid the seat and a member's page said "The result of your seat is given at the
scorekeeper's desk".  Now a member's report names their seat (fixed by the form from
their card's number and the team's seating); the two opposing members of a seat agreeing
record that seat's result with the desk's own seat path (``record_seat``) — the team
result derived when the last seat is in (BR-TEAM-7) — a disagreement waits in the staff
queue with its seat, a member naming another seat is refused with nothing written, and a
forged seat result spliced onto a real log is flagged by the audit.

Trio: teams (1, 2, 3) and (4, 5, 6), representatives 3 and 6 (BR-TEAM-3): seat 1 is
1 v 4, seat 2 is 2 v 5, seat 3 is 3 v 6.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import pytest

from ledger.core.credentials import credential_id
from ledger.core.reports import TableStatus, queue, table_status
from ledger.errors import RuleError
from ledger.formats.bushiroad.team_results import seats_at
from ledger.formats.bushiroad.teams import SeatResultRecorded
from ledger.storage.location import Location
from ledger.storage.store import Ledger
from ledger.wire.events import open_leaf
from ledger.wire.reports import ResultReported
from server.station import Station
from tests.helpers.live import ledger_bytes
from tests.helpers.report_event import app_over, choice_of, copy_of, phone, post_report
from tests.helpers.standings_play import HJ

FMT = "bushiroad-swiss"


@pytest.fixture(scope="module")
def trio(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[int, str]]:
    """A trio event written by the real CLI, ``self_report_policy=auto``, round 1 paired
    (one table: team 3 v team 6), every card printed."""
    return _trio(tmp_path_factory.mktemp("trio"), "auto")


@pytest.fixture(scope="module")
def trio_confirm(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[int, str]]:
    """The same under ``self_report_policy=confirm``: the staff confirm agreeing seats."""
    return _trio(tmp_path_factory.mktemp("trio_confirm"), "confirm")


def _trio(d: Path, policy: str) -> tuple[Path, dict[int, str]]:
    from tests.helpers.cli_runner import Cli
    from tests.helpers.cli_runner import remember_secret as _remember_secret

    cli = Cli(d, d / "t.db")
    for stem in ("hj", "sk", "station"):
        cli("keys", "new", "--name", stem, "--out", f"{stem}.pem")
        _remember_secret(d / f"{stem}.pem")
    cli("init", "--name", "Trio", "--format", FMT, "--param", "team_mode=trio",
        "--param", "swiss_rounds=2", "--self-report-policy", policy, *HJ)
    cli("official", "add", "--role", "scorekeeper", "--name", "sk", "--public-key",
        "sk.pem.pub", *HJ)
    cli("official", "add", "--role", "station", "--name", "Live server", "--public-key",
        "station.pem.pub", *HJ)
    (d / "players.csv").write_text("number,name\n" + "".join(f"{i},P{i}\n"
                                                             for i in range(1, 7)))
    cli("player", "import", "players.csv", "--key", "sk.pem")
    for team in (("1", "2", "3"), ("4", "5", "6")):
        cli("team", "add", *team, "--key", "sk.pem")
    cli("registration", "close", *HJ)
    cli("round", "pair", "--seed-material", "trio R1", "--seed-source", "dice", *HJ)
    cli("player", "cards", "--url", "http://venue.invalid/", "--out", "cards.html", "--csv",
        "cards.csv", *HJ)
    with open(d / "cards.csv", newline="") as f:
        tokens = {int(r["number"]): r["url"].rsplit("/c/", 1)[1] for r in csv.DictReader(f)}
    return d, tokens


WIN = choice_of(FMT, "win")


def _state(db: Path) -> Any:
    with Ledger(Location(str(db)), readonly=True) as led:
        log = led.resolve(None)
        return led.load(log).state


def _win(pm: Any, winner: int) -> Any:
    return post_report(pm, {"choice": str(WIN), f"c{WIN}.winner": str(winner)})


def _seat(db: Path, seat: int) -> Any:
    return next((r for r in seats_at(_state(db), 1, 1) if r.seat == seat), None)


def test_a_trio_member_reports_their_seat_and_the_agreeing_opponent_records_it(
        trio: tuple[Path, dict[int, str]], tmp_path: Path) -> None:
    d = copy_of(trio[0], tmp_path / "e")
    tokens = trio[1]
    with app_over(d / "t.db", d / "station.pem") as (_c, _hub, app):
        p1, p4 = phone(app, tokens[1]), phone(app, tokens[4])
        page = p1.get("/report").text
        assert "seat 1" in page and "scorekeeper&#39;s desk" not in page
        assert "P1" in page and "P4" in page and "P2" not in page   # the seat's fighters
        r = _win(p1, 1)
        assert r.status_code == 303, r.text
        assert _seat(d / "t.db", 1) is None               # one side: nothing recorded
        r = _win(p4, 1)
        assert r.status_code == 303, r.text
        rec = _seat(d / "t.db", 1)
        assert rec is not None and rec.winner == 1
        st = _state(d / "t.db")
        assert st.fmt.teams.seats  # the seat's result is the desk's own record
        assert "seat 1" in p1.get("/report").text and "is recorded" in p1.get("/report").text
        # the player's page lists the report made with their card in a player's words: the
        # seat is a seat, never read as a player's number
        from tests.helpers.live import wait_until

        wait_until(lambda: "seat 1; " in p1.get("/p/1").text, 30)
        mine = p1.get("/p/1").text
        assert "seat #1" not in mine and "seat P1" not in mine, mine


def test_all_three_seats_reported_derive_the_team_result(
        trio: tuple[Path, dict[int, str]], tmp_path: Path) -> None:
    d = copy_of(trio[0], tmp_path / "e")
    tokens = trio[1]
    with app_over(d / "t.db", d / "station.pem") as (_c, _hub, app):
        for a, b, winner in ((1, 4, 4), (2, 5, 2), (3, 6, 3)):
            for n in (a, b):
                assert _win(phone(app, tokens[n]), winner).status_code == 303
    from ledger.core.plugin import plugin_for

    st = _state(d / "t.db")
    plugin = plugin_for(FMT)
    assert plugin is not None
    found = plugin.table_at(st, 1, 1)
    assert found is not None and found[1] is not None
    assert found[1].winner == 3 and list(found[1].games) == [2, 1, 0]   # team 3: 2 wins
    # every recorded event verifies: the audit re-derives the seats and the team result
    from tests.helpers.reporting import _codes
    with Ledger(Location(str(d / "t.db")), readonly=True) as led:
        rows = list(led.raw_leaves(led.resolve(None)))
    kinds = [open_leaf(leaf).body.KIND.value for _v, leaf in rows]
    assert kinds.count("seat_result_recorded") == 3 and kinds.count("result_recorded") == 1
    bad = {c for c, _s in _codes(tmp_path, rows) if c != "no_checkpoint"}
    assert not bad, bad


def test_a_seat_disagreement_waits_in_the_staff_queue_with_its_seat(
        trio: tuple[Path, dict[int, str]], tmp_path: Path) -> None:
    d = copy_of(trio[0], tmp_path / "e")
    tokens = trio[1]
    with app_over(d / "t.db", d / "station.pem") as (_c, _hub, app):
        assert _win(phone(app, tokens[2]), 2).status_code == 303
        assert _win(phone(app, tokens[5]), 5).status_code == 303
    st = _state(d / "t.db")
    assert _seat(d / "t.db", 2) is None
    assert table_status(st, 1, 1) is TableStatus.CONFLICTING
    row = queue(st, 1)[0]
    assert row.seats == {2: TableStatus.CONFLICTING}
    assert sorted(r.given["seat"] for r in row.reports.values()) == ["2", "2"]
    # the staff decide with one of them: the seat's result, citing that seat's two reports
    from ledger.wire.keys import load_signer
    from server.staff_routes import _shown
    from usecases.reports import record_report

    chosen = next(r for r in row.reports.values() if r.number == 2)
    assert _shown(chosen.given, {2: "P2"}) == "seat: 2, winner: P2"
    sk = load_signer(d / "sk.pem")
    with Ledger(Location(str(d / "t.db"))) as led:
        events = led.write(led.resolve(None), lambda t, now: record_report(
            t, sk, now, 1, 1, chosen.seq))
    assert [e.body.KIND.value for e in events] == ["seat_result_recorded"]
    assert sorted(events[0].body.reports) == sorted(r.seq for r in row.reports.values())
    assert _seat(d / "t.db", 2).winner == 2
    assert table_status(_state(d / "t.db"), 1, 1) is TableStatus.NONE


def test_the_staff_confirm_a_matching_seat_under_confirm(
        trio_confirm: tuple[Path, dict[int, str]], tmp_path: Path) -> None:
    from ledger.wire.keys import load_signer
    from usecases.reports import accept_matching

    d = copy_of(trio_confirm[0], tmp_path / "e")
    tokens = trio_confirm[1]
    with app_over(d / "t.db", d / "station.pem") as (_c, _hub, app):
        assert _win(phone(app, tokens[1]), 1).status_code == 303
        assert _win(phone(app, tokens[4]), 1).status_code == 303
        assert _win(phone(app, tokens[2]), 2).status_code == 303
    st = _state(d / "t.db")
    assert _seat(d / "t.db", 1) is None                 # the station records nothing
    row = queue(st, 1)[0]
    assert row.status is TableStatus.MATCHING
    assert row.seats == {1: TableStatus.MATCHING, 2: TableStatus.ONE_SIDED}
    sk = load_signer(d / "sk.pem")
    with Ledger(Location(str(d / "t.db"))) as led:
        events, tables = led.write(led.resolve(None), lambda t, now: accept_matching(
            t, sk, now, None, None))
    assert tables == [1] and [e.body.KIND.value for e in events] == ["seat_result_recorded"]
    assert _seat(d / "t.db", 1).winner == 1 and _seat(d / "t.db", 2) is None
    assert queue(_state(d / "t.db"), 1)[0].seats == {2: TableStatus.ONE_SIDED}


def test_a_member_reporting_another_seat_is_refused_and_nothing_is_written(
        trio: tuple[Path, dict[int, str]], tmp_path: Path) -> None:
    d = copy_of(trio[0], tmp_path / "e")
    tokens = trio[1]
    from ledger.core.credentials import token_sha256

    cred = token_sha256(tokens[1])[:16]
    assert cred == credential_id(tokens[1])
    before = ledger_bytes(d / "t.db")
    st = _state(d / "t.db")
    station = Station(Location(str(d / "t.db")), d / "station.pem",
                      _logs(d / "t.db")[0])
    try:
        for given, words in (({"winner": "2", "seat": "2"}, "plays seat 1"),
                             ({"winner": "1"}, "report your own seat"),
                             ({"winner": "3"}, "report your own seat")):
            with pytest.raises(RuleError) as err:
                station.run(*station.report_commands(1, 1, 1, cred, given))
            assert err.value.rule == "REPORT-21" and words in err.value.message
    finally:
        station.close()
    assert ledger_bytes(d / "t.db") == before
    assert st.reports.current == {}


def _logs(db: Path) -> list[str]:
    with Ledger(Location(str(db)), readonly=True) as led:
        return [led.resolve(None)]


def test_a_forged_seat_result_spliced_onto_a_real_log_is_flagged(
        trio: tuple[Path, dict[int, str]], tmp_path: Path) -> None:
    """A stolen station key records seat 1 for player 1 citing only player 1's report (or
    the two disagreeing reports of seat 2): the audit flags it (REPORT-21)."""
    from ledger.wire.keys import load_signer
    from tests.helpers.forgery import chained_next
    from tests.helpers.reporting import _codes

    d = copy_of(trio[0], tmp_path / "e")
    tokens = trio[1]
    with app_over(d / "t.db", d / "station.pem") as (_c, _hub, app):
        assert _win(phone(app, tokens[1]), 1).status_code == 303
        assert _win(phone(app, tokens[2]), 2).status_code == 303
        assert _win(phone(app, tokens[5]), 5).status_code == 303
    log = _logs(d / "t.db")[0]
    with Ledger(Location(str(d / "t.db")), readonly=True) as led:
        rows = list(led.raw_leaves(log))
    seqs = {open_leaf(leaf).body.number: v for v, leaf in rows
            if open_leaf(leaf).body.KIND.value == "result_reported"}
    station = load_signer(d / "station.pem")
    from ledger.formats.match.model import DecidedBy, LossReason, Outcome

    def seat(k: int, winner: int, loser: int, cited: list[int]) -> SeatResultRecorded:
        return SeatResultRecorded(round=1, table=1, seat=k, winner=winner, losers=[loser],
                                  outcome=Outcome.WIN, loss_reasons=[LossReason.PLAY],
                                  games=[1, 0, 0], decided_by=DecidedBy.PLAYED,
                                  reports=cited)

    cid = credential_id(tokens[4])
    cases: list[tuple[Any, str]] = [
        (seat(1, 1, 4, [seqs[1]]), "station_result_invalid"),           # one side only
        (seat(2, 2, 5, [seqs[2], seqs[5]]), "station_result_invalid"),  # disagreeing
        # a member's report of another seat (member 4 plays seat 1), or of no seat
        (ResultReported(round=1, table=1, number=4, credential=cid,
                        given={"winner": "2", "seat": "2"}), "player_report_seat"),
        (ResultReported(round=1, table=1, number=4, credential=cid,
                        given={"winner": "6"}), "player_report_seat"),
    ]
    for body, code in cases:
        forged = [*rows, chained_next(rows, body, station, log,
                                      time="2026-12-01T09:00:30.000000Z")]
        found = _codes(tmp_path, forged)
        assert (code, len(forged)) in found, (body, found)
    # the honest agreement of seat 1 spliced the same way is not flagged
    ok = ResultReported(round=1, table=1, number=4, credential=cid,
                        given={"winner": "1", "seat": "1"})
    spliced = [*rows, chained_next(rows, ok, station, log, time="2026-12-01T09:00:30.000000Z")]
    assert not {c for c, s in _codes(tmp_path, spliced) if s == len(spliced)}


def test_a_phone_signed_seat_report_signs_its_seat(
        trio: tuple[Path, dict[int, str]], tmp_path: Path) -> None:
    """REPORT-17: the seat is one of the given fields, so a bound card's signed statement
    names it: the member's phone-signed seat report is recorded, and the same report moved
    to another seat is flagged (REPORT-21 before REPORT-17 even looks at it)."""
    import msgspec

    from ledger.core.device_rules import report_statement
    from ledger.wire.keys import load_signer
    from tests.helpers.forgery import chained_next
    from tests.helpers.phone_keys import _b64, _key
    from tests.helpers.reporting import _codes

    d = copy_of(trio[0], tmp_path / "e")
    db, log = d / "t.db", _logs(d / "t.db")[0]
    cid = credential_id(trio[1][4])
    key, pub = _key(7)
    station = load_signer(d / "station.pem")
    with Ledger(Location(str(db))) as led:
        led.write(log, lambda t, now: t.bind_device_key(cid, 4, pub, station, now))
    given = {"winner": "1", "seat": "1"}
    sig = _b64(key, report_statement(log, 1, 1, 4, cid, given, 1))
    with Ledger(Location(str(db))) as led:
        ev = led.write(log, lambda t, now: t.report_result(1, 1, 4, cid, given, station,
                                                           now, sig, 1))
        rows = list(led.raw_leaves(log))
    assert ev.body.given == given and ev.body.device_sig == sig
    assert not {c for c, s in _codes(tmp_path, rows) if s == len(rows)}
    moved = msgspec.structs.replace(ev.body, given={"winner": "2", "seat": "2"})
    rows = rows[:-1]
    forged = [*rows, chained_next(rows, moved, station, log,
                                  time="2026-12-01T09:00:30.000000Z")]
    found = _codes(tmp_path, forged)
    assert ("player_report_seat", len(forged)) in found, found    # REPORT-21 first
    # and the phone's signature would not cover it: the statement names the seat
    assert report_statement(log, 1, 1, 4, cid, given, 1) != \
        report_statement(log, 1, 1, 4, cid, {"winner": "1", "seat": "2"}, 1)
