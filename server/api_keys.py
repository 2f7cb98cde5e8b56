"""Commands signed in the official's browser over HTTP (issue 29 item 2; ADR 0046):
``POST /api/v1/{path}/prepare`` and ``POST /api/v1/{path}/submit``, the console's key
page ``GET /desk/keys`` and its script ``GET /desk-keys.js``.

The server holds no private key in this mode.  Prepare decides the command (through the
server's ``CommandRunner``, ``request.app.state.runner``) with a signer that stops at the
first signature and answers the exact bytes to sign; submit decides again at the same
pinned time with the browser's signatures and appends only when the bytes decided now are
the bytes signed and every signature verifies with the official's bound key — else 409
"decided again: sign these" or 422, nothing written.  The protocol is
``usecases.prepared.step``; this module only reads the request, authenticates the staff
card and shapes the JSON.

Owns: ``routes``; ``card_official`` (the signed-in official, by ``server.api_commands``'
authentication: ``Authorization: Bearer <staff card token>``, or the card's cookie with
the form token in ``X-CSRF-Token``).

Body of both calls: ``{"args": {<the CLI's options by name>}, "time": T, "signed":
[{"bytes": b64, "sig": b64}, …]}`` (prepare: ``args`` only).  Answers: done — the
runner's answer (``{"ok": true, "seq", "events", "receipt", "text"}``) with ``"done":
true`` and the pinned ``time`` (answered once committed; ``?fresh=1``: once the
server's pages hold it too, as ``POST /api/v1/{path}``); to sign — ``{"ok": false,
"done": false, "ask", "message", "time", "index", "to_sign", "summary"}`` (200, or 409
when decided again).

May import: ``starlette``, ``server.hub``, ``server.cards``, ``server.report``,
``server.i18n``, ``server.command_words``,
``server.station``, ``server.forms``, ``server.api_commands`` (its authentication),
``server.api_openapi`` (its security requirement),
``usecases.*``, ``ledger.*``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ledger.errors import TourneyError, UsageError
from server.api_commands import (
    ApiRefused,
    bearer_official,
    console_official,
    official_of_token,
    read_body,
)
from server.api_openapi import SECURITY
from server.cards import COOKIE
from server.command_words import command_words
from server.forms import private_page
from server.hub import Hub
from server.i18n import of_request
from server.report import CSRF_COOKIE, new_csrf
from server.station import SIGNING_ROLES
from usecases.command_specs import CommandRunner, Outcome, Steps
from usecases.prepared import Answer, Signed, bound_key, step

STATIC = Path(__file__).resolve().parent / "static"
STATUS = {"usage": 400, "rule": 409, "verification": 422, "storage": 503}
KIND = {"usage": "usage", "refused": "rule", "verification_failed": "verification",
        "storage": "storage", "concurrent_write": "storage"}
NO_STORE = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}


def _error(status: int, kind: str, message: str, hint: str = "",
           rule: str | None = None) -> JSONResponse:
    return JSONResponse({"ok": False, "error": {"kind": kind, "message": message,
                                                "hint": hint, "rule": rule}},
                        status_code=status, headers=NO_STORE)


def _refusal(err: TourneyError) -> JSONResponse:
    kind = KIND.get(err.code, "storage")
    return _error(STATUS[kind], kind, err.message, err.hint or "",
                  getattr(err, "rule", None))


def card_official(request: Request, *, writes: bool = True) -> tuple[str | None, int, str]:
    """(the signed-in official's key id, else the status and why): a staff card's token
    as a bearer token (``server.api_commands.bearer_official``), or its cookie — with the
    form token in ``X-CSRF-Token`` when the request ``writes``
    (``server.api_commands.console_official``)."""
    try:
        if request.headers.get("authorization"):
            kid = bearer_official(request)
        elif writes and request.cookies.get(COOKIE):
            kid = console_official(request, {"csrf": request.headers.get("x-csrf-token",
                                                                         "")})
        else:
            kid = official_of_token(request, request.cookies.get(COOKIE, ""))
    except ApiRefused as no:
        err = no.outcome.error or {}
        return None, no.outcome.status, f"{err.get('message')} ({err.get('hint')})"
    if not SIGNING_ROLES.intersection(Hub.of(request).follower.state.active_roles(kid)):
        return None, 403, "this staff card's official is no longer a scorekeeper, " \
                          "judge, time-keeper or head judge of this event"
    return kid, 200, ""


def _answer(ans: Answer[Any]) -> JSONResponse:
    if not ans.done:
        return JSONResponse(ans.json(), status_code=ans.status, headers=NO_STORE)
    out: Any = ans.result
    if isinstance(out, Outcome):
        body = {**out.json(), **ans.json()} if out.ok else out.json()   # a refusal: as is
        return JSONResponse(body, status_code=out.status, headers=NO_STORE)
    return JSONResponse({"ok": True, **ans.json()}, headers=NO_STORE)


async def prepare(request: Request) -> Response:
    """``POST /api/v1/{path}/prepare``."""
    return await prepared(request, submit=False)


async def submit(request: Request) -> Response:
    """``POST /api/v1/{path}/submit``."""
    return await prepared(request, submit=True)


async def prepared(request: Request, *, submit: bool) -> Response:
    kid, status, why = card_official(request)
    if kid is None:
        return _error(status, "auth", why)
    runner: CommandRunner | None = getattr(request.app.state, "runner", None)
    if runner is None:
        return _error(503, "storage", "this server runs no commands",
                      "start it as the desk's server (tourney serve) with commands on")
    path = request.path_params["path"]
    try:
        spec = next((s for s in runner.specs() if s.path == path), None)
        if spec is None or not spec.signed:     # as POST /api/v1/{path}: 404
            return _error(404, "usage", f"there is no signed command {path!r}",
                          "see GET /api/v1/openapi.json for the commands")
        if spec.steps is Steps.ONCE:            # a second run decides other bytes
            return _error(400, "usage", f"{' '.join(spec.words)} cannot be signed in the "
                          "browser: it is saved in several steps that a second run "
                          "changes", "run it with a key the server holds (POST "
                          f"/api/v1/{path}) or at the desk's terminal")
        try:
            doc = await read_body(request)     # the API's own bounds (413, 400)
        except ApiRefused as no:
            return JSONResponse(no.outcome.json(), status_code=no.outcome.status,
                                headers=NO_STORE)
        args = doc.get("args", {})
        if not isinstance(args, dict):
            raise UsageError('"args" is not a JSON object',
                             hint="the command's options by their long names")
        items = doc.get("signed", []) if submit else []
        if not isinstance(items, list) or len(items) > 64:
            raise UsageError('"signed" is not a list of at most 64 signatures',
                             hint="send back what you signed, in order")
        signed = [Signed.from_json(x) for x in items]
        time = doc.get("time") if submit else None
        if time is not None and not isinstance(time, str):
            raise UsageError('"time" is not a string', hint="send back the time you were given")
        state = Hub.of(request).follower.state
        key = bound_key(state, kid)
        clock = _clock(request)
        ans = await run_in_threadpool(
            step, lambda signer: runner.run(path, args, signer), key, time=time,
            signed=signed, now=clock.now(), last_time=state.last_time)
    except TourneyError as err:
        return _refusal(err)
    out = ans.result
    if ans.done and isinstance(out, Outcome) and out.ok and out.seq and \
            request.query_params.get("fresh") == "1":
        await Hub.of(request).fresh(out.seq)      # as POST /api/v1/{path}?fresh=1
    return _answer(ans)


def _clock(request: Request) -> Any:
    clock = getattr(request.app.state, "clock", None)
    if clock is None:
        from ledger.wire.clock import default_clock

        clock = request.app.state.clock = default_clock()
    return clock


async def keys_page(request: Request) -> Response:
    """``GET /desk/keys``: the official's key in this browser (made, shown, the mode)."""
    hub = Hub.of(request)
    kid, _status, why = card_official(request, writes=False)
    st = hub.follower.state
    off = st.officials.get(kid) if kid else None
    station = getattr(request.app.state, "station", None)
    held = station is not None and kid in getattr(station, "staff", {})
    runs = getattr(request.app.state, "runner", None) is not None
    csrf = request.cookies.get(CSRF_COOKIE) or new_csrf()
    lang = of_request(request, hub.pages.data.language)
    return private_page(hub, "desk_keys.html", 200, {CSRF_COOKIE: csrf}, lang,
                        csrf=csrf, kid=kid, why=why, who=off.name if off else None,
                        server_holds=held, runs=runs, cw=command_words(lang))


async def script(request: Request) -> Response:
    return Response((STATIC / "desk-keys.js").read_bytes(),
                    media_type="text/javascript; charset=utf-8",
                    headers={"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"})


def browser_keys(app_state: Any) -> Any:
    """What ``server.desk_routes.key_mode`` asks: may ``kid`` sign in its browser here
    (the server runs commands and does not hold that official's key)?"""
    def may(kid: str) -> bool:
        station = getattr(app_state, "station", None)
        return getattr(app_state, "runner", None) is not None and \
            not (station is not None and kid in station.staff)
    return may


_STEP_BODY: dict[str, Any] = {
    "type": "object", "required": ["args"], "properties": {
        "args": {"type": "object", "description": "the command's parameters, as for "
                                                  "POST /api/v1/{path}"},
        "time": {"type": "string", "description": "submit: the time the answer gave"},
        "signed": {"type": "array", "maxItems": 64, "items": {
            "type": "object", "required": ["bytes", "sig"], "properties": {
                "bytes": {"type": "string", "description": "base64 of what was signed"},
                "sig": {"type": "string", "description": "base64 Ed25519 signature"}}}}}}
_TO_SIGN: dict[str, Any] = {
    "type": "object", "required": ["ok", "done", "ask", "time", "index", "to_sign"],
    "properties": {
        "ok": {"const": False}, "done": {"const": False},
        "ask": {"enum": ["sign", "next", "decided_again", "time"]},
        "message": {"type": "string"}, "time": {"type": "string"},
        "index": {"type": "integer", "description": "signatures kept: this is the next"},
        "to_sign": {"type": "string", "description": "base64 of the bytes to sign"},
        "summary": {"type": "object"}}}


def _step_op(what: str) -> dict[str, Any]:
    return {"post": {
        "summary": f"{what} a command signed in the official's browser (ADR 0046)",
        "security": SECURITY,
        "parameters": [{"name": "path", "in": "path", "required": True,
                        "schema": {"type": "string"}, "description": "the command's path "
                                                                     "(result/record)"}],
        "requestBody": {"required": True, "content": {"application/json": {
            "schema": _STEP_BODY}}},
        "responses": {
            "200": {"description": "done (the command's answer, \"done\": true), or "
                                   "the bytes to sign next",
                    "content": {"application/json": {"schema": {"oneOf": [
                        {"type": "object"}, _TO_SIGN]}}}},
            "409": {"description": "decided again: the log moved or the time was out of "
                                   "bounds; sign these (nothing written), or a rule "
                                   "refused the command",
                    "content": {"application/json": {"schema": {"type": "object"}}}},
            "422": {"description": "a signature does not verify with the bound key"}}}}


#: the OpenAPI paths of this module (``app.state.api_paths``)
OPENAPI_PATHS: dict[str, Any] = {"/api/v1/{path}/prepare": _step_op("Prepare"),
                                 "/api/v1/{path}/submit": _step_op("Submit")}


routes: list[BaseRoute] = [
    Route("/api/v1/{path:path}/prepare", prepare, methods=["POST"]),
    Route("/api/v1/{path:path}/submit", submit, methods=["POST"]),
    Route("/desk/keys", keys_page),
    Route("/desk-keys.js", script),
]
