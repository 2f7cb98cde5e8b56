"""Issue 17, the standings part: the standings tell the truth, in every format, through the
real CLI (defects 4, 5, 6, 16, 19; the pages' defects are ``test_standings_pages``).

Each test is named after its defect and fails on the code before ADR 0021.
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from cli.text import width
from tests.helpers.standings_play import FORMATS, HJ, pair, play, record, start

NAMES = [f"Player {i:02d}" for i in range(1, 9)]


def _rows(doc: dict[str, Any]) -> dict[int, dict[str, Any]]:
    return {r["number"]: {k: v for k, v in r.items() if k != "figures"}
            for r in doc["players"]}


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_defect_05_mid_round_standings_are_as_of_the_last_completed_round(
        tmp_path: Path, fmt: str) -> None:
    cli, log = start(tmp_path, fmt, NAMES)
    play(cli, fmt, 1, pair(cli, fmt, 1))
    settled = cli("standings", "--json").doc
    assert settled["as_of"] is None
    r2 = pair(cli, fmt, 2)
    record(cli, fmt, 2, r2["tables"][0])          # one result in, the rest still playing
    mid = cli("standings", "--json").doc
    # the unplayed round counts for nobody: every row is the one after round 1 ...
    assert _rows(mid) == _rows(settled)
    # ... and the standings say so, in JSON, text and HTML
    noun = "Game" if fmt.startswith("wot") else "round"
    assert mid["as_of"].startswith(f"as of {noun} 1; {noun} 2 is in progress")
    text = cli("standings").out
    assert f"as of {noun} 1; {noun} 2 is in progress" in text.splitlines()[0]
    assert f"as of {noun} 1" in cli("standings", "--html").out
    # once every result is in, the standings count the round again
    play(cli, fmt, 2, cli("round", "show", "2", "--json").doc)
    assert cli("standings", "--json").doc["as_of"] is None


@pytest.mark.parametrize("fmt", ["hotc-swiss-de", "bushiroad-swiss", "bushiroad-de",
                                 "round-robin"])
def test_defect_04_disqualified_player_shown_marked(tmp_path: Path, fmt: str) -> None:
    cli, log = start(tmp_path, fmt, NAMES)
    r1 = pair(cli, fmt, 1)
    play(cli, fmt, 1, r1)
    z = r1["tables"][0]["players"][0]
    cli("disqualify", str(z), "--infraction", "4.1", "--reason", "marked cards",
        "--prize-policy", "pass_down", *HJ)
    doc = cli("standings", "--json").doc
    shown = [r for r in doc["players"] if r["number"] == z]
    assert len(shown) == 1, "the disqualified player is listed"
    row = shown[0]
    assert row["revoked"] == {"seq": row["revoked"]["seq"], "round": row["revoked"]["round"],
                              "standing_revoked": True, "prize_policy": "pass_down"}
    assert doc["players"][-1]["number"] == z           # listed last, after the ranked field
    ranks = [r["rank"] for r in doc["players"] if "revoked" not in r]
    assert ranks[0] == 1 and len(ranks) == len(NAMES) - 1
    text = cli("standings").out
    assert f"#{z} Player {z:02d}: disqualified" in text and "prize passes down" in text
    csv_lines = cli("standings", "--csv").out.splitlines()
    assert csv_lines[0].endswith(",revoked")
    assert [ln for ln in csv_lines if ln.endswith(",pass_down")], "CSV marks the revocation"
    page = cli("standings", "--html").out
    assert 'class="revoked"' in page and "standing revoked, prize passes down" in page


def test_defect_06_single_elim_standings_by_bracket_finish(tmp_path: Path) -> None:
    fmt = "single-elim"
    cli, log = start(tmp_path, fmt, NAMES)
    for n in (1, 2, 3):
        play(cli, fmt, n, pair(cli, fmt, n))
    doc = cli("standings", "--json").doc
    finish = {r["number"]: r["figures"] for r in doc["players"]}
    assert doc["champion"] is not None and len(finish) == 8
    text = cli("standings").out
    lines = text.splitlines()
    assert lines[0].endswith("bracket after 3 of 3 rounds; champion #%d" % doc["champion"])
    assert "FINISH" in lines[1] and "MW%" not in lines[1] and "after 0 rounds" not in text
    body = lines[2:10]
    words = [next(w for w in ("champion", "semi-finalist", "quarter-finalist", "finalist")
                  if w in ln) for ln in body]
    assert words == ["champion", "finalist", "semi-finalist", "semi-finalist",
                     *["quarter-finalist"] * 4]
    assert [ln.split()[0] for ln in body] == ["1", "2", "3", "3", "5", "5", "5", "5"]


WIDE = ["山田 太郎", "Zoë 🃏 Player", "김민준", "Ana", "Jürgen Groß", "李小龍", "Bob", "Éva"]


@pytest.mark.parametrize("fmt", ["bushiroad-swiss", "hotc-swiss-de", "wot-classic"])
def test_defect_16_text_standings_align_wide_characters(tmp_path: Path, fmt: str) -> None:
    cli, log = start(tmp_path, fmt, WIDE)
    play(cli, fmt, 1, pair(cli, fmt, 1))
    lines = cli("standings").out.splitlines()
    header = lines[1]
    table = lines[2:2 + len(WIDE)]
    assert len(table) == len(WIDE)
    # the record column (right-aligned, after NAME) ends at the same display column on
    # every line as its header does: wide names take two columns each
    head = re.search(r"W-L(-[DT])?", header)
    assert head is not None
    for ln in table:
        name = next(n for n in WIDE if n in ln)
        rec = re.compile(r"\d+-\d+(-\d+)?").search(ln, ln.index(name) + len(name))
        assert rec is not None, ln
        assert width(ln[:rec.end()]) == head.end(), ln


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_defect_19_one_json_convention_for_every_format(tmp_path: Path, fmt: str) -> None:
    cli, log = start(tmp_path, fmt, NAMES)
    play(cli, fmt, 1, pair(cli, fmt, 1))
    doc = cli("standings", "--json").doc
    declared = {c["key"]: c for c in doc["columns"]}
    assert list(declared)[:3] == ["rank", "number", "name"]
    fractions = [k for k, c in declared.items() if c["show"] in ("percent", "decimal")]
    # a bracket-only event (single elimination) has no tiebreakers; every other format has
    assert bool(fractions) == (fmt != "single-elim")
    for row in doc["players"]:
        for key in fractions:
            fig = row["figures"][key]
            num, den = (int(x) for x in fig["exact"].split("/"))
            value = Fraction(num, den)
            if declared[key]["show"] == "percent":
                hundredths = int(value * 10_000)          # truncated, never rounded
                assert fig["display"] == f"{hundredths // 100}.{hundredths % 100:02d}%"
            # the normative field keeps its own form (docs/DESIGN.md §8/§11), same value
            normative = row[key]
            if "/" in str(normative):
                assert Fraction(str(normative)) == value
            else:
                assert Fraction(str(normative)) == value or key == "mw"
    if fmt.startswith("bushiroad") or fmt in ("round-robin",):
        assert all(len(r["mw"].split(".")[1]) == 2 for r in doc["players"])   # "0.33"
