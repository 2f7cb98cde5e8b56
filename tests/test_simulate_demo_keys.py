"""Issue 17, defect 22: ``tourney simulate`` writes its demo keys beside the ledger
(marked DEMO, 0600) and says how to go on; its ``--help`` names every registered format.

``tourney`` commands.
"""

from __future__ import annotations

import stat
from pathlib import Path

from ledger.formats.registry import FORMAT_IDS
from ledger.wire.keys import DEMO_MARK, load_signer
from tests.helpers.cli_runner import Cli


def test_defect_22_simulate_writes_demo_keys_a_newcomer_can_publish_with(
        tmp_path: Path) -> None:
    cli = Cli(tmp_path, tmp_path / "unused.db")
    cli.env.pop("TOURNEY_LEDGER")
    run = cli("simulate", "--players", "8", "--format", "bushiroad-swiss", "--seed", "k22")
    keys = tmp_path / "sim-8.db.demo-keys" / "sim-8"
    hj, sk = keys / "head-judge.pem", keys / "scorekeeper.pem"
    for f in (hj, sk):
        assert stat.S_IMODE(f.stat().st_mode) == 0o600
        assert f.read_bytes().startswith(DEMO_MARK)
        assert f.with_name(f.name + ".pub").read_bytes().startswith(DEMO_MARK)
    doc = cli("--ledger", "sim-8.db", "info", "--json").doc
    assert load_signer(hj).key_id == doc["head_judge"]["key_id"]
    assert f"--key {hj.relative_to(tmp_path)}" in run.out
    # the line it prints works: the simulated event is published with the demo key
    cli("--ledger", "sim-8.db", "--tournament", "sim-8", "publish", "site", "--key", str(hj))
    assert (tmp_path / "site" / "index.html").is_file()
    # a second simulation into the same directory replaces only demo keys
    (tmp_path / "sim-8.db").rename(tmp_path / "old.db")
    cli("simulate", "--players", "8", "--format", "bushiroad-swiss", "--seed", "other")
    assert load_signer(hj).key_id != doc["head_judge"]["key_id"]


def test_defect_22_simulate_help_lists_every_format(tmp_path: Path) -> None:
    out = Cli(tmp_path, tmp_path / "t.db")("simulate", "--help").out
    flat = " ".join(out.split())
    for fid in FORMAT_IDS:
        assert fid in flat, fid
