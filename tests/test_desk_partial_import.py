"""A slip file with a refused row, through the API and the console (issue 29 items 1 and
3), on a real ``tourney serve`` process: the good rows are written as at the terminal
(``result import`` exits 3, docs/DESIGN.md §8), and the answer says so — 409 with what
was written beside the refusal, never ``200 ok`` and never "Nothing was written" — and
no answer names the server's temporary file (a file the caller sent is named by its
parameter, ``file``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.helpers.api_event import HttpDesk, Opening, round_tables, small_event
from tests.helpers.live import ledger_bytes, serve_process

STAFF = ("--station-key", "st.pem", "--staff-key", "hj.pem", "--staff-key", "sk.pem")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Opening, str]]:
    op = small_event(tmp_path_factory.mktemp("partial"))
    with serve_process(op.d, op.cli.env, serve_args=STAFF) as (url, _proc):
        yield op, url


def _results(op: Opening) -> list[dict[str, Any]]:
    return [leaf["event"] for leaf in op.cli("log", "--json").doc
            if leaf["event"]["kind"] == "result_recorded"]


def _slips(op: Opening, good: int, bad: int) -> tuple[str, list[int]]:
    """Slips for tables ``good`` (its first player wins) and ``bad`` (#99 wins: refused)."""
    t = {x["table"]: x for x in round_tables(op.cli, 1)}
    return ("round,table,winner\n"
            f"1,{good},{t[good]['players'][0]}\n1,{bad},99\n"), [good]


def test_a_partial_import_over_the_api_is_409_with_what_was_written(
        server: tuple[Opening, str]) -> None:
    op, url = server
    desk = HttpDesk(url, op.tokens)
    before = len(_results(op))
    text, good = _slips(op, 1, 2)
    r = desk.post("sk", "result/import", {"file": text})
    doc = r.json()
    assert r.status_code == 409 and doc["ok"] is False, (r.status_code, doc)
    assert doc["error"]["kind"] == "rule"
    assert "imported 1 results from file" in doc["error"]["message"]
    assert "partial import: the 1 good rows were written" in doc["error"]["message"]
    assert doc["error"]["hint"].startswith("file line 3: #99 is not at this table")
    assert [e["event"]["body"]["table"] for e in doc["events"]] == good
    assert doc["seq"] == doc["events"][-1]["event"]["seq"]
    assert "tourney-api" not in r.text and "/tmp" not in r.text
    written = _results(op)[before:]
    assert [e["body"]["table"] for e in written] == good
    # the same file again: the good row unchanged, nothing new, still the refused row
    again = desk.post("sk", "result/import", {"file": text})
    assert again.status_code == 409 and "events" not in again.json(), again.text
    assert "0 results" in again.json()["error"]["message"]
    assert len(_results(op)) == before + 1


def test_a_refused_file_names_its_parameter_not_the_servers_path(
        server: tuple[Opening, str]) -> None:
    op, url = server
    desk = HttpDesk(url, op.tokens)
    raw = ledger_bytes(op.cli.ledger)
    r = desk.post("sk", "result/import", {"file": "table,winner\n3,1\n"})
    doc = r.json()
    assert r.status_code == 400 and set(doc) == {"ok", "error"}, r.text
    assert doc["error"]["message"].startswith("file line 1: the header must start")
    assert "tourney-api" not in r.text and "/tmp" not in r.text
    assert ledger_bytes(op.cli.ledger) == raw


def _main(text: str) -> str:
    m = re.search(r"<main>(.*)</main>", text, re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", m.group(1) if m else text))


def test_the_console_says_a_partial_import_was_partly_done(
        server: tuple[Opening, str]) -> None:
    op, url = server
    before = len(_results(op))
    text, good = _slips(op, 4, 5)
    with httpx.Client(base_url=url, timeout=60) as c:
        assert c.get(f"/c/{op.tokens['sk']}").status_code == 303
        form = c.get("/desk/do/result/import").text
        token = re.search(r'name="csrf" value="([0-9a-f]+)"', form)
        assert token is not None
        r = c.post("/desk/do/result/import", data={"csrf": token.group(1)},
                   files={"file": ("slips.csv", text.encode(), "text/csv")},
                   headers={"Origin": url})
    shown = _main(r.text)
    assert r.status_code == 409, shown
    assert "Partly done:" in shown and "Part of it was written" in shown, shown
    assert "Nothing was written" not in shown and "Done" not in shown.replace("Partly done",
                                                                              "")
    assert "file line 3: #99 is not at this table" in shown
    assert "tourney-api" not in r.text
    assert [e["body"]["table"] for e in _results(op)[before:]] == good
