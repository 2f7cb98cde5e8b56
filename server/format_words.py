"""The format's own player-facing words in the reader's language (issue 31 item 1).

Owns: ``catalogue_path`` (where a format's catalogue lives: ``ledger/formats/<folder>/
locale/<lang>/LC_MESSAGES/<folder>.po``, one gettext domain per format folder, next to
the rules that write the words), ``format_translations`` (that catalogue compiled in
memory, falling back to the site's ``tourney`` catalogue, then to the English text) and
``Words`` (the translator the templates' ``fw`` filter calls: result outcomes, standings
columns and statuses, round names, status lines, penalty names), and the matcher shared
with ``server.sentences`` (the server's own player sentences): ``compile_po`` (a ``.po``
compiled in memory with a fallback), ``patterns_of`` (a catalogue's ids with fields,
most specific first) and ``match`` (a text by exact entry, else by pattern).

The formats write their words in English, as text composed in Python ("#3 wins 1-0",
"Round 3 is being played: 0 of 4 results in.").  A catalogue entry is either a whole
text or a *pattern*: a message id with ``%(name)s`` fields ("#%(n)s wins %(score)s")
matches a text of that shape, and its translation gets the same values.  A field whose
name starts ``t_`` is itself a phrase and is looked up again ("%(t_phase)s"); every other
field (numbers, names) is copied as it is.  A text no entry matches stays English.

Read side only: the ledger never imports this module nor reads a catalogue (a ``.po``
in a format's folder is data next to its code), and nothing here is written anywhere.

May import: ``babel``, ``server.i18n``, ``ledger.formats.registry`` (``folder``), the
standard library.
"""

from __future__ import annotations

import gettext
import io
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from server.i18n import Language, translations

FORMATS = Path(__file__).resolve().parent.parent / "ledger" / "formats"
_FIELD = re.compile(r"%\((\w+)\)s")
_LETTER = re.compile(r"[^\W\d_]")


def catalogue_path(folder: str, lang: Language) -> Path:
    return FORMATS / folder / "locale" / lang.value / "LC_MESSAGES" / f"{folder}.po"


def _domain(format_id: str) -> str | None:
    from ledger.formats.registry import folder

    return folder(format_id)


@lru_cache(maxsize=None)
def format_translations(format_id: str, lang: Language) -> gettext.NullTranslations:
    """The format's catalogue in ``lang``, the site's catalogue behind it (its fallback):
    a word the format's domain lacks is looked up in the site's, then shows English."""
    site = translations(lang)
    dom = _domain(format_id)
    po = catalogue_path(dom, lang) if dom else None
    if lang is Language.EN or po is None or not po.exists():
        return site
    return compile_po(po, lang, dom or "", site)


def compile_po(po: Path, lang: Language, domain: str,
               fallback: gettext.NullTranslations) -> gettext.NullTranslations:
    """``po`` compiled in memory with Babel (no ``.mo`` anywhere), ``fallback`` behind it."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as f:
        catalog = read_po(f, locale=lang.value, domain=domain)
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    buf.seek(0)
    tr = gettext.GNUTranslations(buf)
    tr.add_fallback(fallback)
    return tr


@dataclass(frozen=True)
class _Pattern:
    regex: re.Pattern[str]
    msgid: str
    fields: tuple[str, ...]


def _compile(msgid: str) -> _Pattern:
    parts = _FIELD.split(msgid)
    out, fields = [], []
    for i, part in enumerate(parts):
        if i % 2:
            fields.append(part)
            out.append(f"(?P<{part}>.+?)")
        else:
            out.append(re.escape(part))
    return _Pattern(re.compile("".join(out) + r"\Z", re.S), msgid, tuple(fields))


@lru_cache(maxsize=None)
def _patterns(format_id: str, lang: Language) -> tuple[_Pattern, ...]:
    """The format's catalogue's message ids with fields (``patterns_of``)."""
    dom = _domain(format_id)
    # the format's own patterns only: the site's ids are whole texts of its templates
    return patterns_of(catalogue_path(dom, lang), lang) if dom else ()


def patterns_of(po: Path, lang: Language) -> tuple[_Pattern, ...]:
    """The message ids with fields of ``po`` (translated, not fuzzy), the longest literal
    text first (the most specific pattern wins); none when there is no such file."""
    if not po.exists():
        return ()
    from babel.messages.pofile import read_po

    with po.open("rb") as f:
        cat = read_po(f, locale=lang.value)
    ids = {m.id for m in cat if isinstance(m.id, str) and m.string
           and not m.fuzzy and _FIELD.search(m.id)}
    return tuple(sorted((_compile(i) for i in ids),
                        key=lambda p: (-len(_FIELD.sub("", p.msgid)), p.msgid)))


class Words:
    """A format's words in one language: ``Words(fmt, lang)(text)``; what it answered is
    kept (a 4,096-player standings page asks for the same few statuses thousands of
    times)."""

    def __init__(self, format_id: str, lang: Language) -> None:
        self.format_id = format_id
        self.lang = lang
        self._memo: dict[object, str] = {}

    def __call__(self, text: object) -> str:
        try:
            return self._memo[text]
        except (KeyError, TypeError):
            pass
        s = "" if text is None else str(text)
        out = s if self.lang is Language.EN or not _LETTER.search(s) \
            else self._look(s)
        if len(self._memo) < 1 << 16:
            try:
                self._memo[text] = out
            except TypeError:       # not hashable: asked again next time
                pass
        return out

    def _look(self, text: str) -> str:
        return _word(self.format_id, self.lang, text)


@lru_cache(maxsize=1 << 16)
def _word(format_id: str, lang: Language, text: str) -> str:
    return match(text, format_translations(format_id, lang), _patterns(format_id, lang),
                 lambda v: _word(format_id, lang, v))


def match(text: str, tr: gettext.NullTranslations, patterns: tuple[_Pattern, ...],
          again: Callable[[str], str], otherwise: Callable[[str], str] | None = None) -> str:
    """``text`` in ``tr``'s language: its exact entry, else the first of ``patterns`` that
    matches the whole text, its ``t_`` fields looked up with ``again`` (the others
    copied); else ``otherwise(text)`` (English: ``text`` itself)."""
    exact = tr.gettext(text)
    if exact != text:
        return exact
    for p in patterns:
        m = p.regex.match(text)
        if m is None:
            continue
        return _fill(tr.gettext(p.msgid),
                     {k: (again(v) if k.startswith("t_") else v)
                      for k, v in m.groupdict().items()})
    return text if otherwise is None else otherwise(text)


def _fill(text: str, values: dict[str, str]) -> str:
    """``text``'s fields put back by name, not with "%": a text may hold a literal "%"
    ("MW%")."""
    return _FIELD.sub(lambda f: values.get(f.group(1), f.group(0)), text)
