"""A CLI event whose refusals are kept with whether the ledger's bytes stayed unchanged.

Owns: ``Event`` (the CLI, its directory, ledger file and tournament id, the documents
its commands printed, and ``refuse(name, *args, code=…)``) and ``Refusal``.

May import: ``tests.helpers.cli_runner``, the standard library.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.helpers.cli_runner import Cli, Run, raw_bytes, snapshot


@dataclass
class Refusal:
    run: Run
    unchanged: bool


@dataclass
class Event:
    cli: Cli
    dir: Path
    db: Path
    log: str
    out: dict[str, Any] = field(default_factory=dict)
    refused: dict[str, Refusal] = field(default_factory=dict)

    def refuse(self, name: str, *args: str, code: int) -> None:
        before = snapshot(self.db)
        run = self.cli(*args, code=code)
        self.refused[name] = Refusal(run, raw_bytes(self.db) == before)
