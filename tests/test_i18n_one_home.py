"""One catalogue entry per console sentence (branch dedupe, after ADR 0067 and 0070).

The console's own sentences (``server.command_words.CONSOLE_SENTENCES``: why a form or a
staff page is refused, the form's own errors) live in ``commands.po`` only; the server's
sentence patterns (``sentences.po``) hold the ledger's and the player pages' sentences.
Two entries for one sentence drift apart (two translations of "Round 3 has no table 9",
the page showing whichever ran first), so these fail, per language, when a message id is
in both catalogues, or when ``sentences.po`` would translate a console sentence (an
exact entry, or a pattern with other field names).  The catalogues are the real files.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from server.command_words import CONSOLE_SENTENCES, commands_path
from server.format_words import patterns_of
from server.i18n import Language
from server.sentences import sentences_path

LANGS = [Language.JA, Language.AR]
_FIELD = re.compile(r"%\((\w+)\)s")
#: a value for each field of a console sentence, as the console fills it
SAMPLE = {"n": "3", "table": "9", "seat": "2", "label": "--table", "value": "'x'",
          "choices": "play, concession", "yes": "--upheld", "no": "--not-upheld",
          "command": "player import", "what": "'nope'"}


def _ids(po: Path, lang: Language) -> set[str]:
    """The translated message ids of ``po`` (the ones a page can show)."""
    with po.open("rb") as f:
        cat = read_po(f, locale=lang.value)
    return {m.id for m in cat if isinstance(m.id, str) and m.id and m.string
            and not m.fuzzy}


def _filled(msgid: str) -> str:
    return _FIELD.sub(lambda m: SAMPLE[m.group(1)], msgid)


@pytest.mark.parametrize("lang", LANGS)
def test_no_message_id_is_in_both_commands_and_sentences(lang: Language) -> None:
    both = _ids(commands_path(lang), lang) & _ids(sentences_path(lang), lang)
    assert sorted(both) == []


@pytest.mark.parametrize("lang", LANGS)
def test_sentences_po_does_not_translate_a_console_sentence(lang: Language) -> None:
    """Not by another spelling either ("Round %(r)s has no table %(t)s …")."""
    ids = _ids(sentences_path(lang), lang)
    patterns = patterns_of(sentences_path(lang), lang)
    own = [s for s in CONSOLE_SENTENCES if s.strip(" ,")]
    assert len(own) >= 25
    found = {s: [p.msgid for p in patterns if p.regex.match(_filled(s))]
             + ([_filled(s)] if _filled(s) in ids else []) for s in own}
    assert {s: hit for s, hit in found.items() if hit} == {}


@pytest.mark.parametrize("lang", LANGS)
def test_every_console_sentence_has_its_one_entry(lang: Language) -> None:
    """Each console sentence is an entry of ``commands.po`` (the home the test above
    leaves it)."""
    ids = _ids(commands_path(lang), lang)
    assert [s for s in CONSOLE_SENTENCES if s not in ids] == []
