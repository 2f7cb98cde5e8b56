"""A whole trio Swiss through the CLI (tests/helpers/cli_runner.py; issue 20).

7 trio teams (21 fighters) over 3 rounds: teams imported from a CSV and added one by one;
every refusal of the issue's "Bad input" list (a fighter on two teams, a team of the
wrong size, a duplicate order position, an offensive or empty team name, an order change,
a result for a seat that does not exist, a team result typed by hand) exits 3 with one
line naming the rule and leaves the ledger's bytes unchanged; seat results recorded one
by one and by ``result import`` with a ``seat`` column; a drawn seat (BO1 time-up); a
team bye; a team dropped by one member's number after pairing (BR-DROP-4); standings of
teams with their members; ``audit verify`` clean.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers.team_cli import HJ, SK, Event, open_trio


def _seat_args(doc: dict[str, Any], table: dict[str, Any], seat: dict[str, Any],
               form: int) -> list[str]:
    a, b = seat["players"]
    base = ["result", "record", "--round", str(doc["round"]), "--table",
            str(table["table"]), "--seat", str(seat["seat"])]
    if form == 0:
        return [*base, "--winner", str(a)]
    if form == 1:
        return [*base, "--winner", str(b)]
    return [*base, "--timeout", "--games", "0-0-1"]      # a drawn seat (BR-SWISS-5)


@pytest.fixture(scope="module")
def trio(tmp_path_factory: pytest.TempPathFactory) -> Event:
    ev = Event(tmp_path_factory.mktemp("trio"))
    cli = ev.cli
    open_trio(ev, "Trio Night", fighters=22, teams=6, named=True)
    ev.refuse("two_teams", "team", "add", "18", "19", "20", *SK)
    ev.refuse("wrong_size", "team", "add", "19", "20", *SK)
    ev.refuse("duplicate_position", "team", "add", "19", "19", "20", *SK)
    ev.refuse("offensive_name", "team", "add", "19", "20", "21", "--name", "Shit Crew",
              *SK)
    ev.refuse("empty_name", "team", "add", "19", "20", "21", "--name", " ", *SK)
    ev.refuse("order_change", "team", "add", "3", "2", "1", *SK)
    cli("team", "add", "19", "20", "21", "--name", "Team G", *SK)
    ev.refuse("unteamed_close", "registration", "close", *HJ)
    cli("player", "withdraw", "22", *SK)
    cli("registration", "close", *HJ)
    for n in (1, 2, 3):
        cli("round", "pair", "--seed-material", f"round {n} dice", "--seed-source", "dice",
            *HJ)
        doc = cli("round", "show", "--json").doc
        ev.docs[f"round{n}"] = doc
        if n == 1:
            t = doc["tables"][0]
            ev.refuse("typed_team_result", "result", "record", "--round", "1", "--table",
                      str(t["table"]), "--winner", str(t["players"][0]), *SK)
            ev.refuse("no_such_seat", "result", "record", "--round", "1", "--table",
                      str(t["table"]), "--seat", "4", "--winner", str(t["players"][0]),
                      *SK)
        if n == 2:         # a member leaves: the team drops (BR-DROP-4), its match lost
            member = doc["tables"][-1]["seats"][0]["players"][1]
            ev.docs["dropped_member"] = member
            ev.docs["drop"] = cli("drop", str(member), "--reason", "ill", *SK, "--json").doc
            doc = cli("round", "show", "--json").doc
        if n == 3:         # this round's slips by result import, seat column
            rows = []
            for i, t in enumerate(doc["tables"]):
                for s in t["seats"]:
                    rows.append(f"3,{t['table']},{s['players'][(i + s['seat']) % 2]},,play,"
                                f"{s['seat']}")
            (ev.d / "slips.csv").write_text("round,table,winner,games,decided_by,seat\n"
                                            + "\n".join(rows) + "\n")
            cli("result", "import", "slips.csv", *SK)
            continue
        for i, t in enumerate(doc["tables"]):
            if t["result"] is not None:
                continue
            for s in t["seats"]:
                cli(*_seat_args(doc, t, s, (i + s["seat"] + n) % 3), *SK)
    ev.docs["show1"] = cli("round", "show", "1", "--json").doc
    ev.docs["standings"] = cli("standings", "--json").doc
    cli("cut", "--seed-material", "final dice", "--seed-source", "dice", *HJ)
    ev.docs["final"] = cli("standings", "--json").doc
    ev.docs["audit"] = cli("audit", "verify", "--json").doc
    cli("publish", "site", *HJ)
    ev.docs["report"] = cli("audit", "report", "site/report.json", str(ev.db)).out
    return ev


@pytest.mark.parametrize("name,rule", [
    ("two_teams", "BR-TEAM-1"), ("wrong_size", "BR-TEAM-1"),
    ("duplicate_position", "BR-TEAM-2"), ("offensive_name", "BR-TEAM-4"),
    ("empty_name", "BR-TEAM-4"), ("order_change", "BR-TEAM-2"),
    ("unteamed_close", "BR-TEAM-1"), ("typed_team_result", "BR-TEAM-7"),
    ("no_such_seat", "BR-TEAM-2")])
def test_refusals_name_the_rule_and_write_nothing(trio: Event, name: str, rule: str) -> None:
    unchanged, err = trio.refused[name]
    assert unchanged, f"{name} wrote to the ledger"
    assert f"[{rule}]" in err, err


def test_round_shows_team_tables_with_seats_and_a_team_bye(trio: Event) -> None:
    doc = trio.docs["round1"]
    assert doc["team_size"] == 3 and doc["team_communication"] == "not_allowed"
    assert doc["bye"] is not None                       # 7 teams: one team bye
    for t in doc["tables"]:
        assert [s["seat"] for s in t["seats"]] == [1, 2, 3]
        a, b = t["players"]
        for s in t["seats"]:                            # position k v position k
            assert s["players"][0] in range(a - 2, a + 1)
            assert s["players"][1] in range(b - 2, b + 1)


def test_team_results_follow_amb_b30(trio: Event) -> None:
    doc = trio.docs["show1"]
    for t in doc["tables"]:
        won = [0, 0]
        for s in t["seats"]:
            r = s["result"]
            for side in (0, 1):
                if r.startswith(f"#{s['players'][side]} wins"):
                    won[side] += 1
        if won[0] == won[1]:
            assert t["result"].startswith("draw")
        else:
            best = t["players"][0 if won[0] > won[1] else 1]
            assert t["result"].startswith(f"#{best} wins")


def test_a_members_drop_drops_the_team(trio: Event) -> None:
    member = trio.docs["dropped_member"]
    team = next(r for r in trio.docs["final"]["players"]
                if f"#{member} " in r["name"])
    assert team["status"] == "dropped"                  # the team, by a member's number
    assert trio.docs["drop"]["ok"] is True


def test_standings_list_teams_with_members_and_audit_is_clean(trio: Event) -> None:
    rows = trio.docs["final"]["players"]
    assert len(rows) == 7 and trio.docs["final"]["final"]
    assert all(r["name"].count("#") == 3 for r in rows)
    assert trio.docs["audit"]["ok"] is True


def test_slips_and_pages_show_each_team_match_with_its_seats(trio: Event) -> None:
    """One slip per team match, with its seats; "find your table" by member name."""
    slips = (trio.d / "site" / "round-1-slips.html").read_text()
    names = (trio.d / "site" / "round-1-names.html").read_text()
    tables = len(trio.docs["round1"]["tables"])
    assert slips.count('class="slip"') == tables
    assert slips.count("Seat 3:") == tables and "the team result is derived" in slips
    first = trio.docs["round1"]["tables"][0]["seats"][0]["players"][0]
    assert f"#{first} Fighter {first:02d}" in names and "seat 1" in names
    assert trio.docs["report"].startswith("OK")
