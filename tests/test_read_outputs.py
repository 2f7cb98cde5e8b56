"""The read commands print the same bytes as at the start of issue 22's fifth pass
(ADR 0025): ``standings`` (text, ``--json``, ``--csv``, ``--html``) and ``round show``
(text, ``--json``) on every sample bundle, a sample cut mid-round and simulated events
read through their snapshots, compared with ``tests/golden/read_outputs.json`` (recorded
by the start commit's build with ``tests/helpers/read_outputs.py``).  Re-recorded once, for
``standings --html`` only: ADR 0057 made the printed sheets' inline CSS use logical
properties (``text-align: start``, ``border-inline-start``, ``margin-inline-end``) so they
read right to left; nothing else in those sheets changed (compared by diff at the time)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_read_outputs_are_byte_identical(tmp_path: Path) -> None:
    out = tmp_path / "got.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith("TOURNEY_")}
    env["PYTHONPATH"] = str(ROOT)
    subprocess.run([sys.executable, str(ROOT / "tests/helpers/read_outputs.py"), str(out)],
                   env=env, check=True, timeout=300)
    want = json.loads((ROOT / "tests/golden/read_outputs.json").read_text())
    got = json.loads(out.read_text())
    assert got.keys() == want.keys()
    assert [k for k in want if got[k] != want[k]] == []
