"""One Japanese form for a numbered table and seat in every catalogue (issue 31, branch
jafinish): ``%(n)s番卓`` and ``%(n)s番席``, as the ledger's refusals and the console write
them, never ``%(n)s卓`` (which is kept for a count of tables: "%(n)s tables" → ``%(n)s卓``).

The catalogues are the real files: every Japanese ``.po`` of ``server/locale/ja`` and of
each format's ``ledger/formats/*/locale/ja``.  A message whose English names a numbered
table or seat (``table %(t)s``, ``Seat %(n)s:``; not the option ``--table %(t)s``) must
write that field with 番卓/番席, and no Japanese text may put 卓 or 席 right after a field
unless the English counts them (``%(n)s of %(total)s tables``).  The rules are checked on a bad
catalogue too, so they can fail.
"""

from __future__ import annotations

import re
from io import BytesIO
from pathlib import Path

from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]
CATALOGUES = sorted([*ROOT.glob("server/locale/ja/LC_MESSAGES/*.po"),
                     *ROOT.glob("ledger/formats/*/locale/ja/LC_MESSAGES/*.po")])
NOUNS = {"table": "卓", "seat": "席"}
#: a numbered table or seat in the English: the word, then a field (not ``--table``)
_NUMBERED = re.compile(r"(?<![-\w])(table|seat) %\((\w+)\)s", re.I)
#: a field right after which the Japanese writes the bare noun
_BARE = re.compile(r"%\((\w+)\)s(卓|席)")


def _problems(po_text: bytes, name: str) -> list[str]:
    cat = read_po(BytesIO(po_text), locale="ja")
    found: list[str] = []
    for m in cat:
        if not (isinstance(m.id, str) and m.id and isinstance(m.string, str) and m.string):
            continue
        for word, field in _NUMBERED.findall(m.id):
            want = f"%({field})s番{NOUNS[word.lower()]}"
            if want not in m.string:
                found.append(f"{name}: {m.id!r} → {m.string!r} has no {want}")
        for field, noun in _BARE.findall(m.string):
            plural = "tables" if noun == "卓" else "seats"
            if not re.search(rf"\b{plural}\b", m.id):
                found.append(f"{name}: {m.id!r} → {m.string!r} writes %({field})s{noun}, "
                             f"not %({field})s番{noun}")
    return found


def test_every_japanese_catalogue_writes_a_numbered_table_one_way() -> None:
    assert len(CATALOGUES) >= 6, CATALOGUES  # tourney, sentences, commands + 3 formats
    problems = [p for po in CATALOGUES
                for p in _problems(po.read_bytes(), str(po.relative_to(ROOT)))]
    assert not problems, "\n".join(problems)


def test_the_rule_catches_the_other_form() -> None:
    bad = (
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "table %(n)s"\nmsgstr "%(n)s卓"\n\n'
        'msgid "Seat %(n)s:"\nmsgstr "%(n)s席："\n\n'
        'msgid "round %(r)s, table %(t)s"\nmsgstr "ラウンド%(r)s・%(t)s番卓"\n\n'
        'msgid "%(n)s of %(total)s tables without a result"\n'
        'msgstr "%(total)s卓中 %(n)s卓が結果未入力"\n\n'
        'msgid "--table %(t)s"\nmsgstr "--table %(t)s"\n'
    ).encode("utf-8")
    problems = _problems(bad, "bad.po")
    assert len([p for p in problems if "'table %(n)s'" in p]) == 2, problems
    assert len([p for p in problems if "'Seat %(n)s:'" in p]) == 2, problems
    # the numbered table written 番卓, the count of tables and the option are fine
    assert len(problems) == 4, problems


def test_the_pages_say_the_same_table_word() -> None:
    """What a page shows: the Japanese catalogue turns "table 7" into 7番卓, as the
    ledger's refusal sentences do."""
    from server.i18n import Language, translations

    tr = translations(Language.JA)
    assert tr.gettext("table %(n)s") % {"n": 7} == "7番卓"
    assert tr.gettext("Table %(n)s") % {"n": 7} == "7番卓"
    assert tr.gettext("seat %(n)s") % {"n": 2} == "2番席"
