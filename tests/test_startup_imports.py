"""Start-up stays lean (issue 7): a command imports only what it needs.

Checked on ``sys.modules`` after a real command ran in a fresh interpreter (not timed:
timings belong to bench/bench_cli.py): no pydantic (typer 0.29+ would pull it into every
option), no rich outside help and progress bars, no PEM/ASN.1 machinery to read an
unencrypted key, no eventsourcing for commands that never open a ledger, and only the
invoked command's module of cli/.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.helpers.cli_runner import CLOCK

ROOT = Path(__file__).resolve().parents[1]
PROBE = r"""
import json, sys
sys.argv = ["tourney", *json.loads(sys.argv[1])]
from cli.main import run
try:
    run()
except SystemExit:
    pass
sys.stderr.write("\nMODULES " + json.dumps(sorted(sys.modules)) + "\n")
"""


def _modules(args: list[str], cwd: Path) -> set[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TOURNEY_")}
    env.update(PYTHONPATH=str(ROOT), TOURNEY_FIXED_CLOCK=CLOCK)
    proc = subprocess.run([sys.executable, "-c", PROBE, json.dumps(args)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=60)
    line = proc.stderr.rsplit("\nMODULES ", 1)[1]
    return set(json.loads(line))


def _tops(mods: set[str]) -> set[str]:
    return {m.split(".")[0] for m in mods}


def test_keys_show_opens_no_ledger(tmp_path: Path) -> None:
    from ledger.wire.keys import write_new_key

    write_new_key(tmp_path / "k.pem", "K", None)
    mods = _modules(["keys", "show", "k.pem.pub"], tmp_path)
    assert "eventsourcing" not in _tops(mods) and "pydantic" not in _tops(mods)
    assert not any(m.startswith("cli.") and m not in ("cli.main", "cli.common", "cli.keys_cmd")
                   for m in mods), sorted(m for m in mods if m.startswith("cli."))


def test_a_signed_write_loads_no_pydantic_rich_or_pem_parser(tmp_path: Path,
                                                             small_ledger: object) -> None:
    from ledger.storage.location import Location
    from ledger.wire.keys import write_new_key

    assert isinstance(small_ledger, Location)
    write_new_key(tmp_path / "hj.pem", "HJ", None)
    mods = _modules(["--ledger", small_ledger.text, "checkpoint", "--key", "hj.pem"],
                    tmp_path)
    tops = _tops(mods)
    assert "eventsourcing" in tops  # it did open the ledger
    assert "pydantic" not in tops and "rich" not in tops
    assert "cryptography.hazmat.primitives.serialization" not in mods
    assert "cli.results_cmd" not in mods and "cli.simulate_cmd" not in mods


def test_a_command_imports_only_its_ledgers_format(tmp_path: Path,
                                                   small_ledger: object) -> None:
    """Formats are plugged in by name (ledger.formats.registry): reading a HotC event
    imports the HotC plug-in and the shared layers, never Bushiroad's or Wheel of Time's."""
    from ledger.storage.location import Location

    assert isinstance(small_ledger, Location)
    mods = _modules(["--ledger", small_ledger.text, "info"], tmp_path)
    assert "ledger.formats.hotc.plugin" in mods  # the ledger's own format was read
    assert not any(m.startswith(("ledger.formats.bushiroad", "ledger.formats.wot"))
                   for m in mods), sorted(m for m in mods if m.startswith("ledger.formats"))


def test_an_unknown_kind_loads_every_format_before_it_is_refused() -> None:
    """A leaf of a format not imported yet still decodes: the socket imports the formats
    before a kind is called unknown (ledger.wire.events.body_type_of)."""
    probe = ("import ledger.formats.registry, sys\n"
             "from ledger.wire.events import body_type_of\n"
             "assert 'ledger.formats.wot.plugins' not in sys.modules\n"
             "assert body_type_of('tbp_overridden') is not None\n"
             "assert body_type_of('no_such_kind') is None\n"
             "print('ok')\n")
    proc = subprocess.run([sys.executable, "-c", probe], env={**os.environ,
                          "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=60)
    assert proc.stdout.strip() == "ok", proc.stderr


def test_a_read_command_loads_no_cryptography(tmp_path: Path, small_ledger: object) -> None:
    """Reading a ledger verifies nothing and signs nothing: ``cryptography`` (several ms of
    start-up) is imported where a key or a signature is used, never by ``info``."""
    from ledger.storage.location import Location

    assert isinstance(small_ledger, Location)
    mods = _modules(["--ledger", small_ledger.text, "info"], tmp_path)
    assert "eventsourcing" in _tops(mods) and "cryptography" not in _tops(mods)


SCHEMA_PROBE = r"""
import json, sys
import msgspec.json
calls = []
real = msgspec.json.schema
msgspec.json.schema = lambda *a, **k: (calls.append(a), real(*a, **k))[1]
sys.argv = ["tourney", *json.loads(sys.argv[1])]
from cli.main import run
try:
    run()
except SystemExit as exc:
    code = exc.code
sys.stderr.write("\nPROBE " + json.dumps({"schemas": len(calls), "code": code,
                                          "modules": sorted(sys.modules)}) + "\n")
"""


def _probe(args: list[str], cwd: Path) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TOURNEY_")}
    env.update(PYTHONPATH=str(ROOT), TOURNEY_FIXED_CLOCK=CLOCK)
    proc = subprocess.run([sys.executable, "-c", SCHEMA_PROBE, json.dumps(args)], cwd=cwd,
                          env=env, capture_output=True, text=True, timeout=60)
    out: dict[str, object] = json.loads(proc.stderr.rsplit("\nPROBE ", 1)[1])
    return out


def test_result_record_imports_no_round_display_and_computes_no_schema(
        tmp_path: Path) -> None:
    """Issue 22 item 6: recording a result imports neither ``cli.round_cmd`` (the round
    display; the result phrase is ``cli.result_text``'s) nor the other result commands'
    modules, and no command computes a JSON schema to name its snapshots
    (ledger/storage/snapshot_layouts.py) — the ledger holds a snapshot, so its topic is needed."""
    from ledger.core.aggregate import Tournament
    from ledger.formats.registry import make_format
    from ledger.storage.location import Location
    from ledger.storage.store import Ledger
    from ledger.wire.clock import FixedClock
    from ledger.wire.events import Role
    from ledger.wire.keys import PublicKey, write_new_key

    hj = write_new_key(tmp_path / "hj.pem", "HJ", None)
    sk = write_new_key(tmp_path / "sk.pem", "SK", None)
    loc = Location(str(tmp_path / "t.db"))
    with Ledger(loc, create=True, clock=FixedClock()) as led:
        led.create("t", lambda now: Tournament.create(
            log="t", name="T", fmt=make_format("hotc-swiss-de", 4), signer=hj, time=now))
        led.write("t", lambda t, now: t.add_official(
            PublicKey(raw=sk.public_key_raw), Role.SCOREKEEPER, "SK", hj, now))
        for i in range(120):   # past SNAPSHOT_INTERVAL: the commands load a snapshot
            led.write("t", lambda t, now, i=i: t.register_player(f"P{i}", sk, now))
        led.write("t", lambda t, now: t.close_registration(hj, now))
        led.write("t", lambda t, now: t.pair_round(hj, now, material="1 2 3", source="x"))
    got = _probe(["--ledger", loc.text, "result", "record", "--round", "1", "--table", "1",
                  "--timeout", "--key", "sk.pem"], tmp_path)
    assert got["code"] in (0, None), got["code"]
    mods = set(got["modules"])  # type: ignore[call-overload]
    assert "cli.result_text" in mods and "cli.round_cmd" not in mods
    assert got["schemas"] == 0
    read = _probe(["--ledger", loc.text, "standings"], tmp_path)
    assert read["code"] in (0, None) and read["schemas"] == 0


def test_reads_import_no_event_store_application_and_no_rules(tmp_path: Path,
                                                               small_ledger: object) -> None:
    """Issue 22 (ADR 0025, fifth pass): ``standings`` and ``round show`` read a SQLite
    ledger with ``sqlite3`` alone (``ledger.storage.reader``): no ``eventsourcing``, no
    aggregate and none of the core's command rules."""
    from ledger.storage.location import Location

    assert isinstance(small_ledger, Location)
    for args in (["standings"], ["standings", "--json"], ["standings", "--csv"],
                 ["round", "show"]):
        mods = _modules(["--ledger", small_ledger.text, *args], tmp_path)
        assert "ledger.storage.reader" in mods, args
        assert "eventsourcing" not in _tops(mods), (args, sorted(
            m for m in mods if m.startswith("eventsourcing")))
        assert not {"ledger.storage.store", "ledger.core.aggregate",
                    "ledger.core.rules"} & mods, args
        # ADR 0025 sixth pass: the fold's transitions without the format's checks,
        # commands or result vocabulary (the write path and the audit import them all)
        assert not {"ledger.formats.hotc.checks", "ledger.formats.hotc.commands",
                    "ledger.formats.officiating.checks", "ledger.formats.hotc.vocabulary",
                    "ledger.core.vocabulary"} & mods, args


_BOOKS = r"""
import json, sys
import ledger.formats.registry  # noqa: F401  (plugs the formats in)
from ledger.core.format_socket import plugin_for

def names(book):
    return {t.__name__: [f"{f.__module__}.{f.__qualname__}" for f in fns]
            for t, fns in book.appliers.items()}

out = {}
for fid in sys.argv[1:]:
    p = plugin_for(fid)
    first = names(p.rules.transitions)     # read path: transitions before anything else
    out[fid] = [first, names(p.rules.book)]
print(json.dumps(out))
"""


def test_the_folds_transitions_are_the_rulebooks_in_the_same_order() -> None:
    """A read command folds with ``transitions`` (built without importing the checks);
    a write and the audit fold with the full rulebook: the same appliers, in the same
    order, for every kind of every format, whichever is built first."""
    from ledger.formats.registry import FORMAT_IDS

    env = {k: v for k, v in os.environ.items() if not k.startswith("TOURNEY_")}
    env.update(PYTHONPATH=str(ROOT))
    for ids in ([f] for f in FORMAT_IDS):
        proc = subprocess.run([sys.executable, "-c", _BOOKS, *ids], env=env, cwd=ROOT,
                              capture_output=True, text=True, timeout=60, check=True)
        for fid, (transitions, book) in json.loads(proc.stdout).items():
            assert transitions == book, fid
            assert transitions, fid
