"""Playing rounds of any format through the real CLI, for the standings and page tests.

Owns: ``FORMATS`` (every format id with the init options a small test event uses),
``start`` (an event with registration closed), ``pair`` (the next round or Game: ``round
pair``, or ``bracket`` in single elimination) and ``record`` (one table's result in the
format's own terms: a winner, or a Wheel of Time outcome code from the simulator).

May import: ``tests.helpers.cli_event``, ``tests.helpers.wot_cli`` (``_args``), ``ledger.*``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ledger.core.draw import seed_from_material
from ledger.formats.wot.model import Revision
from ledger.formats.wot.sim import simulated_result
from tests.helpers.cli_event import open_event
from tests.helpers.cli_runner import Cli
from tests.helpers.wot_cli import _args

HJ, SK = ("--key", "hj.pem"), ("--key", "sk.pem")
FORMATS: dict[str, tuple[str, ...]] = {
    "hotc-swiss-de": ("--cut", "4"),
    "bushiroad-swiss": ("--param", "swiss_rounds=3"),
    "bushiroad-de": (),
    "single-elim": (),
    "round-robin": (),
    "wot-classic": (),
    "wot-2001": (),
}
WOT = {"wot-classic": Revision.WOT_OLD, "wot-2001": Revision.WOT_2001}


def start(d: Path, fmt: str, names: list[str], *extra: str) -> tuple[Cli, str]:
    return open_event(d, fmt, names, *FORMATS[fmt], *extra, name=f"{fmt} standings")


def pair(cli: Cli, fmt: str, n: int) -> dict[str, Any]:
    """Pair round (Game) ``n``; its ``round show --json`` document."""
    seed = ("--seed-material", f"{fmt} standings R{n} 3 1 4", "--seed-source", "dice")
    if fmt == "single-elim":
        cli("bracket", *(seed if n == 1 else ()), *HJ)
    else:
        cli("round", "pair", *seed, *HJ)
    doc: dict[str, Any] = cli("round", "show", str(n), "--json").doc
    return doc


def sides(table: dict[str, Any]) -> tuple[int, int]:
    if "players" in table:
        a, b = table["players"]
        return int(a), int(b)
    return int(table["hero"]), int(table["villain"])


def record(cli: Cli, fmt: str, n: int, table: dict[str, Any], *, first_wins: bool = True,
           key: tuple[str, str] = SK) -> None:
    a, b = sides(table)
    if fmt in WOT:
        kw = simulated_result(WOT[fmt], seed_from_material(f"{fmt} standings"),
                              f"G{n}/T{table['table']}", a, b)
        args = _args(kw)
    else:
        args = ["--winner", str(a if first_wins else b)]
    cli("result", "record", "--round", str(n), "--table", str(table["table"]), *args, *key)


def play(cli: Cli, fmt: str, n: int, doc: dict[str, Any]) -> None:
    for t in doc["tables"]:
        if t.get("result") is None:
            record(cli, fmt, n, t)
