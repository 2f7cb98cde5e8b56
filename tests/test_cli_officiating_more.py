"""More of issue 9 through ``tourney`` commands: deck registration (immutable) and
a deck check, a level amendment, the round clock run by the head judge acting as
time-keeper, a 001 end-of-match decision that fixes the result, an undone drop, a late
registration, and a wrong-table amendment with its penalties — then ``audit verify``
clean.  Refusals leave the ledger's bytes unchanged."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers.cli_refusals import Event
from tests.helpers.cli_runner import Cli, remember_secret


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> Event:
    d = tmp_path_factory.mktemp("officiating2")
    cli = Cli(d, d / "t.db")
    for name in ("hj", "sk"):
        cli("keys", "new", "--name", f"{name} person", "--out", f"{name}.pem")
        remember_secret(d / f"{name}.pem")
    log = cli("init", "--name", "Floor Night", "--format", "bushiroad-swiss",
              "--param", "swiss_rounds=3", "--param", "tournament_level=2",
              "--param", "end_of_match=eom_001", "--key", "hj.pem", "--json").doc["tournament"]
    cli("official", "add", "--role", "scorekeeper", "--name", "sk", "--public-key",
        "sk.pem.pub", "--key", "hj.pem")
    (d / "players.csv").write_text("number,name\n" + "".join(
        f"{i},P{i}\n" for i in range(1, 7)))
    cli("player", "import", "players.csv", "--key", "sk.pem")
    ev = Event(cli, d, d / "t.db", log)
    out: dict[str, Any] = ev.out
    hj, sk = ("--key", "hj.pem"), ("--key", "sk.pem")
    (d / "deck1.txt").write_text("4 Alpha\n4 Beta\n")
    out["deck"] = cli("deck", "register", "1", "--file", "deck1.txt", *sk, "--json").doc
    ev.refuse("deck_twice", "deck", "register", "1", "--file", "deck1.txt", *sk, code=3)
    ev.refuse("deck_check_by_scorekeeper", "deck", "check", "1", "--matches", *sk, code=3)
    out["check"] = cli("deck", "check", "1", "--mismatch", "--note", "one card short",
                       *hj, "--json").doc
    cli("registration", "close", *hj)
    ev.refuse("level_by_scorekeeper", "level", "1", "--reason", "x", *sk, code=3)
    out["level"] = cli("level", "1", "--reason", "a shop event after all", *hj, "--json").doc

    r1 = cli("round", "pair", "--seed-material", "F1", "--seed-source", "dice", *hj,
             "--json").doc
    t1 = [t["players"] for t in r1["tables"]]
    cli("round", "start", *hj)
    ev.refuse("eom_before_time", "result", "eom", "--round", "1", "--table", "1", "--games",
              "1-0", *hj, code=3)
    cli("round", "time", *hj)
    out["eom"] = cli("result", "eom", "--round", "1", "--table", "1", "--games", "1-0", *hj,
                     "--json").doc
    ev.refuse("result_against_eom", "result", "record", "--round", "1", "--table", "1",
              "--winner", str(t1[0][1]), *sk, code=3)
    for i, (a, _b) in enumerate(t1, start=1):
        cli("result", "record", "--round", "1", "--table", str(i), "--winner", str(a), *sk)

    cli("drop", "2", *sk)
    out["undrop"] = cli("undrop", "2", "--reason", "the wrong slip was marked", *hj,
                        "--json").doc
    out["late"] = cli("player", "late", "Kim Late", "--losses", "1", "--reason",
                      "train delay", *hj, "--json").doc
    ev.refuse("late_too_many", "player", "late", "Lou", "--losses", "2", "--reason", "x",
              *hj, code=3)
    r2 = cli("round", "pair", "--seed-material", "F2", "--seed-source", "dice", *hj,
             "--json").doc
    (a, b), (c, dd) = r2["tables"][0]["players"], r2["tables"][1]["players"]
    cli("result", "record", "--round", "2", "--table", "1", "--winner", str(b), *sk)
    cli("result", "record", "--round", "2", "--table", "2", "--winner", str(dd), *sk)
    out["wrong"] = cli("result", "wrong-table", "--round", "2", "--played",
                       f"1:{a}-{dd}:{a},2:{c}-{b}:{b}", "--reason", "seats swapped", *hj,
                       "--json").doc
    for t in cli("round", "show", "2", "--json").doc["tables"]:
        if t["result"] is None:
            cli("result", "record", "--round", "2", "--table", str(t["table"]), "--winner",
                str(t["players"][0]), *sk)
    out["round2"] = cli("round", "show", "2", "--json").doc
    out["r2"] = r2
    out["penalties"] = cli("penalty", "list", "--json").doc
    out["audit"] = cli("audit", "verify", "--json").doc
    return ev


def test_deck_level_clock_eom(event: Event) -> None:
    o = event.out
    assert len(o["deck"]["event"]["event"]["body"]["sha256"]) == 64
    assert o["check"]["event"]["event"]["body"]["matches"] is False
    assert o["level"]["level"] == 1
    body = o["eom"]["event"]["event"]["body"]
    assert body["decided_by"] == "eom_step_1" and body["winner"] is not None


def test_undrop_late_and_wrong_table(event: Event) -> None:
    o = event.out
    assert o["undrop"]["number"] == 2
    late = o["late"]["number"]
    paired = [p for t in o["r2"]["tables"] for p in t["players"]] + [o["r2"]["bye"]]
    assert late in paired and 2 in paired
    kinds = [e["kind"] for e in o["wrong"]["events"]]
    assert kinds.count("result_corrected") == 2 and kinds.count("penalty_issued") == 4
    winners = [t["result"]["winner"] for t in o["round2"]["tables"][:2]]
    a, c = o["r2"]["tables"][0]["players"][0], o["r2"]["tables"][1]["players"][0]
    assert winners == [a, c]
    pens = [r for r in o["penalties"]["penalties"] if r["infraction"] == "3.10.2"]
    assert len(pens) == 4 and {r["penalty"] for r in pens} == {"caution"}   # level 1 now


def test_audit_clean(event: Event) -> None:
    assert event.out["audit"]["ok"] is True, event.out["audit"]


@pytest.mark.parametrize("name", ["deck_twice", "deck_check_by_scorekeeper",
                                  "level_by_scorekeeper", "eom_before_time",
                                  "result_against_eom", "late_too_many"])
def test_refusals_write_nothing(event: Event, name: str) -> None:
    r = event.refused[name]
    assert r.unchanged and len(r.run.err.strip().splitlines()) == 1
