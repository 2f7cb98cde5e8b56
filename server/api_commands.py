"""The HTTP API's commands (issue 29 item 3; docs/API.md "Commands"): ``POST
/api/v1/<path>`` runs the CLI's command at ``path`` (``result/record``, ``round/pair``,
``drop``) through the application's command runner, signed by the authenticated official.

Owns: ``routes`` (``POST /api/v1/{path}``, ``GET /api/v1/openapi.json``), the API's
authentication — ``bearer_official`` (``Authorization: Bearer <staff card token>`` → the
official), ``console_official`` (the console's: the card's cookie plus the form token,
``server.report.csrf_ok``), ``api_official`` (either: a command takes the bearer card or
the cookie with the form token in ``X-CSRF-Token``), ``server_signer`` (the official's key
the server holds, ``--staff-key``: ``server.station``) — ``read_body`` (a bounded JSON
object) and ``answer`` (an ``Outcome`` as the API's JSON response). Refusals before the
runner (no card, an unknown card, a player's card, a key the server does not hold, a body
that is not a JSON object) have the same body as the runner's: ``{"ok": false, "error":
{"kind", "message", "hint", "rule"}}``, kind ``auth`` for the card and the key.

The runner (``usecases.command_specs.CommandRunner``) is ``request.app.state.runner``:
``tourney serve`` builds it from the CLI (``cli.api_runner``) and hands it over; the
server never imports the CLI (ADR 0039).  Module-level endpoints (ADR 0041).

May import: ``starlette``, ``server.hub``, ``server.cards``, ``server.report``,
``server.api_openapi``, ``server.api_read_schemas``, ``server.limits``, ``usecases.command_specs``,
``ledger.*``.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from server.api_openapi import openapi
from server.api_read_schemas import OPENAPI_PATHS, SCHEMAS
from server.cards import COOKIE, GUESSES, Throttle, holder
from server.hub import Hub
from server.limits import API_BODY_MAX
from server.report import CSRF_COOKIE, csrf_ok
from usecases.command_specs import CommandRunner, Outcome

if TYPE_CHECKING:
    from ledger.wire.keys import Signer

HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}
#: unknown bearer tokens per address per minute, at most (a valid card always passes)
BAD_TOKENS = GUESSES


class ApiRefused(Exception):
    """A request refused before the runner: ``outcome`` is its answer."""

    def __init__(self, outcome: Outcome) -> None:
        super().__init__(outcome.error)
        self.outcome = outcome


def refused(status: int, kind: str, message: str, hint: str | None = None) -> ApiRefused:
    return ApiRefused(Outcome(ok=False, status=status, error={
        "kind": kind, "message": message, "hint": hint, "rule": None}))


def answer(outcome: Outcome) -> JSONResponse:
    return JSONResponse(outcome.json(), status_code=outcome.status, headers=HEADERS)


def runner_of(request: Request) -> CommandRunner | None:
    runner: CommandRunner | None = getattr(request.app.state, "runner", None)
    return runner


def official_of_token(request: Request, token: str) -> str:
    """The official a staff card's ``token`` stands for; ``ApiRefused`` 401 for no or
    an unknown card, 403 for a player's card."""
    state = Hub.of(request).follower.state
    cred = holder(state, token) if token else None
    if cred is None:
        raise refused(401, "auth", "no valid staff card was presented" if token else
                             "this request carries no staff card",
                             "send 'Authorization: Bearer <your staff card's token>' (the "
                             "code after /c/ in the card's link; 'tourney official card')")
    if cred.official is None:
        raise refused(403, "auth", "this is a player's card, not a staff card",
                      "use your staff card ('tourney official card')")
    return cred.official


def bearer_official(request: Request) -> str:
    """The official of the request's ``Authorization: Bearer`` staff card (unknown tokens
    are throttled per address: 429 after ``BAD_TOKENS`` a minute)."""
    throttle: Throttle = request.app.state.api_throttle
    who = request.client.host if request.client else "?"
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    token = token.strip() if scheme.lower() == "bearer" else ""
    if token and throttle.blocked(who):
        raise refused(429, "auth", "too many unknown cards from this address in the last "
                      "minute", "wait a minute and send a valid staff card")
    try:
        return official_of_token(request, token)
    except ApiRefused as no:
        if no.outcome.status == 401 and token:
            throttle.fail(who)
        raise


def console_official(request: Request, fields: dict[str, str]) -> str:
    """The console's authentication: the card's cookie and the form's token equal to
    the CSRF cookie (from this site); ``ApiRefused`` 403 when the form token is wrong."""
    if not csrf_ok(request.cookies.get(CSRF_COOKIE), fields.get("csrf"),
                   request.headers.get("origin"), request.headers.get("host", "")):
        raise refused(403, "auth", "this form is out of date or did not come from this "
                      "site", "open the page again")
    return official_of_token(request, request.cookies.get(COOKIE, ""))


def api_official(request: Request) -> str:
    """The official of ``POST /api/v1/{path}``: the bearer staff card, or — for the
    console's own scripts, as ``…/prepare`` and ``…/submit`` take it — the card's cookie
    with the form token in ``X-CSRF-Token`` (403 when it is missing or wrong)."""
    if not request.headers.get("authorization") and request.cookies.get(COOKIE):
        return console_official(request, {"csrf": request.headers.get("x-csrf-token",
                                                                      "")})
    return bearer_official(request)


def server_signer(request: Request, kid: str) -> Signer:
    """The key of official ``kid`` the server holds (``--staff-key``); ``ApiRefused``
    403 that says it holds none."""
    station = getattr(request.app.state, "station", None)
    signer: Signer | None = station.staff.get(kid) if station is not None else None
    if signer is None:
        raise refused(403, "auth", f"this server does not hold the key of official "
                             f"{kid}, so it cannot sign for you",
                      "use browser keys, or restart the server with --staff-key "
                      "YOUR.pem")
    return signer


async def read_body(request: Request) -> dict[str, Any]:
    """The request's JSON object (at most ``API_BODY_MAX`` bytes; empty: ``{}``)."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > API_BODY_MAX:
            raise refused(413, "usage", f"the body is larger than {API_BODY_MAX} "
                                 "bytes", "send a smaller file")
    if not body.strip():
        return {}
    try:
        doc = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        raise refused(400, "usage", "the body is not JSON",
                      'send a JSON object of the parameters, e.g. {"number": 7}') from None
    if not isinstance(doc, dict):
        raise refused(400, "usage", "the body is not a JSON object",
                      'send a JSON object of the parameters, e.g. {"number": 7}')
    return doc


async def command(request: Request) -> Response:
    """``POST /api/v1/{path}``: one command, signed by the card holder's key.  The answer
    comes once the command is committed; with ``?fresh=1`` also only once the server's
    pages hold it (``Hub.fresh``: a page read next shows it)."""
    runner = runner_of(request)
    path = request.path_params["path"].strip("/")
    if runner is None:
        return answer(refused(503, "storage", "this server runs no commands",
                              "start it with 'tourney serve --station-key …'").outcome)
    try:
        kid = api_official(request)
        args = await read_body(request)
        signer = server_signer(request, kid)
    except ApiRefused as no:
        return answer(no.outcome)
    outcome = await run_in_threadpool(runner.run, path, args, signer)
    if outcome.ok and outcome.seq and request.query_params.get("fresh") == "1":
        await Hub.of(request).fresh(outcome.seq, shown=True)   # pages read next show it
    return answer(outcome)


async def openapi_json(request: Request) -> Response:
    """``GET /api/v1/openapi.json``: the commands' OpenAPI document, from the specs."""
    runner = runner_of(request)
    specs = await run_in_threadpool(runner.specs) if runner is not None else []
    extra = {**OPENAPI_PATHS, **(getattr(request.app.state, "api_paths", None) or {})}
    return JSONResponse(openapi(specs, extra_paths=extra, extra_schemas=SCHEMAS),
                        headers=HEADERS)


routes: list[BaseRoute] = [Route("/api/v1/openapi.json", openapi_json, methods=["GET"]),
                           Route("/api/v1/{path:path}", command, methods=["POST"])]
