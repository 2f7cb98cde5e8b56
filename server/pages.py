"""The live pages of one log size, rendered once and kept as bytes (issue 18).

Owns: ``Page`` (bytes, their gzip, the ETag, the content type), ``PageSet`` (every page of
one ``LiveData``: each is rendered the first time it is asked for at that log size, under a
lock per page so two requests never render it twice, then served from memory until the log
grows; never rendered per request) and ``etag_of`` (the log size and root, and whether the
server was live: a refresh that changed nothing costs a 304).  Templates live in
``server/templates`` (autoescaping on; phone first; they work with JavaScript off).

Each page is kept per language (``server.i18n``): English under its key, another language
under ``<lang>:<key>`` with an ETag ending ``-<lang>``; every environment has Jinja2's i18n
extension, English with no catalogue (the templates' own text).  The templates' compiled
code is kept once per process and shared by every environment (``_compiled``).

May import: ``jinja2``, ``segno`` (the hall screen QR), ``server.view``, ``server.i18n``,
``server.when``, ``server.format_words``, ``server.sentences``,
``projections.*``, the standard library.
"""

from __future__ import annotations

import gzip
import hashlib
import threading
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from server.format_words import Words
from server.i18n import Language, as_text, direction, translations
from server.view import LiveData
from server.when import install as install_when

TEMPLATES = Path(__file__).parent / "templates"
HTML = "text/html; charset=utf-8"
GZIP_MIN = 512       # smaller bodies are sent as they are
#: the templates whose words are in the catalogues (issue 31's first slice); the others
#: show English inside ``<main lang="en">`` under a translated header
TRANSLATED = frozenset({"home.html", "find.html", "player.html", "round.html",
                        "standings.html", "report.html", "bracket.html", "verify.html",
                        "receipt.html", "call.html", "screen.html", "drop.html",
                        "sign.html", "notfound.html", "problem.html", "qr.html",
                        "staff.html", "desk.html", "desk_result.html", "desk_slips.html",
                        "desk_confirm.html", "desk_do.html", "deck.html",
                        "desk_keys.html"})


@dataclass(frozen=True)
class Page:
    body: bytes
    gz: bytes | None
    etag: str
    content_type: str = HTML
    status: int = 200


def etag_of(data: LiveData) -> str:
    """The log size and root; ``-s`` while the server is not live; ``-rN`` when earlier
    rounds were shown again at the same log size (``LiveData.rev``)."""
    return (f"{data.checkable.size}-{data.checkable.short}{'' if data.live else '-s'}"
            + (f"-r{data.rev}" if data.rev else ""))


def _page(body: bytes, tag: str, content_type: str = HTML, status: int = 200) -> Page:
    gz = gzip.compress(body, 6, mtime=0) if len(body) >= GZIP_MIN else None
    return Page(body=body, gz=gz, etag=tag, content_type=content_type, status=status)


def environment(lang: Language = Language.EN) -> Any:
    """The live pages' templates, speaking ``lang`` (one environment per language: a
    template compiled once per language, never a catalogue swapped under a render)."""
    return _new_environment(lang) if lang is Language.EN else _environment(lang)


@lru_cache(maxsize=None)
def _environment(lang: Language) -> Any:
    return _new_environment(lang)


@lru_cache(maxsize=1)
def _compiled() -> Any:
    """The templates' compiled code, kept in memory and shared by every environment this
    process makes (each ``Hub`` makes its English one, so a process running several
    servers — the tests' — compiled every template again for each: 0.3 s a server).
    Jinja2 keys it by the template's name and file and drops it when the source's hash
    differs; every environment of ``_new_environment`` has the same options, and what
    differs by language or event (the catalogue, ``fw``, ``ps``) is looked up at render."""
    import jinja2
    import jinja2.bccache

    class Compiled(jinja2.BytecodeCache):
        def __init__(self) -> None:
            self.code: dict[str, bytes] = {}
            self.lock = threading.Lock()

        def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
            with self.lock:
                code = self.code.get(bucket.key)
            if code is not None:
                bucket.bytecode_from_string(code)

        def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
            code = bucket.bytecode_to_string()
            with self.lock:
                self.code[bucket.key] = code

    return Compiled()


def _new_environment(lang: Language) -> Any:
    import jinja2

    from projections.site import TEMPLATES as SITE_TEMPLATES

    # the live pages' own templates first; the site's partials (the standings table,
    # pairings by name) shared with the printed sheets and the published site
    env = jinja2.Environment(loader=jinja2.FileSystemLoader([str(TEMPLATES),
                                                             str(SITE_TEMPLATES)]),
                             autoescape=jinja2.select_autoescape(["html"]),
                             undefined=jinja2.StrictUndefined, trim_blocks=True,
                             lstrip_blocks=True, extensions=["jinja2.ext.i18n"],
                             bytecode_cache=_compiled())
    env.install_gettext_callables(  # type: ignore[attr-defined]  # added by ext.i18n
        *as_text(translations(lang)), newstyle=True)
    # the format's own words (``server.format_words``): as they are unless ``common``
    # gives the page the event's format in its language
    env.globals["fw"] = _as_is
    # the sentences the server composes for a player (``server.sentences``): likewise
    env.globals["ps"] = _as_is
    # log times in the event's zone and the page language's form: ``{{ t|hm }}``
    install_when(env)
    return env


def _as_is(text: Any) -> Any:
    return text


def static_files() -> dict[str, Page]:
    """``/style.css`` (the site's sheet and the live additions), ``/live.js`` and
    ``/report.js`` (a phone-held key signs reports), with an ETag of their content."""
    from projections.site import TEMPLATES as SITE_TEMPLATES

    out = {}
    css = (SITE_TEMPLATES / "style.css").read_bytes() + (TEMPLATES / "live.css").read_bytes()
    js = (TEMPLATES / "live.js").read_bytes()
    report_js = (TEMPLATES / "report.js").read_bytes()
    for name, body, ctype in (("style.css", css, "text/css; charset=utf-8"),
                              ("live.js", js, "text/javascript; charset=utf-8"),
                              ("report.js", report_js, "text/javascript; charset=utf-8")):
        out[name] = _page(body, hashlib.sha256(body).hexdigest()[:16], ctype)
    return out


def _table_ends(d: LiveData, current: Any) -> str | None:
    """When the player's table ends: the round clock's end plus the table's own time
    extensions (``server.view_reads.table_ends``), or None without a clock for that
    round."""
    from server.view_reads import iso_z, table_ends

    if current is None:
        return None
    return iso_z(table_ends(d.clock, d.rounds[current.round_index]["round"],
                            current.extra_minutes))


class PageSet:
    """The pages of one log size.  ``get(key)`` renders a page once; keys are
    ``home``, ``pairings``, ``standings``, ``bracket``, ``verify``, ``find``, ``screen``,
    ``player/N`` and ``round/N``."""

    def __init__(self, data: LiveData, env: Any, *, url: str = "",
                 reporting: bool = False) -> None:
        self.data = data
        self.env = env
        self.url = url
        self.reporting = reporting      # the server takes players' reports (a station)
        self.etag = etag_of(data)
        self._pages: dict[str, Page | None] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()
        self._words: dict[Language, Words] = {}
        self._sentences: dict[Language, Words] = {}

    def cached(self, key: str, lang: Language = Language.EN) -> Page | None:
        return self._pages.get(_slot(key, lang))

    def known(self, key: str) -> bool:
        """Whether ``key`` names a page of this log size (a player or a posted round)."""
        kind, _, arg = key.partition("/")
        if kind in ("home", "pairings", "standings", "bracket", "verify", "find",
                    "screen") and not arg:
            return True
        if not arg.isascii() or not arg.isdigit() or len(arg) > 9:
            return False
        if kind == "player":
            return int(arg) in self.data.labels
        if kind == "round":
            return self.data.round(int(arg)) is not None
        return False

    def get(self, key: str, lang: Language = Language.EN) -> Page | None:
        """The page ``key`` in ``lang`` (None: no such page), rendered at most once."""
        slot = _slot(key, lang)
        page = self._pages.get(slot)
        if page is not None or slot in self._pages:
            return page
        if not self.known(key):
            return None
        with self._guard:
            lock = self._locks.setdefault(slot, threading.Lock())
        with lock:
            if slot not in self._pages:
                tag = self.etag if lang is Language.EN else f"{self.etag}-{lang.value}"
                self._pages[slot] = _page(self._render(key, lang).encode("utf-8"), tag)
        return self._pages[slot]

    def words(self, lang: Language) -> Any:
        """The format's words in ``lang`` (``server.format_words``), one translator per
        language for this log size's pages; English: as they are."""
        if lang is Language.EN:
            return _as_is
        with self._guard:
            return self._words.setdefault(lang, Words(self.data.format_id, lang))

    def sentences(self, lang: Language) -> Any:
        """The server's player sentences in ``lang`` (``server.sentences``); English: as
        they are."""
        if lang is Language.EN:
            return _as_is
        from server.sentences import Sentences

        with self._guard:
            return self._sentences.setdefault(lang, Sentences(self.data.format_id, lang))

    def env_of(self, lang: Language) -> Any:
        return self.env if lang is Language.EN else environment(lang)

    def common(self, active: str, lang: Language = Language.EN,
               template: str = "") -> dict[str, Any]:
        """What every page's template reads; ``main_lang`` "en" when ``template`` has no
        translated words yet (its ``<main>`` says it is English under a translated
        header)."""
        from server.i18n import NATIVE
        from server.search import find_words

        d = self.data
        tr = translations(lang)
        find_label, find_hint = (tr.gettext(w) for w in find_words(d.names))
        return {"d": d, "cp": d.checkable, "active": active, "etag": self.etag,
                "fw": self.words(lang), "ps": self.sentences(lang),
                "lang": lang.value, "dir": direction(lang),
                "main_lang": "" if lang is Language.EN or template in TRANSLATED else "en",
                "languages": [(x.value, NATIVE[x]) for x in Language],
                "find_label": find_label, "find_hint": find_hint,
                "reporting": self.reporting,
                "has_bracket": bool(d.bracket["rounds"] or d.bracket["seeds"])}

    def _render(self, key: str, lang: Language = Language.EN) -> str:
        kind, _, arg = key.partition("/")
        d = self.data
        if kind == "player":
            n = int(arg)
            current, held_next = d.now_of(n)
            history = [(d.rounds[a.round_index], a) for a in d.appearances(n)]
            left = n in d.dropped or n in d.disqualified
            r = d.rounds[current.round_index] if current is not None else None
            return self._t("player.html", "find", lang, n=n, label=d.labels[n],
                           current=current, history=history,
                           standing=d.standing_of.get(n),
                           penalties=None if d.penalties is None else d.penalties.get(n, []),
                           dropped=n in d.dropped, disqualified=n in d.disqualified,
                           held_next=held_next,
                           can_report=current is not None and not current.recorded
                           and not d.over and r is not None and not r["closed"]
                           and current.outcome != "bye" and current.table != "bye",
                           can_drop=not left and not d.over,
                           deck_open=n in d.deck_pending and not left and not d.over,
                           table_ends=_table_ends(d, current))
        if kind == "round" or kind == "pairings":
            r = d.round(int(arg)) if arg else d.current
            return self._t("round.html", "pairings", lang, r=r, clock=d.clock
                           if r is not None and d.clock and d.clock.round == r["round"]
                           else None)
        if kind == "find":
            return self._t("find.html", "find", lang, q="", matches=None)
        if kind == "screen":
            return self._screen(lang)
        if kind == "home":
            return self._t("home.html", "home", lang, url=self.url)
        return self._t(f"{kind}.html", kind, lang)

    def _screen(self, lang: Language = Language.EN) -> str:
        """The hall screen ``/screen`` (issue 30 item 5): the posted round's pairings by
        name (as the names mode lets them show), its clock, the head judge's
        announcements and the event's QR code."""
        d = self.data
        r = d.current
        qr = None
        if self.url:
            import segno

            qr = segno.make(self.url, error="m").svg_inline(scale=10, border=2)
        return self._t("screen.html", "screen", lang, r=r, url=self.url, qr=qr,
                       notes=d.announcements,
                       clock=d.clock if r is not None and d.clock
                       and d.clock.round == r["round"] else None)

    def _t(self, name: str, active: str, lang: Language = Language.EN, **kw: Any) -> str:
        return str(self.env_of(lang).get_template(name).render(
            **self.common(active, lang, name), **kw))

    def render_find(self, q: str, matches: list[tuple[int, str]] | None,
                    lang: Language = Language.EN) -> bytes:
        """The search results (depend on the query: small, rendered per request), or
        the empty search box (``matches`` None); its words fit how names are shown."""
        return self._t("find.html", "find", lang, q=q, matches=matches).encode("utf-8")

    def render_missing(self, what: str, lang: Language = Language.EN) -> bytes:
        return self._t("notfound.html", "", lang, what=what).encode("utf-8")


def _slot(key: str, lang: Language) -> str:
    return key if lang is Language.EN else f"{lang.value}:{key}"
