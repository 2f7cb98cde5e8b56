"""The report pages of ``tourney serve --station-key`` (issue 19, second part).

Owns: ``report_routes`` — ``GET /report`` (the card holder's form for their own table,
rendered per request: it carries the browser's CSRF token), ``POST /report`` (checks the
card, the token and the form, then records the report signed by the station; a refusal is
shown in plain words and writes nothing) and ``GET /receipt/N`` / ``/receipt/N.json`` (the
signed event and its leaf hash: the promise that it is in the log; the inclusion proof
follows from the next checkpoint: ``/proof``).

May import: ``starlette``, ``server.*``, ``ledger.*``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from ledger.errors import RuleError, UsageError
from ledger.wire.events import Kind
from server.cards import COOKIE, holder
from server.report import CSRF_COOKIE, csrf_ok, form_for, given_from_form, new_csrf
from server.station import Station, refusal_words

if TYPE_CHECKING:
    from server.app import Hub

HTML = "text/html; charset=utf-8"
FORM_MAX = 8192
PRIVATE = {"Cache-Control": "private, no-store", "X-Content-Type-Options": "nosniff",
           "Referrer-Policy": "no-referrer", "Content-Security-Policy":
           "default-src 'self'; style-src 'self' 'unsafe-inline'; script-src 'self'; "
           "form-action 'self'; frame-ancestors 'none'"}


def _my_table(hub: Hub, number: int) -> tuple[int, int] | None:
    """(round, table) of the player's table in the newest posted round, if it is one."""
    data = hub.pages.data
    apps = data.appearances(number)
    if not apps or apps[-1].round_index != len(data.rounds) - 1:
        return None
    table = apps[-1].table
    return (int(data.rounds[-1]["round"]), table) if isinstance(table, int) else None


async def read_form(request: Request) -> dict[str, str]:
    """An urlencoded form of at most ``FORM_MAX`` bytes (a larger body reads as empty)."""
    from urllib.parse import parse_qsl

    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > FORM_MAX:
            return {}
    return dict(parse_qsl(body.decode("utf-8", "replace"), max_num_fields=64))


TOO_MANY = "Too many refused attempts from your card in the last minute; wait a minute, " \
    "or see the desk."

#: core kinds that answer a request on the live server
_RECEIPT_KINDS = frozenset({Kind.RESULT_REPORTED.value, Kind.REPORT_REJECTED.value,
                            Kind.DEVICE_KEY_BOUND.value})


def _receipted(leaf: bytes) -> bool:
    """Whether event ``leaf`` gets a receipt: what players and staff do through the server
    — the core kinds above, a player's own act (a body naming its ``credential``: a drop)
    and a decision citing reports (``reports``), told by their fields so that the server
    names no format's kind.  Nothing else: the public pages may hide penalties or full
    names (ADR 0023), and a receipt shows the whole event."""
    try:
        ev = json.loads(leaf)["event"]
        kind, body = ev["kind"], ev["body"]
    except (ValueError, KeyError, TypeError):
        return False
    if kind in _RECEIPT_KINDS:
        return True
    return kind not in (Kind.CREDENTIAL_ISSUED.value, Kind.CREDENTIAL_REVOKED.value) and \
        isinstance(body, dict) and ("credential" in body or "reports" in body)


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
        where = _my_table(hub, number)
        f = form_for(hub.follower.state, *where, hub.pages.data.labels) if where else None
        csrf = request.cookies.get(CSRF_COOKIE) or new_csrf()
        problem = None if f is not None else "You have no table to report in the posted " \
            "round (a bye, a team seat, or the round is not posted yet): see the desk."
        st = hub.follower.state
        mine = st.reports.current.get(where[0], {}).get(where[1], {}).get(number) \
            if where else None
        aside = st.reports.set_aside.get(where[0], {}).get(number) if where else None
        return page("report.html", 200, {CSRF_COOKIE: csrf}, problem=problem, form=f,
                    number=number, csrf=csrf, mine=mine, aside=aside, credential=cred,
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
        try:
            if where is None or cred is None:
                raise UsageError("you have no table to report in the posted round",
                                 hint="see the desk")
            given = given_from_form(state, fields)
            sig = fields.get("device_sig") or None
            if sig is None and cred in state.reports.devices:
                # REPORT-17: this card's reports carry its phone's signature — the page's
                # script signs the statement with the key this phone holds and posts again
                from ledger.core.report_rules import report_statement

                statement = report_statement(state.log, where[0], where[1], number, cred,
                                             given).decode("utf-8")
                keep = {k: v for k, v in fields.items() if k not in ("device_sig",)}
                return page("sign.html", 200, fields=keep, statement=statement,
                            credential=cred, number=number)
            ev = await asyncio.wrap_future(station.submit(
                *station.report_commands(where[0], where[1], number, cred, given, sig)))
            # no wait for the fold: the response that follows is the receipt, read from
            # the ledger itself (the station's writer wakes the follower at once)
        except (RuleError, UsageError) as err:
            station.refusals.fail(f"p{number}")
            f = form_for(state, *where, hub.pages.data.labels) if where else None
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
        leaf = await run_in_threadpool(_leaf, int(seq)) if seq.isdigit() else None
        if leaf is None or not _receipted(leaf):
            return page("notfound.html", 404, what="There is no report with that number.")
        digest = hashlib.sha256(leaf).hexdigest()
        doc = {"version": "tourney-receipt/v1", "tournament": hub.follower.log,
               "seq": int(seq), "leaf_sha256": digest, "leaf": leaf.decode("utf-8")}
        if want_json:
            return Response(json.dumps(doc, indent=1) + "\n", media_type="application/json",
                            headers={"Content-Disposition":
                                     f'attachment; filename="receipt-{seq}.json"'})
        whole = json.loads(leaf)
        ev = whole["event"]
        off = hub.follower.state.officials.get(ev.get("actor", ""))
        return page("receipt.html", 200, doc=doc, title=_title(hub, ev),
                    signer=off.name if off else ev.get("actor"),
                    code=f"R{seq}-{digest[:16]}",
                    event=json.dumps(whole, indent=1, ensure_ascii=False))

    async def included(request: Request) -> Response:
        """The receipt upgraded: the report's inclusion proof against the newest signed
        checkpoint with its witness cosignatures (``tourney audit proof FILE``)."""
        from ledger.errors import TourneyError
        from server.app import proof_page

        seq = request.path_params["seq"]
        leaf = await run_in_threadpool(_leaf, int(seq)) if seq.isdigit() else None
        if leaf is None or not _receipted(leaf):
            return page("notfound.html", 404, what="There is no report with that number.")
        try:
            p = await run_in_threadpool(proof_page, hub, int(seq))
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
