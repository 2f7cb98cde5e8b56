"""The language of a printed sheet (issue 31 item 3: "printed sheets take --language"):
the option every command that renders a sheet for the desk printer or the players
shares (``tourney round show --html``, ``tourney standings --html``, ``tourney player
cards``), and what it hands the projections.

Owns: ``LanguageOpt`` (the ``--language CODE`` option, English by default) and
``sheet_language`` (a code → ``SheetLanguage``: the catalogue's translations, the page's
``lang`` and ``dir``; a code without a catalogue refused, exit 2, before anything is
written; ``words``: the format's own words in that language).  The sheets' words are the
live pages' catalogues (``server/locale``) and the format's (``server.format_words``);
the ledger never changes with a sheet's language.

May import: ``typer``, ``ledger.errors``, ``server.i18n``, ``server.format_words``, the
standard library.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

import typer

from ledger.errors import UsageError

LanguageOpt = Annotated[str, typer.Option(
    "--language", metavar="CODE", help="The sheet's language: en (default), or a "
    "language the pages have a catalogue for (ja, ar). The log never changes.")]


@dataclass(frozen=True)
class SheetLanguage:
    code: str                                # the page's lang
    dir: str                                 # ltr or rtl (CLDR, ``server.i18n.direction``)
    translations: gettext.NullTranslations   # the catalogue (English: none)

    def words(self, state: Any) -> Callable[[Any], Any] | None:
        """The templates' ``fw`` for ``state``'s format in this language (results, round
        names, standings' heading: ``server.format_words.Words``); None in English."""
        from server.format_words import Words
        from server.i18n import Language

        if self.code == Language.EN.value or state.format is None:
            return None
        return Words(state.format.id, Language(self.code))


def sheet_language(code: str) -> SheetLanguage:
    """``code``'s catalogue, or a usage refusal naming the languages there are."""
    from server.i18n import Language, direction, translations

    known = [lang.value for lang in Language]
    if code not in known:
        raise UsageError(f"--language {code!r}: there is no catalogue in that language",
                         hint=f"use one of {', '.join(known)} (lowercase); "
                              "docs/TRANSLATING.md says how to add one")
    lang = Language(code)
    return SheetLanguage(code=code, dir=direction(lang), translations=translations(lang))
