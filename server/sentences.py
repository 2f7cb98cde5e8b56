"""The sentences the server composes in Python for a player, in the page's language
(issue 31: refusals on /report, /call, /deck and /drop, what a receipt records).

Owns: ``sentences_path`` (``server/locale/<lang>/LC_MESSAGES/sentences.po``, the site's
second gettext domain: whole sentences and *patterns* of the English sentences the
routes, ``usecases`` and ``ledger.core.player_words`` write), ``sentence_translations``
(that catalogue compiled in memory; behind it the format's and the site's catalogues)
``Sentences`` (the translator the templates call as ``ps(...)`` around ``problem``,
``why``, a receipt's heading and lines, a not-found page's ``what``) and
``refusal_words`` (a refusal's sentence and hint as the CLI and the API write them, the
sentence ending in its rule id, ``... [LEDGER-RES-1]``: each translated, the rule id
kept; the staff console's answer and ``/desk/say``).

One mechanism with the format's words: the matcher is ``server.format_words.match`` (a
message id with ``%(name)s`` fields matches a whole English text; ``t_`` fields are
looked up again, the others copied).  Patterns come only from ``sentences.po`` (then
from the format's own catalogue), never from the site's template ids, so a player's name
never matches a site pattern.  The ledger and the CLI keep their English: the sentences
are translated when a page is rendered, nothing is written (ADR 0063).

May import: ``server.format_words``, ``server.i18n``, the standard library.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from server.format_words import (
    Words,
    _Pattern,
    _word,
    compile_po,
    format_translations,
    match,
    patterns_of,
)
from server.i18n import LOCALE, Language

DOMAIN = "sentences"


def sentences_path(lang: Language) -> Path:
    return LOCALE / lang.value / "LC_MESSAGES" / f"{DOMAIN}.po"


@lru_cache(maxsize=None)
def sentence_translations(format_id: str, lang: Language) -> gettext.NullTranslations:
    """``sentences.po`` in ``lang``; behind it the format's catalogue, then the site's."""
    behind = format_translations(format_id, lang)
    po = sentences_path(lang)
    if lang is Language.EN or not po.exists():
        return behind
    return compile_po(po, lang, DOMAIN, behind)


@lru_cache(maxsize=None)
def _sentence_patterns(lang: Language) -> tuple[_Pattern, ...]:
    return patterns_of(sentences_path(lang), lang)


@lru_cache(maxsize=1 << 14)
def sentence(format_id: str, lang: Language, text: str) -> str:
    """``text`` in ``lang``: a sentence of ``sentences.po`` (whole or pattern), else the
    format's words (``format_words``), else English."""
    if lang is Language.EN:
        return text
    return match(text, sentence_translations(format_id, lang),
                 _sentence_patterns(lang),
                 lambda v: sentence(format_id, lang, v),
                 lambda v: _word(format_id, lang, v))


class Sentences(Words):
    """A player's sentences in one language: ``Sentences(fmt, lang)(text)``."""

    def _look(self, text: str) -> str:
        return sentence(self.format_id, self.lang, text)


#: the rule id a ``RuleError``'s message ends with (``ledger.errors.RuleError``)
_RULE = re.compile(r"^(.*\S) (\[[A-Z][A-Z0-9]*(?:[-.][A-Z0-9]+)*\])$", re.S)


def refusal_words(ps: Callable[[str], str], message: str, hint: str = ""
                  ) -> tuple[str, str]:
    """(sentence, hint) of a refusal in ``ps``'s language (``ps``: ``Sentences``; on a
    console, ``CommandWords.sayer(Sentences)``, its own words first; in English, the text
    as it is): a sentence ending in its rule id is translated without it and the id put
    back ("... [LEDGER-RES-1]"), so one entry of ``sentences.po`` serves the staff page's
    wrapper and the console alike."""
    m = _RULE.match(message)
    why = f"{ps(m.group(1))} {m.group(2)}" if m else ps(message)
    return why, ps(hint) if hint else ""
