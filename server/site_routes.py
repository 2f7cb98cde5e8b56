"""The public pages of ``tourney serve`` (issue 18): module-level endpoints over the
application's hub (``request.app.state.hub``).

Owns: ``routes`` — ``/`` and the event's pages (``/pairings``, ``/standings``,
``/bracket``, ``/verify``, the hall screen ``/screen``) with ETag / 304 / gzip
(``respond``), ``/find``, ``/p/N``,
``/round/N``, ``/proof/N.json`` (``proof_page``), ``/qr`` (the printable page
``server.qr`` made, ``app.state.qr_page``), ``/live`` (bounded: ``server.limits``),
``/health``, a player's card ``/c/TOKEN`` and ``/me`` (``server.cards``), the static files
— and ``missing`` (the helpful 404 page); ``language`` (the page's language, issue 31:
``?lang=`` (kept in a cookie by ``server.i18n.KeepChoice``), ``Accept-Language``,
English).

May import: ``starlette``, ``server.hub``, ``server.pages``, ``server.i18n``, ``server.cards``,
``server.station``,
``server.errors``, ``server.limits``, ``ledger.*``.
"""

from __future__ import annotations

import json

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from ledger.errors import StorageError, TourneyError
from server.cards import COOKIE, MAX_AGE_S, Throttle, holder
from server.errors import whole
from server.hub import Hub
from server.i18n import Language, of_request
from server.limits import LiveStreams
from server.pages import Page

SECURITY = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
            "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
                                       "style-src 'self' 'unsafe-inline'; script-src 'self'; "
                                       "frame-ancestors 'none'"}


def _matches(inm: str | None, tag: str) -> bool:
    if not inm:
        return False
    wanted = {t.strip().removeprefix("W/").strip('"').removesuffix("-gz")
              for t in inm.split(",")}
    return tag in wanted or "*" in wanted


def language(request: Request) -> Language:
    """The page's language: ``?lang=`` > the switch's cookie > ``Accept-Language`` >
    the event's default (``tourney pages set --language``) > English
    (``server.i18n.choose``)."""
    return of_request(request, Hub.of(request).data.language)


def respond(request: Request, page: Page, *, cache: str = "no-cache") -> Response:
    """``page`` with its ETag: a 304 when the phone has it, gzip when it takes it."""
    gz = page.gz is not None and "gzip" in request.headers.get("accept-encoding", "")
    headers = {"ETag": f'"{page.etag}-gz"' if gz else f'"{page.etag}"',
               "Cache-Control": cache, "Vary": "Accept-Encoding, Accept-Language, Cookie",
               **SECURITY}
    if _matches(request.headers.get("if-none-match"), page.etag):
        return Response(status_code=304, headers=headers)
    if gz:
        headers["Content-Encoding"] = "gzip"
    body = page.gz if gz and page.gz is not None else page.body
    return Response(body, status_code=page.status, media_type=page.content_type,
                    headers=headers)


def missing(request: Request, what: str) -> Response:
    return Response(Hub.of(request).pages.render_missing(what, language(request)),
                    status_code=404,
                    media_type="text/html; charset=utf-8", headers=SECURITY)


async def page(request: Request, key: str) -> Response:
    """The page ``key`` of the current log size (rendered once, then from memory)."""
    hub = Hub.of(request)
    pages = hub.pages
    lang = language(request)
    p = pages.cached(key, lang)
    if p is None:
        p = await run_in_threadpool(pages.get, key, lang)
    if p is None:
        return missing(request, "There is no such page on this event's site.")
    hub.hot.add(key)
    return respond(request, p)


async def home(request: Request) -> Response:
    return await page(request, "home")


async def named(request: Request) -> Response:
    return await page(request, request.url.path.strip("/"))


async def player(request: Request) -> Response:
    raw = request.path_params["n"]
    n = whole(raw)
    if n is None or n not in Hub.of(request).pages.data.labels:
        return missing(request, f"No player #{raw[:20]} is registered in this event.")
    return await page(request, f"player/{n}")


async def round_(request: Request) -> Response:
    raw = request.path_params["n"]
    n = whole(raw)
    data = Hub.of(request).pages.data
    if n is None or data.round(n) is None:
        return missing(request, f"{data.noun} {raw[:20]} has no posted pairings.")
    return await page(request, f"round/{n}")


async def find(request: Request) -> Response:
    q = request.query_params.get("q", "")[:100]
    if not q.strip():
        return await page(request, "find")
    pages = Hub.of(request).pages
    found = pages.data.search(q)
    if len(found) == 1:
        return RedirectResponse(f"/p/{found[0][0]}", status_code=303)
    return Response(pages.render_find(q, found, language(request)),
                    media_type="text/html; charset=utf-8",
                    headers={"Cache-Control": "no-cache", **SECURITY})


async def proof(request: Request) -> Response:
    raw = request.path_params["n"]
    n = whole(raw)
    hub = Hub.of(request)
    data = hub.pages.data
    r = data.round(n) if n is not None else None
    if r is None or r.get("paired_seq") is None:
        return missing(request, f"{data.noun} {raw[:20]} has no posted pairings.")
    try:
        p = await run_in_threadpool(proof_page, hub, int(r["paired_seq"]))
    except StorageError:
        raise
    except TourneyError as err:
        return missing(request, f"No proof yet: {err.message}. {err.hint or ''}".strip())
    return respond(request, p)


def proof_page(hub: Hub, seq: int) -> Page:
    """The proof file of event ``seq`` against the newest signed checkpoint (one per
    checkpoint size, kept), from its own read-only connection."""
    from ledger.errors import UsageError
    from ledger.proofs.checkpoint import parse_checkpoint_note
    from ledger.proofs.checkpoint_store import latest_note
    from ledger.proofs.proof_file import build_proof_file
    from ledger.storage.store import Ledger

    with Ledger(hub.location, readonly=True) as led:
        found = latest_note(led, hub.follower.log, None)
        if found is None:
            raise UsageError("the head judge has not signed a checkpoint yet",
                             hint="the next checkpoint covers these pairings")
        note = found[1]
        size = parse_checkpoint_note(note)[0].size
        if seq > size:
            raise UsageError(f"the newest signed checkpoint (size {size}) does not cover "
                             f"these pairings (event {seq}) yet",
                             hint="the head judge's next checkpoint covers them")
        cached = hub.proofs.get((seq, size))
        if cached is not None:
            return cached
        doc = build_proof_file(led, hub.follower.log, seq, note)
    body = json.dumps(doc, indent=1, sort_keys=True).encode() + b"\n"
    page = Page(body=body, gz=None, etag=f"proof-{seq}-{size}",
                content_type="application/json")
    hub.proofs[(seq, size)] = page
    return page


async def static(request: Request) -> Response:
    return respond(request, Hub.of(request).static[request.url.path.strip("/")],
                   cache="public, max-age=3600")


async def qr(request: Request) -> Response:
    qr_page: bytes | None = request.app.state.qr_page
    if qr_page is None:
        return missing(request, "No address was given for the QR code.")
    return Response(qr_page, media_type="text/html; charset=utf-8", headers=SECURITY)


async def card(request: Request) -> Response:
    """``/c/TOKEN``, the QR code on a player's or a staff card: keep it on this phone
    and go to the player's page (the staff page)."""
    hub = Hub.of(request)
    throttle: Throttle = request.app.state.throttle
    who = request.client.host if request.client else "?"
    token = request.path_params["token"].lower()
    cred = holder(hub.follower.state, token)
    if cred is None and throttle.blocked(who):
        # a valid card always passes: the throttle slows guessers only, and many
        # phones share one address behind a venue's Wi-Fi or a reverse proxy
        return Response(hub.pages.render_missing(
            "Too many unknown card codes were tried from this network in the last "
            "minute; wait a minute, or find your table by name."),
            status_code=429, media_type="text/html; charset=utf-8",
            headers={"Retry-After": "60", **SECURITY})
    if cred is None:
        throttle.fail(who)
        resp = missing(request, "This card is not valid: it may have been replaced by "
                                "a new one. Ask at the desk, or find your table by name.")
        resp.delete_cookie(COOKIE, path="/")
        return resp
    # a staff card opens the staff page, a player's card the player's own page
    # (the staff page decides reports: an official who records none, a time-keeper,
    # goes to the console)
    from server.station import STAFF_ROLES

    staff = "/staff" if request.app.state.station is not None and cred.official and \
        STAFF_ROLES.intersection(Hub.of(request).follower.state.active_roles(
            cred.official)) else "/desk"
    go = RedirectResponse(staff if cred.official is not None else f"/p/{cred.number}",
                          status_code=303)
    go.set_cookie(COOKIE, token, max_age=MAX_AGE_S, path="/", httponly=True,
                  samesite="lax", secure=request.url.scheme == "https")
    return go


async def me(request: Request) -> Response:
    """``/me``: the page of the player whose card this phone holds (the staff page
    for a staff card)."""
    token = request.cookies.get(COOKIE, "")
    cred = holder(Hub.of(request).follower.state, token) if token else None
    if cred is None:
        resp = RedirectResponse("/find", status_code=303)
        if token:
            resp.delete_cookie(COOKIE, path="/")
        return resp
    return RedirectResponse("/staff" if cred.official is not None
                            else f"/p/{cred.number}", status_code=303)


async def health(request: Request) -> Response:
    d = Hub.of(request).pages.data
    return Response(json.dumps({"tournament": d.log, "live": d.live,
                                **d.checkable.json()}),
                    media_type="application/json", headers={"Cache-Control": "no-cache"})


routes: list[BaseRoute] = [
    Route("/", home), Route("/find", find), Route("/p/{n}", player),
    Route("/c/{token}", card), Route("/me", me),
    Route("/round/{n}", round_), Route("/proof/{n}.json", proof),
    Route("/live", LiveStreams()),
    Route("/health", health), Route("/qr", qr),
    Route("/style.css", static), Route("/live.js", static), Route("/report.js", static),
    *(Route(f"/{k}", named) for k in ("pairings", "standings", "bracket", "verify",
                                          "screen")),
]
