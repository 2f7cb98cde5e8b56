"""Judge calls through ``tourney`` (issue 30): ``call open|claim|close|list|show``, ``round
extend --call`` confirming the proposal, ``floor stats``, a 001 event's cap, refusals that
write nothing, and a Wheel of Time event that has calls but no extensions."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.cli_runner import Cli, raw_bytes, remember_secret, snapshot

PLAYERS = ["Ada", "Bea", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


def _at(t: str) -> dict[str, str]:
    return {"TOURNEY_FIXED_CLOCK": f"2026-03-01T{t}.000000Z"}


def _event(d: Path, fmt: str, *params: str) -> Cli:
    cli = Cli(d, d / "t.db")
    for name in ("hj", "judge", "sk"):
        cli("keys", "new", "--name", f"{name} person", "--out", f"{name}.pem")
        remember_secret(d / f"{name}.pem")
    cli("init", "--name", "Calls Open", "--format", fmt, *params, "--key", "hj.pem")
    for role, name in (("judge", "judge"), ("scorekeeper", "sk")):
        cli("official", "add", "--role", role, "--name", name, "--public-key",
            f"{name}.pem.pub", "--key", "hj.pem")
    (d / "players.csv").write_text("number,name\n" + "".join(
        f"{i},{n}\n" for i, n in enumerate(PLAYERS, start=1)))
    cli("player", "import", "players.csv", "--key", "sk.pem")
    cli("registration", "close", "--key", "hj.pem")
    cli("round", "pair", "--seed-material", "calls 1 2 3", "--seed-source", "dice",
        "--key", "hj.pem")
    return cli


def test_a_call_claimed_after_40s_and_closed_3m10s_later_on_a_001_event(
        tmp_path: Path) -> None:
    cli = _event(tmp_path, "hotc-swiss-de", "--param", "end_of_match=eom_001")
    j = ("--key", "judge.pem")
    opened = cli("call", "open", "--table", "2", "--note", "rules question", *j, "--json",
                 env=_at("10:00:00")).doc
    call = str(opened["seq"])
    before = snapshot(cli.ledger)
    again = cli("call", "open", "--table", "2", *j, code=3, env=_at("10:00:10"))
    assert "CALL-2" in again.err and raw_bytes(cli.ledger) == before
    early = cli("call", "close", call, "--outcome", "x", *j, code=3, env=_at("10:00:20"))
    assert "CALL-4" in early.err and raw_bytes(cli.ledger) == before
    listed = cli("call", "list", "--json", env=_at("10:00:30")).doc
    assert [(c["call"], c["table"], c["waiting_s"]) for c in listed["calls"]] == \
        [(int(call), 2, 30)]
    claimed = cli("call", "claim", call, *j, "--json", env=_at("10:00:40")).doc
    assert claimed["waited_s"] == 40
    closed = cli("call", "close", call, "--outcome", "X resolves first", *j,
                 env=_at("10:03:50"))
    assert "ruling 3:10" in closed.out and "proposed extension: 4 minute(s)" in closed.out
    before = snapshot(cli.ledger)
    over = cli("round", "extend", "--call", call, "--minutes", "6", *j, code=3,
               env=_at("10:04:00"))
    assert "EOM-EXT-1" in over.err and raw_bytes(cli.ledger) == before
    ext = cli("round", "extend", "--call", call, *j, "--json", env=_at("10:04:00")).doc
    assert (ext["total_minutes"], ext["proposed"]) == (4, 4)
    twice = cli("round", "extend", "--call", call, *j, code=3, env=_at("10:04:10"))
    assert "CALL-6" in twice.err
    shown = cli("call", "show", call, "--json").doc
    assert shown["extension"] == {"seq": ext["seq"], "minutes": 4, "proposed": 4}
    stats = cli("floor", "stats", "--json").doc
    assert stats["rounds"] == [{"round": 1, "calls": 1, "open": 0, "median_wait_s": 40,
                                "longest_wait_s": 40}]
    assert stats["extensions"] == [{"round": 1, "table": 2, "minutes": 4,
                                    "calls": [int(call)], "by_hand": 0, "given": [{
                                        "seq": ext["seq"], "cites": "call",
                                        "cited": int(call), "proposed": 4, "minutes": 4}]}]
    audit = cli("audit", "verify", "--json", code=None)
    assert audit.code == 0, audit.out + audit.err


def test_a_wot_event_has_judge_calls_and_no_extension(tmp_path: Path) -> None:
    cli = _event(tmp_path, "wot-classic")
    j = ("--key", "judge.pem")
    call = str(cli("call", "open", "--table", "1", *j, "--json", env=_at("10:00:00"))
               .doc["seq"])
    cli("call", "claim", call, *j, env=_at("10:01:00"))
    closed = cli("call", "close", call, "--outcome", "Last Battle timing explained", *j,
                 "--json", env=_at("10:05:00")).doc
    assert closed["proposal"]["minutes"] == 0
    assert closed["proposal"]["rule"] == "WOTOLD-TIME-1"
    assert cli("floor", "stats", "--json").doc["rounds"][0]["calls"] == 1
    assert cli("audit", "verify", "--json", code=None).code == 0
