"""The live pages' languages (issue 31 items 1 and 3): catalogues, and which language a
request gets.

Owns: ``Language`` (the closed set of languages with a catalogue; English is the
source text and needs none), ``translations`` (a language's ``server/locale/<lang>/
LC_MESSAGES/tourney.po`` compiled in memory with Babel the first time it is asked for,
then kept: no ``.mo`` is committed, no manual step), ``choose`` (``?lang=`` > the
``lang`` cookie > ``Accept-Language`` > the event's default > English) and
``direction`` (``ltr``/``rtl`` for the page's ``dir``, from the locale's CLDR data) and
``KeepChoice`` (the ASGI middleware that keeps a ``?lang=`` naming a language in the
``lang`` cookie on every page the server answers, public or a card holder's, so the
answer to a form posted from that page comes back in the same language).

A string the catalogue lacks, or leaves empty or fuzzy, shows its English text (gettext's
own fallback), never an id.  Nothing here is written anywhere: the ledger's bytes never
depend on a language.

May import: ``babel``, ``markupsafe``, the standard library.
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Callable, Mapping
from enum import Enum
from functools import lru_cache
from pathlib import Path
from typing import Any

LOCALE = Path(__file__).parent / "locale"
DOMAIN = "tourney"
COOKIE = "lang"


class Language(str, Enum):
    EN = "en"
    JA = "ja"
    AR = "ar"


#: what each language calls itself, for the switch on every page
NATIVE: Mapping[Language, str] = {Language.EN: "English", Language.JA: "日本語",
                                  Language.AR: "العربية"}
DEFAULT = Language.EN


@lru_cache(maxsize=None)
def direction(lang: Language) -> str:
    """The page's ``dir``: ``rtl`` where the locale's CLDR character order is right to
    left (Babel's ``Locale.character_order``: Arabic, Hebrew, Persian...), else ``ltr``."""
    from babel import Locale

    order = Locale.parse(lang.value).character_order
    return "rtl" if order == "right-to-left" else "ltr"


def parse(code: str | None) -> Language | None:
    """The language a code names ("ja", "ja-JP", "JA_jp"), or None."""
    if not code:
        return None
    base = code.strip().replace("_", "-").split("-")[0].lower()
    return next((lang for lang in Language if lang.value == base), None)


def from_accept(header: str) -> Language | None:
    """The first language of an ``Accept-Language`` header with a catalogue, by q."""
    ranked: list[tuple[float, int, Language]] = []
    for i, part in enumerate(header.split(",")[:20]):
        code, _, params = part.partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        lang = parse(code)
        if lang is not None and q > 0:
            ranked.append((-q, i, lang))
    return min(ranked)[2] if ranked else None


def choose(query: str | None, cookie: str | None, accept: str | None,
           default: Language = DEFAULT) -> Language:
    """``?lang=`` > the cookie the page's switch sets > ``Accept-Language`` > default."""
    return parse(query) or parse(cookie) or from_accept(accept or "") or default


def of_request(request: Any, default: str | None = None) -> Language:
    """``choose`` for a Starlette request (its query, cookies and headers); ``default``:
    the event's own language (``tourney pages set --language``; English when this build
    has no catalogue for it)."""
    return choose(request.query_params.get("lang"), request.cookies.get(COOKIE),
                  request.headers.get("accept-language"), parse(default) or DEFAULT)


#: how long the switch's choice is kept (a browser caps a cookie's life at 400 days)
KEEP_S = 400 * 86400


def choice_cookie(query: bytes) -> bytes | None:
    """The ``Set-Cookie`` value keeping a ``?lang=`` of the raw query string ``query``
    that names a language with a catalogue (``lang=ja; ...``), or None."""
    from urllib.parse import parse_qs

    if b"lang=" not in query:
        return None
    values = parse_qs(query.decode("latin-1"), max_num_fields=64).get("lang") or [""]
    chosen = parse(values[0][:16])
    if chosen is None:
        return None
    return (f"{COOKIE}={chosen.value}; HttpOnly; Max-Age={KEEP_S}; Path=/; "
            "SameSite=lax").encode("ascii")


class KeepChoice:
    """ASGI middleware: a response to a request whose ``?lang=`` names a language sets
    the ``lang`` cookie (``choose`` reads it next), whatever the page: the public pages,
    a card holder's /report, /call, /deck, /drop, the staff pages.  Everything else
    passes as it is."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        cookie = choice_cookie(scope.get("query_string", b"")) \
            if scope.get("type") == "http" else None
        if cookie is None:
            await self.app(scope, receive, send)
            return

        async def keep(message: Any) -> None:
            if message.get("type") == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []),
                                                   (b"set-cookie", cookie)]}
            await send(message)

        await self.app(scope, receive, keep)


def as_text(tr: gettext.NullTranslations) -> tuple[Callable[[str], str],
                                                   Callable[[str, str, int], str]]:
    """``tr``'s gettext and ngettext with their result HTML-escaped, for Jinja2's
    new-style gettext (which marks what they return as safe): a catalogue is text, never
    markup, and the English pages keep their bytes ("card&#39;s")."""
    from markupsafe import escape

    return (lambda s: str(escape(tr.gettext(s))),
            lambda s, p, n: str(escape(tr.ngettext(s, p, n))))


@lru_cache(maxsize=None)
def translations(lang: Language) -> gettext.NullTranslations:
    """``lang``'s catalogue compiled in memory from its .po (English: none needed)."""
    po = LOCALE / lang.value / "LC_MESSAGES" / f"{DOMAIN}.po"
    if lang is Language.EN or not po.exists():
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as f:
        catalog = read_po(f, locale=lang.value, domain=DOMAIN)
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    buf.seek(0)
    return gettext.GNUTranslations(buf)
