"""The formats' own words in Arabic (issue 31, branch ``arabic``): every format folder
that has a Japanese catalogue has an Arabic one (``ledger/formats/<folder>/locale/ar/
LC_MESSAGES/<folder>.po``) with exactly the same message ids, every entry translated
(not empty, not fuzzy) with the same ``%(name)s`` fields and no markup, and the site's
Arabic header (CLDR's six plural forms).  The patterns are then run through the real
lookup of ``server.format_words`` on the Arabic files.

The lookup test clears the module's caches around it and asks ``Words(fmt,
Language.AR)``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import server.format_words as fw
from ledger.formats.registry import FORMAT_IDS, folder
from server.format_words import FORMATS, Words
from server.i18n import Language

FIELD = re.compile(r"%\((\w+)\)s")
PLURALS = ("nplurals=6; plural=(n == 0 ? 0 : n == 1 ? 1 : n == 2 ? 2 : n % 100 >= 3 && "
           "n % 100 <= 10 ? 3 : n % 100 >= 11 && n % 100 <= 99 ? 4 : 5);")


def _path(fold: str, lang: str) -> Path:
    return FORMATS / fold / "locale" / lang / "LC_MESSAGES" / f"{fold}.po"


def _read(path: Path, lang: str) -> Any:
    from babel.messages.pofile import read_po

    with path.open("rb") as f:
        return read_po(f, locale=lang)


def _folders() -> list[str]:
    return sorted({f for f in (folder(i) for i in FORMAT_IDS) if f})


def test_every_format_folder_with_japanese_has_a_complete_arabic_catalogue() -> None:
    """Same ids as the Japanese catalogue, each translated with the same fields, no
    ``<``, ``>`` or ``&``, and the site's Arabic plural header."""
    folders = [f for f in _folders() if _path(f, "ja").exists()]
    assert folders == ["bushiroad", "hotc", "wot"]
    for fold in folders:
        po = _path(fold, "ar")
        assert po.exists(), f"{fold}: no Arabic catalogue at {po}"
        assert PLURALS in po.read_text(encoding="utf-8").replace('"\n"', ""), fold
        ar, ja = _read(po, "ar"), _read(_path(fold, "ja"), "ja")
        assert {m.id for m in ar if m.id} == {m.id for m in ja if m.id}, fold
        for m in (m for m in ar if m.id):
            assert isinstance(m.string, str) and m.string and not m.fuzzy, (fold, m.id)
            assert set(FIELD.findall(m.string)) == set(FIELD.findall(m.id)), (fold, m.id)
            assert not any(c in m.string for c in "<>&"), (fold, m.id)


def _clear() -> None:
    for f in (fw.format_translations, fw._patterns, fw._word):
        f.cache_clear()


@pytest.fixture
def arabic() -> Iterator[Language]:
    """Arabic, through the real catalogue paths (the format's, then the site's)."""
    _clear()
    yield Language.AR
    _clear()


def test_arabic_patterns_fill_their_fields(arabic: Language) -> None:
    """Numbers and codes are copied, a ``t_`` field is looked up again in Arabic, a
    literal "%" survives, and each format keeps its own round noun."""
    bush, wot = Words("single-elim", arabic), Words("wot-2001", arabic)
    hotc = Words("hotc-swiss-de", arabic)
    assert bush("#3 wins 1-0") == "فوز #3 1-0"
    assert bush("Round 12 is being played: 3 of 40 results in.") == \
        "الجولة 12 جارية: النتائج الواصلة 3 من 40."
    assert bush("standings after 2 of 9 rounds (provisional: MW% over the rounds played)") \
        == "الترتيب بعد الجولة 2 من 9 (مؤقت: MW% على الجولات التي لُعبت)"
    assert bush("round 2: warning (Slow play, minor) — own penalty") == \
        "الجولة 2: إنذار (اللعب البطيء، طفيف) — عقوبة اللاعب نفسه"
    assert wot("round 2: warning (slow play)") != bush("round 2: warning (slow play)")
    assert wot("Q5 #2 wins (pattern #2=11, #9=10; neutral 0; #9 conceded; LB)") == \
        "Q5 فوز #2 (النمط #2=11, #9=10؛ المحايد 0؛ استسلم #9؛ المعركة الأخيرة)"
    assert hotc("quarter-finalist") == "بلغ ربع النهائي"
    assert bush("round 2: warning (A new infraction)") == "الجولة 2: إنذار (A new infraction)"
