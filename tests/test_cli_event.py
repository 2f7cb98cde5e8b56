"""A small HotC event run end to end through the CLI, as ``tourney`` commands.

Keys for a head judge and a scorekeeper, ``init --cut 4``, 10 players by ``player
import``, registration close; Swiss rounds paired with ``round pair --seed-material``,
results entered by the scorekeeper (a timeout double loss, an upheld slow play, a
concession, wins, a supervised both-slow-play win, a Swiss double loss), a drop after
pairing and one before pairing, a judge's correction, until the stop rule ends the Swiss
phase; ``cut``, ``bracket``, top-cut results (one ``--timeout --turn-player``), the
champion; then ``standings``, ``round show`` (docs/DESIGN.md §8 shape) and ``audit verify``.

Refusals are made at the moment they apply, each checked for its exit code and for the
ledger's bytes being unchanged; the one module-scoped run is shared by its tests.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers.cli_refusals import Event
from tests.helpers.cli_runner import Cli, remember_secret

PLAYERS = ["Ada Lovelace", "Bea Brown", "Cy Young", "Dee Dee", "Eve Online", "Fay Wray",
           "Gus Grissom", "Hal Jordan", "Ivy League", "Jo March"]
SHOW_KEYS = {"round", "tables", "bye", "phase", "advances", "closed", "bye_lost", "overridden"}
TABLE_KEYS = {"table", "players", "groups", "rematch", "pair_down", "pair_up", "result"}
STATUSES = {"active", "eliminated", "dropped", "disqualified", "cut", "champion"}


def _tables(doc: dict[str, Any]) -> list[list[int]]:
    return [t["players"] for t in doc["tables"]]


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> Event:
    d = tmp_path_factory.mktemp("event")
    cli = Cli(d, d / "t.db")
    for name in ("hj", "sk"):
        cli("keys", "new", "--name", f"{name} person", "--out", f"{name}.pem")
        remember_secret(d / f"{name}.pem")
    # the HOTC_2013 command flow keeps working (docs/DESIGN.md §10); HOTC_2013_R2's own CLI
    # event is tests/test_hotc_revised_cli.py
    log = cli("init", "--name", "Club Night", "--format", "hotc-swiss-de", "--cut", "4",
              "--param", "rules=HOTC_2013", "--key", "hj.pem", "--json").doc["tournament"]
    cli("official", "add", "--role", "scorekeeper", "--name", "Sam", "--public-key",
        "sk.pem.pub", "--key", "hj.pem")
    (d / "players.csv").write_text("number,name\n" + "".join(
        f"{i},{n}\n" for i, n in enumerate(PLAYERS, start=1)))
    cli("player", "import", "players.csv", "--key", "sk.pem")
    cli("registration", "close", "--key", "hj.pem")
    ev = Event(cli, d, d / "t.db", log)
    out = ev.out
    sk, hj = ("--key", "sk.pem"), ("--key", "hj.pem")

    # -- round 1 -------------------------------------------------------------------------
    r1 = out["pair1"] = cli("round", "pair", "--seed-material", "club night R1 17 03 88",
                            "--seed-source", "atmospheric #1", *hj, "--json").doc
    t1, t2, t3, t4, t5 = _tables(r1)
    out["drop_after"] = cli("drop", str(t4[0]), "--reason", "feeling ill", *sk,
                            "--json").doc
    out["timeout"] = cli("result", "record", "--round", "1", "--table", "1", "--timeout",
                         *sk, "--json").doc
    cli("result", "record", "--round", "1", "--table", "2", "--slow-play", str(t2[1]), *sk)
    cli("result", "record", "--round", "1", "--table", "3", "--concession", str(t3[1]), *sk)
    ev.refuse("unpaired_table", "result", "record", "--round", "1", "--table", "99",
              "--winner", str(t1[0]), *sk, code=3)
    ev.refuse("second_result", "result", "record", "--round", "1", "--table", "1",
              "--winner", str(t1[0]), *sk, code=3)
    ev.refuse("winner_not_at_table", "result", "record", "--round", "1", "--table", "5",
              "--winner", str(t1[0]), *sk, "--json", code=3)
    ev.refuse("two_outcomes", "result", "record", "--round", "1", "--table", "5",
              "--winner", str(t5[0]), "--timeout", *sk, "--json", code=2)
    out["close1"] = cli("result", "record", "--round", "1", "--table", "5", "--winner",
                        str(t5[0]), *sk, "--json").doc
    out["close1_human"] = cli("round", "show")
    ev.refuse("result_after_close", "result", "record", "--round", "1", "--table", "5",
              "--winner", str(t5[1]), *sk, code=3)
    ev.refuse("cut_too_early", "cut", "--seed-material", "x", "--seed-source", "y", *hj,
              code=3)
    ev.refuse("pair_by_scorekeeper", "round", "pair", "--seed-material", "x",
              "--seed-source", "y", *sk, "--json", code=3)
    ev.refuse("pair_without_seed", "round", "pair", *hj, code=3)

    # -- round 2 -------------------------------------------------------------------------
    out["drop_before"] = cli("drop", str(t5[1]), *sk, "--json").doc
    r2 = out["pair2"] = cli("round", "pair", "--seed-material", "club night R2 52 07",
                            "--seed-source", "atmospheric #2", *hj, "--json").doc
    top = [t for t in r2["tables"] if t["groups"] == [1, 1]]
    low = [t for t in r2["tables"] if t["groups"] == [0, 0]]
    for t in r2["tables"][:-1]:
        extra = ["--both-slow-play"] if t is top[0] else []
        cli("result", "record", "--round", "2", "--table", str(t["table"]), "--winner",
            str(t["players"][0]), *extra, *sk)
    last = r2["tables"][-1]
    out["close2"] = cli("result", "record", "--round", "2", "--table", str(last["table"]),
                        "--double-loss" if last in low else "--winner",
                        *([] if last in low else [str(last["players"][0])]), *sk,
                        "--json").doc
    fix = low[0]
    ev.refuse("correct_without_reason", "result", "correct", "--round", "2", "--table",
              str(fix["table"]), "--winner", str(fix["players"][1]), *hj, code=2)
    out["correct"] = cli("result", "correct", "--round", "2", "--table", str(fix["table"]),
                         "--winner", str(fix["players"][1]), "--reason", "slips swapped",
                         *hj, "--json").doc
    out["show2"] = cli("round", "show", "2", "--json").doc

    # -- top cut -------------------------------------------------------------------------
    out["cut"] = cli("cut", "--seed-material", "club night cut 44", "--seed-source",
                     "atmospheric #3", *hj, "--json").doc
    out["bracket"] = cli("bracket", "--seed-material", "club night bracket 9",
                         "--seed-source", "atmospheric #4", *hj, "--json").doc
    semis = out["bracket"]["round"]
    n3 = str(semis["round"])
    a, b = semis["tables"][0]["players"]
    out["semi_timeout"] = cli("result", "record", "--round", n3, "--table", "1",
                              "--timeout", "--turn-player", str(a), *sk, "--json").doc
    c, _ = semis["tables"][1]["players"]
    out["close3"] = cli("result", "record", "--round", n3, "--table", "2", "--winner",
                        str(c), *sk, "--json").doc
    out["final"] = cli("bracket", *hj, "--json").doc
    fin = out["final"]["round"]
    out["champion"] = cli("result", "record", "--round", str(fin["round"]), "--table", "1",
                          "--winner", str(fin["tables"][0]["players"][1]), *hj,
                          "--json").doc
    out["standings"] = cli("standings", "--json").doc
    out["standings_human"] = cli("standings")
    out["show1"] = cli("round", "show", "1", "--json").doc
    out["audit"] = cli("audit", "verify", "--json").doc
    return ev


def test_swiss_round_one(event: Event) -> None:
    out = event.out
    r1 = out["pair1"]
    assert r1["round"] == 1 and r1["phase"] == "swiss" and r1["bye"] is None
    assert len(r1["tables"]) == 5 and all(set(t) >= {"table", "players"} for t in r1["tables"])
    assert [e["kind"] for e in r1["events"]] == ["seed_recorded", "draw_made", "round_paired"]
    # DESIGN §4: a checkpoint after pairings, stored in the ledger
    assert r1["checkpoint"]["stored"] == "ledger" and r1["checkpoint"]["size"] == \
        r1["events"][-1]["seq"]
    dropped = out["drop_after"]
    assert dropped["timing"] == "after_pairing" and dropped["round"] == 1
    assert [e["kind"] for e in dropped["events"]] == ["player_dropped", "result_recorded"]
    assert out["timeout"]["winner"] is None and len(out["timeout"]["losers"]) == 2
    close1 = out["close1"]
    assert close1["round_closed"]["swiss_over"] is False
    assert close1["verdict"].endswith("undefeated; Swiss continues: pair the next round: "
                                      "'tourney round pair'")
    assert close1["checkpoint"] is None and "tourney checkpoint" in close1["hint"]
    human = out["close1_human"].out
    assert human.startswith("Round 1 (Swiss): 5 tables, 5 results in, closed")
    assert PLAYERS[r1["tables"][0]["players"][0] - 1] in human and "double loss" in human


def test_swiss_stops_and_correction(event: Event) -> None:
    out = event.out
    assert out["drop_before"]["timing"] == "before_pairing"
    r2 = out["pair2"]
    assert r2["round"] == 2 and len(r2["tables"]) == 4  # 10 − 2 dropped = 8 players
    dropped = {out["drop_after"]["number"], out["drop_before"]["number"]}
    assert not dropped & {p for t in r2["tables"] for p in t["players"]}
    assert out["close2"]["round_closed"]["swiss_over"] is True
    assert "Swiss phase over: select the top 4: 'tourney cut'" in out["close2"]["verdict"]
    fixed = out["correct"]
    body = fixed["event"]["event"]["body"]
    assert fixed["kind"] == "result_corrected" and body["corrects_seq"] < fixed["seq"]
    assert body["reason"] == "slips swapped"
    assert [e["kind"] for e in fixed["events"]] == ["result_corrected", "round_closed"]
    assert fixed["checkpoint"] is not None  # signed by the head judge
    table = next(t for t in out["show2"]["tables"] if t["table"] == body["table"])
    assert table["result"]["seq"] == fixed["seq"] and table["result"]["winner"] == body["winner"]


def test_cut_bracket_and_champion(event: Event) -> None:
    out = event.out
    cut = out["cut"]
    assert len(cut["undefeated"]) < 4 and len(cut["cut"]) == 4
    assert set(cut["drawn"]) <= set(cut["pool"]) and set(cut["undefeated"]) <= set(cut["cut"])
    assert cut["checkpoint"] is not None
    br = out["bracket"]
    assert br["seeded"] is True and sorted(br["slots"]) == sorted(cut["cut"])
    assert br["round"]["phase"] == "top_cut" and len(br["round"]["tables"]) == 2
    semi = out["semi_timeout"]
    a, b = br["round"]["tables"][0]["players"]
    assert (semi["winner"], semi["losers"]) == (b, [a])  # the turn player loses
    assert "remain in the bracket" in out["close3"]["verdict"]
    final = out["final"]
    assert final["seeded"] is False and len(final["round"]["tables"]) == 1
    champ = out["champion"]
    assert champ["champion"] == final["round"]["tables"][0]["players"][1]
    assert [e["kind"] for e in champ["events"]] == ["result_recorded", "round_closed",
                                                    "champion_declared"]
    assert champ["checkpoint"] is not None


def test_standings(event: Event) -> None:
    out = event.out
    rows = out["standings"]["players"]
    assert len(rows) == len(PLAYERS)
    by = {r["number"]: r for r in rows}
    champion = out["champion"]["champion"]
    assert by[champion]["rank"] == 1 and by[champion]["status"] == "champion"
    assert {r["status"] for r in rows} <= STATUSES
    for key in ("drop_after", "drop_before"):
        assert by[out[key]["number"]]["status"] == "dropped"
    assert all(by[n]["rank"] <= 4 for n in out["cut"]["cut"])
    assert all(set(r) >= {"number", "name", "rank", "wins", "losses", "status"} for r in rows)
    assert [r["rank"] for r in rows] == sorted(r["rank"] for r in rows)
    human = out["standings_human"].out.splitlines()
    assert human[1].split()[:4] == ["RANK", "#", "NAME", "W-L"]   # the declared headers
    assert human[2].split()[:2] == ["1", str(champion)]


def test_round_show_json_matches_design_8(event: Event) -> None:
    doc = event.out["show1"]
    assert set(doc) == SHOW_KEYS
    assert doc["round"] == 1 and doc["phase"] == "swiss" and doc["closed"] is True
    assert doc["bye"] is None and doc["advances"] == []
    assert doc["bye_lost"] is False and doc["overridden"] is None
    for t in doc["tables"]:
        assert set(t) == TABLE_KEYS and len(t["players"]) == 2
        assert set(t["result"]) >= {"seq", "winner", "losers", "outcome"}
    assert _tables(doc) == _tables(event.out["pair1"])
    outcomes = sorted(t["result"]["outcome"] for t in doc["tables"])
    assert outcomes == ["concession", "drop", "slow_play", "timeout", "win"]


def test_audit_is_clean(event: Event) -> None:
    report = event.out["audit"]
    assert report["ok"] is True
    assert not [f for f in report["findings"] if f["severity"] == "error"], report


@pytest.mark.parametrize("name, code, needle", [
    ("unpaired_table", 3, "[LEDGER-RES-1]"),
    ("second_result", 3, "[LEDGER-RES-1]"),
    ("winner_not_at_table", 3, "[LEDGER-RES-1]"),  # result reporting, not a time rule
    ("two_outcomes", 2, "--winner and --timeout are different outcomes"),
    ("result_after_close", 3, "[LEDGER-RES-1]"),
    ("cut_too_early", 3, "[HOTC-STOP-1]"),
    ("pair_by_scorekeeper", 3, "head_judge"),
    ("pair_without_seed", 3, "[LEDGER-RAND-1]"),
    ("correct_without_reason", 2, "--reason"),
])
def test_refusals_write_nothing(event: Event, name: str, code: int, needle: str) -> None:
    refusal = event.refused[name]
    assert refusal.run.code == code
    assert refusal.unchanged, f"{name} changed the ledger"
    assert needle in refusal.run.err, refusal.run.err


def test_refusal_json_names_rule(event: Event) -> None:
    assert event.refused["pair_by_scorekeeper"].run.doc["error"]["finding"] == \
        "role_not_permitted"
    assert event.refused["two_outcomes"].run.doc["error"]["code"] == "usage"
    assert event.refused["winner_not_at_table"].run.doc["error"]["exit_code"] == 3
