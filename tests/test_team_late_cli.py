"""A late team, a void over a member's carried loss and whose penalty it is, through the
CLI as ``tourney`` commands (issue 20, ADR 0026 decisions 15-17).

A trio Swiss of 4 teams: refusals of ``team late`` (during a round, the wrong size, a
fighter already on a team) and of a fighter entering late alone exit 3 with one line
naming the rule and leave the ledger's bytes unchanged; ``team late`` registers three
fighters and their team with the announced loss for round 1; a member's own Loss of Match
for the next match is recorded with the round 2 pairing, the pairing is voided and paired
again (the loss binds again); ``penalty list`` and ``round show`` say the penalty is the
member's own, and the team's Warning is the team's; ``audit verify`` is clean.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers.cli_runner import Cli
from tests.helpers.team_cli import HJ, SK, Event, open_trio


def _play(cli: Cli, doc: dict[str, Any], rnd: int) -> None:
    for t in doc["tables"]:
        for s in t["seats"]:
            if s.get("result") is None:
                cli("result", "record", "--round", str(rnd), "--table", str(t["table"]),
                    "--seat", str(s["seat"]), "--winner", str(min(s["players"])), *SK)


@pytest.fixture(scope="module")
def late(tmp_path_factory: pytest.TempPathFactory) -> Event:
    ev = Event(tmp_path_factory.mktemp("late"))
    cli = ev.cli
    open_trio(ev, "Late Trio", fighters=12, teams=4, named=False)
    cli("registration", "close", *HJ)
    r1 = cli("round", "pair", "--seed-material", "r1 dice", "--seed-source", "dice", *HJ,
             "--json").doc
    ev.refuse("during_round", "team", "late", "Kim", "Lou", "Max", "--reason", "train", *HJ)
    _play(cli, cli("round", "show", "--json").doc, 1)
    assert r1["round"] == 1
    ev.refuse("alone", "player", "late", "Solo", "--reason", "train", *HJ)
    ev.refuse("wrong_size", "team", "late", "Kim", "Lou", "--reason", "train", *HJ)
    ev.refuse("on_a_team", "team", "late", "Kim", "Lou", "Max", "--number", "3",
              "--number", "20", "--number", "21", "--reason", "train", *HJ)
    ev.refuse("too_many_missed", "team", "late", "Kim", "Lou", "Max", "--losses", "2",
              "--reason", "train", *HJ)
    ev.docs["late"] = cli("team", "late", "Kim", "Lou", "Max", "--losses", "1", "--name",
                          "Late Ones", "--reason", "train delay", *HJ, "--json").doc
    ev.docs["list"] = cli("team", "list", "--json").doc
    ev.docs["team_warning"] = cli("penalty", "issue", "6", "--infraction", "4.5",
                                  "--penalty", "warning", *HJ, "--json").doc
    ev.docs["member_lom"] = cli("penalty", "issue", "4", "--infraction", "4.5", "--penalty",
                                "lom", "--description", "asked a spectator",
                                "--justification", "by the Guide", *HJ, "--json").doc
    ev.docs["pair2"] = cli("round", "pair", "--seed-material", "r2 dice", "--seed-source",
                           "dice", *HJ, "--json").doc
    ev.docs["show2"] = cli("round", "show").out
    ev.docs["void"] = cli("round", "void", "--reason", "wrong standings posted", *HJ,
                          "--json").doc
    ev.docs["pair2b"] = cli("round", "pair", "--seed-material", "r2 again", "--seed-source",
                            "dice", *HJ, "--json").doc
    ev.docs["show2b"] = cli("round", "show", "--json").doc
    ev.docs["penalties"] = cli("penalty", "list", "--json").doc
    ev.docs["penalties_text"] = cli("penalty", "list").out
    ev.docs["member4"] = cli("penalty", "list", "4", "--json").doc
    t = next(t for t in ev.docs["show2b"]["tables"]
             if all(s.get("result") is None for s in t["seats"]))
    s1 = t["seats"][0]
    cli("result", "record", "--round", "2", "--table", str(t["table"]), "--seat", "1",
        "--winner", str(min(s1["players"])), *SK)
    ev.refuse("seat_entered_then_void", "round", "void", "--reason", "too late", *HJ)
    _play(cli, cli("round", "show", "--json").doc, 2)
    ev.docs["audit"] = cli("audit", "verify", "--json").doc
    return ev


@pytest.mark.parametrize("name,rule", [("during_round", "LEDGER-REG-2"),
                                       ("alone", "BR-TEAM-1"),
                                       ("wrong_size", "BR-TEAM-1"),
                                       ("on_a_team", "LEDGER-REG-1"),
                                       ("too_many_missed", "LEDGER-REG-2"),
                                       ("seat_entered_then_void", "LEDGER-RES-1")])
def test_refusals_name_the_rule_and_write_nothing(late: Event, name: str, rule: str) -> None:
    unchanged, err = late.refused[name]
    assert unchanged and rule in err and len(err.splitlines()) <= 2, err


def test_a_late_team_enters_whole_with_its_missed_round(late: Event) -> None:
    doc = late.docs["late"]
    assert doc["team"] == 15 and doc["members"] == [13, 14, 15]
    assert (doc["rounds"], doc["byes"], doc["losses"]) == (1, 0, 1)
    assert [e["kind"] for e in doc["events"]] == ["team_added_late"]
    row = next(r for r in late.docs["list"]["teams"] if r["team"] == 15)
    assert row["name"] == "Late Ones" and row["names"] == ["Kim", "Lou", "Max"]
    paired = {p for t in late.docs["show2b"]["tables"] for p in t["players"]}
    assert 15 in paired | {late.docs["show2b"]["bye"]}


def test_the_void_takes_back_the_members_seat_loss_and_the_repair_binds_it(
        late: Event) -> None:
    kinds = [e["kind"] for e in late.docs["pair2"]["events"]]
    assert "seat_result_recorded" in kinds
    assert "#4's own penalty" in late.docs["show2"]
    assert late.docs["void"]["kind"] == "pairing_voided"
    again = [e["kind"] for e in late.docs["pair2b"]["events"]]
    assert "seat_result_recorded" in again
    seat = next(s for t in late.docs["show2b"]["tables"] for s in t["seats"]
                if 4 in s["players"])
    assert "#4's own penalty" in seat["result"]


def test_penalty_list_says_whose_penalty_it_is(late: Event) -> None:
    rows = late.docs["penalties"]["penalties"]
    team = next(r for r in rows if r["number"] == 6)
    own = next(r for r in rows if r["number"] == 4)
    assert (team["whose"], team["team"]) == ("team", 6)
    assert (own["whose"], own["team"]) == ("member", 6)
    text = late.docs["penalties_text"]
    assert "#4 (own penalty; member of team #6)" in text
    assert "team #6 (applies to each member, BR-TEAM-6)" in text
    mine = late.docs["member4"]["penalties"]          # the member's own and the team's
    assert sorted(r["whose"] for r in mine) == ["member", "team"]


def test_the_audit_is_clean(late: Event) -> None:
    doc = late.docs["audit"]
    assert doc["ok"], doc
