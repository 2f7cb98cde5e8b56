"""A small Bushiroad Swiss event officiated through the CLI, as ``tourney`` commands
(issue 9): a caution → warning upgrade, a ruling appealed with a challenge count (the
second appeal recorded and refused), a Loss of Match between matches applied
when the next round is paired, a disqualification mid-match, an earlier round amended by
the head judge, a manual pairing override, the time-keeper's clock with an extension cap,
then ``penalty list`` and ``audit verify`` clean (the override shown as a notice).

Refusals (wrong role, unknown infraction, over the cap, a second DQ) exit with their code
and leave the ledger's bytes unchanged."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers.cli_refusals import Event
from tests.helpers.cli_runner import Cli, remember_secret

PLAYERS = ["Ada", "Bea", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


def _tables(doc: dict[str, Any]) -> list[list[int]]:
    return [t["players"] for t in doc["tables"]]


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> Event:
    d = tmp_path_factory.mktemp("officiating")
    cli = Cli(d, d / "t.db")
    for name in ("hj", "judge", "sk", "tk"):
        cli("keys", "new", "--name", f"{name} person", "--out", f"{name}.pem")
        remember_secret(d / f"{name}.pem")
    log = cli("init", "--name", "Officiated Open", "--format", "bushiroad-swiss",
              "--param", "swiss_rounds=3", "--param", "tournament_level=1",
              "--param", "challenge_limit=1", "--param", "judge_extension_cap_minutes=5",
              "--key", "hj.pem", "--json").doc["tournament"]
    for role, name in (("judge", "judge"), ("scorekeeper", "sk"), ("time-keeper", "tk")):
        cli("official", "add", "--role", role, "--name", name, "--public-key",
            f"{name}.pem.pub", "--key", "hj.pem")
    (d / "players.csv").write_text("number,name\n" + "".join(
        f"{i},{n}\n" for i, n in enumerate(PLAYERS, start=1)))
    cli("player", "import", "players.csv", "--key", "sk.pem")
    cli("registration", "close", "--key", "hj.pem")
    ev = Event(cli, d, d / "t.db", log)
    out = ev.out
    hj, judge, sk, tk = (("--key", f"{k}.pem") for k in ("hj", "judge", "sk", "tk"))

    # -- round 1: clock, penalties, a ruling and two appeals ---------------------------------
    r1 = out["pair1"] = cli("round", "pair", "--seed-material", "R1 11 22", "--seed-source",
                            "dice", *hj, "--json").doc
    t1 = _tables(r1)
    ev.refuse("start_by_scorekeeper", "round", "start", *sk, code=3)
    out["start1"] = cli("round", "start", *tk, "--json").doc
    p = t1[0][0]
    out["caution"] = cli("penalty", "issue", str(p), "--infraction", "3.2.1", "--penalty",
                         "caution", *judge, "--json").doc
    out["offer"] = cli("penalty", "offer", str(p), "--infraction", "3.2.1", "--penalty",
                       "warning", "--json").doc
    out["warning"] = cli("penalty", "issue", str(p), "--infraction", "3.2.1", "--penalty",
                         "warning", *judge, "--json").doc
    ev.refuse("penalty_by_scorekeeper", "penalty", "issue", str(p), "--infraction", "3.4",
              "--penalty", "caution", *sk, code=3)
    ev.refuse("unknown_infraction", "penalty", "issue", str(p), "--infraction", "9.9",
              "--penalty", "caution", *judge, code=2)
    ev.refuse("lom_without_report", "penalty", "issue", str(p), "--infraction", "3.9.2",
              "--penalty", "lom", *judge, code=3)
    rul = cli("ruling", "--round", "1", "--table", "1", "--question", "does X trigger?",
              "--ruling", "no", "--minutes", "3", *judge, "--json").doc
    out["appeal1"] = cli("appeal", "raise", str(rul["seq"]), "--player", str(t1[0][1]),
                         *judge, "--json").doc
    out["decide1"] = cli("appeal", "decide", str(out["appeal1"]["seq"]), "--ruling",
                         "no, as ruled", "--same", *hj, "--json").doc
    out["appeal2"] = cli("appeal", "raise", str(rul["seq"]), "--player", str(t1[0][1]),
                         *judge, "--json").doc
    out["extend"] = cli("round", "extend", "--round", "1", "--table", "1", "--minutes", "3",
                        "--reason", "ruling took 3 minutes", "--ruling", str(rul["seq"]),
                        *judge, "--json").doc
    ev.refuse("over_the_cap", "round", "extend", "--round", "1", "--table", "1",
              "--minutes", "3", "--reason", "again", *judge, code=3)
    out["time1"] = cli("round", "time", *tk, "--json").doc
    for i, (a, _b) in enumerate(t1, start=1):
        cli("result", "record", "--round", "1", "--table", str(i), "--winner", str(a), *sk)

    # -- a Loss of Match between matches, applied when round 2 is paired ----------------------
    q = t1[1][1]
    out["lom"] = cli("penalty", "issue", str(q), "--infraction", "3.9.2", "--penalty", "lom",
                     "--description", "not seated 7 minutes after the start", *judge,
                     "--json").doc
    r2 = out["pair2"] = cli("round", "pair", "--seed-material", "R2 33 44", "--seed-source",
                            "dice", *hj, "--json").doc
    t2 = _tables(r2)
    # -- a disqualification mid-match ----------------------------------------------------------
    z = next(a for a, b in t2 if q not in (a, b))
    ev.refuse("dq_by_judge", "disqualify", str(z), "--infraction", "4.1", "--reason", "x",
              *judge, code=3)
    out["dq"] = cli("disqualify", str(z), "--infraction", "4.1", "--reason",
                    "falsified a result slip", *hj, "--json").doc
    ev.refuse("dq_twice", "disqualify", str(z), "--infraction", "4.1", "--reason", "again",
              *hj, code=3)
    show = cli("round", "show", "2", "--json").doc
    for t in show["tables"]:
        if t["result"] is None:
            cli("result", "record", "--round", "2", "--table", str(t["table"]), "--winner",
                str(t["players"][0]), *sk)

    # -- round 3: an earlier round amended, then a manual pairing -------------------------------
    r3 = out["pair3"] = cli("round", "pair", "--seed-material", "R3 55 66", "--seed-source",
                            "dice", *hj, "--json").doc
    ev.refuse("amend_by_judge", "result", "amend", "--round", "1", "--table", "3",
              "--winner", str(t1[2][1]), "--reason", "slip swapped", *judge, code=3)
    out["amend"] = cli("result", "amend", "--round", "1", "--table", "3", "--winner",
                       str(t1[2][1]), "--reason", "slip swapped", *hj, "--json").doc
    t3 = _tables(r3)
    (a, b), (c, dd) = t3[0], t3[1]
    pairs = ",".join(f"{x}-{y}" for x, y in [(a, c), (b, dd), *map(tuple, t3[2:])])
    ev.refuse("override_by_judge", "round", "override", "--pairs", pairs, "--reason", "x",
              *judge, code=3)
    out["override"] = cli("round", "override", "--pairs", pairs, "--reason",
                          "siblings at one table", *hj, "--json").doc
    show3 = cli("round", "show", "3", "--json").doc
    for t in show3["tables"]:
        cli("result", "record", "--round", "3", "--table", str(t["table"]), "--winner",
            str(t["players"][0]), *sk)
    out["list"] = cli("penalty", "list", str(p), "--json").doc
    out["list_all"] = cli("penalty", "list")
    out["standings"] = cli("standings", "--json").doc
    out["audit"] = cli("audit", "verify", "--json").doc
    out.update(q=q, z=z, p=p, rul=rul["seq"], t3=t3)
    return ev


def test_caution_then_warning_is_an_upgrade(event: Event) -> None:
    o = event.out
    assert o["offer"]["prior"] == [o["caution"]["seq"]]
    assert o["offer"]["upgrade_to"] == "warning" and o["offer"]["upgrade"] is True
    assert o["warning"]["upgrade"] is True and o["warning"]["prior"] == [o["caution"]["seq"]]
    rows = o["list"]["penalties"]
    assert [r["penalty"] for r in rows] == ["caution", "warning"]
    assert rows[1]["upgrade"] and not rows[1]["justification"]


def test_appeal_with_a_challenge_count(event: Event) -> None:
    o = event.out
    assert o["appeal1"]["refused"] == [] and o["decide1"]["remaining"]
    assert list(o["decide1"]["remaining"].values()) == [0]
    assert o["appeal2"]["refused"] == [int(k) for k in o["decide1"]["remaining"]]


def test_lom_between_matches_applies_at_the_next_pairing(event: Event) -> None:
    o = event.out
    assert o["lom"]["applies_to"] == "next_match"
    kinds = [e["kind"] for e in o["pair2"]["events"]]
    assert kinds[-1] == "result_recorded"        # the loss written with the pairing


def test_dq_mid_event(event: Event) -> None:
    o = event.out
    assert [e["kind"] for e in o["dq"]["events"]] == ["player_disqualified", "result_recorded"]
    assert all(o["z"] not in t for t in o["t3"])
    # not ranked, but shown last and marked with the revocation (defect 4, ADR 0021)
    ranked = [r["number"] for r in o["standings"]["players"] if "revoked" not in r]
    assert o["z"] not in ranked
    last = o["standings"]["players"][-1]
    assert last["number"] == o["z"] and last["revoked"]["standing_revoked"] is True


def test_amendment_and_override(event: Event) -> None:
    o = event.out
    assert o["amend"]["winner"] is not None and o["amend"]["effect"]
    paired = [e["seq"] for e in o["pair3"]["events"] if e["kind"] == "round_paired"]
    assert o["override"]["paired_seq"] == paired[0]
    show = o["override"]["tables"]
    assert show != o["t3"] and {frozenset(t) for t in show} != {frozenset(t) for t in o["t3"]}


def test_audit_clean_with_the_override_as_a_notice(event: Event) -> None:
    a = event.out["audit"]
    assert a["ok"] is True, a
    codes = [f["code"] for f in a["findings"]]
    assert codes.count("pairing_overridden") == 1
    assert not [f for f in a["findings"] if f["severity"] == "error"]


@pytest.mark.parametrize("name", [
    "start_by_scorekeeper", "penalty_by_scorekeeper", "unknown_infraction",
    "lom_without_report", "over_the_cap", "dq_by_judge", "dq_twice", "amend_by_judge",
    "override_by_judge"])
def test_refusals_write_nothing(event: Event, name: str) -> None:
    r = event.refused[name]
    assert r.unchanged, f"{name} changed the ledger"
    assert len(r.run.err.strip().splitlines()) == 1
