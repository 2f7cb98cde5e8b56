"""Issue 17 defects 15, 18 and 20: the desk's refusals and messages tell the truth.

``tourney`` runs (``tests.helpers.cli_runner.Cli``) on real SQLite files;
every refusal leaves the ledger's bytes unchanged.
"""

from __future__ import annotations

from pathlib import Path

from tests.helpers.cli_event import open_event
from tests.helpers.cli_runner import Cli, remember_secret, snapshot


def _keys(cli: Cli, d: Path, *stems: str) -> None:
    for stem in stems:
        cli("keys", "new", "--name", f"{stem} person", "--out", f"{stem}.pem")
        remember_secret(d / f"{stem}.pem")


def test_defect_15_init_refuses_a_ledger_that_already_holds_an_event(tmp_path: Path) -> None:
    cli = Cli(tmp_path, tmp_path / "tournament.db")
    _keys(cli, tmp_path, "hj")
    cli("init", "--name", "Practice", "--format", "hotc-swiss-de", "--key", "hj.pem")
    before = snapshot(tmp_path / "tournament.db")
    run = cli("init", "--name", "Spring Open", "--format", "hotc-swiss-de", "--key", "hj.pem",
              code=2)
    assert "already holds tournament 'practice'" in run.err
    assert "--ledger NEW.db" in run.err and "--another-event" in run.err
    assert snapshot(tmp_path / "tournament.db") == before
    # still one event: commands need no --tournament
    assert cli("info", "--json").doc["tournament"] == "practice"
    # asked for explicitly, a second event is added
    doc = cli("init", "--name", "Spring Open", "--format", "hotc-swiss-de", "--another-event",
              "--key", "hj.pem", "--json").doc
    assert doc["tournament"] == "spring-open"
    # a new ledger file, as the hint says, needs no flag
    cli("--ledger", "new.db", "init", "--name", "Spring Open", "--format", "hotc-swiss-de",
        "--key", "hj.pem")


def test_defect_18_forfeit_says_the_open_table_still_needs_its_concession(
        tmp_path: Path) -> None:
    import shlex

    cli, _log = open_event(tmp_path, "wot-classic", ["Ana", "Ben", "Cal", "Dee"])
    doc = cli("round", "pair", "--seed-material", "forfeit 1 2 3", "--seed-source", "test",
              "--key", "hj.pem", "--json").doc
    table = doc["tables"][0]
    gone, other = table["hero"], table["villain"]
    before = len(cli("log", "--json").doc)
    run = cli("forfeit", str(gone), "--reason", "outside assistance", "--key", "hj.pem")
    # the old text claimed the open table "is recorded as their concession"; nothing was
    assert "is recorded as their concession" not in run.out
    assert len(cli("log", "--json").doc) == before + 1
    shown = cli("round", "show", "1", "--json").doc
    assert next(t for t in shown["tables"] if t["table"] == table["table"]).get("result") \
        in (None, {})
    assert f"Game 1 table {table['table']} is still open and nothing was recorded" in run.out
    assert "O3 or O5" in run.out
    # the line it prints records that concession as it says
    command = run.out.split("e.g. ", 1)[1].strip()
    assert command.startswith("tourney result record ")
    cli(*shlex.split(command)[1:], "--key", "sk.pem")
    shown = cli("round", "show", "1", "--json").doc
    rec = next(t for t in shown["tables"] if t["table"] == table["table"])["result"]
    assert rec["outcome"] == "O5" and rec["winner"] == other
    # a forfeit with no open table says so
    jd = cli("forfeit", str(other), "--reason", "left", "--key", "hj.pem", "--json").doc
    assert jd["open_table"] is None


def test_defect_09_bushiroad_swiss_without_a_recommendation_refuses_registration_close(
        tmp_path: Path) -> None:
    cli = Cli(tmp_path, tmp_path / "t.db")
    _keys(cli, tmp_path, "hj")
    cli("init", "--name", "WS Cup", "--format", "bushiroad-swiss", "--cut", "4",
        "--key", "hj.pem")
    for i in range(1, 9):                    # 8 fighters with a top cut: no table row
        cli("player", "add", f"P{i}", "--key", "hj.pem")
    before = snapshot(tmp_path / "t.db")
    run = cli("registration", "close", "--key", "hj.pem", code=3)
    assert "no recommended number of Swiss rounds for 8 fighters" in run.err
    assert "--param swiss_rounds=N" in run.err and "9-1024" in run.err
    assert snapshot(tmp_path / "t.db") == before
    # the fix it names: a ninth fighter puts the field in the table, and round 1 pairs
    cli("player", "add", "P9", "--key", "hj.pem")
    cli("registration", "close", "--key", "hj.pem")
    cli("round", "pair", "--seed-material", "nine 4 1 7", "--seed-source", "test",
        "--key", "hj.pem")
    # a fixed number of rounds needs no table: 3 fighters close and pair
    d2 = tmp_path / "fixed"
    d2.mkdir()
    fixed = Cli(d2, d2 / "t.db")
    _keys(fixed, d2, "hj")
    fixed("init", "--name", "Tiny", "--format", "bushiroad-swiss", "--param",
          "swiss_rounds=2", "--key", "hj.pem")
    for i in range(1, 4):
        fixed("player", "add", f"P{i}", "--key", "hj.pem")
    fixed("registration", "close", "--key", "hj.pem")


def test_defect_20_every_bad_param_value_is_a_usage_error(tmp_path: Path) -> None:
    cli = Cli(tmp_path, tmp_path / "t.db")
    _keys(cli, tmp_path, "hj")
    for fmt, bad in (("bushiroad-swiss", ("--param", "swiss_rounds=99")),   # was exit 3
                     ("bushiroad-swiss", ("--param", "match_format=BO5")),   # was exit 3
                     ("bushiroad-swiss", ("--param", "swiss_rounds=x")),
                     ("hotc-swiss-de", ("--param", "bye_priority=random")),  # was exit 3
                     ("bushiroad-swiss", ("--param", "stop_rule=undefeated_below_cut"))):
        run = cli("init", "--name", "Bad", "--format", fmt, *bad, "--key", "hj.pem", code=2)
        assert "error:" in run.err
        assert not (tmp_path / "t.db").exists()


def test_defect_20_partial_import_writes_good_rows_and_says_how_many(tmp_path: Path) -> None:
    cli, _log = open_event(tmp_path, "hotc-swiss-de", ["A", "B", "C", "D", "E", "F"],
                           "--cut", "2")
    doc = cli("round", "pair", "--seed-material", "partial 5 1 9", "--seed-source", "test",
              "--key", "hj.pem", "--json").doc
    t1, t2 = doc["tables"][0], doc["tables"][1]
    (tmp_path / "slips.csv").write_text(
        "round,table,winner\n"
        f"1,{t1['table']},{t1['players'][0]}\n"
        f"1,{t2['table']},99\n")
    run = cli.plain("result", "import", "slips.csv", "--key", "sk.pem")
    assert run.code == 3                              # DESIGN §8: any refused row
    assert "imported 1 results" in run.out
    assert "partial import: the 1 good rows were written" in run.out
    shown = cli("round", "show", "1", "--json").doc
    assert next(t for t in shown["tables"] if t["table"] == t1["table"])["result"]
    help_text = " ".join(cli("result", "import", "--help").out.split())
    assert "the good rows ARE written" in help_text


def test_defect_20_registration_close_does_not_exit_4_after_writing(tmp_path: Path) -> None:
    """The exit 4 came from a note file of an earlier event of the same name in the
    name-keyed directory (defect 8): the practice ledger deleted, the event started again."""
    db = tmp_path / "tournament.db"
    cli = Cli(tmp_path, db)
    _keys(cli, tmp_path, "hj")
    for day, players in ((1, ("A", "B")), (2, ("C", "D", "E"))):
        env = {"TOURNEY_FIXED_CLOCK": f"2026-03-0{day}T09:00:00.000000Z"}
        db.unlink(missing_ok=True)
        cli("init", "--name", "Cup", "--format", "hotc-swiss-de", "--key", "hj.pem", env=env)
        for p in players:
            cli("player", "add", p, "--key", "hj.pem", env=env)
        doc = cli("registration", "close", "--key", "hj.pem", "--json", env=env).doc
        assert doc["ok"] and Path(doc["checkpoint"]["path"]).is_file()
