"""One whole event per Bushiroad format, run through the CLI (tests/helpers/cli_runner.py).

For each of ``bushiroad-swiss`` (BO3, a top cut of 4), ``bushiroad-de`` (no cut),
``single-elim`` and ``round-robin``: keys, ``init --param``, officials, ``player import``,
registration close, every round paired with recorded seed material, results entered by the
scorekeeper in every Bushiroad form (a BO3 win with its game score, a time-up decided by
game wins, a drawn game at time-up, a concession), a drop before a pairing, the cut or
final standings (with the tie-break draw), the bracket, the champion; then the standings
JSON contract (docs/DESIGN.md §8/§11) and ``audit verify``.  Refusals are made where they apply
and each leaves the ledger's bytes unchanged (exit 2 for bad options, 3 for the rules).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.cli_event import open_event
from tests.helpers.cli_runner import Cli, raw_bytes, snapshot

SK, HJ = ("--key", "sk.pem"), ("--key", "hj.pem")


@dataclass
class Event:
    cli: Cli
    db: Path
    log: str
    refused: dict[str, bool] = field(default_factory=dict)
    docs: dict[str, Any] = field(default_factory=dict)
    rounds: int = 0

    def refuse(self, name: str, *args: str, code: int = 3) -> str:
        before = snapshot(self.db)
        run = self.cli(*args, code=code)
        self.refused[name] = raw_bytes(self.db) == before
        return run.err


def _start(d: Path, fmt: str, players: int, *params: str) -> Event:
    cli, log = open_event(d, fmt, [f"Fighter {i:02d}" for i in range(1, players + 1)],
                          *params, name=f"{fmt} night")
    return Event(cli, d / "t.db", log)


def _play_round(ev: Event, doc: dict[str, Any], bo3: bool = False) -> None:
    """Enter every open table's result, cycling through the Bushiroad result forms."""
    n = doc["round"]
    for i, t in enumerate(doc["tables"]):
        a, b = t["players"]
        form = (n + i) % 4 if doc["phase"] == "swiss" else 0
        if form == 0:
            args = ["--winner", str(a)] + (["--games", "2-1"] if bo3 else [])
        elif form == 1:                     # time-up: game wins decide (BR-SWISS-5)
            args = ["--timeout", "--games", "1-0-1"] if bo3 else ["--winner", str(b)]
        elif form == 2:
            args = ["--concession", str(a)]
        else:   # time-up at equal game wins: a draw in Swiss / round robin, a DE tie
            args = ["--timeout", "--games", "1-1-1" if bo3 else "0-0-1"]
        ev.cli("result", "record", "--round", str(n), "--table", str(t["table"]), *args, *SK)


def _run(ev: Event, bo3: bool = False) -> None:
    """Pair and play rounds until the qualifying stage is over (or a champion exists)."""
    cli = ev.cli
    while True:
        st = cli("standings", "--json").doc
        if st["champion"] is not None or st["final"]:
            return
        paired = _pair(ev)
        if paired is None:
            return
        ev.rounds += 1
        _play_round(ev, paired, bo3)


def _pair(ev: Event) -> dict[str, Any] | None:
    """Pair the next qualifying round; None once the rules say the rounds are over."""
    run = ev.cli("round", "pair", "--seed-material", f"{ev.log} round {ev.rounds + 1} dice",
                 "--seed-source", "dice", *HJ, "--json", code=None)
    if run.code == 3 and "over" in run.err:
        return None
    assert run.code == 0, run.err
    doc: dict[str, Any] = ev.cli("round", "show", str(ev.rounds + 1), "--json").doc
    return doc


@pytest.fixture(scope="module")
def swiss(tmp_path_factory: pytest.TempPathFactory) -> Event:
    ev = _start(tmp_path_factory.mktemp("swiss"), "bushiroad-swiss", 11, "--cut", "4",
                "--param", "match_format=BO3", "--param", "swiss_rounds=3")
    cli = ev.cli
    ev.refuse("unknown_param", "init", "--name", "x", "--format", "bushiroad-swiss",
              "--param", "bye_priority=least_wins", *HJ, code=2)
    ev.docs["unknown_param"] = cli("init", "--name", "x", "--format", "bushiroad-swiss",
                                   "--param", "bye_priority=least_wins", *HJ, code=2).err
    ev.refuse("cut_before_swiss", "cut", "--seed-material", "too early", "--seed-source",
              "dice", *HJ)
    r1 = _pair(ev)
    assert r1 is not None
    ev.rounds = 1
    ev.docs["r1"] = r1
    t1 = r1["tables"][0]
    a, b = t1["players"]
    ev.docs["hotc_option"] = ev.refuse("hotc_option", "result", "record", "--round", "1",
                                       "--table", "1", "--slow-play", str(a), *SK, code=2)
    ev.docs["bad_score"] = ev.refuse("bad_score", "result", "record", "--round", "1",
                                     "--table", "1", "--winner", str(a), "--games", "1-2", *SK)
    ev.refuse("bo3_unfinished", "result", "record", "--round", "1", "--table", "1",
              "--draw", "--games", "1-1", *SK)
    ev.refuse("scorekeeper_pairs", "round", "pair", "--seed-material", "x y z",
              "--seed-source", "dice", *SK)
    ev.refuse("annex_not_announced", "result", "record", "--round", "1", "--table", "1",
              "--annex-a", "2,3/2,5", *SK)
    _play_round(ev, r1, bo3=True)
    ev.docs["r1_done"] = cli("round", "show", "1", "--json").doc
    # a drop before round 2 is paired: not paired again (BR-DROP-1)
    gone = r1["tables"][-1]["players"][1]
    cli("drop", str(gone), *SK)
    ev.docs["dropped"] = gone
    _run(ev, bo3=True)
    ev.refuse("pair_after_swiss", "round", "pair", "--seed-material", "one more",
              "--seed-source", "dice", *HJ)
    ev.docs["cut"] = cli("cut", "--seed-material", "tiebreak dice 6 6 1", "--seed-source",
                         "dice", *HJ, "--json").doc
    ev.refuse("cut_twice", "cut", "--seed-material", "again", "--seed-source", "dice", *HJ)
    cli("bracket", *HJ)
    while True:
        st = cli("standings", "--json").doc
        if st["champion"] is not None:
            break
        ev.rounds += 1
        show = cli("round", "show", str(ev.rounds), "--json").doc
        _play_round(ev, show, bo3=True)
        if cli("standings", "--json").doc["champion"] is None:
            cli("bracket", *HJ)
    ev.docs["standings"] = cli("standings", "--json").doc
    ev.docs["audit"] = cli("audit", "verify", "--json").doc
    return ev


def test_swiss_event_runs_to_a_champion_and_audits_clean(swiss: Event) -> None:
    st = swiss.docs["standings"]
    assert st["champion"] is not None and st["rounds_total"] == 3
    first = st["players"][0]
    assert first["number"] == st["champion"] and first["status"] == "champion"
    assert first["rank"] == 1
    assert swiss.docs["audit"]["ok"] is True


def test_swiss_standings_json_contract(swiss: Event) -> None:
    """docs/DESIGN.md §11: points, mw "0.33"-style, omw/oomw exact "num/den", status set."""
    for p in swiss.docs["standings"]["players"]:
        assert {"number", "name", "rank", "wins", "losses", "status", "points", "mw",
                "omw", "oomw"} <= set(p)
        assert p["status"] in {"active", "eliminated", "dropped", "disqualified", "cut",
                               "champion"}
        whole, _, cents = p["mw"].partition(".")
        assert len(cents) == 2 and Fraction(p["mw"]) >= Fraction(33, 100)
        for k in ("omw", "oomw"):
            num, den = p[k].split("/")
            assert int(den) > 0 and 0 <= Fraction(int(num), int(den)) <= 1


def test_swiss_dropped_player_is_never_paired_again(swiss: Event) -> None:
    gone = swiss.docs["dropped"]
    rows = {p["number"]: p for p in swiss.docs["standings"]["players"]}
    assert rows[gone]["status"] == "dropped"
    assert rows[gone]["wins"] + rows[gone]["losses"] + rows[gone]["draws"] <= 1


def test_swiss_results_carry_games_and_decided_by(swiss: Event) -> None:
    tables = swiss.docs["r1_done"]["tables"]
    assert all(t["result"] is not None for t in tables)
    log = swiss.cli("log", "--kind", "result_recorded", "--json").doc
    bodies = [e["event"]["body"] for e in log]
    assert bodies and all("games" in b and "decided_by" in b for b in bodies)
    assert {"played", "timeout", "concession"} <= {b["decided_by"] for b in bodies}


def test_swiss_cut_takes_the_top_four_by_ranking(swiss: Event) -> None:
    body = next(e for e in swiss.docs["cut"]["events"] if e["kind"] == "finalists_decided")
    assert body is not None
    st = swiss.docs["standings"]["players"]
    finalists = {p["number"] for p in st if p["status"] in ("cut", "champion")} | {
        p["number"] for p in st if p.get("cut_finish") is not None}
    assert len(finalists) == 4


@pytest.mark.parametrize("name, code_ok", [
    ("unknown_param", True), ("cut_before_swiss", True), ("hotc_option", True),
    ("bad_score", True), ("bo3_unfinished", True), ("scorekeeper_pairs", True),
    ("annex_not_announced", True), ("pair_after_swiss", True), ("cut_twice", True)])
def test_swiss_refusals_write_nothing(swiss: Event, name: str, code_ok: bool) -> None:
    assert swiss.refused[name] is code_ok


def test_swiss_refusal_messages_name_what_to_do(swiss: Event) -> None:
    assert "bye_priority" in swiss.docs["unknown_param"]
    assert "swiss_rounds" in swiss.docs["unknown_param"]       # lists the valid ones
    assert "--slow-play" in swiss.docs["hotc_option"]
    assert "BR-MATCH-1" in swiss.docs["bad_score"]


@pytest.mark.parametrize("fmt, players, params", [
    ("bushiroad-de", 10, ()),
    ("single-elim", 7, ()),
    ("round-robin", 5, ()),
])
def test_other_formats_run_to_a_champion(tmp_path: Path, fmt: str, players: int,
                                         params: tuple[str, ...]) -> None:
    ev = _start(tmp_path, fmt, players, *params)
    cli = ev.cli
    if fmt == "single-elim":
        ev.refuse("no_swiss", "round", "pair", "--seed-material", "x", "--seed-source",
                  "dice", *HJ)
        cli("bracket", "--seed-material", "seeding dice 3 1 4", "--seed-source", "dice", *HJ)
        while cli("standings", "--json").doc["champion"] is None:
            ev.rounds += 1
            _play_round(ev, cli("round", "show", str(ev.rounds), "--json").doc)
            if cli("standings", "--json").doc["champion"] is None:
                cli("bracket", *HJ)
    else:
        _run(ev)
        st = cli("standings", "--json").doc
        if st["champion"] is None:
            cli("cut", "--seed-material", "final tiebreak", "--seed-source", "dice", *HJ)
    st = cli("standings", "--json").doc
    assert st["champion"] is not None, st
    assert st["players"][0]["number"] == st["champion"]
    assert cli("audit", "verify", "--json").doc["ok"] is True
    assert all(ev.refused.values())
    if fmt == "round-robin":           # everyone met everyone exactly once
        met: set[frozenset[int]] = set()
        for n in range(1, ev.rounds + 1):
            for t in cli("round", "show", str(n), "--json").doc["tables"]:
                pair = frozenset(t["players"])
                assert pair not in met
                met.add(pair)
        assert len(met) == players * (players - 1) // 2


def test_result_import_records_bushiroad_game_scores(tmp_path: Path) -> None:
    """``tourney result import`` reads a slip as ``result record`` reads its options
    (``cli.result_options.choose``): a BO3 game score is recorded, a time-up is decided
    by game wins (BR-SWISS-5), a draw is worth 0, an identical slip is unchanged, a bad
    row is refused with its line number and writes nothing of its own."""
    ev = _start(tmp_path, "bushiroad-swiss", 8, "--param", "match_format=BO3")
    doc = ev.cli("round", "pair", "--seed-material", "11 42 7 19", "--seed-source", "dice",
                 *HJ, "--json").doc
    t1, t2, t3, t4 = doc["tables"]
    (tmp_path / "slips.csv").write_text(
        "round,table,winner,games,decided_by\n"
        f"1,{t1['table']},{t1['players'][0]},2-1,play\n"
        f"1,{t2['table']},none,1-0-1,timeout\n"
        f"1,{t3['table']},none,1-1-1,timeout\n"  # equal game wins: a draw
        f"1,{t1['table']},{t1['players'][0]},2-1,play\n"          # the same slip again
        f"1,{t4['table']},{t4['players'][1]},1-2,draw\n")         # a draw with a winner
    before = snapshot(ev.db)
    run = ev.cli("result", "import", "slips.csv", *SK, "--json", code=3)
    assert run.err.count("\n") == 1 and "slips.csv line 6" in run.err
    out = json.loads(run.out)
    assert [w["line"] for w in out["written"]] == [2, 3, 4]
    assert [u["line"] for u in out["unchanged"]] == [5]
    assert [r["line"] for r in out["refused"]] == [6]
    assert "winner must be none" in out["refused"][0]["error"]
    assert raw_bytes(ev.db) != before
    shown = {t["table"]: t["result"] for t in ev.cli("round", "show", "1",
                                                     "--json").doc["tables"]}
    assert shown[t1["table"]]["winner"] == t1["players"][0]
    games = {leaf["event"]["body"]["table"]: leaf["event"]["body"]["games"] for leaf in
             ev.cli("log", "--kind", "result_recorded", "--json").doc}
    assert games[t1["table"]][:2] == [2, 1] and games[t2["table"]] == [1, 0, 1]
    assert shown[t2["table"]]["winner"] == t2["players"][0]      # 1-0 in games at time-up
    assert shown[t3["table"]]["winner"] is None and shown[t3["table"]]["losers"] == []
    assert shown[t4["table"]] is None
