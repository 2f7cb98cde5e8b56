"""Issue 17, proof: per format, every outcome of its declared vocabulary can be recorded
from the command line (each entry's own ``--help`` example, its players replaced by the
table's), reads back in ``round show`` and ``log`` with the same words, and an outcome
can be corrected, imported from a slip and amended.  ``tourney`` commands on a real
SQLite ledger; the event audits clean at the end.

An entry is listed in ``ELSEWHERE`` when it exists only in a phase this event does not
reach, with the test that records it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from ledger.core.format_socket import require_plugin
from ledger.core.vocabulary import FieldKind, ResultEntry, Vocabulary
from tests.helpers.cli_event import open_event
from tests.helpers.cli_runner import Cli

HJ = ("--key", "hj.pem")
SK = ("--key", "sk.pem")
JUDGE = ("--key", "judge.pem")
#: entries of a phase this Swiss event does not reach, and the test that records them
ELSEWHERE = {("hotc-swiss-de", "timeout", ("top_cut",)):
             "tests/test_readme_tour.py (top-cut --timeout --turn-player)"}

FORMATS = [
    ("hotc-swiss-de", ("--cut", "4")),
    ("bushiroad-swiss", ("--param", "match_format=BO3", "--param", "annex_a=true")),
    ("wot-classic", ()),
    ("wot-2001", ()),
]


def example_args(v: Vocabulary, entry: ResultEntry, a: int, b: int) -> list[str]:
    """The entry's example with its players (3: the first, 8: the other) replaced by the
    table's, read by the fields' kinds: player options and the keys of amounts."""
    out: list[str] = []
    tokens = entry.example.split()
    by_option = {f.option: f for f in v.fields}
    swap = {"3": str(a), "8": str(b)}
    for i, tok in enumerate(tokens):
        f = by_option.get(tokens[i - 1]) if i else None
        if f is not None and f.kind is FieldKind.PLAYER:
            out.append(swap[tok])
        elif f is not None and f.kind is FieldKind.AMOUNTS:
            out.append(re.sub(r"(\d+)=", lambda m: swap[m.group(1)] + "=", tok))
        else:
            out.append(tok)
    return out


def _tables(cli: Cli, rnd: int) -> list[dict[str, Any]]:
    return list(cli("round", "show", str(rnd), "--json").doc["tables"])


def _words(cli: Cli, rnd: int, table: int) -> str:
    """A table's line in ``round show`` with its continuation line (a result that does
    not fit beside the players goes on the next line)."""
    lines = cli("round", "show", str(rnd)).out.splitlines()
    for i, line in enumerate(lines):
        if re.match(rf"\s+{table}\s", line):
            nxt = lines[i + 1] if i + 1 < len(lines) else ""
            return line + (" " + nxt.strip() if re.match(r"\s{7}\S", nxt) else "")
    raise AssertionError(f"table {table} not shown")


@pytest.mark.parametrize(("fmt", "init"), FORMATS, ids=[f for f, _ in FORMATS])
def test_every_outcome_recorded_read_back_corrected_imported(tmp_path: Path, fmt: str,
                                                             init: tuple[str, ...]) -> None:
    v = require_plugin(fmt).entry.result_vocabulary()
    entries = [e for e in v.entries if not e.phases or "swiss" in e.phases]
    skipped = [(fmt, e.key, e.phases) for e in v.entries if e not in entries]
    assert all(k in ELSEWHERE for k in skipped), skipped
    n = 2 * (len(entries) + 2)
    cli, _ = open_event(tmp_path, fmt, [f"P{i:02d}" for i in range(1, n + 1)], *init,
                        officials=("sk", "judge"))
    cli("round", "pair", "--seed-material", f"{fmt} roundtrip", "--seed-source", "dice", *HJ)
    tables = _tables(cli, 1)
    assert len(tables) >= len(entries) + 2
    for entry, t in zip(entries, tables, strict=False):
        a, b = t["players"]
        if entry.key == "slow_play":                 # an upheld call against a first
            call = cli("slowplay", "call", "--round", "1", "--table", str(t["table"]),
                       "--caller", str(b), "--called", str(a), *JUDGE, "--json").doc
            cli("slowplay", "rule", str(call["seq"]), "--upheld", *JUDGE)
        args = example_args(v, entry, a, b)
        doc = cli("result", "record", "--round", "1", "--table", str(t["table"]), *args,
                  *SK, "--json").doc
        line = _words(cli, 1, t["table"])
        logged = cli("log", "--from", str(doc["seq"])).out.splitlines()[0]
        phrase = logged.split(f"table {t['table']}: ", 1)[1]
        assert phrase in line, (entry.key, phrase, line)
        # the same entry again is the same result: unchanged, nothing written
        again = cli("result", "record", "--round", "1", "--table", str(t["table"]), *args,
                    *SK, "--json").doc
        assert again["written"] is False and again["seq"] == doc["seq"], entry.key
    # a slip for the next table, in the format's slip columns: the first entry's outcome
    first, slip_table = entries[0], tables[len(entries)]
    a, b = slip_table["players"]
    cols, vals = _slip(v, first, a, b)
    (tmp_path / "slips.csv").write_text(f"round,table,{cols}\n1,{slip_table['table']},{vals}\n")
    cli("result", "import", "slips.csv", *SK)
    assert not _words(cli, 1, slip_table["table"]).rstrip().endswith(" -")
    # a correction by a judge in the format's terms: the last table, another outcome
    last = tables[len(entries) + 1]
    a, b = last["players"]
    cli("result", "record", "--round", "1", "--table", str(last["table"]),
        *example_args(v, first, a, b), *SK)
    other = entries[1]
    doc = cli("result", "correct", "--round", "1", "--table", str(last["table"]),
              *example_args(v, other, a, b), "--reason", "slip misread", *JUDGE,
              "--json").doc
    assert doc["corrects_seq"] is not None
    for t in tables[len(entries) + 2:]:
        a, b = t["players"]
        cli("result", "record", "--round", "1", "--table", str(t["table"]),
            *example_args(v, first, a, b), *SK)
    doc = cli("audit", "verify", str(cli.ledger), "--json").doc
    assert doc["ok"], doc["findings"]


def _slip(v: Vocabulary, entry: ResultEntry, a: int, b: int) -> tuple[str, str]:
    """One slip row saying ``entry`` with the table's players: the match formats' DESIGN
    §8 columns, or the option names as columns (Wheel of Time)."""
    if "winner" in v.slip_required:
        return "winner,decided_by", f"{a},play"
    args = example_args(v, entry, a, b)
    cols, vals = [], []
    i = 0
    while i < len(args):
        name = args[i][2:].replace("-", "_")
        field = next((f for f in v.fields if f.name == name or f.off == args[i][2:]), None)
        assert field is not None, args[i]
        if field.kind in (FieldKind.FLAG, FieldKind.SWITCH):
            cols.append(field.name)
            vals.append("yes" if field.name == name else "no")
            i += 1
        else:
            cols.append(field.name)
            vals.append(f'"{args[i + 1]}"')
            i += 2
    return ",".join(cols), ",".join(vals)
