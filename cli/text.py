"""Terminal text by display width: CJK and emoji take two columns, combining marks none.

Owns: ``width`` (columns a string takes on a terminal), ``fit`` (truncate to a width
with "…"), ``ljust`` / ``rjust`` (pad to a width) and ``LINE_WIDTH`` (printed tables fit
80 columns).  Used by every command that prints a table (round show, standings, player
list, info, log).

May import: the standard library only.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

LINE_WIDTH = 80


@lru_cache(maxsize=4096)
def _char_width(ch: str) -> int:
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    if ch < " " or "\x7f" <= ch < "\xa0":
        return 0
    if unicodedata.east_asian_width(ch) in ("W", "F"):
        return 2
    return 1


def width(text: str) -> int:
    """Columns ``text`` takes on a terminal (East Asian wide/full-width: 2)."""
    if text.isascii():
        return len(text)
    return sum(_char_width(ch) for ch in text)


def fit(text: str, columns: int) -> str:
    """``text`` cut to at most ``columns`` columns, ending in "…" when cut."""
    if width(text) <= columns:
        return text
    out, used = [], 0
    for ch in text:
        w = _char_width(ch)
        if used + w > columns - 1:
            break
        out.append(ch)
        used += w
    return "".join(out) + "…"


def ljust(text: str, columns: int) -> str:
    """``text`` (cut to fit) padded with spaces on the right to ``columns`` columns."""
    if text.isascii() and len(text) <= columns:   # width is len: nothing to cut
        return text.ljust(columns)
    text = fit(text, columns)
    return text + " " * (columns - width(text))


def rjust(text: str, columns: int) -> str:
    if text.isascii() and len(text) <= columns:
        return text.rjust(columns)
    text = fit(text, columns)
    return " " * (columns - width(text)) + text
