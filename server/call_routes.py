"""Judge calls on the live server (issue 30 item 1): a player calls a judge from their
phone, staff claim and close calls and confirm the extension the record proposes.

Owns: ``routes`` — ``GET /call`` (the card holder's call page: a "Call a judge" button,
then "a judge is coming", then the outcome and the extension given), ``POST /call`` (the
player's own ``call_opened``, REPORT-15, signed by the station; a repeated tap while a
call is open writes nothing and shows the call; more than ``TAPS`` taps a minute from one
card are refused, 429), ``POST /staff/calls/{open|claim|close|extend}`` (signed with the
deciding official's key, as the staff page's other decisions; ``extend`` confirms a
call's extension or, with ``deck_check``, an ended deck check's preparation time,
BR-EXT-3).  What a call is lives in
``usecases.calls``; the rules in ``ledger.core.call_rules``.  Times shown are the log's;
the wait of an open call is counted to the server's clock (display only).

May import: ``starlette``, ``server.hub``, ``server.forms``, ``server.cards``, ``server.i18n``,
``server.errors``, ``server.report``, ``server.station``, ``server.staff_routes``,
``ledger.*``, ``usecases.calls``.
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
from server.cards import COOKIE, Throttle, holder
from server.errors import whole
from server.forms import phone_signature, read_form, sign_page, station_of
from server.hub import Hub
from server.i18n import Language, of_request
from server.report import CSRF_COOKIE, csrf_ok, new_csrf
from server.staff_routes import held_key, page, signed_in_form, view
from server.station import refusal_why, refusal_words

#: taps of "Call a judge" from one card in a minute, at most (a phone tapped again and
#: again, or a script): more are refused with 429 and write nothing
TAPS = 5
TOO_MANY_TAPS = "You tapped too often; a judge has your call. Wait a minute, or raise " \
    "your hand."


def _taps(request: Request) -> Throttle:
    taps: Throttle = request.app.state.call_taps     # ``create_app``: Throttle(TAPS)
    return taps


def _player_view(state: Any, number: int, clock: Any = None) -> dict[str, Any]:
    """What the call page shows a player: whether they may call now (or why not), the open
    call at their table, and the latest closed call at their table (or one they opened)
    with its extension, and their table's own end (the round ``clock`` plus the table's
    extensions, ``server.view_reads.table_ends``)."""
    from ledger.core.reports import current_round, seat_of
    from server.view_reads import iso_z, table_ends, table_extra
    from usecases.calls import own_call_refusal

    at = own_call_refusal(state, number)
    n = current_round(state)
    where = seat_of(state, n, number) if n is not None else None
    here = (n, where[0]) if where is not None else None
    mine = sorted((c for c in state.calls.calls.values()
                   if c.number == number or (c.round, c.table) == here),
                  key=lambda c: c.seq)
    open_ = next((c for c in mine if c.closed_seq is None), None)
    last = next((c for c in reversed(mine) if c.closed_seq is not None), None)
    ext = state.calls.extended.get(last.seq) if last is not None else None
    return {"can_call": isinstance(at, tuple), "why": at if isinstance(at, str) else None,
            "open_call": open_, "last_call": last,
            "extension": None if ext is None else {"seq": ext[0], "minutes": ext[1]},
            "table_end": None if here is None or where is None or where[2] is not None
            else {"table": here[1], "extra": table_extra(state, *here),
                  "ends": iso_z(table_ends(clock, here[0], table_extra(state, *here)))},
            "judges": {k: o.name for k, o in state.officials.items()}}


def _call_page(hub: Hub, status: int, csrf: str | None, number: int | None,
               problem: str | None = None, lang: Language = Language.EN) -> Response:
    ctx: dict[str, Any] = {"problem": problem, "number": number}
    if number is not None:
        ctx.update(_player_view(hub.follower.state, number, hub.pages.data.clock))
    return page(hub, "call.html", status, csrf, lang, **ctx)


async def call_form(request: Request) -> Response:
    hub = Hub.of(request)
    lang = of_request(request, hub.pages.data.language)
    cred = holder(hub.follower.state, request.cookies.get(COOKIE, ""))
    csrf = request.cookies.get(CSRF_COOKIE) or new_csrf()
    if cred is None or cred.number is None:
        return _call_page(hub, 403, csrf, None, "Scan the QR code on your player card "
                          "first: it keeps your card on this phone.", lang)
    done = whole(request.query_params.get("done"), 18)
    if done is not None:
        await hub.fresh(done, shown=True)
    return _call_page(hub, 200, csrf, cred.number, lang=lang)


async def call(request: Request) -> Response:
    from usecases.calls import own_call, own_call_refusal

    hub, station = Hub.of(request), station_of(request)
    lang = of_request(request, hub.pages.data.language)
    fields = await read_form(request)
    cred = holder(hub.follower.state, request.cookies.get(COOKIE, ""))
    if not csrf_ok(request.cookies.get(CSRF_COOKIE), fields.get("csrf"),
                   request.headers.get("origin"), request.headers.get("host", "")):
        return _call_page(hub, 403, None, None, "This form is out of date or did not come "
                          "from this site; open it again.", lang)
    if cred is None or cred.number is None:
        return _call_page(hub, 403, fields.get("csrf"), None, "Scan the QR code on your "
                          "player card first.", lang)
    number, cid, signer = cred.number, cred.credential, station.signer
    taps = _taps(request)
    if taps.blocked(f"c{number}"):
        return _call_page(hub, 429, fields.get("csrf"), number, TOO_MANY_TAPS, lang)
    taps.fail(f"c{number}")
    at = own_call_refusal(hub.follower.state, number)
    if isinstance(at, str) and "already" in at:      # a repeated tap: the call stands
        return RedirectResponse("/call", status_code=303)
    sig, use = phone_signature(fields)
    note = fields.get("note", "").strip()[:200]
    try:
        ev = await asyncio.wrap_future(station.submit(
            lambda t, now: [own_call(t, signer, now, number, cid, sig, use, note)]))
    except PhoneSignatureNeeded as need:
        return sign_page(partial(page, hub, csrf=fields.get("csrf"), lang=lang), need, fields,
                         cid, "/call")
    except (RuleError, UsageError) as err:
        return _call_page(hub, 422, fields.get("csrf"), number,
                          "Not recorded: " + refusal_words(err), lang)
    await hub.fresh(station.size)
    return RedirectResponse(f"/call?done={ev[0].seq}", status_code=303)


async def staff_call(request: Request) -> Response:
    from usecases.calls import (
        claim_call,
        close_call,
        confirm_check_extension,
        confirm_extension,
        open_call,
    )

    hub, station = Hub.of(request), station_of(request)
    got = await signed_in_form(request)
    if isinstance(got, Response):
        return got
    kid, fields = got
    what = request.path_params["what"]
    seq = whole(fields.get("call"))
    try:
        signer = held_key(station, kid, "use 'tourney call …' at the desk")
        table = whole(fields.get("table"))
        if what == "open" and table is not None:
            note = fields.get("note", "").strip()[:200]
            fut = station.submit(lambda t, now: [open_call(t, signer, now, table=table,
                                                           note=note)])
        elif what == "extend" and seq is None and whole(fields.get("deck_check")):
            check = whole(fields.get("deck_check")) or 0
            minutes = whole(fields.get("minutes", "").strip() or None)
            turns = whole(fields.get("turns", "").strip() or None)
            fut = station.submit(lambda t, now: [confirm_check_extension(
                t, signer, now, check, minutes=minutes, turns=turns)[0]])
        elif seq is None:
            raise UsageError("this form names no call", hint="reload the staff page")
        elif what == "claim":
            fut = station.submit(lambda t, now: [claim_call(t, signer, now, seq)])
        elif what == "close":
            cites = whole(fields.get("cites", "").strip() or None)
            outcome = fields.get("outcome", "").strip()[:200]
            fut = station.submit(lambda t, now: [close_call(t, signer, now, seq, outcome,
                                                            cites)[0]])
        elif what == "extend":
            minutes = whole(fields.get("minutes", "").strip() or None)
            turns = whole(fields.get("turns", "").strip() or None)
            fut = station.submit(lambda t, now: [confirm_extension(
                t, signer, now, seq, minutes=minutes, turns=turns)[0]])
        else:
            raise UsageError("this decision is incomplete", hint="reload the staff page")
        events = await asyncio.wrap_future(fut)
        await hub.fresh(station.size)
    except (RuleError, UsageError) as err:
        return view(request, kid, "Not recorded: " + refusal_why(err), None,
                    fields.get("csrf", ""), 422)
    return RedirectResponse(f"/staff?done={events[0].seq}#calls", status_code=303)


routes: list[BaseRoute] = [Route("/call", call_form, methods=["GET"]),
                           Route("/call", call, methods=["POST"]),
                           Route("/staff/calls/{what}", staff_call, methods=["POST"])]
