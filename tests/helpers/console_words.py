"""What English a translated console page may keep (issue 31, ADR 0067): the scan
shared by tests/test_i18n_command_words.py and tests/test_i18n_formats_desk.py.

Owns: ``ALLOWED`` (names read as they are in every language), ``TYPED`` (what is typed,
not read) and ``_english_left`` (the English words a text still has).  Imports only the
standard library."""

from __future__ import annotations

import re

#: names and abbreviations the officials read as they are in every language
ALLOWED = {"HotC", "WoT", "LoG", "LoM", "drand", "quicknet", "JavaScript"}
#: what is typed, not read: a field, a quoted command or value, an option or a column list, a
#: code with digits, an identifier with ``_``, a path, an upper-case rule id or metavar
TYPED = re.compile(r"%\(\w+\)s|'[^']*'|\"[^\"]*\"|[!-~]*\d[!-~]*|[!-~]*[-_/.=<>\[\]|:#@$~+][!-~]*"
                   r"|(?<![A-Za-z])[A-Z][A-Z0-9]+(?![a-z])")


def _english_left(text: str) -> list[str]:
    return sorted({w for w in re.findall(r"[A-Za-z]{2,}", TYPED.sub(" ", text))
                   if w not in ALLOWED})
