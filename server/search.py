"""Finding a player on the live pages (``/find``; issue 32): what a typed query matches.

Owns: ``fold`` (text compared as players type it, issue 31 item 4: Unicode NFKC — full-
and half-width alike, "ｶﾀｶﾅ" is "カタカナ" —, casefold, accents dropped after NFD, and the few
Latin letters NFD does not split — ``đ``, ``ø``, ``ł`` …; hiragana read as katakana,
"かたかな" is "カタカナ"; the kana voicing marks stay, "ガ" is not "カ"), ``find`` (the players
whose number is the query or whose public label has a word starting with it, both folded:
"nguyen" finds "Nguyễn", "sørensen" and "sorensen" find each other) and ``find_words``
(the search box's label and the no-match hint for the organizer's ``NameStyle``: with
names shown as "Ann L." a last name cannot be found; with numbers only, no name can).

Only public labels are searched (ADR 0023): a name the organizer does not show cannot be
found by it.

May import: ``ledger.wire.pages`` (``NameStyle``), the standard library.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from functools import lru_cache

from ledger.wire.pages import NameStyle

#: Latin letters with a stroke or ligatures, which NFKD leaves whole
_BASE = str.maketrans({"đ": "d", "Đ": "d", "ø": "o", "Ø": "o", "ł": "l", "Ł": "l",
                       "ħ": "h", "Ħ": "h", "ŧ": "t", "Ŧ": "t", "ı": "i", "æ": "ae",
                       "Æ": "ae", "œ": "oe", "Œ": "oe", "þ": "th", "Þ": "th"})


#: hiragana (U+3041 ぁ … U+3096 ゖ, ゝ ゞ) to the katakana 0x60 code points above them
_KANA = {c: c + 0x60 for c in (*range(0x3041, 0x3097), 0x309D, 0x309E)}
#: the kana voicing marks (゛ ゜ as NFD leaves them): "ガ" is not "カ", keep them
_VOICING = frozenset("\u3099\u309a")


def fold(text: str) -> str:
    """``text`` for comparison, as players type it: "Nguyễn" → "nguyen", "ｶﾀｶﾅ" and
    "かたかな" → "カタカナ" (idempotent: ``fold(fold(t)) == fold(t)``). Only for matching:
    nothing stored or signed ever depends on it."""
    wide = unicodedata.normalize("NFKC", text).casefold().translate(_BASE)
    parts = unicodedata.normalize("NFD", wide)
    bare = "".join(c for c in parts if c in _VOICING or not unicodedata.combining(c))
    return unicodedata.normalize("NFKC", bare.translate(_KANA)).casefold()


@lru_cache(maxsize=1 << 16)
def _folded(label: str) -> tuple[str, str, tuple[str, ...]]:
    """A public label folded once (labels change seldom, queries often): the whole text,
    the text after its first space (the name after "#17"), its words; the whole text
    without its "#", as the query loses it ("#17 Ann" pasted finds #17); runs of spaces
    read as one, as in the query."""
    text = " ".join(fold(label).split()).lstrip("#")
    return text, text.partition(" ")[2], tuple(text.split())


def find(labels: Mapping[int, str], query: str, limit: int = 50) -> list[tuple[int, str]]:
    """Players (number, label) whose number is ``query`` or whose label, or a word of it,
    starts with ``query`` (folded); the number's own player first, then label order."""
    typed = " ".join(fold(query).split())    # folded first: "＃3" is "#3"
    q = typed.lstrip("#")
    # "#3" is player 3, and a name that itself starts with "#" is found as typed too
    starts = tuple({q, typed} - {""})
    if not starts:
        return []
    out: list[tuple[int, str]] = []
    if q.isascii() and q.isdigit() and len(q) < 10 and int(q) in labels:
        out.append((int(q), labels[int(q)]))
    for n, label in labels.items():
        if len(out) >= limit:
            break
        if out and out[0][0] == n:
            continue
        text, name, words = _folded(label)
        if text.startswith(starts) or name.startswith(starts) or \
                any(w.startswith(starts) for w in words):
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
