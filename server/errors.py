"""What the live server answers when a request cannot be answered (issue 32 item 1,
issue 27 item 3): a plain page saying what was wrong, never a trace.

Owns: ``Refused`` (a request refused for what it is — too large, too many fields,
malformed — with its status and the player's words), ``problem`` (the plain page of a
status and a sentence), ``STORAGE`` (a storage fault's status: 503, the CLI's exit 5,
``ledger.errors.StorageError``) and ``HANDLERS`` (Starlette's exception handlers: a
``Refused`` as its status, ``HTTPException`` 404/405 as the page not found, a storage fault
— ``StorageError``, an ``OSError`` or a database error while reading or writing the ledger
— as 503 with ``Retry-After``, and anything else as a plain 500 page whose cause goes to
the server's log; the fuzz test, ``tests/test_serve_robust.py``, keeps that last case
unreached).

May import: ``starlette``, ``jinja2`` (through ``server.pages``), ``ledger.errors``,
``server.i18n``, the
standard library.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from ledger.errors import StorageError
from server.i18n import Language, of_request

if TYPE_CHECKING:
    from server.hub import Hub

STORAGE = 503
RETRY_AFTER_S = 30
HTML = "text/html; charset=utf-8"
HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff",
           "Referrer-Policy": "no-referrer",
           "Content-Security-Policy": "default-src 'self'; style-src 'self' "
                                      "'unsafe-inline'; script-src 'self'; "
                                      "frame-ancestors 'none'"}
STORAGE_WORDS = ("The server cannot read or write the event's ledger right now, so nothing "
                 "was recorded. Try again in a minute; if it lasts, report at the desk.")
log = logging.getLogger("tourney.serve")


class Refused(Exception):
    """A request refused for what it is (``status`` < 500), in a player's words."""

    def __init__(self, status: int, words: str) -> None:
        super().__init__(words)
        self.status, self.words = status, words


TITLES = {400: "This request could not be read", 403: "Not allowed",
          404: "Not found", 405: "Not found", 413: "Too large",
          429: "Too many requests", 503: "Not recorded: try again soon",
          500: "Something went wrong"}


def problem(hub: Hub, status: int, words: str,
            headers: dict[str, str] | None = None, request: Request | None = None) -> Response:
    """The plain page of ``status``: its title and ``words`` (with the site's header; a
    404 in the language ``request`` asks for, its header and search box translated)."""
    title = TITLES.get(status, "This request could not be answered")
    try:
        pages = hub.pages
        if status == 404:               # the page not found offers the search
            lang = Language.EN if request is None else \
                of_request(request, pages.data.language)
            body = pages.render_missing(words, lang).decode("utf-8")
        else:
            body = pages.env.get_template("problem.html").render(**pages.common(""),
                                                                  title=title, what=words)
    except Exception:  # noqa: BLE001 — the page of last resort has no template
        body = f"<!doctype html><title>{title}</title><h1>{title}</h1><p>{words}</p>"
    return Response(body, status_code=status, media_type=HTML,
                    headers={**HEADERS, **(headers or {})})


def whole(text: str | None, digits: int = 9) -> int | None:
    """``text`` as a whole number of at most ``digits`` ASCII digits, else None (``"²"``
    and ``"٣"`` are digits to ``str.isdigit``; a 5,000-digit number is too long for
    ``int``)."""
    if not text or len(text) > digits or not text.isascii() or not text.isdigit():
        return None
    return int(text)


def is_storage_fault(exc: BaseException) -> bool:
    return isinstance(exc, (StorageError, OSError, sqlite3.Error)) or \
        type(exc).__module__.startswith("psycopg")


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


async def refused(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, Refused)  # noqa: S101 - registered for Refused only
    return problem(_hub(request), exc.status, exc.words)


async def http(request: Request, exc: Exception) -> Response:
    code = exc.status_code if isinstance(exc, HTTPException) else 400
    if code == 404:
        return problem(_hub(request), 404, "There is no such page on this event's site.",
                       request=request)
    if code == 405:
        return problem(_hub(request), 405, "This page cannot be used that way; open it "
                       "from the event's site.", {"Allow": "GET, HEAD"})
    return problem(_hub(request), code if 400 <= code < 500 else 400,
                   "This request could not be read; open the page again.")


async def storage(request: Request, exc: Exception) -> Response:
    log.warning("storage fault on %s: %s", request.url.path, exc)
    return problem(_hub(request), STORAGE, STORAGE_WORDS,
                   {"Retry-After": str(RETRY_AFTER_S)})


async def anything(request: Request, exc: Exception) -> Response:
    if is_storage_fault(exc):
        return await storage(request, exc)
    log.error("unexpected failure on %s", request.url.path, exc_info=exc)
    return problem(_hub(request), 500, "The server could not answer this request. Nothing "
                   "was recorded; open the page again, or report at the desk.")


#: Starlette's exception handlers of the application (each reads the hub of its request)
HANDLERS: dict[Any, Callable[..., Any]] = {
    Refused: refused, HTTPException: http, StorageError: storage, OSError: storage,
    sqlite3.Error: storage, Exception: anything}
