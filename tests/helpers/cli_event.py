"""The opening of an event through the CLI, shared by the CLI test modules.

Owns: ``open_event`` — key files for the head judge and each named official (their
private keys remembered, so no test output may print them), ``tourney init`` with the
format and its options, the officials added by the head judge, a ``players.csv`` imported,
registration closed — each step a ``tourney`` command (tests/helpers/cli_runner.py).

The same opening is asked for by many tests: it is built once per test process (per
pytest-xdist worker) in a private directory and then copied — ledger file, key files,
checkpoint notes — into each test's own directory, which is then exactly what building it
there would give (the clock is fixed; the keys are the same key files).  A test that
writes changes only its copy.

May import: ``tests.helpers.cli_runner`` (``Cli``), the standard library.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path

from tests.helpers.cli_runner import Cli, remember_secret

#: the CLI role names of the officials a test may ask for, by key-file stem
ROLES = {"sk": "scorekeeper", "judge": "judge", "tk": "time-keeper"}
#: openings built in this process: their arguments -> (directory, tournament id)
_OPENED: dict[tuple[object, ...], tuple[Path, str]] = {}
_ROOT: list[Path] = []


def _scratch() -> Path:
    if not _ROOT:
        _ROOT.append(Path(tempfile.mkdtemp(prefix="tourney-openings-")))
        atexit.register(shutil.rmtree, _ROOT[0], ignore_errors=True)
    return Path(tempfile.mkdtemp(dir=_ROOT[0]))


def _build(d: Path, fmt: str, players: Sequence[str], init_args: Sequence[str],
           officials: Sequence[str], importer: str, name: str) -> str:
    cli = Cli(d, d / "t.db")
    for stem in ("hj", *officials):
        cli("keys", "new", "--name", f"{stem} person", "--out", f"{stem}.pem")
        remember_secret(d / f"{stem}.pem")
    log: str = cli("init", "--name", name, "--format", fmt, *init_args, "--key", "hj.pem",
                   "--json").doc["tournament"]
    for stem in officials:
        cli("official", "add", "--role", ROLES[stem], "--name", stem, "--public-key",
            f"{stem}.pem.pub", "--key", "hj.pem")
    (d / "players.csv").write_text("number,name\n" + "".join(
        f"{i},{n}\n" for i, n in enumerate(players, start=1)))
    cli("player", "import", "players.csv", "--key", f"{importer}.pem")
    cli("registration", "close", "--key", "hj.pem")
    return log


def open_event(d: Path, fmt: str, players: Sequence[str], *init_args: str,
               officials: Sequence[str] = ("sk",), importer: str = "sk",
               name: str = "Test Night") -> tuple[Cli, str]:
    """A ledger ``d/t.db`` with registration closed; returns the CLI and tournament id.

    ``officials`` are key-file stems of ``ROLES`` (``hj`` is always the head judge);
    ``importer`` is the stem whose key imports the players."""
    key = (fmt, tuple(players), tuple(init_args), tuple(officials), importer, name)
    if key not in _OPENED:
        built = _scratch()
        _OPENED[key] = built, _build(built, fmt, players, init_args, officials, importer,
                                     name)
    built, log = _OPENED[key]
    shutil.copytree(built, d, dirs_exist_ok=True)
    return Cli(d, d / "t.db"), log
