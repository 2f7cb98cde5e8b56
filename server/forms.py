"""What the writing pages of ``tourney serve --station-key`` share (issue 19): the player's
report, the receipt, the staff page and the drop.

Owns: ``HTML`` and ``PRIVATE`` (the headers of a page made for one card holder: never
cached, nothing framed), ``private_page`` (such a page from a template, with its cookies),
``read_form`` (a bounded urlencoded form), ``phone_signature`` and ``sign_page`` (the
signing step of a card with a phone key, REPORT-17/19/20), ``TOO_MANY`` and ``station_of``
(the application's station: ``request.app.state.station``) and ``staff_official`` (the
official a staff card's cookie signs in, if they hold one of a page's roles).

May import: ``starlette``, ``server.hub``, ``server.i18n``, ``server.errors``,
``server.station``, ``server.cards``, ``ledger.*``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from ledger.core.device_rules import PhoneSignatureNeeded
from ledger.wire.events import Role
from server.cards import COOKIE, holder
from server.errors import Refused
from server.hub import Hub
from server.i18n import Language
from server.station import Station

HTML = "text/html; charset=utf-8"
FORM_MAX = 8192
FORM_FIELDS = 64
PRIVATE = {"Cache-Control": "private, no-store", "X-Content-Type-Options": "nosniff",
           "Referrer-Policy": "no-referrer", "Content-Security-Policy":
           "default-src 'self'; style-src 'self' 'unsafe-inline'; script-src 'self'; "
           "form-action 'self'; frame-ancestors 'none'"}
TOO_MANY = "Too many refused attempts from your card in the last minute; wait a minute, " \
    "or see the desk."


def staff_official(request: Request, roles: Collection[Role],
                   lapsed: str) -> tuple[str | None, str]:
    """(the signed-in official's key id, why not) from the staff card's cookie: the card
    must be an official's, live, and the official must still hold one of ``roles``
    (``lapsed`` says what a card whose official holds none of them may not do)."""
    state = Hub.of(request).follower.state
    cred = holder(state, request.cookies.get(COOKIE, ""))
    if cred is None or cred.official is None:
        return None, "Sign in with your staff card (its QR code) first."
    if not set(roles).intersection(state.active_roles(cred.official)):
        return None, lapsed
    return cred.official, ""


def station_of(request: Request) -> Station:
    """The station that signs what this application writes (``create_app`` keeps it in
    ``app.state``; the writing routes are mounted only with one)."""
    station: Station = request.app.state.station
    return station


def private_page(hub: Hub, name: str, status: int = 200,
                 cookies: dict[str, str] | None = None, lang: Language = Language.EN,
                 **ctx: Any) -> Response:
    """Template ``name`` for one card holder (``PRIVATE``) in ``lang``, setting
    ``cookies``."""
    pages = hub.pages
    body = pages.env_of(lang).get_template(name).render(**pages.common("find", lang, name), **ctx)
    resp = Response(body, status_code=status, media_type=HTML, headers=PRIVATE)
    for k, v in (cookies or {}).items():
        resp.set_cookie(k, v, httponly=True, samesite="strict", path="/")
    return resp


async def read_form(request: Request) -> dict[str, str]:
    """An urlencoded form of at most ``FORM_MAX`` bytes and ``FORM_FIELDS`` fields; a
    larger one is refused (``server.errors.Refused``, 413), as is a form that repeats a
    field or is not a form (400)."""
    from urllib.parse import parse_qsl

    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > FORM_MAX:
            raise Refused(413, "This form is larger than any form of this site; open the "
                          "page again and send it from there.")
    try:
        pairs = parse_qsl(body.decode("utf-8", "replace"), max_num_fields=FORM_FIELDS)
    except ValueError:
        raise Refused(413, f"This form has more than {FORM_FIELDS} fields, more than any "
                      "form of this site; open the page again and send it from "
                      "there.") from None
    form: dict[str, str] = {}
    for k, v in pairs:
        if k in form:
            raise Refused(400, "This form gives a field twice; open the page again and "
                          "send it from there.")
        form[k] = v
    return form


def phone_signature(fields: dict[str, str]) -> tuple[str | None, int | None]:
    """(signature, act number) a phone's signing step posts with an act (REPORT-19)."""
    use = fields.get("device_use", "")
    return fields.get("device_sig") or None, int(use) if use.isdigit() and len(use) < 10 \
        else None


def sign_page(page: Callable[..., Response], need: PhoneSignatureNeeded,
              fields: dict[str, str], cred: str, action: str) -> Response:
    """The signing step of a bound card's act (REPORT-17/20): the form as posted, and the
    statement the rule asks this card's phone to sign; ``report.js`` signs and posts it."""
    keep = {k: v for k, v in fields.items()
            if k not in ("device_sig", "device_use", "statement")}
    return page("sign.html", 200, fields=keep, statement=need.statement.decode("utf-8"),
                use=need.use, credential=cred, action=action)
