"""A refusal of the console in the official's language (issue 31; branch jswords2).

Owns: ``refusal_text`` (a refusal's sentence and hint, as the CLI and the HTTP API write
them in English, in a page language: each through the console's one pipeline,
``CommandWords.say`` (its own words of ``commands.po``, else the server's sentence
patterns, ``server.sentences``), joined as the console's own answer joins them,
``"%(why)s (%(hint)s)"`` of ``tourney.po``) and ``routes`` — ``GET
/desk/say?message=…&hint=…``, the same for ``desk.js``: a browser-held key's command is
refused by ``/api/v1/…/prepare`` or ``…/submit``, whose JSON stays English (the API is a
contract), and the console shows that refusal in its own language by asking here.
Nothing is written or signed; only a signed-in official's console asks (a staff card's
cookie), and the answer is never cached.

May import: ``starlette``, ``server.desk_common``, ``server.hub``, ``server.i18n``,
``server.command_words``, ``server.sentences``, the standard library.
"""

from __future__ import annotations

from collections.abc import Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from server.command_words import command_words
from server.desk_common import official
from server.hub import Hub
from server.i18n import Language, of_request, translations
from server.sentences import refusal_words

#: the longest sentence or hint translated here (the CLI's are far shorter)
LONGEST = 2000


def refusal_text(lang: Language, message: str, hint: str,
                 ps: Callable[[str], str]) -> str:
    """``message`` and ``hint`` in ``lang`` through the console's one pipeline
    (``CommandWords.say``: the console's own words, else ``ps``, the event's sentences in
    ``lang``, ``Pages.sentences``), joined as the console's answer joins them ("why
    (hint)")."""
    why, said = refusal_words(command_words(lang).sayer(ps), message, hint)
    if not said:
        return why
    joined = translations(lang).gettext("%(why)s (%(hint)s)")
    return joined.replace("%(why)s", why).replace("%(hint)s", said)


async def say(request: Request) -> Response:
    kid, why = official(request)
    if kid is None:
        return JSONResponse({"ok": False, "error": {"kind": "usage", "message": why,
                                                    "hint": "", "rule": None}},
                            status_code=403)
    q = request.query_params
    message, hint = q.get("message", "")[:LONGEST], q.get("hint", "")[:LONGEST]
    hub = Hub.of(request)
    lang = of_request(request, hub.pages.data.language)
    text = refusal_text(lang, message, hint, hub.pages.sentences(lang))
    return JSONResponse({"ok": True, "lang": lang.value, "text": text},
                        headers={"Cache-Control": "private, no-store"})


routes: list[BaseRoute] = [Route("/desk/say", say, methods=["GET"])]
