"""The visible words of a rendered page, for the scans of untranslated words (issue 31).

Owns: ``PageText``, an HTML parser collecting the text a reader sees outside what the
scans leave out: names (``bdi``), code, scripts (but not the words a script shows:
the values of the page's JSON islands ``<script type="application/json" id="words-…">``,
placeholders taken out; ADR 0065), styles, the title, the footer, times, the
header and the language switch, the standings table and status lines (the format's own
sentences, scanned by their own tests).  Subclasses widen ``SKIP_TAGS`` or
``SKIP_CLASSES``.

May import: the standard library.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser


class PageText(HTMLParser):
    """The page's visible words outside what the scan leaves out (module docstring)."""

    SKIP_TAGS = {"bdi", "code", "script", "style", "title", "footer", "time"}
    SKIP_CLASSES = {"standings", "status", "asof", "checkable", "langs"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[bool] = []
        self.words: list[str] = []
        self.island: list[str] | None = None

    def _script_words(self, data: str) -> None:
        """The texts a script shows, from its words island ("{n}" fields left out)."""
        for text in json.loads(data).values():
            self.words.append(re.sub(r"\{\w+\}", " ", text))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("meta", "link", "input", "br", "img"):
            return
        a = dict(attrs)
        cls = set((a.get("class") or "").split())
        if tag == "script" and a.get("type") == "application/json" \
                and (a.get("id") or "").startswith("words-"):
            self.island = []
        skip = tag in self.SKIP_TAGS or bool(cls & self.SKIP_CLASSES) \
            or tag == "header" or (tag == "nav" and "langs" in cls)
        self.stack.append(skip or (bool(self.stack) and self.stack[-1]))

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self.island is not None:
            self._script_words("".join(self.island))
            self.island = None
        if tag not in ("meta", "link", "input", "br", "img") and self.stack:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        if self.island is not None:
            self.island.append(data)
        elif not (self.stack and self.stack[-1]):
            self.words.append(data)
