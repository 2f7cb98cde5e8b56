"""The report pages of ``tourney serve --station-key`` (issue 19, second part).

Owns: ``report_routes`` — ``GET /report`` (the card holder's form for their own table,
rendered per request: it carries the browser's CSRF token), ``POST /report`` (checks the
card, the token and the form, then records the report signed by the station; a refusal is
shown in plain words and writes nothing) and ``GET /receipt/N`` / ``/receipt/N.json`` (the
signed event and its leaf hash: the promise that it is in the log; the inclusion proof
follows from the next checkpoint: ``/proof``; the document is ``usecases.receipt``'s).

May import: ``starlette``, ``server.*``, ``usecases.*``, ``ledger.*``.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from ledger.core.device_rules import PhoneSignatureNeeded
from ledger.errors import RuleError, UsageError
from ledger.wire.events import Kind
from ledger.wire.receipt import encode_receipt
from server.acts import receipt_code
from server.cards import COOKIE, holder
from server.errors import Refused, whole
from server.report import (
    CSRF_COOKIE,
    csrf_ok,
    form_for,
    given_from_form,
    given_words,
    new_csrf,
)
from server.station import Station, refusal_words
from usecases.receipt import receipt_of
from usecases.receipt import receipted as _receipted

if TYPE_CHECKING:
    from server.app import Hub

HTML = "text/html; charset=utf-8"
FORM_MAX = 8192
FORM_FIELDS = 64
SEQ_DIGITS = 18     # a seq fits SQLite's and PostgreSQL's 64-bit integers
PRIVATE = {"Cache-Control": "private, no-store", "X-Content-Type-Options": "nosniff",
           "Referrer-Policy": "no-referrer", "Content-Security-Policy":
           "default-src 'self'; style-src 'self' 'unsafe-inline'; script-src 'self'; "
           "form-action 'self'; frame-ancestors 'none'"}


def _my_table(hub: Hub, number: int) -> tuple[int, int] | tuple[int, int, int] | str:
    """(round, table[, seat]) the player reports for (a team member: their own seat,
    REPORT-21), or why they have none, in their words: the
    same reason on the form and on a post, before anything is signed (the rules of
    ``ledger.core.report_rules`` stay the authority: REPORT-5, REPORT-6)."""
    from ledger.core.plugin import plugin_for

    data, st = hub.pages.data, hub.follower.state
    noun = data.noun
    plugin = plugin_for(st.format.id if st.format else None)
    rnd = plugin.progress(st).round if plugin is not None and st.fmt is not None else None
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
    if not isinstance(here.table, int):     # a seat of a team match (a member's own seat)
        return _my_seat(st, rnd.number, number, noun)
    from ledger.core.seat_reports import has_seats

    if has_seats(st, rnd.number, here.table):   # a representative: their own seat too
        return _my_seat(st, rnd.number, number, noun)
    found = plugin.table_at(st, rnd.number, here.table) if plugin is not None else None
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
    found = plugin_for_state(st).seat_at(st, round_no, where[0], where[1])
    if found is not None and found[1] is not None:
        return f"The result of your seat ({noun.lower()} {round_no}, table {where[0]} " \
               f"seat {where[1]}) is recorded. If it is wrong, tell a judge at the desk."
    return round_no, where[0], where[1]


def plugin_for_state(st: Any) -> Any:
    from ledger.core.plugin import plugin_for

    return plugin_for(st.format.id if st.format else None)


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


TOO_MANY = "Too many refused attempts from your card in the last minute; wait a minute, " \
    "or see the desk."

_TITLES = {Kind.RESULT_REPORTED.value: "Your report is in the log",
           Kind.REPORT_REJECTED.value: "This rejection is in the log",
           Kind.DEVICE_KEY_BOUND.value: "Your phone's key is in the log"}


def _title(hub: Hub, ev: dict[str, Any]) -> str:
    """A receipt's heading: a core kind's own words; a decision citing reports reads as the
    format words its result; a player's own act by its kind."""
    from ledger.core.plugin import plugin_for

    kind, body = ev["kind"], ev["body"]
    if kind in _TITLES:
        return _TITLES[kind]
    st = hub.follower.state
    plugin = plugin_for(st.format.id if st.format else None)
    if "reports" in body and plugin is not None:
        return f"In the log: {plugin.describe_body(body)}"
    return f"In the log: {kind.replace('_', ' ')}"


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


async def shown_at(hub: Hub, seq: int, wait_s: float = 3.0) -> None:
    """Wait (briefly) until the pages show the log at a size that holds event ``seq``, so
    that a receipt's footer names a log that holds what it proves (issue 32 item 5)."""
    end = time.monotonic() + wait_s
    while hub.pages.data.checkable.size < seq and time.monotonic() < end:
        hub.wake.set()
        await asyncio.sleep(0.05)


def _said(hub: Hub, ev: dict[str, Any]) -> str:
    """What the receipt's event says, in a player's words: what was reported, for which
    round and table (the vocabulary's ``player_label``s), or the act it records."""
    from ledger.core.plugin import plugin_for
    from ledger.core.vocabulary import FieldKind

    body = ev.get("body") or {}
    st = hub.follower.state
    labels = hub.pages.data.labels
    plugin = plugin_for(st.format.id if st.format else None)
    vocab = plugin.result_vocabulary() if plugin is not None else None
    where = f"round {body['round']}, table {body['table']}" \
        if "round" in body and "table" in body else ""
    if ev.get("kind") == Kind.RESULT_REPORTED.value:
        parts = []
        for name, text in (body.get("given") or {}).items():
            try:
                f = vocab.field(name) if vocab is not None else None
            except KeyError:
                f = None
            label = (f.player_label if f is not None and f.player_label else
                     name.replace("_", " ").capitalize())
            shown = str(text)
            if f is not None and f.kind is FieldKind.PLAYER and shown.isdigit():
                shown = labels.get(int(shown), f"#{shown}")
            elif f is not None and f.kind in (FieldKind.FLAG, FieldKind.SWITCH):
                shown = "yes" if shown.lower() in ("yes", "true", "1") else "no"
            elif f is not None and f.kind is FieldKind.CODE and vocab is not None:
                entry = next((e for e in vocab.entries if e.value == shown), None)
                shown = entry.player_label if entry is not None else shown
            parts.append(f"{label}: {shown}")
        who = labels.get(int(body.get("number", 0)), "")
        return f"{who} reported for {where}: " + "; ".join(parts) + "."
    if ev.get("kind") == Kind.REPORT_REJECTED.value:
        return f"A report for {where} was set aside: {body.get('reason', '')}."
    if ev.get("kind") == Kind.DEVICE_KEY_BOUND.value:
        return "This phone's key now signs this card's reports."
    if "reports" in body and plugin is not None:
        return f"The result of {where} is recorded: {plugin.describe_body(body)}." \
            if where else f"Recorded: {plugin.describe_body(body)}."
    if "credential" in body and "number" in body:
        who = labels.get(int(body["number"]), f"#{body['number']}")
        return f"{who}: {ev.get('kind', '').replace('_', ' ')}."
    return ""


def report_routes(hub: Hub, station: Station) -> list[Route]:
    def page(name: str, status: int = 200, cookies: dict[str, str] | None = None,
             **kw: Any) -> Response:
        pages = hub.pages
        ctx = {"mine": None, "aside": None, "credential": None, "device": False, **kw}
        body = pages.env.get_template(name).render(**pages.common("find"), **ctx)
        resp = Response(body, status_code=status, media_type=HTML, headers=PRIVATE)
        for k, v in (cookies or {}).items():
            resp.set_cookie(k, v, httponly=True, samesite="strict", path="/")
        return resp

    def card(request: Request) -> tuple[int | None, str | None]:
        """(player number, credential id) of the live player's card this phone holds."""
        cred = holder(hub.follower.state, request.cookies.get(COOKIE, ""))
        if cred is None or cred.number is None:
            return None, None
        return int(cred.number), cred.credential

    async def form(request: Request) -> Response:
        number, cred = card(request)
        if number is None:
            return page("report.html", 403, problem="Scan the QR code on your player card "
                        "first: it keeps your card on this phone.", form=None, number=None)
        st = hub.follower.state
        where = _my_table(hub, number)
        csrf = request.cookies.get(CSRF_COOKIE) or new_csrf()
        if isinstance(where, str):
            return page("report.html", 200, {CSRF_COOKIE: csrf}, problem=where, form=None,
                        number=number, csrf=csrf)
        f = form_for(st, where[0], where[1], hub.pages.data.labels, *where[2:])
        mine = st.reports.current.get(where[0], {}).get(where[1], {}).get(number)
        aside = st.reports.set_aside.get(where[0], {}).get(number)
        return page("report.html", 200, {CSRF_COOKIE: csrf},
                    problem=None if f is not None else "This event takes no results "
                    "from phones: report at the desk.", form=f, number=number, csrf=csrf,
                    mine=None if mine is None else (mine.seq, given_words(
                        st, mine.given, hub.pages.data.labels)),
                    aside=aside, credential=cred,
                    device=cred is not None and cred in st.reports.devices)

    async def submit(request: Request) -> Response:
        number, cred = card(request)
        fields = await read_form(request)
        host = request.headers.get("host", "")
        if not csrf_ok(request.cookies.get(CSRF_COOKIE), fields.get("csrf"),
                       request.headers.get("origin"), host):
            return page("report.html", 403, problem="This form is out of date or did not "
                        "come from this site; open it again.", form=None, number=number)
        if number is None:
            return page("report.html", 403, problem="Scan the QR code on your player card "
                        "first.", form=None, number=None)
        if station.refusals.blocked(f"p{number}"):
            return page("report.html", 429, problem=TOO_MANY, form=None, number=number)
        where = _my_table(hub, number)
        state = hub.follower.state
        if isinstance(where, str) or cred is None:
            return page("report.html", 422, problem=f"Not recorded: {where}", form=None,
                        number=number)
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
            return sign_page(page, need, fields, cred or "", "/report")
        except (RuleError, UsageError) as err:
            station.refusals.fail(f"p{number}")
            return page("report.html", 422, problem="Not recorded: " + refusal_words(err),
                        form=f, number=number, csrf=fields.get("csrf", ""))
        return RedirectResponse(f"/receipt/{ev.seq}", status_code=303)

    def _leaf(seq: int) -> bytes | None:
        from ledger.storage.store import Ledger

        with Ledger(hub.location, readonly=True) as led:
            return led.raw_leaf(hub.follower.log, seq)

    async def receipt(request: Request) -> Response:
        raw = request.path_params["seq"]
        want_json = raw.endswith(".json")
        seq = raw.removesuffix(".json")
        n = whole(seq, SEQ_DIGITS)
        leaf = await run_in_threadpool(_leaf, n) if n is not None else None
        doc = None if n is None else receipt_of(hub.follower.log, n, leaf)
        if n is None or leaf is None or doc is None:
            return page("notfound.html", 404, what="There is no report with that number.")
        if want_json:
            return Response(encode_receipt(doc), media_type="application/json",
                            headers={"Content-Disposition":
                                     f'attachment; filename="receipt-{seq}.json"'})
        signed = json.loads(leaf)
        ev = signed["event"]
        off = hub.follower.state.officials.get(ev.get("actor", ""))
        await shown_at(hub, int(seq))
        return page("receipt.html", 200, doc=doc, title=_title(hub, ev), said=_said(hub, ev),
                    signer=off.name if off else ev.get("actor"),
                    code=receipt_code(n, leaf),
                    event=json.dumps(signed, indent=1, ensure_ascii=False))

    async def included(request: Request) -> Response:
        """The receipt upgraded: the report's inclusion proof against the newest signed
        checkpoint with its witness cosignatures (``tourney audit proof FILE``)."""
        from ledger.errors import StorageError, TourneyError
        from server.app import proof_page

        seq = request.path_params["seq"]
        n = whole(seq, SEQ_DIGITS)
        leaf = await run_in_threadpool(_leaf, n) if n is not None else None
        if n is None or leaf is None or not _receipted(leaf):
            return page("notfound.html", 404, what="There is no report with that number.")
        try:
            p = await run_in_threadpool(proof_page, hub, n)
        except StorageError:
            raise
        except TourneyError as err:
            return page("notfound.html", 404, what=f"No proof yet: {err.message}. "
                        f"{err.hint or ''}".strip())
        return Response(p.body, media_type="application/json", headers={
            "Content-Disposition": f'attachment; filename="report-{seq}-proof.json"'})

    async def bind(request: Request) -> Response:
        """``POST /bind``: the phone's public key bound to the card (REPORT-16)."""
        number, cred = card(request)
        fields = await read_form(request)
        if not csrf_ok(request.cookies.get(CSRF_COOKIE), fields.get("csrf"),
                       request.headers.get("origin"), request.headers.get("host", "")):
            return page("report.html", 403, problem="This form is out of date or did not "
                        "come from this site; open it again.", form=None, number=number)
        if number is None or cred is None:
            return page("report.html", 403, problem="Scan the QR code on your player card "
                        "first.", form=None, number=None)
        key, signer = fields.get("public_key", ""), station.signer
        try:
            await asyncio.wrap_future(station.submit(
                lambda t, now: t.bind_device_key(cred, number, key, signer, now)))
            await hub.fresh(station.size)     # the next page shows it
        except (RuleError, UsageError) as err:
            station.refusals.fail(f"p{number}")
            return page("report.html", 422, problem="Not recorded: " + refusal_words(err),
                        form=None, number=number)
        return RedirectResponse("/report", status_code=303)

    station.check_role(hub.follower.state)
    return [Route("/report", form, methods=["GET"]),
            Route("/report", submit, methods=["POST"]),
            Route("/bind", bind, methods=["POST"]),
            Route("/receipt/{seq}/proof.json", included),
            Route("/receipt/{seq}", receipt)]
