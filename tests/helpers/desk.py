"""A command the head judge's desk must refuse: its exit code, its lines, nothing written.

May import: ``tests.helpers.cli_runner``.
"""

from __future__ import annotations

from pathlib import Path

from tests.helpers.cli_runner import Cli, raw_bytes, snapshot


def refuse(cli: Cli, db: Path, *args: str, code: int, lines: int = 1,
           summary: bool = False) -> str:
    """Run a command that must be refused: its exit code, nothing written; stderr."""
    before = snapshot(db)
    run = cli.plain(*args, env={"TOURNEY_LEDGER": str(db)})
    assert run.code == code, (args, run.code, run.err)
    assert (run.out.count("\n") == 1 if summary else run.out == ""), run.out
    assert len(run.err.strip().splitlines()) == lines, run.err
    assert raw_bytes(db) == before, f"{args} changed the ledger"
    return run.err
