"""A trio-team event opened through the CLI (keys, init, officials, teams, close).

May import: ``tests.helpers.cli_runner``, the standard library.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.helpers.cli_runner import Cli, raw_bytes, remember_secret, snapshot

SK, HJ = ("--key", "sk.pem"), ("--key", "hj.pem")


class Event:
    def __init__(self, d: Path) -> None:
        self.d = d
        self.db = d / "t.db"
        self.cli = Cli(d, self.db)
        self.refused: dict[str, tuple[bool, str]] = {}
        self.docs: dict[str, Any] = {}

    def refuse(self, name: str, *args: str, code: int = 3) -> None:
        before = snapshot(self.db)
        run = self.cli(*args, code=code)
        self.refused[name] = (raw_bytes(self.db) == before, run.err.strip())


def open_trio(ev: Event, name: str, *, fighters: int, teams: int, named: bool) -> None:
    """A trio Swiss of 3 rounds through the real CLI: keys, genesis, a scorekeeper,
    ``fighters`` fighters and ``teams`` teams of three in number order (registration
    still open)."""
    cli = ev.cli
    for stem in ("hj", "sk"):
        cli("keys", "new", "--name", f"{stem} person", "--out", f"{stem}.pem")
        remember_secret(ev.d / f"{stem}.pem")
    cli("init", "--name", name, "--format", "bushiroad-swiss", "--param",
        "team_mode=trio", "--param", "swiss_rounds=3", *HJ)
    cli("official", "add", "--role", "scorekeeper", "--name", "sk", "--public-key",
        "sk.pem.pub", *HJ)
    (ev.d / "players.csv").write_text("number,name\n" + "".join(
        f"{i},Fighter {i:02d}\n" for i in range(1, fighters + 1)))
    cli("player", "import", "players.csv", *SK)
    (ev.d / "teams.csv").write_text("first,second,third" + (",name" if named else "")
                                    + "\n" + "".join(
        f"{3 * i + 1},{3 * i + 2},{3 * i + 3}" + (f",Team {chr(65 + i)}" if named else "")
        + "\n" for i in range(teams)))
    cli("team", "import", "teams.csv", *SK)
