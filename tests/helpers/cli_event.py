"""The opening of a CLI subprocess event, shared by the CLI test modules.

Owns: ``open_event`` — key files for the head judge and each named official (their
private keys remembered, so no test output may print them), ``tourney init`` with the
format and its options, the officials added by the head judge, a ``players.csv`` imported,
registration closed — each step a real ``tourney`` process.

May import: ``tests.helpers.cli`` (``Cli``), the standard library.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from tests.helpers.cli import Cli, remember_secret

#: the CLI role names of the officials a test may ask for, by key-file stem
ROLES = {"sk": "scorekeeper", "judge": "judge", "tk": "time-keeper"}


def open_event(d: Path, fmt: str, players: Sequence[str], *init_args: str,
               officials: Sequence[str] = ("sk",), importer: str = "sk",
               name: str = "Test Night") -> tuple[Cli, str]:
    """A ledger ``d/t.db`` with registration closed; returns the CLI and tournament id.

    ``officials`` are key-file stems of ``ROLES`` (``hj`` is always the head judge);
    ``importer`` is the stem whose key imports the players."""
    cli = Cli(d, d / "t.db")
    for stem in ("hj", *officials):
        cli("keys", "new", "--name", f"{stem} person", "--out", f"{stem}.pem")
        remember_secret(d / f"{stem}.pem")
    log = cli("init", "--name", name, "--format", fmt, *init_args, "--key", "hj.pem",
              "--json").doc["tournament"]
    for stem in officials:
        cli("official", "add", "--role", ROLES[stem], "--name", stem, "--public-key",
            f"{stem}.pem.pub", "--key", "hj.pem")
    (d / "players.csv").write_text("number,name\n" + "".join(
        f"{i},{n}\n" for i, n in enumerate(players, start=1)))
    cli("player", "import", "players.csv", "--key", f"{importer}.pem")
    cli("registration", "close", "--key", "hj.pem")
    return cli, log
