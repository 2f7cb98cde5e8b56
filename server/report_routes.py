"""The report pages of ``tourney serve --station-key`` (issue 19, second part).

Owns: ``routes`` — ``GET /report`` (the card holder's form for their own table, rendered
per request: it carries the browser's CSRF token), ``POST /report`` (checks the card, the
token and the form, then records the report signed by the station; a refusal is shown in
plain words and writes nothing; the answer is the receipt, ``server.receipts``) and
``POST /bind`` (the phone's key bound to the card, REPORT-16) — module-level endpoints
over ``request.app.state`` (the hub, the station) — and which table a card holder reports
for (``_my_table``).

May import: ``starlette``, ``server.hub``, ``server.forms``, ``server.cards``,
``server.errors``, ``server.report``, ``server.station``, ``ledger.*``.
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
from server.cards import COOKIE, holder
from server.forms import (
    TOO_MANY,
    phone_signature,
    private_page,
    read_form,
    sign_page,
    station_of,
)
from server.hub import Hub
from server.i18n import Language, of_request
from server.report import (
    CSRF_COOKIE,
    csrf_ok,
    form_for,
    given_from_form,
    given_words,
    new_csrf,
)
from server.station import refusal_words

if TYPE_CHECKING:
    from ledger.core.format_plugin import FormatPlugin


def _my_table(hub: Hub, number: int) -> tuple[int, int] | tuple[int, int, int] | str:
    """(round, table[, seat]) the player reports for (a team member: their own seat,
    REPORT-21), or why they have none, in their words: the
    same reason on the form and on a post, before anything is signed (the rules of
    ``ledger.core.report_rules`` stay the authority: REPORT-5, REPORT-6)."""
    from ledger.core.format_socket import plugin_for

    data, st = hub.pages.data, hub.follower.state
    noun = data.noun
    plugin = plugin_for(st.format.id if st.format else None)
    rnd = plugin.views.progress(st).round if plugin is not None and st.fmt is not None else None
    if rnd is None:
        return "No round is being played yet; you can report when your table's " \
               "pairings are posted."
    if rnd.number in data.held:
        return f"{noun} {rnd.number} is being checked by the head judge; you can report " \
               "when its pairings are posted."
    if not rnd.open:
        return f"{noun} {rnd.number} is complete: results are reported while a round " \
               "is being played. If your result is wrong, tell a judge at the desk."
    apps = data.appearances(number)
    here = apps[-1] if apps and data.rounds[apps[-1].round_index]["round"] == rnd.number \
        else None
    if here is None:
        return f"You have no table in {noun.lower()} {rnd.number}; see the desk if you " \
               "think you should."
    if here.outcome == "bye":
        return f"You have no match to play in {noun.lower()} {rnd.number} (a bye, or you " \
               "advance without playing): nothing to report."
    if here.seat is not None or not isinstance(here.table, int):  # a team member's own seat
        return _my_seat(st, rnd.number, number, noun)
    from ledger.core.seat_reports import has_seats

    if has_seats(st, rnd.number, here.table):   # a representative: their own seat too
        return _my_seat(st, rnd.number, number, noun)
    found = plugin.entry.table_at(st, rnd.number, here.table) if plugin is not None else None
    if found is None or number not in found[0]:
        return f"Your seat in {noun.lower()} {rnd.number} is not one this page can " \
               "report: report at the desk."
    if found[1] is not None:
        return f"The result of your table is recorded ({noun.lower()} {rnd.number}, " \
               f"table {here.table}). If it is wrong, see a judge at the scorekeeper's desk."
    return rnd.number, here.table


def _my_seat(st: Any, round_no: int, number: int, noun: str) -> tuple[int, int, int] | str:
    """(round, table, seat) of a team member's own seat (REPORT-21), or why they have
    none to report."""
    from ledger.core.seat_reports import member_table

    where = member_table(st, round_no, number)
    if where is None:
        return f"Your seat in {noun.lower()} {round_no} is not one this page can " \
               "report: report at the desk."
    plugin = plugin_for_state(st)
    found = None if plugin is None else plugin.entry.seat_at(st, round_no, where[0], where[1])
    if found is not None and found[1] is not None:
        return f"The result of your seat ({noun.lower()} {round_no}, table {where[0]} " \
               f"seat {where[1]}) is recorded. If it is wrong, tell a judge at the desk."
    return round_no, where[0], where[1]


def plugin_for_state(st: Any) -> FormatPlugin | None:
    from ledger.core.format_socket import plugin_for

    return plugin_for(st.format.id if st.format else None)



def page(hub: Hub, name: str, status: int = 200, cookies: dict[str, str] | None = None,
         lang: Language = Language.EN, **kw: Any) -> Response:
    """A report page (``report.html``, ``sign.html``) for one card holder, in ``lang``."""
    ctx = {"mine": None, "aside": None, "credential": None, "device": False, **kw}
    return private_page(hub, name, status, cookies, lang, **ctx)


def card(request: Request) -> tuple[int | None, str | None]:
    """(player number, credential id) of the live player's card this phone holds."""
    cred = holder(Hub.of(request).follower.state, request.cookies.get(COOKIE, ""))
    if cred is None or cred.number is None:
        return None, None
    return int(cred.number), cred.credential


async def form(request: Request) -> Response:
    hub = Hub.of(request)
    lang = of_request(request, hub.data.language)
    number, cred = card(request)
    if number is None:
        return page(hub, "report.html", 403, problem="Scan the QR code on your player card "
                    "first: it keeps your card on this phone.", form=None, number=None, lang=lang)
    st = hub.follower.state
    where = _my_table(hub, number)
    csrf = request.cookies.get(CSRF_COOKIE) or new_csrf()
    if isinstance(where, str):
        return page(hub, "report.html", 200, {CSRF_COOKIE: csrf}, problem=where, form=None,
                    number=number, csrf=csrf, lang=lang)
    f = form_for(st, where[0], where[1], hub.pages.data.labels, *where[2:])
    mine = st.reports.current.get(where[0], {}).get(where[1], {}).get(number)
    aside = st.reports.set_aside.get(where[0], {}).get(number)
    return page(hub, "report.html", 200, {CSRF_COOKIE: csrf},
                problem=None if f is not None else "This event takes no results "
                "from phones: report at the desk.", form=f, number=number, csrf=csrf,
                mine=None if mine is None else (mine.seq, given_words(
                    st, mine.given, hub.pages.data.labels, hub.pages.sentences(lang))),
                aside=aside, credential=cred,
                device=cred is not None and cred in st.reports.devices, lang=lang)


async def submit(request: Request) -> Response:
    hub, station = Hub.of(request), station_of(request)
    lang = of_request(request, Hub.of(request).data.language)
    number, cred = card(request)
    fields = await read_form(request)
    host = request.headers.get("host", "")
    if not csrf_ok(request.cookies.get(CSRF_COOKIE), fields.get("csrf"),
                   request.headers.get("origin"), host):
        return page(hub, "report.html", 403, problem="This form is out of date or did not "
                    "come from this site; open it again.", form=None, number=number, lang=lang)
    if number is None:
        return page(hub, "report.html", 403, problem="Scan the QR code on your player card "
                    "first.", form=None, number=None, lang=lang)
    if station.refusals.blocked(f"p{number}"):
        return page(hub, "report.html", 429, problem=TOO_MANY, form=None, number=number, lang=lang)
    where = _my_table(hub, number)
    state = hub.follower.state
    if isinstance(where, str) or cred is None:
        return page(hub, "report.html", 422, problem=f"Not recorded: {where}", form=None,
                    number=number, lang=lang)
    f = form_for(state, where[0], where[1], hub.pages.data.labels, *where[2:])
    try:
        if f is None:
            raise UsageError("this event takes no results from phones",
                             hint="report at the desk")
        given = given_from_form(f, fields)
        sig, use = phone_signature(fields)
        ev = await asyncio.wrap_future(station.submit(
            *station.report_commands(where[0], where[1], number, cred, given, sig, use)))
    except PhoneSignatureNeeded as need:
        # REPORT-17/19: this card's reports carry its phone's signature — the page's
        # script signs the statement the rule names with the key this phone holds
        return sign_page(partial(page, hub, lang=lang), need, fields, cred or "", "/report")
    except (RuleError, UsageError) as err:
        station.refusals.fail(f"p{number}")
        return page(hub, "report.html", 422, problem="Not recorded: " + refusal_words(err),
                    form=f, number=number, csrf=fields.get("csrf", ""), lang=lang)
    return RedirectResponse(f"/receipt/{ev.seq}", status_code=303)


async def bind(request: Request) -> Response:
    """``POST /bind``: the phone's public key bound to the card (REPORT-16)."""
    hub, station = Hub.of(request), station_of(request)
    lang = of_request(request, Hub.of(request).data.language)
    number, cred = card(request)
    fields = await read_form(request)
    if not csrf_ok(request.cookies.get(CSRF_COOKIE), fields.get("csrf"),
                   request.headers.get("origin"), request.headers.get("host", "")):
        return page(hub, "report.html", 403, problem="This form is out of date or did not "
                    "come from this site; open it again.", form=None, number=number, lang=lang)
    if number is None or cred is None:
        return page(hub, "report.html", 403, problem="Scan the QR code on your player card "
                    "first.", form=None, number=None, lang=lang)
    key, signer = fields.get("public_key", ""), station.signer
    try:
        await asyncio.wrap_future(station.submit(
            lambda t, now: t.bind_device_key(cred, number, key, signer, now)))
        await hub.fresh(station.size)     # the next page shows it
    except (RuleError, UsageError) as err:
        station.refusals.fail(f"p{number}")
        return page(hub, "report.html", 422, problem="Not recorded: " + refusal_words(err),
                    form=None, number=number, lang=lang)
    return RedirectResponse("/report", status_code=303)


routes: list[BaseRoute] = [Route("/report", form, methods=["GET"]),
                           Route("/report", submit, methods=["POST"]),
                           Route("/bind", bind, methods=["POST"])]
