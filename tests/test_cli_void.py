"""``tourney round void`` (issue 9 §7, ADR 0012) and the TC-23 double drop through real
``tourney`` commands: a round posted too early is voided, the earlier round corrected,
the round paired again from a fresh seed under ``<log>/R2/v1/…``; two players of one table
drop after the pairing and the table has no winner; then ``audit verify`` is clean, with
the void reported as an info notice.  Refusals exit with the documented code, print one
line and leave the ledger's bytes unchanged."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers.cli_event import open_event
from tests.helpers.cli_refusals import Event


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> Event:
    d = tmp_path_factory.mktemp("void")
    cli, log = open_event(d, "bushiroad-swiss", [f"P{i}" for i in range(1, 10)],
                          "--param", "swiss_rounds=3", officials=("sk", "judge"),
                          name="Void Night")
    ev = Event(cli, d, d / "t.db", log)
    out: dict[str, Any] = ev.out
    hj, sk, jj = ("--key", "hj.pem"), ("--key", "sk.pem"), ("--key", "judge.pem")

    ev.refuse("void_nothing_paired", "round", "void", "--reason", "x", *hj, code=3)
    r1 = cli("round", "pair", "--seed-material", "V1", "--seed-source", "dice", *hj,
             "--json").doc
    for t in r1["tables"]:
        cli("result", "record", "--round", "1", "--table", str(t["table"]), "--winner",
            str(t["players"][0]), *sk)
    out["r1"] = r1
    out["r2_first"] = cli("round", "pair", "--seed-material", "V2", "--seed-source", "dice",
                          *hj, "--json").doc
    ev.refuse("void_by_scorekeeper", "round", "void", "--reason", "x", *sk, code=3)
    ev.refuse("void_empty_reason", "round", "void", "--reason", " ", *hj, code=2)
    ev.refuse("correct_r1_while_r2_paired", "result", "correct", "--round", "1", "--table",
              "1", "--winner", str(r1["tables"][0]["players"][1]), "--reason", "slip", *jj,
              code=3)
    out["void"] = cli("round", "void", "--reason", "posted before the slips were checked",
                      *hj, "--json").doc
    out["void_human"] = cli("round", "show", "1")
    out["correct"] = cli("result", "correct", "--round", "1", "--table", "1", "--winner",
                         str(r1["tables"][0]["players"][1]), "--reason", "slip misread",
                         *jj, "--json").doc
    ev.refuse("repair_with_old_seed", "round", "pair", *hj, code=3)
    out["r2"] = r2 = cli("round", "pair", "--seed-material", "V2 again", "--seed-source",
                         "dice", *hj, "--json").doc
    v, w = r2["tables"][0]["players"]
    out["drop_v"] = cli("drop", str(v), *sk, "--json").doc
    out["drop_w"] = cli("drop", str(w), *sk, "--json").doc
    ev.refuse("void_after_result", "round", "void", "--reason", "x", *hj, code=3)
    for t in r2["tables"][1:]:
        cli("result", "record", "--round", "2", "--table", str(t["table"]), "--winner",
            str(t["players"][0]), *sk)
    out["round2"] = cli("round", "show", "2", "--json").doc
    out["draws"] = [(leaf["event"]["seq"], leaf["event"]["body"]["ctx"]) for leaf in
                    cli("log", "--kind", "draw_made", "--json").doc]
    out["audit"] = cli("audit", "verify", "--json").doc
    out["help"] = cli("round", "void", "--help")
    return ev


def _kinds(doc: dict[str, Any]) -> list[str]:
    return [e["kind"] for e in doc["events"]]


def _ctxs(event: Event, doc: dict[str, Any]) -> list[str]:
    seqs = {e["seq"] for e in doc["events"] if e["kind"] == "draw_made"}
    return [c for seq, c in event.out["draws"] if seq in seqs]


def test_void_then_correct_then_pair_again(event: Event) -> None:
    o, log = event.out, event.log
    v = o["void"]
    assert (v["kind"], v["round"], v["paired_seq"]) == ("pairing_voided", 2,
                                                        o["r2_first"]["events"][-1]["seq"])
    assert v["seed_ctx"] == f"{log}/R2/v1"
    assert "Round 1" in o["void_human"].out and "closed" in o["void_human"].out
    assert _kinds(o["correct"])[0] == "result_corrected"
    assert _ctxs(event, o["r2_first"]) == [f"{log}/R2/bye", f"{log}/R2/pairing"]
    assert _ctxs(event, o["r2"]) == [f"{log}/R2/v1/bye", f"{log}/R2/v1/pairing"]


def test_double_drop_after_pairing_has_no_winner(event: Event) -> None:
    o = event.out
    assert _kinds(o["drop_v"]) == ["player_dropped", "result_recorded"]
    assert _kinds(o["drop_w"]) == ["player_dropped", "result_corrected"]
    first = o["round2"]["tables"][0]["result"]
    v, w = o["r2"]["tables"][0]["players"]
    assert first["winner"] is None and first["losers"] == sorted([v, w])
    assert first["loss_reasons"] == ["drop_after_pairing"] * 2


def test_audit_clean_with_the_void_as_a_notice(event: Event) -> None:
    audit = event.out["audit"]
    assert audit["ok"] is True, audit
    notes = [f for f in audit["findings"] if f["code"] == "pairing_voided"]
    assert len(notes) == 1 and notes[0]["severity"] == "info"
    assert notes[0]["seq"] == event.out["void"]["seq"]


def test_help_has_an_example(event: Event) -> None:
    assert "Example: tourney round void" in event.out["help"].out


@pytest.mark.parametrize("name", ["void_nothing_paired", "void_by_scorekeeper",
                                  "void_empty_reason", "correct_r1_while_r2_paired",
                                  "repair_with_old_seed", "void_after_result"])
def test_refusals_write_nothing(event: Event, name: str) -> None:
    r = event.refused[name]
    assert r.unchanged and len(r.run.err.strip().splitlines()) == 1, r.run.err
