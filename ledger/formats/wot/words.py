"""How a Wheel of Time Game's result reads in words (``round show``, ``log``, pages).

Owns: ``result_words`` — the outcome code, the winner and the amounts the code needs
(WOTOLD-SCORE-3, WOT01-SCORE-9), numbers only.

May import: ``ledger.formats.wot.state``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ledger.formats.wot.state import ResultState


def result_words(res: ResultState | None) -> str:
    if res is None:
        return "-"
    amounts = res.support or res.pattern
    what = "support" if res.support else "pattern"
    parts = [res.outcome, f"#{res.winner} wins" if res.winner is not None else "no winner"]
    if amounts:
        parts.append(f"{what} " + ", ".join(f"#{p}={v}" for p, v in sorted(amounts.items())))
    if res.neutral is not None:
        parts.append(f"neutral {res.neutral}")
    if res.conceded_by is not None:
        parts.append(f"#{res.conceded_by} conceded")
    parts.append("LB" if res.last_battle else "before LB")
    return " ".join(parts[:2]) + (f" ({'; '.join(parts[2:])})" if parts[2:] else "")


def body_words(body: Mapping[str, Any]) -> str:
    """The same phrase for a recorded result body (``log``)."""
    def amounts(key: str) -> dict[int, int]:
        return {int(k): int(v) for k, v in (body.get(key) or {}).items()}
    res = ResultState(seq=0, outcome=str(body.get("outcome")), winner=body.get("winner"),
                      support=amounts("support"), pattern=amounts("pattern"),
                      neutral=body.get("neutral"), conceded_by=body.get("conceded_by"),
                      last_battle=bool(body.get("last_battle")))
    return result_words(res)
