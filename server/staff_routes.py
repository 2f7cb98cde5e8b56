"""The staff page of ``tourney serve --station-key`` (issue 19): the scorekeeper's queue of
players' reports, and the player's own drop.

Owns: ``routes`` — ``GET /staff`` (a round's tables waiting for their result:
conflicting reports side by side, one-sided and matching reports, tables with no report;
for a judge, the deck checks in progress with the registered lists, ``server.deck_view``),
``POST /staff/accept`` (one table's or every table's matching reports), ``POST
/staff/record`` (the result one report gives, settling every report of that table) and
``POST /staff/reject`` (set a report aside, with a reason) — each signed with the deciding
official's own key, which the server holds only when started with ``--staff-key``; staff
sign in with a staff card (``tourney official card``; ``signed_in_form`` and ``held_key``,
which the judge-call forms share) — and ``GET|POST /drop`` (a player
drops themselves with their card, REPORT-15, signed by the station; a card with a phone
key also by its phone, REPORT-20).  What a decision is
lives in ``usecases.reports`` (shared with ``tourney report``).  Module-level
endpoints over ``request.app.state`` (the hub, the station).

May import: ``starlette``, ``server.hub``, ``server.forms``, ``server.cards``, ``server.i18n``,
``server.command_words``,
``server.errors``, ``server.report``, ``server.station``, ``server.call_panel``,
``server.deck_view``, ``ledger.*``.
"""

from __future__ import annotations

import asyncio
from functools import partial
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from ledger.core.device_rules import PhoneSignatureNeeded
from ledger.errors import RuleError, UsageError
from ledger.wire.events import Role
from server.cards import COOKIE, holder
from server.command_words import command_words
from server.deck_view import checks_in_progress
from server.errors import whole
from server.forms import (
    TOO_MANY,
    phone_signature,
    private_page,
    read_form,
    sign_page,
    staff_official,
    station_of,
)
from server.hub import Hub
from server.i18n import Language, of_request
from server.report import CSRF_COOKIE, csrf_ok, new_csrf
from server.station import STAFF_ROLES, refusal_why, refusal_words

if TYPE_CHECKING:
    from ledger.wire.keys import Signer
    from server.station import Station


def page(hub: Hub, name: str, status: int = 200, csrf: str | None = None,
         lang: Language = Language.EN, **kw: Any) -> Response:
    """A staff or drop page (``staff.html``, ``drop.html``, ``sign.html``), setting the
    CSRF cookie it carries."""
    ctx = {"problem": None, "done": None, "round": None, "groups": None, "number": None,
           "deck_checks": [], "cw": command_words(lang),
           **kw}
    return private_page(hub, name, status, {CSRF_COOKIE: csrf} if csrf else None,
                        lang, csrf=csrf, **ctx)


def official(request: Request) -> tuple[str | None, str]:
    """(the signed-in official's key id, why not) from the card cookie."""
    return staff_official(request, STAFF_ROLES, "Your staff card belongs to an official "
                          "who is no longer a scorekeeper, judge or head judge of this event.")


def view(request: Request, kid: str, problem: str | None, done: str | None, csrf: str,
         status: int = 200) -> Response:
    from ledger.core.reports import TableStatus, current_round, queue
    from server.call_panel import call_panel

    hub = Hub.of(request)
    st = hub.follower.state
    n = current_round(st)
    rows = queue(st, n) if n is not None else []
    labels = hub.pages.data.labels
    groups = {s: [r for r in rows if r.status is s] for s in TableStatus}
    off = st.officials.get(kid)
    judge = bool({Role.JUDGE, Role.HEAD_JUDGE} & set(st.active_roles(kid)))
    lang = of_request(request, hub.pages.data.language)
    return page(hub, "staff.html", status, csrf, lang, round=n, groups=groups, labels=labels,
                deck_checks=checks_in_progress(hub) if judge else [],
                shown=_shown, who=off.name if off else kid,
                can_sign=kid in station_of(request).staff,
                problem=problem, done=done, kid=kid, calls=call_panel(st))


async def staff(request: Request) -> Response:
    hub = Hub.of(request)
    kid, why = official(request)
    csrf = request.cookies.get(CSRF_COOKIE) or new_csrf()
    if kid is None:
        return page(hub, "staff.html", 403, csrf, of_request(request, hub.pages.data.language),
                    problem=why, round=None, groups=None)
    done = request.query_params.get("done")
    done = done if whole(done, 18) is not None else None
    if done is not None:
        # the queue is shown once the pages hold the decision just made: a table just
        # decided is not offered again (issue 32 item 5)
        await hub.fresh(int(done), shown=True)
    return view(request, kid, None, done, csrf)


async def signed_in_form(request: Request) -> tuple[str, dict[str, str]] | Response:
    """A staff page's posted form and the official whose card signed in, or the page that
    refuses it (a form out of date or from another site; no staff card)."""
    hub = Hub.of(request)
    kid, why = official(request)
    fields = await read_form(request)
    if not csrf_ok(request.cookies.get(CSRF_COOKIE), fields.get("csrf"),
                   request.headers.get("origin"), request.headers.get("host", "")):
        return page(hub, "staff.html", 403, None, problem="This form is out of date or "
                    "did not come from this site; open the staff page again.",
                    round=None, groups=None)
    if kid is None:
        return page(hub, "staff.html", 403, fields.get("csrf"), problem=why, round=None,
                    groups=None)
    return kid, fields


def held_key(station: Station, kid: str, at_desk: str) -> Signer:
    """The official's own key, held by the server (``--staff-key``), or the refusal that
    says how else to decide (``at_desk``)."""
    signer = station.staff.get(kid)
    if signer is None:
        raise UsageError("this server does not hold your key, so it cannot sign for you",
                         hint=f"restart it with --staff-key YOUR.pem, or {at_desk}")
    return signer


async def decide(request: Request) -> Response:
    from usecases import reports as rd

    hub, station = Hub.of(request), station_of(request)
    got = await signed_in_form(request)
    if isinstance(got, Response):
        return got
    kid, fields = got
    what = request.path_params["what"]
    try:
        signer = held_key(station, kid, "decide at the desk with 'tourney report …'")
        rnd, table, number, seq = (_int(fields.get(k)) for k in
                                   ("round", "table", "number", "report"))
        reason = fields.get("reason", "").strip()[:500]
        if what == "accept":
            fut = station.submit(lambda t, now: rd.accept_matching(
                t, signer, now, rnd, table)[0])
        elif what == "record" and rnd and table and seq:
            fut = station.submit(lambda t, now: rd.record_report(
                t, signer, now, rnd, table, seq))
        elif what == "reject" and number:
            fut = station.submit(lambda t, now: [rd.reject_report(
                t, signer, now, rnd, number, reason)])
        else:
            raise UsageError("this decision is incomplete", hint="reload the staff page")
        events = await asyncio.wrap_future(fut)
        await hub.fresh(station.size)     # the staff page that follows shows it
    except (RuleError, UsageError) as err:
        return view(request, kid, "Not recorded: " + refusal_why(err), None,
                    fields.get("csrf", ""), 422)
    return RedirectResponse(f"/staff?done={events[0].seq}", status_code=303)


async def drop_form(request: Request) -> Response:
    from usecases.reports import own_drop_refusal

    hub = Hub.of(request)
    lang = of_request(request, hub.pages.data.language)
    drop_page = partial(page, hub, "drop.html", lang=lang)
    cred = holder(hub.follower.state, request.cookies.get(COOKIE, ""))
    csrf = request.cookies.get(CSRF_COOKIE) or new_csrf()
    if cred is None or cred.number is None:
        return drop_page(403, csrf, problem="Scan the QR code on your player "
                    "card first: it keeps your card on this phone.", number=None)
    why = own_drop_refusal(hub.follower.state, cred.number)
    return drop_page(200, csrf, number=cred.number,
                problem=None if why is None else f"You cannot drop now: {why}.")


async def drop(request: Request) -> Response:
    from usecases.reports import own_drop

    hub, station = Hub.of(request), station_of(request)
    lang = of_request(request, hub.pages.data.language)
    drop_page = partial(page, hub, "drop.html", lang=lang)
    fields = await read_form(request)
    cred = holder(hub.follower.state, request.cookies.get(COOKIE, ""))
    if not csrf_ok(request.cookies.get(CSRF_COOKIE), fields.get("csrf"),
                   request.headers.get("origin"), request.headers.get("host", "")):
        return drop_page(403, None, problem="This form is out of date or "
                    "did not come from this site; open it again.", number=None)
    if cred is None or cred.number is None:
        return drop_page(403, fields.get("csrf"), problem="Scan the QR code "
                    "on your player card first.", number=None)
    if fields.get("confirm") != "yes":
        return drop_page(422, fields.get("csrf"), number=cred.number,
                    problem="Tick the box to confirm that you leave the event.")
    number, cid, signer = cred.number, cred.credential, station.signer
    if station.refusals.blocked(f"p{number}"):
        return drop_page(429, fields.get("csrf"), number=number,
                    problem=TOO_MANY)
    sig, use = phone_signature(fields)
    try:
        events = await asyncio.wrap_future(station.submit(
            lambda t, now: own_drop(t, signer, now, number, cid, sig, use)))
    except PhoneSignatureNeeded as need:
        # REPORT-20: a card with a phone key drops only with that phone's signature
        return sign_page(partial(page, hub, csrf=fields.get("csrf"), lang=lang), need, fields, cid,
                         "/drop")
    except (RuleError, UsageError) as err:
        station.refusals.fail(f"p{number}")
        return drop_page(422, fields.get("csrf"), number=number,
                    problem="Not recorded: " + refusal_words(err))
    return RedirectResponse(f"/receipt/{events[0].seq}", status_code=303)


routes: list[BaseRoute] = [Route("/staff", staff, methods=["GET"]),
                           Route("/staff/{what}", decide, methods=["POST"]),
                           Route("/drop", drop_form, methods=["GET"]),
                           Route("/drop", drop, methods=["POST"])]


def _int(text: str | None) -> int | None:
    return whole(text)


def _shown(given: dict[str, str], labels: dict[int, str]) -> str:
    """A report's fields as staff read them (player numbers with their names)."""
    parts = []
    for k, v in given.items():
        n = whole(v)
        name = labels.get(n) if n is not None and k != "seat" else None  # a seat: K
        parts.append(f"{k}: {name}" if name else f"{k}: {v}")
    return ", ".join(parts)
