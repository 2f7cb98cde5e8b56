"""The WoT result options of a Game's table, as a command line.

May import: the standard library.
"""

from __future__ import annotations

from typing import Any


def _args(kw: dict[str, Any]) -> list[str]:
    a = ["--outcome", kw["wot_outcome"]]
    if kw.get("winner") is not None:
        a += ["--winner", str(kw["winner"])]
    for name in ("support", "pattern"):
        if kw.get(name):
            a += [f"--{name}", ",".join(f"{p}={v}" for p, v in kw[name].items())]
    if kw.get("neutral") is not None:
        a += ["--neutral", str(kw["neutral"])]
    if kw.get("conceded_by") is not None:
        a += ["--conceded-by", str(kw["conceded_by"])]
    if kw.get("last_battle") is not None:
        a += ["--last-battle" if kw["last_battle"] else "--before-last-battle"]
    return a
