"""Issue 17: every format says what happened.  The format owns its result vocabulary
(``ledger.core.vocabulary``, ADR 0015); the desk reads it.  Each defect of the issue that this
module covers has a test named after it; every command is a ``tourney`` command on
a real SQLite ledger, and every refusal leaves the ledger's bytes unchanged."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.helpers.cli_event import open_event
from tests.helpers.cli_runner import Cli
from tests.helpers.desk import refuse

PLAYERS8 = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]
HJ = ("--key", "hj.pem")
SK = ("--key", "sk.pem")


def _pair(cli: Cli, n: int) -> list[dict[str, Any]]:
    doc = cli("round", "pair", "--seed-material", f"issue17 R{n}", "--seed-source", "dice",
              *HJ, "--json").doc
    return list(doc["tables"])


def _table(cli: Cli, rnd: int, table: int) -> dict[str, Any]:
    doc = cli("round", "show", str(rnd), "--json").doc
    return next(t for t in doc["tables"] if t["table"] == table)


def _log_line(cli: Cli, seq: int) -> str:
    out = cli("log", "--from", str(seq)).out.splitlines()
    return out[0]


def _clean_audit(cli: Cli) -> None:
    doc = cli("audit", "verify", str(cli.ledger), "--json").doc
    assert doc["ok"], doc["findings"]


# -- defect 1: a Bushiroad bracket time-up decided by games --------------------------------

def test_defect_01_single_elim_time_up_decided_by_games(tmp_path: Path) -> None:
    cli, _ = open_event(tmp_path, "single-elim", PLAYERS8[:4], "--param",
                        "match_format=BO3")
    cli("bracket", "--seed-material", "issue17 bracket", "--seed-source", "dice", *HJ)
    t = _table(cli, 1, 1)
    a, b = t["players"]
    doc = cli("result", "record", "--round", "1", "--table", "1", "--timeout", "--games",
              "1-0-1", *SK, "--json").doc
    assert (doc["winner"], doc["losers"], doc["games"], doc["decided_by"]) == \
        (a, [b], [1, 0, 1], "timeout")
    words = _table(cli, 1, 1)["result"]
    assert words["winner"] == a
    assert f"#{a} wins 1-0-1 (time-up, more game wins)" in cli("round", "show", "1").out
    # the HotC option is not this format's: named as such, nothing written
    err = refuse(cli, cli.ledger, "result", "record", "--round", "1", "--table", "2",
                 "--timeout", "--turn-player", str(_table(cli, 1, 2)["players"][0]), *SK,
                 code=2)
    assert "--turn-player" in err and "Bushiroad" in err
    _clean_audit(cli)


# -- defect 2: a Loss of Match is a loss by penalty, citing the penalty --------------------

@pytest.mark.parametrize("fmt", ["hotc-swiss-de", "bushiroad-swiss"])
def test_defect_02_loss_of_match_recorded_as_loss_by_penalty(tmp_path: Path,
                                                              fmt: str) -> None:
    cli, _ = open_event(tmp_path, fmt, PLAYERS8, *(("--cut", "4") if fmt.startswith("hotc")
                                                   else ()))
    tables = _pair(cli, 1)
    a, b = tables[0]["players"]
    pen = cli("penalty", "issue", str(a), "--infraction", "3.9.2", "--penalty", "lom",
              "--applies-to", "current-match", "--description", "marked cards",
              *HJ, "--json").doc
    res = next(e for e in pen["events"] if e["kind"] == "result_recorded")
    body = cli("log", "--from", str(res["seq"]), "--json").doc[0]["event"]["body"]
    assert body["outcome"] == "penalty" and body["penalty_seq"] == pen["seq"]
    assert (body["winner"], body["losers"], body["loss_reasons"]) == (b, [a], ["penalty"])
    phrase = f"#{b} wins"
    shown = cli("round", "show", "1").out
    assert f"#{a} loss by penalty" in shown and "conceded" not in shown and phrase in shown
    assert f"#{a} loss by penalty" in _log_line(cli, res["seq"])
    _clean_audit(cli)


def test_defect_02_older_revisions_record_a_concession_as_before(tmp_path: Path) -> None:
    cli, _ = open_event(tmp_path, "hotc-swiss-de", PLAYERS8, "--cut", "4", "--param",
                        "rules=HOTC_2013_R2")
    tables = _pair(cli, 1)
    a, _b = tables[0]["players"]
    pen = cli("penalty", "issue", str(a), "--infraction", "3.9.2", "--penalty", "lom",
              "--applies-to", "current-match", "--description", "marked cards",
              *HJ, "--json").doc
    res = next(e for e in pen["events"] if e["kind"] == "result_recorded")
    body = cli("log", "--from", str(res["seq"]), "--json").doc[0]["event"]["body"]
    assert body["outcome"] == "concession" and "penalty_seq" not in body
    _clean_audit(cli)


def test_defect_02_forged_penalty_citation_is_a_finding(tmp_path: Path) -> None:
    """The rule the audit re-runs: a loss by penalty must cite the loser's Loss of Match
    for this match (or DQ); one citing another event is ``result_mismatch``."""
    from ledger.core.rules import check
    from ledger.errors import RuleError
    from ledger.formats.match.events import ResultRecorded
    from ledger.formats.match.model import LossReason, Outcome
    from ledger.storage.location import Location
    from ledger.storage.store import Ledger

    cli, log = open_event(tmp_path, "bushiroad-swiss", PLAYERS8)
    tables = _pair(cli, 1)
    a, b = tables[0]["players"]
    with Ledger(Location(str(cli.ledger))) as led:
        t = led.load(log)
        hj = next(k for k, o in t.state.officials.items() if o.name == "hj person")
        forged = ResultRecorded(round=1, table=tables[0]["table"], winner=b, losers=[a],
                                outcome=Outcome.PENALTY, loss_reasons=[LossReason.PENALTY],
                                games=[0, 0, 0], decided_by="penalty",  # type: ignore[arg-type]
                                penalty_seq=1)
        with pytest.raises(RuleError) as err:
            check(t.state, forged, hj)
    assert err.value.finding == "result_mismatch" and "BR-PEN-RANK-8" in err.value.rule


# -- defect 3: a Bushiroad draw is a draw; BO3 draws are recorded ---------------------------

def test_defect_03_bushiroad_bo3_draw_recorded_and_read_as_draw(tmp_path: Path) -> None:
    cli, _ = open_event(tmp_path, "bushiroad-swiss", PLAYERS8, "--param",
                        "match_format=BO3")
    tables = _pair(cli, 1)
    doc = cli("result", "record", "--round", "1", "--table", str(tables[0]["table"]),
              "--draw", "--games", "1-1-1", *SK, "--json").doc
    assert (doc["winner"], doc["losers"], doc["games"]) == (None, [], [1, 1, 1])
    line = _log_line(cli, doc["seq"])
    assert "draw 1-1-1" in line and "double loss" not in line
    assert "draw 1-1-1" in cli("round", "show", "1").out
    err = refuse(cli, cli.ledger, "result", "record", "--round", "1", "--table",
                 str(tables[1]["table"]), "--draw", "--games", "2-1", *SK, code=3)
    assert "equal game wins" in err and "BR-MATCH-1" in err
    _clean_audit(cli)


# -- defect 7 (codes): the outcome codes are explained where they are entered ----------------

@pytest.mark.parametrize(("fmt", "codes"), [("wot-classic", ["O1", "O5", "O8"]),
                                            ("wot-2001", ["Q1", "Q4", "Q5"])])
def test_defect_07_outcome_codes_explained(tmp_path: Path, fmt: str,
                                           codes: list[str]) -> None:
    cli, _ = open_event(tmp_path, fmt, PLAYERS8[:6])
    out = cli("result", "codes").out
    for code in codes:
        assert f"--outcome {code}" in out
    assert "Last Battle" in out and "HotC" not in out      # only this event's format
    doc = cli("result", "codes", "--json").doc
    keys = [e["key"] for v in doc["formats"] for e in v["entries"]]
    assert set(codes) <= set(keys)
    helptext = cli("result", "record", "--help").out
    assert "--outcome O1" in helptext and "--outcome Q5" in helptext


# -- defect 12: a winner who is not at the table -------------------------------------------

@pytest.mark.parametrize("match_format", ["BO1", "BO3"])
def test_defect_12_winner_not_at_table_names_the_players(tmp_path: Path,
                                                         match_format: str) -> None:
    cli, _ = open_event(tmp_path, "bushiroad-swiss", PLAYERS8, "--param",
                        f"match_format={match_format}")
    tables = _pair(cli, 1)
    a, b = tables[0]["players"]
    stranger = tables[1]["players"][0]
    games = ("--games", "2-1") if match_format == "BO3" else ()
    err = refuse(cli, cli.ledger, "result", "record", "--round", "1", "--table",
                 str(tables[0]["table"]), "--winner", str(stranger), *games, *SK, code=3)
    assert f"#{stranger} is not at this table (#{a} v #{b})" in err
    (tmp_path / "slips.csv").write_text(
        f"round,table,winner\n1,{tables[0]['table']},{stranger}\n")
    run = cli("result", "import", "slips.csv", *SK, code=3)
    assert f"#{stranger} is not at this table (#{a} v #{b})" in run.err


# -- defect 14: an earlier round is amended, and the amendment keeps the format's terms ------

def test_defect_14_correct_on_earlier_round_names_amend(tmp_path: Path) -> None:
    cli, _ = open_event(tmp_path, "bushiroad-swiss", PLAYERS8, "--param",
                        "match_format=BO3", officials=("sk", "judge"))
    for t in _pair(cli, 1):
        cli("result", "record", "--round", "1", "--table", str(t["table"]), "--winner",
            str(t["players"][0]), "--games", "2-0", *SK)
    _pair(cli, 2)
    first = _table(cli, 1, 1)
    a, b = first["players"]
    err = refuse(cli, cli.ledger, "result", "correct", "--round", "1", "--table", "1",
                 "--winner", str(b), "--games", "2-1", "--reason", "slip misread",
                 "--key", "judge.pem", code=3)
    assert "tourney result amend" in err
    doc = cli("result", "amend", "--round", "1", "--table", "1", "--timeout", "--games",
              "0-1-1", "--reason", "slip misread", *HJ, "--json").doc
    assert (doc["winner"], doc["losers"]) == (b, [a])
    shown = cli("round", "show", "1").out
    assert f"#{b} wins 0-1-1 (time-up, more game wins)" in shown
    _clean_audit(cli)


# -- defect 21: a key that is not an official's never gets "unchanged" -----------------------

def test_defect_21_non_official_repeat_is_refused(tmp_path: Path) -> None:
    cli, _ = open_event(tmp_path, "hotc-swiss-de", PLAYERS8, "--cut", "4")
    tables = _pair(cli, 1)
    a = tables[0]["players"][0]
    args = ("result", "record", "--round", "1", "--table", str(tables[0]["table"]),
            "--winner", str(a))
    cli(*args, *SK)
    cli("keys", "new", "--name", "stranger", "--out", "x.pem")
    err = refuse(cli, cli.ledger, *args, "--key", "x.pem", code=3)
    assert "not an official" in err
    assert "unchanged" in cli(*args, *SK).out          # the scorekeeper's retry still is
