"""BR-PEN-3.18.3 through ``tourney`` commands: the head judge re-issues a lost
score sheet (``tourney penalty reissue-sheet``) in an event that records penalties on
score sheets, and the judge's Warning is raised to Loss of Match at once, losing the match
in progress; ``audit verify`` is clean.  Refusals leave the ledger's bytes unchanged."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers.cli_event import open_event
from tests.helpers.cli_refusals import Event


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> Event:
    d = tmp_path_factory.mktemp("sheet")
    cli, log = open_event(d, "bushiroad-swiss", [f"P{i}" for i in range(1, 5)],
                          "--param", "swiss_rounds=2", "--param",
                          "penalties_on_score_sheets=true", officials=("judge",),
                          importer="hj", name="Sheet Cup")
    ev = Event(cli, d, d / "t.db", log)
    out: dict[str, Any] = ev.out
    hj, jj = ("--key", "hj.pem"), ("--key", "judge.pem")
    cli("round", "pair", "--seed-material", "S1", "--seed-source", "dice", *hj)
    ev.refuse("warning_without_reissue", "penalty", "issue", "1", "--infraction", "3.18.3",
              "--penalty", "warning", *jj, code=3)
    ev.refuse("reissue_by_judge", "penalty", "reissue-sheet", "1", "--reason", "x", *jj,
              code=3)
    ev.refuse("reissue_no_reason", "penalty", "reissue-sheet", "1", "--reason", "", *hj,
              code=2)
    out["reissue"] = cli("penalty", "reissue-sheet", "1", "--reason",
                         "scores read back from the result slips", *hj, "--json").doc
    out["issue"] = cli("penalty", "issue", "1", "--infraction", "3.18.3", "--penalty",
                       "warning", *jj, "--json").doc
    out["issue_again"] = cli("penalty", "offer", "1", "--infraction", "3.18.3", "--json").doc
    out["list"] = cli("penalty", "list", "1", "--json").doc
    out["audit"] = cli("audit", "verify", "--json").doc
    return ev


def test_warning_raised_to_loss_of_match(event: Event) -> None:
    o = event.out
    assert o["reissue"]["kind"] == "score_sheet_reissued"
    issue = o["issue"]
    assert (issue["penalty"], issue["raised_from"]) == ("loss_of_match", "warning")
    assert issue["default"] == "W ~ LoM"
    assert [e["kind"] for e in issue["events"]] == ["penalty_issued", "result_recorded"]
    assert o["issue_again"]["default"] == "DQ"            # the re-issue is settled
    [row] = o["list"]["penalties"]
    assert (row["penalty"], row["raised_from"]) == ("loss_of_match", "warning")
    assert row["reissued_seq"] == o["reissue"]["seq"]


def test_audit_clean(event: Event) -> None:
    assert event.out["audit"]["ok"] is True, event.out["audit"]


@pytest.mark.parametrize("name", ["warning_without_reissue", "reissue_by_judge",
                                  "reissue_no_reason"])
def test_refusals_write_nothing(event: Event, name: str) -> None:
    r = event.refused[name]
    assert r.unchanged and len(r.run.err.strip().splitlines()) == 1, r.run.err
