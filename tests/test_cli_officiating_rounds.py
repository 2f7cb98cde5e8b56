"""Three officiating cases through ``tourney`` commands, in one small Bushiroad
Swiss event (5 players, 3 rounds, level 2):

* round 1's pairing is overridden by the head judge; ``round show 1`` (text, ``--json``,
  ``--html``) and the published site show the tables played, with the engine's pairing
  named as the one replaced — also after round 1 is closed and later rounds are paired;
* both round-1 losers get a Loss of Match for their next match; round 2 gives one of them
  the bye, which the LoM turns into a loss worth 0 (BR-SWISS-7), the other loses at the
  table;
* in round 3 neither pair sat at its assigned table (a wrong-table amendment, AMB-B25):
  both tables become double losses with no game, after every fighter's 3.10.2 penalty.

Then ``audit verify`` is clean.  Refusals exit with their code and write nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.helpers.cli_event import open_event
from tests.helpers.cli_refusals import Event

PLAYERS = ["Ada", "Bea", "Cy", "Dee", "Eve"]


def _tables(doc: dict[str, Any]) -> list[list[int]]:
    return [t["players"] for t in doc["tables"]]


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> Event:
    d = tmp_path_factory.mktemp("officiating_rounds")
    cli, log = open_event(d, "bushiroad-swiss", PLAYERS, "--param", "swiss_rounds=3",
                          "--param", "tournament_level=2", name="Rounds Night")
    ev = Event(cli, d, d / "t.db", log)
    out = ev.out
    hj, sk = ("--key", "hj.pem"), ("--key", "sk.pem")

    # -- round 1: the head judge's own pairing -------------------------------------------------
    r1 = out["pair1"] = cli("round", "pair", "--seed-material", "O1", "--seed-source", "dice",
                            *hj, "--json").doc
    (a, b), (c, dd) = _tables(r1)
    out["played1"] = [[a, c], [b, dd]]
    ev.refuse("override_by_scorekeeper", "round", "override", "--pairs", f"{a}-{c},{b}-{dd}",
              "--reason", "x", *sk, code=3)
    cli("round", "override", "--pairs", f"{a}-{c},{b}-{dd}", "--reason", "siblings apart",
        *hj)
    out["show1_open"] = cli("round", "show", "1", "--json").doc
    for i, (w, _l) in enumerate(out["played1"], start=1):
        cli("result", "record", "--round", "1", "--table", str(i), "--winner", str(w), *sk)

    # -- a Loss of Match for the next match of both losers: one of them gets the bye ----------
    for p in (c, dd):
        cli("penalty", "issue", str(p), "--infraction", "3.9.2", "--penalty", "lom",
            "--description", "left the venue between rounds", *hj)
    out["losers"] = [c, dd]
    out["pair2"] = cli("round", "pair", "--seed-material", "O2", "--seed-source", "dice",
                       *hj, "--json").doc
    out["show2_text"] = cli("round", "show", "2").out
    for t in cli("round", "show", "2", "--json").doc["tables"]:
        if t["result"] is None:
            cli("result", "record", "--round", "2", "--table", str(t["table"]), "--winner",
                str(t["players"][0]), *sk)

    # -- round 3: neither pair at its assigned table -------------------------------------------
    r3 = out["pair3"] = cli("round", "pair", "--seed-material", "O3", "--seed-source", "dice",
                            *hj, "--json").doc
    (p, q), (x, y) = _tables(r3)
    for i, (w, _l) in enumerate(_tables(r3), start=1):
        cli("result", "record", "--round", "3", "--table", str(i), "--winner", str(w), *sk)
    played = f"3:{p}-{x}:{p},4:{q}-{y}:{q}"
    ev.refuse("wrong_table_by_scorekeeper", "result", "wrong-table", "--round", "3",
              "--played", played, "--reason", "x", *sk, code=3)
    ev.refuse("wrong_table_malformed", "result", "wrong-table", "--round", "3", "--played",
              f"3:{p}{x}:{p}", "--reason", "x", *hj, code=2)
    out["wrong"] = cli("result", "wrong-table", "--round", "3", "--played", played,
                       "--reason", "sat at the empty tables 3 and 4", *hj, "--json").doc
    out["show3"] = cli("round", "show", "3", "--json").doc

    # -- round 1 read back after later rounds ----------------------------------------------------
    out["show1"] = cli("round", "show", "1", "--json").doc
    out["show1_text"] = cli("round", "show", "1").out
    out["show1_html"] = cli("round", "show", "1", "--html").out
    out["standings"] = cli("standings", "--json").doc
    cli("publish", "site", *hj)
    out["site_round1"] = (d / "site" / "round-1.json").read_text()
    out["site_round1_html"] = (d / "site" / "round-1.html").read_text()
    out["site_round2_html"] = (d / "site" / "round-2.html").read_text()
    out["audit"] = cli("audit", "verify", "--json").doc
    return ev


def test_overridden_round_shows_the_tables_played(event: Event) -> None:
    o = event.out
    engine, played = _tables(o["pair1"]), o["played1"]
    assert _tables(o["show1_open"]) == played and o["show1_open"]["overridden"] is not None
    doc = o["show1"]                                  # closed, rounds 2 and 3 paired since
    assert doc["closed"] is True and _tables(doc) == played
    assert [t["result"]["winner"] for t in doc["tables"]] == [t[0] for t in played]
    over = doc["overridden"]
    assert over["reason"] == "siblings apart" and over["paired_seq"] < over["seq"]
    assert [t["players"] for t in over["engine_tables"]] == engine


def test_overridden_round_text_and_html(event: Event) -> None:
    o = event.out
    (a, c), (b, dd) = o["played1"]
    text = o["show1_text"]
    assert "pairing overridden by the head judge" in text and "siblings apart" in text
    engine = _tables(o["pair1"])
    assert f"1: #{engine[0][0]} v #{engine[0][1]}" in text
    rows = [line.split() for line in text.splitlines() if line.strip().startswith(("1 ", "2 "))]
    assert [(r[1], r[5]) for r in rows] == [(f"#{a}", f"#{c}"), (f"#{b}", f"#{dd}")]
    for html in (o["show1_html"], o["site_round1_html"]):
        assert "Pairing overridden by the head judge" in html and "siblings apart" in html
    site = json.loads(o["site_round1"])                    # the published round-1.json
    assert [t["players"] for t in site["tables"]] == o["played1"]
    assert site["overridden"] == o["show1"]["overridden"]


def test_lom_for_the_next_match_takes_the_bye(event: Event) -> None:
    o = event.out
    r2 = o["pair2"]
    bye = r2["bye"]
    assert bye in o["losers"] and r2["bye_lost"] is True
    other = next(p for p in o["losers"] if p != bye)
    kinds = [e["kind"] for e in r2["events"]]
    assert kinds.count("result_recorded") == 1            # the other loser, at the table
    assert "(lost: Loss of Match, BR-SWISS-7)" in o["show2_text"]
    assert "(lost: Loss of Match)" in o["site_round2_html"]
    rows = {r["number"]: r for r in o["standings"]["players"]}
    assert rows[bye]["losses"] >= 2 and rows[other]["losses"] >= 2
    assert rows[bye]["points"] == rows[bye]["wins"]      # the lost bye is worth nothing


def test_wrong_table_neither_showed_is_a_double_loss(event: Event) -> None:
    o = event.out
    kinds = [e["kind"] for e in o["wrong"]["events"]]
    assert kinds[:4] == ["penalty_issued"] * 4 and kinds.count("result_corrected") == 2
    for t in o["show3"]["tables"]:
        res = t["result"]
        assert (res["winner"], sorted(res["losers"]), res["outcome"]) == (
            None, sorted(t["players"]), "double_loss")


def test_audit_clean(event: Event) -> None:
    assert event.out["audit"]["ok"] is True, event.out["audit"]
    codes = {f["code"] for f in event.out["audit"]["findings"]}
    assert "pairing_overridden" in codes


@pytest.mark.parametrize("name", ["override_by_scorekeeper", "wrong_table_by_scorekeeper",
                                  "wrong_table_malformed"])
def test_refusals_write_nothing(event: Event, name: str) -> None:
    r = event.refused[name]
    assert r.unchanged and len(r.run.err.strip().splitlines()) == 1
