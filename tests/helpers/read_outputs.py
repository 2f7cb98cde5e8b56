"""What the read commands print, as digests: the before/after guard of issue 22's read
path (ADR 0025, fifth pass).

Owns: ``read_outputs(workdir)`` — ledgers built from every sample bundle (raw leaves, no
snapshot), a sample cut mid-round (the settled view), and simulated events with snapshots
(fixed clock, demo keys from the seed); for each, the bytes on stdout and the exit code of
``standings`` (text, ``--json``, ``--csv``, ``--html``) and ``round show`` (first and
latest round, text and ``--json``), as SHA-256 digests.  Run as a script (``python
tests/helpers/read_outputs.py OUT.json``) by any build — it imports only ``ledger`` and
``cli`` — to record that build's outputs; ``tests/golden/read_outputs.json`` holds those
of the start of the fifth pass.

May import: the standard library, ``ledger.*``, ``cli.*``.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CLOCK = "2026-03-01T09:00:00.000000Z"
BUNDLES = sorted(p.parent.parent.relative_to(ROOT / "samples").as_posix()
                 for p in (ROOT / "samples").glob("**/bundle/log.jsonl"))
SIMULATED = [("hotc-swiss-de", 300, ["--timeouts", "0.05", "--drops", "0.02"]),
             ("bushiroad-swiss", 150, ["--drops", "0.02"])]


def _cli(args: list[str]) -> tuple[int, bytes]:
    from cli.main import run

    out = io.StringIO()
    code: object = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        try:
            run(args)
        except SystemExit as exc:
            code = exc.code
    return int(code or 0), out.getvalue().encode("utf-8")


def _from_leaves(db: Path, leaves: list[bytes]) -> None:
    from eventsourcing.persistence import StoredEvent

    import ledger.formats.registry  # noqa: F401
    from ledger.storage.location import Location
    from ledger.storage.store import Ledger
    from ledger.wire.events import open_leaf

    with Ledger(Location(str(db)), create=True) as led:
        stored = []
        for leaf in leaves:
            ev = open_leaf(leaf)
            stored.append(StoredEvent(originator_id=ev.log, originator_version=ev.seq,
                                      topic=ev.kind, state=leaf))
        led.app.recorder.insert_events(stored)


def _ledgers(workdir: Path) -> dict[str, Path]:
    out: dict[str, Path] = {}
    for name in BUNDLES:
        leaves = (ROOT / "samples" / name / "bundle" / "log.jsonl").read_bytes().splitlines()
        db = workdir / (name.replace("/", "_") + ".db")
        _from_leaves(db, leaves)
        out[name] = db
        if name == "hotc-2013-nationals":   # mid-round: cut after a few results of a round
            paired = [i for i, x in enumerate(leaves) if b'"kind":"round_paired"' in x]
            cut = paired[len(paired) // 2] + 4
            mid = workdir / "hotc-mid-round.db"
            _from_leaves(mid, leaves[:cut])
            out["hotc-mid-round"] = mid
    for fmt, players, extra in SIMULATED:
        db = workdir / f"sim-{fmt}.db"
        code, _ = _cli(["simulate", "--players", str(players), "--format", fmt, "--seed",
                        "read outputs", *extra, "--ledger", str(db)])
        assert code == 0, (fmt, code)
        out[f"sim-{fmt}"] = db
    return out


def _latest_round(db: Path) -> int:
    code, text = _cli(["--ledger", str(db), "--json", "round", "show"])
    if code != 0:
        return 1
    doc = json.loads(text)
    return int(doc.get("round", 1)) if isinstance(doc, dict) else 1


def read_outputs(workdir: Path) -> dict[str, str]:
    """``"<ledger> <command>"`` → ``"<exit code> <sha256 of stdout> <bytes>"``."""
    saved = dict(os.environ)
    os.environ["TOURNEY_FIXED_CLOCK"] = CLOCK
    for k in [k for k in os.environ if k.startswith("TOURNEY_") and k != "TOURNEY_FIXED_CLOCK"]:
        del os.environ[k]
    try:
        return _outputs(workdir)
    finally:
        os.environ.clear()
        os.environ.update(saved)


def _outputs(workdir: Path) -> dict[str, str]:
    got: dict[str, str] = {}
    for name, db in _ledgers(workdir).items():
        last = _latest_round(db)
        commands = [["standings"], ["standings", "--json"], ["standings", "--csv"],
                    ["standings", "--html"], ["round", "show", "1"],
                    ["round", "show", "1", "--json"], ["round", "show", str(last)],
                    ["round", "show", str(last), "--json"], ["round", "show"]]
        for cmd in commands:
            code, data = _cli(["--ledger", str(db), *cmd])
            got[f"{name} {' '.join(cmd)}"] = \
                f"{code} {hashlib.sha256(data).hexdigest()} {len(data)}"
    return got


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        doc = read_outputs(Path(d))
    Path(sys.argv[1]).write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
