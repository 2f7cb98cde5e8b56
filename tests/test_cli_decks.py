"""Deck checks and decklists through ``tourney deck …`` (issue 30 items 3–4): a list
registered by hash at the desk, the round's deck checks drawn from a seed recorded after
the pairing, a check started and ended with its penalty, a corrected list citing the old
one and the penalty, the published list verified by anyone; a changed list is refused
(publish) or fails (verify, exit 4); every refusal leaves the ledger's bytes unchanged, and
``audit verify`` is clean."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ledger.core.draw import draw_v1, seed_from_material
from tests.helpers.cli_refusals import Event
from tests.helpers.cli_runner import Cli, remember_secret

LIST7 = "4 Alpha Strike\n4 Beta Guard\n2 Gamma\n"
FIXED7 = "4 Alpha Strike\n4 Beta Guard\n2 Gamma Prime\n"


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> Event:
    d = tmp_path_factory.mktemp("decks")
    cli = Cli(d, d / "t.db")
    for name in ("hj", "sk", "j"):
        cli("keys", "new", "--name", f"{name} person", "--out", f"{name}.pem")
        remember_secret(d / f"{name}.pem")
    log = cli("init", "--name", "Deck Night", "--format", "bushiroad-swiss",
              "--param", "swiss_rounds=3", "--key", "hj.pem", "--json").doc["tournament"]
    cli("official", "add", "--role", "scorekeeper", "--name", "sk", "--public-key",
        "sk.pem.pub", "--key", "hj.pem")
    cli("official", "add", "--role", "judge", "--name", "j", "--public-key",
        "j.pem.pub", "--key", "hj.pem")
    (d / "players.csv").write_text("number,name\n" + "".join(
        f"{i},P{i}\n" for i in range(1, 9)))
    cli("player", "import", "players.csv", "--key", "sk.pem")
    ev = Event(cli, d, d / "t.db", log)
    out: dict[str, Any] = ev.out
    hj, sk, j = ("--key", "hj.pem"), ("--key", "sk.pem"), ("--key", "j.pem")
    (d / "7.txt").write_text(LIST7)
    (d / "7-fixed.txt").write_text(FIXED7)
    (d / "7-other.txt").write_text(LIST7.replace("2 Gamma", "3 Gamma"))
    out["reg"] = cli("deck", "register", "7", "--file", "7.txt", "--hash-only", *sk,
                     "--json").doc
    cli("registration", "close", *hj)
    r1 = cli("round", "pair", "--seed-material", "R1", "--seed-source", "dice", *hj,
             "--json").doc
    out["r1"] = r1
    ctx = f"{log}/R1/deck-checks"
    out["ctx"] = ctx
    ev.refuse("draw_no_fresh_seed", "deck", "draw", "--round", "1", "--count", "2", *hj,
              code=3)
    cli("seed", "record", "--material", "6 2 5 after pairing", "--source", "dice",
        "--reason", "deck checks R1", "--ctx", ctx, *hj)
    ev.refuse("draw_by_judge", "deck", "draw", "--round", "1", "--count", "2", *j, code=3)
    ev.refuse("draw_count_too_big", "deck", "draw", "--round", "1", "--count", "9", *hj,
              code=3)
    out["draw"] = cli("deck", "draw", "--round", "1", "--count", "2", *hj, "--json").doc
    table7 = next(t["table"] for t in r1["tables"] if 7 in t["players"])
    out["table7"] = table7
    start = cli("deck", "start", "--round", "1", "--table", str(table7), *j, "--json").doc
    ev.refuse("start_twice", "deck", "start", "--round", "1", "--table", str(table7), *j,
              code=3)
    pen = cli("penalty", "issue", "7", "--infraction", "3.1.1.3", "--penalty", "warning",
              *j, "--json").doc
    pen_seq = pen["event"]["seq"] if "event" in pen else pen["seq"]
    out["end"] = cli("deck", "end", str(start["seq"]), "--outcome", "mismatch",
                     "--penalty", str(pen_seq), "--note", "Gamma Prime sleeved", *j,
                     "--json").doc
    reg_seq = out["reg"]["seq"]
    ev.refuse("correct_wrong_replaces", "deck", "correct", "7", "--replaces",
              str(reg_seq + 1), "--penalty", str(pen_seq), "--file", "7-fixed.txt", *j,
              code=3)
    out["fix"] = cli("deck", "correct", "7", "--replaces", str(reg_seq), "--penalty",
                     str(pen_seq), "--file", "7-fixed.txt", "--hash-only", *j, "--json").doc
    ev.refuse("publish_registered_not_fixed", "deck", "publish", "7", "--file", "7.txt",
              *hj, code=3)
    ev.refuse("publish_changed", "deck", "publish", "7", "--file", "7-other.txt", *hj,
              code=3)
    ev.refuse("publish_by_judge", "deck", "publish", "7", "--file", "7-fixed.txt", *j,
              code=3)
    out["pub"] = cli("deck", "publish", "7", "--file", "7-fixed.txt", *hj, "--json").doc
    out["verify"] = cli("deck", "verify", "7", "--file", "7-fixed.txt", "--json").doc
    out["verify_bad"] = cli("deck", "verify", "7", "--file", "7.txt", code=4)
    out["audit"] = cli("audit", "verify", "--json").doc
    return ev


def test_draw_rederives_from_its_seed(event: Event) -> None:
    o = event.out
    body = o["draw"]["event"]["event"]["body"]
    tables = sorted(t["table"] for t in o["r1"]["tables"])
    want = draw_v1(seed_from_material("6 2 5 after pairing"), o["ctx"], tables)
    assert (body["ctx"], body["universe"], body["items"], body["result"]) == (
        o["ctx"], "tables", tables, want)
    assert o["draw"]["tables"] == want[:2]


def test_check_end_cites_penalty_and_list_fix_cites_both(event: Event) -> None:
    o = event.out
    assert o["end"]["table"] == o["table7"] and o["end"]["outcome"] == "mismatch"
    fix = o["fix"]["event"]["event"]["body"]
    assert fix["replaces_seq"] == o["reg"]["seq"] and "list" not in fix
    assert o["pub"]["event"]["event"]["body"]["list"] == FIXED7


def test_published_list_verifies_and_a_changed_one_fails(event: Event) -> None:
    o = event.out
    assert o["verify"]["ok"] is True and o["verify"]["seq"] == o["fix"]["seq"]
    err = o["verify_bad"].err.strip().splitlines()
    assert len(err) == 1 and "hashes to" in err[0]


def test_audit_clean(event: Event) -> None:
    assert event.out["audit"]["ok"] is True, event.out["audit"]


@pytest.mark.parametrize("name", ["draw_no_fresh_seed", "draw_by_judge",
                                  "draw_count_too_big", "start_twice",
                                  "correct_wrong_replaces", "publish_registered_not_fixed",
                                  "publish_changed", "publish_by_judge"])
def test_refusals_write_nothing(event: Event, name: str) -> None:
    r = event.refused[name]
    assert r.unchanged and len(r.run.err.strip().splitlines()) == 1, r.run.err


def test_deck_checks_drawn_by_commit_reveal(tmp_path: Path) -> None:
    """The head judge commits for ``<log>/R1/deck-checks`` before the round (a beacon round
    not yet published), pairs, then reveals after the beacon: nobody knew the tables."""
    from tests.helpers.randomness import AFTER_ROUND_1000, BEFORE_ROUND_1000, QUICK

    cli = Cli(tmp_path, tmp_path / "t.db")
    cli.env["TOURNEY_FIXED_CLOCK"] = "2023-08-23T14:00:00.000000Z"
    for name in ("hj", "sk"):
        cli("keys", "new", "--name", f"{name} person", "--out", f"{name}.pem")
        remember_secret(tmp_path / f"{name}.pem")
    log = cli("init", "--name", "Commit Night", "--format", "bushiroad-swiss", "--param",
              "swiss_rounds=3", "--key", "hj.pem", "--json").doc["tournament"]
    cli("official", "add", "--role", "scorekeeper", "--name", "sk", "--public-key",
        "sk.pem.pub", "--key", "hj.pem")
    (tmp_path / "players.csv").write_text("number,name\n" + "".join(
        f"{i},P{i}\n" for i in range(1, 9)))
    cli("player", "import", "players.csv", "--key", "sk.pem")
    cli("registration", "close", "--key", "hj.pem")
    ctx = f"{log}/R1/deck-checks"
    cli.env["TOURNEY_FIXED_CLOCK"] = BEFORE_ROUND_1000
    cli("seed", "commit", "--round", "1000", "--reason", "deck checks R1", "--ctx", ctx,
        "--out", "dc.secret", "--key", "hj.pem")
    r1 = cli("round", "pair", "--seed-material", "R1", "--seed-source", "dice", "--key",
             "hj.pem", "--json").doc
    cli.env["TOURNEY_FIXED_CLOCK"] = AFTER_ROUND_1000
    rev = cli("seed", "reveal", "--secret", "dc.secret", "--signature", QUICK["sig"],
              "--key", "hj.pem", "--json").doc
    drawn = cli("deck", "draw", "--round", "1", "--count", "1", "--key", "hj.pem",
                "--json").doc
    body = drawn["event"]["event"]["body"]
    assert body["seed_seq"] == rev["seq"]
    tables = sorted(t["table"] for t in r1["tables"])
    assert body["result"] == draw_v1(
        seed_from_material(rev["event"]["event"]["body"]["material"]), ctx, tables)
    assert cli("audit", "verify", "--json").doc["ok"] is True
