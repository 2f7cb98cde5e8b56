"""A player hands in their own decklist from their card (issue 30 item 4; ADR 0056).

Owns: ``routes`` — ``GET /deck`` (the card holder's decklist page: the organizer's
deadline, a text area and a file input while they may hand it in, else their registered
list's hash or why not) and ``POST /deck`` (the player's own ``deck_submitted``, REPORT-15,
signed by the station, with the phone's signature when the card has one bound,
REPORT-19/20; the text is kept in the station's store, ``usecases.decklists.deck_dir``,
never on the public log or a public page).  JavaScript off works: a plain form, multipart
for the file.  The rules are the ledger's (``deck_submit_rules``: DECK-LIST-1, BR-DECK-1),
judged at the log's time of the event.

May import: ``starlette``, ``server.hub``, ``server.forms``, ``server.form_body``,
``server.cards``, ``server.report``, ``server.station``, ``server.staff_routes``,
``server.errors``, ``ledger.*``, ``usecases.decklists``.
"""

from __future__ import annotations

import asyncio
from functools import partial
from typing import Any

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from ledger.core.device_rules import PhoneSignatureNeeded
from ledger.errors import RuleError, UsageError
from server.cards import COOKIE, holder
from server.errors import whole
from server.form_body import read_body
from server.forms import phone_signature, sign_page, station_of
from server.hub import Hub
from server.i18n import of_request
from server.report import CSRF_COOKIE, csrf_ok, new_csrf
from server.staff_routes import page
from server.station import refusal_words

#: the largest decklist form (a list of 20,000 characters fits several times over)
DECK_FORM_MAX = 128 * 1024


def _view(state: Any, number: int, now: str) -> dict[str, Any]:
    from usecases.decklists import own_deck_refusal

    o = getattr(state.fmt, "officiating", None)
    why = own_deck_refusal(state, number, now)
    return {"can_submit": why is None, "why": why,
            "deadline": o.deck_deadline if o is not None else None,
            "sha256": o.decks.get(number) if o is not None else None,
            "seq": o.deck_seqs.get(number) if o is not None else None}


def _deck_page(request: Request, hub: Hub, status: int, csrf: str | None, number: int | None,
               problem: str | None = None, text: str = "", done: int | None = None
               ) -> Response:
    from ledger.wire import clock

    ctx: dict[str, Any] = {"problem": problem, "number": number, "text": text,
                           "done": done}
    if number is not None:
        # what the page offers, by the ledger's clock (a fixed one when
        # TOURNEY_FIXED_CLOCK is set) or the log's latest time; the ledger decides at
        # record time, with the time it records
        st = hub.follower.state
        now = clock.later_time(st.latest_time, clock.default_clock().now())
        ctx.update(_view(st, number, now))
    return page(hub, "deck.html", status, csrf,
                lang=of_request(request, hub.pages.data.language), **ctx)


async def deck_form(request: Request) -> Response:
    hub = Hub.of(request)
    cred = holder(hub.follower.state, request.cookies.get(COOKIE, ""))
    csrf = request.cookies.get(CSRF_COOKIE) or new_csrf()
    if cred is None or cred.number is None:
        return _deck_page(request, hub, 403, csrf, None, "Scan the QR code on your player card "
                          "first: it keeps your card on this phone.")
    done = whole(request.query_params.get("done"), 18)
    if done is not None:
        await hub.fresh(done, shown=True)
    return _deck_page(request, hub, 200, csrf, cred.number, done=done)


def _posted_text(fields: dict[str, str], files: dict[str, bytes]) -> str:
    """The list: the chosen file's text (its bytes as they are) when one was chosen, else
    the text area's, whose line ends the browser sends as CR LF (HTML): they are made LF
    again, so the hash is that of the list as typed or pasted."""
    raw = files.get("file")
    if raw:
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise UsageError("the chosen file is not UTF-8 text",
                             hint="save the list as plain text, or paste it") from None
    return fields.get("list", "").replace("\r\n", "\n")


async def deck(request: Request) -> Response:
    from usecases.decklists import check_text, deck_dir, keep_text, submit_own_deck

    hub, station = Hub.of(request), station_of(request)
    fields, files = await read_body(request, DECK_FORM_MAX)
    cred = holder(hub.follower.state, request.cookies.get(COOKIE, ""))
    csrf = fields.get("csrf")
    if not csrf_ok(request.cookies.get(CSRF_COOKIE), csrf, request.headers.get("origin"),
                   request.headers.get("host", "")):
        return _deck_page(request, hub, 403, None, None, "This form is out of date or did not come "
                          "from this site; open it again.")
    if cred is None or cred.number is None:
        return _deck_page(request, hub, 403, csrf, None,
                          "Scan the QR code on your player card first.")
    number, cid, signer = cred.number, cred.credential, station.signer
    text = ""
    try:
        text = check_text(_posted_text(fields, files))
    except UsageError as err:
        return _deck_page(request, hub, 422, csrf, number, "Not recorded: " + refusal_words(err),
                          fields.get("list", ""))
    sig, use = phone_signature(fields)
    store = deck_dir(hub.location)
    try:
        ev = await asyncio.wrap_future(station.submit(
            lambda t, now: [submit_own_deck(t, signer, now, number, cid, text, sig, use)]))
    except PhoneSignatureNeeded as need:
        return sign_page(partial(page, hub, csrf=csrf,
                                 lang=of_request(request, hub.pages.data.language)), need,
                         {**fields, "list": text}, cid, "/deck")
    except (RuleError, UsageError) as err:
        return _deck_page(request, hub, 422, csrf, number, "Not recorded: " + refusal_words(err),
                          text)
    keep_text(store, text)
    await hub.fresh(station.size)
    return RedirectResponse(f"/deck?done={ev[0].seq}", status_code=303)


routes: list[BaseRoute] = [Route("/deck", deck_form, methods=["GET"]),
                           Route("/deck", deck, methods=["POST"])]
