"""Sealing (issue 8 item 9): the final result writes the end-of-event checkpoint when the
head judge enters it; entered by a scorekeeper (who may not sign checkpoints) the command
says the event is unsealed, and the audit warns ``event_not_sealed`` until a head-judge
checkpoint covers the champion."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.cli_runner import Cli


def _to_the_final(tmp_path: Path) -> tuple[Cli, int, list[int]]:
    c = Cli(tmp_path, tmp_path / "t.db")
    c("keys", "new", "--name", "HJ", "--out", "hj.pem")
    c("keys", "new", "--name", "SK", "--out", "sk.pem")
    c("init", "--name", "Seal Cup", "--format", "hotc-swiss-de", "--cut", "4",
      "--param", "rules=HOTC_2013", "--key",
      "hj.pem")
    c("official", "add", "--role", "scorekeeper", "--name", "S", "--public-key",
      "sk.pem.pub", "--key", "hj.pem")
    for p in ("Ann", "Bob", "Cy", "Di"):
        c("player", "add", p, "--key", "sk.pem")
    c("registration", "close", "--key", "hj.pem")
    # 4 entrants fit in the top 4: no Swiss phase (AMB-H6)
    c("cut", "--seed-material", "cut 5", "--seed-source", "dice", "--key", "hj.pem")
    rnd = c("bracket", "--seed-material", "b 7", "--seed-source", "dice", "--key",
            "hj.pem", "--json").doc["round"]
    while len(rnd["tables"]) > 1:  # play the bracket down to the final
        for t in rnd["tables"]:
            c("result", "record", "--round", str(rnd["round"]), "--table", str(t["table"]),
              "--winner", str(t["players"][0]), "--key", "sk.pem")
        rnd = c("bracket", "--key", "hj.pem", "--json").doc["round"]
    return c, rnd["round"], rnd["tables"][0]["players"]


def test_final_result_by_head_judge_seals_the_event(tmp_path: Path) -> None:
    c, rnd, players = _to_the_final(tmp_path)
    doc = c("result", "record", "--round", str(rnd), "--table", "1", "--winner",
            str(players[0]), "--key", "hj.pem", "--json").doc
    assert doc["champion"] == players[0] and doc["sealed"] is True
    rep = c("audit", "verify", "--json").doc
    assert rep["ok"] and not {f["code"] for f in rep["findings"]} & {
        "event_not_sealed", "unsealed_tail"}


def test_final_result_by_scorekeeper_is_flagged_until_sealed(tmp_path: Path) -> None:
    c, rnd, players = _to_the_final(tmp_path)
    run = c("result", "record", "--round", str(rnd), "--table", "1", "--winner",
            str(players[1]), "--key", "sk.pem", "--json")
    assert run.doc["sealed"] is False and "not sealed" in run.doc["hint"]
    rep = c("audit", "verify", "--json").doc
    assert "event_not_sealed" in {f["code"] for f in rep["findings"]}
    c("checkpoint", "--key", "hj.pem")
    rep = c("audit", "verify", "--json").doc
    assert "event_not_sealed" not in {f["code"] for f in rep["findings"]}
