"""The desk's command list, complete and honest (issue 29 item 1; ADR "desk-polish"):
each spec's roles come from the ledger's one roles table (through the kinds each command
signs, checked here against that table and against what the commands really write), its
group is the API's own, its summary a whole sentence, its steps marked; ``seed commit``,
``seed reveal`` and ``publish`` run from the desk with nothing written where a caller
chooses — the secret comes back in the answer, the site goes to the server's own
directory — and every refusal writes nothing.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest

from cli.api_book import DESK, READS, desk_specs, whole_tree
from cli.api_kinds import KINDS, STEPS, alternatives
from cli.api_runner import ApiRunner
from ledger.core.format_socket import plugin_for
from ledger.core.signing import PERMITTED, roles_for_kind
from ledger.randomness.commit import commitment, reveal_material
from ledger.storage.location import Location
from ledger.wire.keys import Signer, load_signer
from server.api_openapi import openapi
from server.desk_forms import panels
from tests.helpers.api_event import small_event
from tests.helpers.randomness import AFTER_ROUND_1000, BEFORE_ROUND_1000, QUICK, _event, db_bytes
from usecases.command_specs import Steps

FORMATS = ("hotc-swiss-de", "bushiroad-swiss", "wot-2001")


@pytest.fixture(scope="module")
def tree() -> Any:
    return whole_tree()


def _every_kind() -> set[str]:
    import ledger.formats.registry as registry

    kinds = set(PERMITTED)
    for fid in registry.FORMAT_IDS:
        plugin = plugin_for(fid)
        assert plugin is not None
        kinds |= set(plugin.rules.book.permissions)    # type: ignore[attr-defined]
    return kinds


def test_every_signing_command_names_kinds_of_the_roles_table(tree: Any) -> None:
    paths = {p for group in DESK.values() for p in group}
    assert set(KINDS) == paths - READS, "a signing desk command without its kinds"
    known = _every_kind()
    named = {k for p in KINDS for alt in alternatives(p) for k in alt}
    assert named <= known, f"kinds the roles table does not know: {named - known}"
    assert set(STEPS) <= paths


@pytest.mark.parametrize("fmt", FORMATS)
def test_roles_are_the_roles_tables(tree: Any, fmt: str) -> None:
    plugin = plugin_for(fmt)
    specs = {s.path: s for s in desk_specs(tree, fmt)}
    for path, spec in specs.items():
        if path in READS:
            assert spec.roles == () and not spec.signed
            continue
        want: set[str] = set()
        for alt in alternatives(path):
            sets = [roles_for_kind(plugin, k) for k in alt]
            if all(sets):
                want |= {r.value for r in frozenset.intersection(*sets)}
        assert set(spec.roles) == want, path
    assert specs["checkpoint"].roles == ("head_judge",)
    if fmt == "wot-2001":
        assert specs["forfeit"].roles == ("head_judge",)
        assert specs["team/add"].roles == ()        # no team in WoT: nobody signs it
        assert specs["round/start"].roles == ()     # no round clock in WoT
    else:
        assert "time_keeper" in specs["round/start"].roles
        assert "time_keeper" in specs["round/time"].roles
        assert "time_keeper" not in specs["round/extend"].roles       # judges extend
        assert specs["forfeit"].roles == ()
        assert set(specs["drop"].roles) == {"head_judge", "scorekeeper"}


def test_groups_are_the_apis_and_summaries_whole_sentences(tree: Any) -> None:
    specs = desk_specs(tree, "hotc-swiss-de")
    for s in specs:
        assert s.group and s.path in DESK[s.group], s.path
        assert "\n" not in s.summary
        assert s.summary.rstrip(")").endswith((".", ":", ")")), (s.path, s.summary)
    late = next(s for s in specs if s.path == "player/late")
    assert late.summary.startswith(late.help.split("\n")[0]) and \
        len(late.summary) > len(late.help.split("\n")[0])          # it went on
    assert [p.key for p, _ in panels(specs)] == list(DESK)
    for panel, mine in panels(specs):
        assert [s.path for s in mine] == list(DESK[panel.key])
    doc = openapi(specs)
    op = doc["paths"]["/api/v1/round/start"]["post"]
    assert op["tags"] == ["rounds"] and "time_keeper" in op["x-roles"]
    assert op["x-atomic"] is True and op["x-steps"] == "one"
    pub = doc["paths"]["/api/v1/publish"]["post"]
    assert pub["x-steps"] == "once" and pub["x-atomic"] is False
    assert pub["x-roles"] == ["head_judge"] and "directory" not in json.dumps(
        pub["requestBody"])
    commit = doc["paths"]["/api/v1/seed/commit"]["post"]
    assert "out" not in commit["requestBody"]["content"]["application/json"]["schema"][
        "properties"]
    assert doc["paths"]["/api/v1/result/import"]["post"]["x-steps"] == "resumable"
    assert {s.path: s.steps for s in specs if s.steps is not Steps.ONE} == STEPS


def test_what_commands_write_is_what_their_spec_names(tmp_path: Path) -> None:
    op = small_event(tmp_path)
    runner = ApiRunner(Location(str(op.cli.ledger)))
    try:
        keys = {s: load_signer(op.d / f"{s}.pem") for s in ("hj", "sk", "judge")}
        by_path = {s.path: s for s in runner.specs()}
        tables = op.cli("round", "show", "1", "--json").doc["tables"]
        t1 = tables[0]
        derived = {"round_closed", "champion_declared"}

        def run(who: str, path: str, **args: Any) -> None:
            out = runner.run(path, args, keys[who])
            assert out.ok, (path, out.error)
            spec = by_path[path]
            for e in out.events:
                kind = e["event"]["kind"]
                assert kind in (*spec.kinds, *derived), (path, kind, spec.kinds)
                roles = {r.value for r in roles_for_kind(plugin_for("hotc-swiss-de"),
                                                         kind)}
                assert roles & set(spec.roles), (path, kind)
        run("judge", "round/start", minutes=50)
        run("judge", "round/time")
        run("judge", "slowplay/call", round=1, table=t1["table"],
            caller=t1["players"][0], called=t1["players"][1])
        run("judge", "penalty/issue", number=tables[2]["players"][0], infraction="3.9.1",
            penalty="C")
        run("sk", "result/record", round=1, table=t1["table"], winner=t1["players"][0])
        run("sk", "drop", number=tables[1]["players"][0], reason="left")
        run("hj", "checkpoint")
    finally:
        runner.close()


def _temp_dirs() -> set[str]:
    return {p.name for p in Path(tempfile.gettempdir()).glob("tourney-api-*")}


def test_commit_reveal_from_the_desk_returns_the_secret_and_keeps_none(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cli = _event(tmp_path, "2023-08-23T14:00:00.000000Z")
    monkeypatch.setenv("TOURNEY_FIXED_CLOCK", BEFORE_ROUND_1000)
    runner = ApiRunner(Location(str(cli.ledger)))
    hj: Signer = load_signer(tmp_path / "hj.pem")
    sk: Signer = load_signer(tmp_path / "sk.pem")
    temps = _temp_dirs()
    try:
        # a path the caller names is no parameter at all; a scorekeeper may not commit
        chosen = tmp_path / "chosen.secret"
        for who, args, status in (
                (hj, {"reason": "R1", "round": 1000, "out": str(chosen)}, 400),
                (sk, {"reason": "R1", "round": 1000, "ctx": "R1x"}, 403)):
            before = db_bytes(cli)
            out = runner.run("seed/commit", args, who)
            assert out.status == status and not out.ok and not out.files, out.error
            assert db_bytes(cli) == before and not chosen.exists()
        out = runner.run("seed/commit", {"reason": "R1 pairing", "round": 1000,
                                         "ctx": "R1x"}, hj)
        assert out.ok, out.error
        assert [e["event"]["kind"] for e in out.events] == ["seed_committed"]
        (f,) = out.files
        assert f["param"] == "out" and f["encoding"] == "utf-8"
        assert f["name"] == f"seed-commit-{out.seq}.secret"
        secret = json.loads(f["content"])
        assert out.events[0]["event"]["body"]["commitment"] == commitment(
            bytes.fromhex(secret["salt"]), bytes.fromhex(secret["secret"])).hex()
        assert "tourney-api-" not in out.text and f["name"] in out.text
        assert "tourney-api-" not in json.dumps(out.data)
        assert _temp_dirs() == temps, "the secret stayed on the server's disk"
        assert "secret" not in json.dumps(out.events)
        # the reveal takes the file's contents back (and a wrong one writes nothing)
        monkeypatch.setenv("TOURNEY_FIXED_CLOCK", AFTER_ROUND_1000)
        before = db_bytes(cli)
        bad = runner.run("seed/reveal", {"secret": json.dumps(
            dict(secret, secret="00" * 32)), "signature": QUICK["sig"]}, hj)
        assert bad.status == 409 and db_bytes(cli) == before, bad.error
        rev = runner.run("seed/reveal", {"secret": f["content"],
                                         "signature": QUICK["sig"]}, hj)
        assert rev.ok, rev.error
        body = rev.events[0]["event"]["body"]
        assert body["material"] == reveal_material(bytes.fromhex(secret["salt"]),
                                                   bytes.fromhex(secret["secret"]),
                                                   bytes.fromhex(QUICK["randomness"]))
        assert _temp_dirs() == temps
    finally:
        runner.close()
    assert cli("audit", "verify", "--json").doc["ok"]


def test_publish_from_the_desk_writes_only_the_servers_publish_directory(
        tmp_path: Path) -> None:
    op = small_event(tmp_path)
    hj = load_signer(op.d / "hj.pem")
    site = tmp_path / "served-site"
    nowhere = ApiRunner(Location(str(op.cli.ledger)))
    try:
        before = db_bytes(op.cli)
        out = nowhere.run("publish", {}, hj)
        assert out.status == 400 and "publishes to no directory" in out.error["message"]
        elsewhere = tmp_path / "elsewhere"
        out = nowhere.run("publish", {"directory": str(elsewhere)}, hj)
        assert out.status == 400 and not elsewhere.exists()
        assert db_bytes(op.cli) == before
    finally:
        nowhere.close()
    runner = ApiRunner(Location(str(op.cli.ledger)), publish_dir=site)
    try:
        sk = load_signer(op.d / "sk.pem")
        before = db_bytes(op.cli)
        out = runner.run("publish", {}, sk)              # the head judge's, not a scorekeeper's
        assert out.status == 403 and db_bytes(op.cli) == before and not site.exists()
        out = runner.run("publish", {}, hj)
        assert out.ok, out.error
        assert "report_published" in [e["event"]["kind"] for e in out.events]
        assert (site / "index.html").is_file() and (site / "report.json").is_file()
        pairings = runner.run("publish", {"pairings_only": True, "round": 1}, hj)
        assert pairings.ok and (site / "round-1.html").is_file(), pairings.error
    finally:
        runner.close()
    assert op.cli("audit", "verify", "--json").doc["ok"]
