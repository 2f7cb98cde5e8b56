"""The API's command runner and specs (issue 29 item 3), in this process over a real
SQLite ledger the CLI opened: the specs are the click tree's (every command is a desk
command or excluded with a reason; no global option, no ``--key``); the OpenAPI document
validates and lists every desk command; ``preview`` decides what ``run`` then writes and
writes nothing; an exception of the signer's own passes through ``run`` and leaves the
runner working; concurrent calls are serialized; nothing is printed on the process's
stdout.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from openapi_spec_validator import validate

from cli.api_book import DESK, EXCLUDED, HIDDEN, all_paths, desk_paths, whole_tree
from cli.api_runner import ApiRunner
from ledger.storage.location import Location
from ledger.wire.keys import Signer, load_signer
from server.api_openapi import openapi
from tests.helpers.api_event import Opening, round_tables, small_event
from tests.helpers.live import ledger_bytes
from usecases.command_specs import ParamKind


@pytest.fixture
def event(tmp_path: Path) -> tuple[Opening, ApiRunner]:
    op = small_event(tmp_path)
    runner = ApiRunner(Location(str(op.cli.ledger)))
    yield op, runner
    runner.close()


def _key(op: Opening, stem: str) -> Signer:
    return load_signer(op.d / f"{stem}.pem")


def test_every_command_of_the_tree_is_a_desk_command_or_excluded_with_a_reason() -> None:
    tree = whole_tree()
    paths = set(all_paths(tree))
    assert paths == set(desk_paths()) | set(EXCLUDED)
    assert not set(desk_paths()) & set(EXCLUDED)
    assert all(reason.strip() for reason in EXCLUDED.values())
    assert {"result/record", "round/pair", "drop", "cut", "penalty/issue"} <= set(
        desk_paths())
    assert len(desk_paths()) == len(set(desk_paths())) == sum(map(len, DESK.values()))


def test_specs_hide_the_signer_and_take_files_as_contents(
        event: tuple[Opening, ApiRunner]) -> None:
    _, runner = event
    specs = {s.path: s for s in runner.specs()}
    assert set(specs) == set(desk_paths())
    for s in specs.values():
        for p in s.params:
            assert p.name not in ("key", "json", "ledger", "tournament", "checkpoints")
            assert not set(p.opts) & HIDDEN
    for path in ("player/import", "team/import", "result/import",
                 "seed/import-random-org"):
        assert any(p.kind is ParamKind.FILE for p in specs[path].params), path
    record = specs["result/record"]
    # the followed event's format's outcome options (HotC), after the command's own
    assert [p.name for p in record.params][:2] == ["round", "table"]
    assert {"winner", "timeout", "double_loss", "turn_player"} <= {
        p.name for p in record.params}
    drop = specs["drop"]
    assert drop.param("number") is not None and drop.param("number").positional  # type: ignore[union-attr]
    assert specs["slowplay/rule"].param("upheld").off == "--not-upheld"  # type: ignore[union-attr]


def test_the_openapi_document_validates_and_lists_every_desk_command(
        event: tuple[Opening, ApiRunner]) -> None:
    _, runner = event
    extra = {"/api/v1/event": {"get": {"responses": {"200": {"description": "the event"}}}}}
    doc = openapi(runner.specs(), extra_paths=extra)
    validate(doc)
    assert {f"/api/v1/{p}" for p in desk_paths()} <= set(doc["paths"])
    assert "/api/v1/event" in doc["paths"]
    body = doc["paths"]["/api/v1/result/record"]["post"]["requestBody"]["content"][
        "application/json"]["schema"]
    assert body["required"] == ["round", "table"]
    assert body["properties"]["winner"]["type"] == "integer"
    assert body["properties"]["timeout"]["type"] == "boolean"


def test_preview_decides_what_run_writes_and_writes_nothing(
        event: tuple[Opening, ApiRunner]) -> None:
    op, runner = event
    t = round_tables(op.cli, 1)[0]
    args: dict[str, Any] = {"number": t["players"][1], "reason": "left"}
    before = ledger_bytes(op.cli.ledger)
    seen = runner.preview("drop", args, _key(op, "sk"))
    assert seen.ok and seen.seq is None and len(seen.events) == 2   # the drop, a loss
    assert ledger_bytes(op.cli.ledger) == before
    done = runner.run("drop", args, _key(op, "sk"))
    assert done.ok and done.seq == done.events[-1]["event"]["seq"]

    def same(e: Any) -> Any:
        return {k: v for k, v in e["event"].items() if k not in ("time", "prev")}
    assert [same(e) for e in seen.events] == [same(e) for e in done.events]
    # a refusal previews as the refusal
    again = runner.preview("drop", args, _key(op, "sk"))
    assert not again.ok and again.status == 409


class NeedsSignature(Exception):
    """What a browser-held key's signer raises: the runner must let it through."""


class AskingSigner:
    def __init__(self, real: Signer) -> None:
        self.real = real
        self.key_id = real.key_id
        self.public_key_raw = real.public_key_raw
        self.name = real.name

    def sign(self, message: bytes) -> bytes:
        raise NeedsSignature(message)


def test_a_signer_s_own_exception_passes_through_and_nothing_is_written(
        event: tuple[Opening, ApiRunner]) -> None:
    op, runner = event
    t = round_tables(op.cli, 1)[0]
    before = ledger_bytes(op.cli.ledger)
    with pytest.raises(NeedsSignature):
        runner.run("result/record", {"round": 1, "table": t["table"],
                                     "winner": t["players"][0]},
                   AskingSigner(_key(op, "sk")))  # type: ignore[arg-type]
    assert ledger_bytes(op.cli.ledger) == before
    done = runner.run("result/record", {"round": 1, "table": t["table"],
                                        "winner": t["players"][0]}, _key(op, "sk"))
    assert done.ok and done.receipt["seq"] == done.seq


def test_concurrent_calls_each_write_once_and_print_nothing(
        event: tuple[Opening, ApiRunner], capfd: pytest.CaptureFixture[str]) -> None:
    op, runner = event
    tables = round_tables(op.cli, 1)
    sk = _key(op, "sk")
    capfd.readouterr()
    outs: list[Any] = []

    def enter(t: dict[str, Any]) -> None:
        outs.append(runner.run("result/record", {"round": 1, "table": t["table"],
                                                 "winner": t["players"][0]}, sk))
    threads = [threading.Thread(target=enter, args=(t,)) for t in tables]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert all(o.ok for o in outs), [o.error for o in outs if not o.ok]
    assert len({o.events[0]["event"]["seq"] for o in outs}) == len(tables)
    assert all("result of round 1" in o.text for o in outs)
    printed = capfd.readouterr()
    assert printed.out == "" and printed.err == ""
    # the round closed: the last result's text says what comes next
    assert round_tables(op.cli, 1)[-1]["result"] is not None
