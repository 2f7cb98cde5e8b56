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
from server.cards import COOKIE, sign_in
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

#: the kinds the live server writes, and so gives receipts for
RECEIPTED = (b'"kind":"result_reported"', b'"kind":"report_rejected"',
             b'"kind":"device_key_bound"',
             b'"kind":"player_dropped"', b'"kind":"result_recorded"',
             b'"kind":"seat_result_recorded"')


def _receipted(leaf: bytes) -> bool:
    return any(k in leaf for k in RECEIPTED)


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

    def holder(request: Request) -> tuple[int | None, str]:
        token = request.cookies.get(COOKIE, "")
        return (sign_in(hub.follower.state, token) if token else None), token

    async def form(request: Request) -> Response:
        number, _token = holder(request)
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
        cred = st.reports.live_player.get(number)
        return page("report.html", 200, {CSRF_COOKIE: csrf}, problem=problem, form=f,
                    number=number, csrf=csrf, mine=mine, aside=aside, credential=cred,
                    device=cred is not None and cred in st.reports.devices)

    async def submit(request: Request) -> Response:
        number, token = holder(request)
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
        cred = state.reports.live_player.get(number)
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
        except (RuleError, UsageError) as err:
            station.refusals.fail(f"p{number}")
            f = form_for(state, *where, hub.pages.data.labels) if where else None
            return page("report.html", 422, problem="Not recorded: " + refusal_words(err),
                        form=f, number=number, csrf=fields.get("csrf", ""))
        del token
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
        ev = json.loads(leaf)["event"]
        off = hub.follower.state.officials.get(ev.get("actor", ""))
        return page("receipt.html", 200, doc=doc, kind=ev.get("kind"),
                    signer=off.name if off else ev.get("actor"),
                    code=f"R{seq}-{digest[:16]}",
                    event=json.dumps(json.loads(leaf), indent=1, ensure_ascii=False))

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
        number, _token = holder(request)
        fields = await read_form(request)
        if not csrf_ok(request.cookies.get(CSRF_COOKIE), fields.get("csrf"),
                       request.headers.get("origin"), request.headers.get("host", "")):
            return page("report.html", 403, problem="This form is out of date or did not "
                        "come from this site; open it again.", form=None, number=number)
        cred = hub.follower.state.reports.live_player.get(number) if number else None
        if number is None or cred is None:
            return page("report.html", 403, problem="Scan the QR code on your player card "
                        "first.", form=None, number=None)
        key, signer = fields.get("public_key", ""), station.signer
        try:
            await asyncio.wrap_future(station.submit(
                lambda t, now: t.bind_device_key(cred, number, key, signer, now)))
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
