"""Finding a player on the live pages (``/find``; issue 32): what a typed query matches.

Owns: ``fold`` (text compared without case or accents: Unicode NFKD, combining marks
dropped, casefold, and the few Latin letters NFKD does not split — ``đ``, ``ø``, ``ł``
…), ``find`` (the players whose number is the query or whose public label has a word
starting with it, both folded: "nguyen" finds "Nguyễn", "sørensen" and "sorensen" find
each other) and ``find_words`` (the search box's label and the no-match hint for the
organizer's ``NameStyle``: with names shown as "Ann L." a last name cannot be found;
with numbers only, no name can).

Only public labels are searched (ADR 0023): a name the organizer does not show cannot be
found by it.

May import: ``ledger.wire.pages`` (``NameStyle``), the standard library.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping

from ledger.wire.pages import NameStyle

#: Latin letters with a stroke or ligatures, which NFKD leaves whole
_BASE = str.maketrans({"đ": "d", "Đ": "d", "ø": "o", "Ø": "o", "ł": "l", "Ł": "l",
                       "ħ": "h", "Ħ": "h", "ŧ": "t", "Ŧ": "t", "ı": "i", "æ": "ae",
                       "Æ": "ae", "œ": "oe", "Œ": "oe", "þ": "th", "Þ": "th"})


def fold(text: str) -> str:
    """``text`` for comparison: no case, no accents ("Nguyễn" → "nguyen")."""
    parts = unicodedata.normalize("NFKD", text.translate(_BASE))
    bare = "".join(c for c in parts if not unicodedata.combining(c))
    return unicodedata.normalize("NFKC", bare.casefold())


def find(labels: Mapping[int, str], query: str, limit: int = 50) -> list[tuple[int, str]]:
    """Players (number, label) whose number is ``query`` or whose label, or a word of it,
    starts with ``query`` (folded); the number's own player first, then label order."""
    q = fold(query.strip().lstrip("#"))
    if not q.strip():
        return []
    out: list[tuple[int, str]] = []
    if q.isascii() and q.isdigit() and len(q) < 10 and int(q) in labels:
        out.append((int(q), labels[int(q)]))
    for n, label in labels.items():
        if len(out) >= limit:
            break
        if out and out[0][0] == n:
            continue
        text = fold(label)
        if text.startswith(q) or text.partition(" ")[2].startswith(q) \
                or any(w.startswith(q) for w in text.split()):
            out.append((n, label))
    return out


def find_words(style: NameStyle) -> tuple[str, str]:
    """What the search box asks for ("your name or player number", lower case: pages
    put it after "Find your table:") and the hint under "no player matches", for the way
    public pages name players."""
    if style is NameStyle.NUMBER:
        return ("your player number",
                "Names are not shown on these pages: search by your player number "
                "(on your card, or ask at the desk).")
    if style is NameStyle.INITIAL:
        return ("your first name or player number",
                "Try the start of your first name, or your player number (these pages "
                "show first names and initials only).")
    return ("your name or player number",
            "Try the start of your first or last name, or your player number.")
