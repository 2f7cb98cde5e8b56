"""Instructions of the audit fold's state transitions, counted by ``valgrind --tool=callgrind``
(issue 22 item 9; ADR 0025): a number the machine's load does not move.

For each ``--build NAME=DIR`` (a source checkout, ``PYTHONPATH=DIR``; this checkout by
default) two processes run under callgrind on the exported 4,096-player bundle of
``bench/bench_audit_cli.py``: ``base`` (imports, every leaf decoded and hashed) and
``fold`` (the same, then ``audit.fold._transition`` — rules, re-derivation, notices, the
state transition — for every event, in order).  The difference is what the fold's
transitions cost; divided by the events, per event.  The fold's loop itself (taking the
workers' blocks, decoding, the Merkle accumulator) is not in it: ``bench_audit_fold.py``
times the whole fold.

    python bench/bench_fold_instructions.py [--build before=/tmp/base] [--build after=.]

Prints: BENCH fold-instructions build=… events=… transitions_instr=… per_event=…
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

BUNDLE = Path("bench/out/auditcli/bundle-4096/log.jsonl")

_SCRIPT = r"""
import gc, inspect, sys
import ledger.formats.registry
from audit import fold as F
from audit.leafcheck import chain_hash
from ledger.core.state import TournamentState
from ledger.proofs.merkle import leaf_hash
from ledger.wire.events import decode_checked
lines = open(sys.argv[2], "rb").read().split(b"\n")[:-1]
evs = [(decode_checked(x), chain_hash(x), leaf_hash(x)) for x in lines]
gc.disable()
if sys.argv[1] == "fold":
    state, findings = TournamentState(), []
    new = "merkle_leaf" in inspect.signature(F._transition).parameters
    for i, (ev, h, ml) in enumerate(evs, 1):
        args = (h, ml) if new else (h,)
        F._transition(state, ev, i, lines[i - 1], *args, None, findings)
    assert not findings, findings[:3]
print(len(evs))
"""


def count(src: Path, mode: str, bundle: Path) -> tuple[int, int]:
    """(instructions, events) of one run under callgrind."""
    proc = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
         "-P", "-c", _SCRIPT, mode, str(bundle.resolve())],
        env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"}, capture_output=True,
        text=True, check=True)
    got = re.search(r"Collected : (\d+)", proc.stderr)
    if got is None:
        raise SystemExit(f"no callgrind total: {proc.stderr[-500:]}")
    return int(got.group(1)), int(proc.stdout.split()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", action="append", default=[])
    ap.add_argument("--bundle", type=Path, default=BUNDLE)
    args = ap.parse_args()
    builds = {n: Path(p).resolve() for n, p in (b.split("=", 1) for b in args.build)} or \
        {"this": Path.cwd()}
    if not args.bundle.is_file():
        raise SystemExit(f"{args.bundle} missing: run bench/bench_audit_cli.py first")
    jobs = [(name, src, mode) for name, src in builds.items() for mode in ("base", "fold")]
    with ThreadPoolExecutor(max_workers=2) as pool:
        done = dict(zip(((n, m) for n, _s, m in jobs),
                        pool.map(lambda j: count(j[1], j[2], args.bundle), jobs),
                        strict=True))
    for name in builds:
        (base, events), (fold, _) = done[(name, "base")], done[(name, "fold")]
        print(f"BENCH fold-instructions build={name} events={events} "
              f"transitions_instr={fold - base} per_event={(fold - base) / events:.0f}")


if __name__ == "__main__":
    main()
