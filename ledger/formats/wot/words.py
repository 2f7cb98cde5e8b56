"""How a Wheel of Time Game's result reads in words (``round show``, ``log``, pages).

Owns: ``result_words`` — the outcome code, the winner and the amounts the code needs
(WOTOLD-SCORE-3, WOT01-SCORE-9), numbers only.

May import: ``ledger.formats.wot.state``.
"""

from __future__ import annotations

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
