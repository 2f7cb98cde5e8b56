"""The visible words of a rendered page, for the scans of untranslated words (issue 31).

Owns: ``PageText``, an HTML parser collecting the text a reader sees outside what the
scans leave out: names (``bdi``), code, scripts, styles, the title, the footer, times,
the header and the language switch, the standings table and status lines (the format's
own sentences, scanned by their own tests).  Subclasses widen ``SKIP_TAGS`` or
``SKIP_CLASSES``.

May import: the standard library.
"""

from __future__ import annotations

from html.parser import HTMLParser


class PageText(HTMLParser):
    """The page's visible words outside what the scan leaves out (module docstring)."""

    SKIP_TAGS = {"bdi", "code", "script", "style", "title", "footer", "time"}
    SKIP_CLASSES = {"standings", "status", "asof", "checkable", "langs"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[bool] = []
        self.words: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("meta", "link", "input", "br", "img"):
            return
        cls = set((dict(attrs).get("class") or "").split())
        skip = tag in self.SKIP_TAGS or bool(cls & self.SKIP_CLASSES) \
            or tag == "header" or (tag == "nav" and "langs" in cls)
        self.stack.append(skip or (bool(self.stack) and self.stack[-1]))

    def handle_endtag(self, tag: str) -> None:
        if tag not in ("meta", "link", "input", "br", "img") and self.stack:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        if not (self.stack and self.stack[-1]):
            self.words.append(data)
