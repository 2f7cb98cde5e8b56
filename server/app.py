"""The ASGI application of ``tourney serve`` (issue 18): Starlette over one followed ledger.

Owns: ``Hub`` (the follower's thread: it folds each append, builds the pages' data once
and swaps in a new ``PageSet``, renders the pages phones will ask for again before it
nudges them, lets a response after the server's own write wait for its fold
(``Hub.fresh``); it keeps serving the last pages with a "not live" notice while the
ledger cannot be read, and recovers when it can), the Server-Sent Events nudge
(content-free "the log is now size n, root r", coalesced to one per ``COALESCE_S`` with a
trailing send, the phones' refetch window ``spread_ms``, and a heartbeat comment every
``HEARTBEAT_S``), and ``create_app`` (the
routes: pages with ETag / 304 / gzip, ``/find``, ``/p/N``, ``/round/N``,
``/proof/N.json``, ``/qr``, ``/live`` (bounded: ``server.limits``), ``/health``, a
player's card ``/c/TOKEN`` and ``/me`` (``server.cards``); a helpful 404 page and every
failure a plain page, never a trace: ``server.errors``).

May import: ``starlette``, ``server.*``, ``ledger.*``, ``projections.*``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import threading
import time
from collections.abc import AsyncIterator, Callable

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from ledger.errors import StorageError, TourneyError
from ledger.storage.location import Location
from server.cards import COOKIE, MAX_AGE_S, Throttle, holder
from server.errors import handlers, whole
from server.follow import RESYNC_S, Follower, PgListener, sqlite_watch
from server.limits import Gate, LiveStreams
from server.pages import Page, PageSet, environment, etag_of, static_files
from server.station import Station
from server.view import LiveData, Memo, build

COALESCE_S = 1.5      # at most one nudge per this many seconds, the last one always sent
HEARTBEAT_S = 15.0    # a comment line on an idle stream (keeps proxies and phones awake)
RETRY_S = 5.0         # while the ledger cannot be read: try again this often
QUIET_S = 2.0         # after a partial build: the whole is built again once the log is
#                       this long without an append (earlier rounds' corrections show),
#                       plus the phones' refetch window (``Hub.quiet_s``)
PRERENDER = ("home", "pairings", "standings")
PRERENDER_S = 30.0    # at most this long rendering the phones' pages ahead of a nudge (a safety
#                       bound: the phones would render them on demand anyway)
SPREAD_MS = 1300      # phones refetch within 200 ms + this window after a nudge …
PAGES_PER_S = 3000    # … widened so that the phones' refetches arrive at most this fast
#                       (pages from memory, one process: docs/LIVE.md, the stampede)
FRESH_S = 5.0         # a response after the server's own write waits at most this long
#                       for the follower to have folded it
SECURITY = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
            "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
                                       "style-src 'self' 'unsafe-inline'; script-src 'self'; "
                                       "frame-ancestors 'none'"}


class Hub:
    """One followed tournament and its current pages."""

    def __init__(self, location: Location, tournament: str | None, *, url: str = "",
                 reporting: bool = False) -> None:
        self.location = location
        self.url = url
        self.reporting = reporting
        self.follower = Follower(location, tournament)
        self.memo = Memo()
        self.follower.before_pairing = self.memo.keep_before_pairing
        self.env = environment()
        self.static = static_files()
        self.data: LiveData = build(self.follower.ledger, self.follower.state, self.memo)
        self.pages = PageSet(self.data, self.env, url=url, reporting=reporting)
        self.wake = threading.Event()
        self.stop = threading.Event()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.nudged = asyncio.Event()
        self.dirty: asyncio.Event | None = None
        self.streams = 0                         # open ``/live`` streams
        self.nudge = self._nudge_json()
        self.built_at = time.monotonic()
        self.listener: PgListener | None = None
        self.proofs: dict[tuple[int, int], Page] = {}
        self.threads: list[threading.Thread] = []
        self.published = asyncio.Event()
        #: the pages asked for since the last nudge, and in the cycle before it: the
        #: phones that will fetch their page again on the next nudge (rendered ahead)
        self.hot: set[str] = set()
        self.hot_before: set[str] = set()

    # -- the follower's thread ------------------------------------------------------------
    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.nudged = asyncio.Event()
        self.dirty = asyncio.Event()
        self.published = asyncio.Event()
        t = threading.Thread(target=self._run, name="follow", daemon=True)
        self.threads.append(t)
        if self.location.is_postgres:
            self.listener = PgListener(self.location, self.follower.ledger,
                                       on_append=self._on_append, on_state=self._on_state)
            self.listener.install_trigger()
            self.listener.start()
        else:
            w = threading.Thread(target=sqlite_watch, name="watch", daemon=True,
                                 args=(str(self.location.path), self.stop, self.wake.set))
            self.threads.append(w)
            w.start()
        t.start()

    def _on_append(self, log: str) -> None:
        if log == self.follower.log:
            self.wake.set()

    def _on_state(self, ok: bool) -> None:
        self.wake.set()

    def _run(self) -> None:
        while not self.stop.is_set():
            timeout = RETRY_S if not self.data.live else self.quiet_s() \
                if self.data.partial else RESYNC_S
            woken = self.wake.wait(timeout=timeout)
            self.wake.clear()
            if self.stop.is_set():
                return
            if woken or not self.data.live or not self.data.partial:
                self.refresh()                   # an append, a retry, or the resync
            else:
                self.settle()

    def quiet_s(self) -> float:
        """How long the log stays quiet before a partial build is made whole: past the
        phones' refetches after the nudge (coalescing and their window), so that the
        whole build does not compete with serving them."""
        return QUIET_S + COALESCE_S + spread_ms(self.streams) / 1000

    def refresh(self) -> None:
        """Fold what was appended and, if anything changed, publish new pages (only the
        newest round read again: ``server.view.build``)."""
        try:
            grew = self.follower.catch_up()
            if grew:                             # a response waiting for its own write
                self._call_in_loop(self._on_published)
            if self.follower.broken:
                self.follower.reopen()
            data = build(self.follower.ledger, self.follower.state, self.memo,
                         previous=self.data if self.data.live else None) \
                if grew or not self.data.live else None
        except Exception:  # noqa: BLE001 - any failure to read: keep the last pages
            self.follower.broken = True
            data = None if not self.data.live else dataclasses.replace(self.data, live=False)
        if data is not None:
            self.publish(data)

    def settle(self) -> None:
        """The log went quiet after a partial build: build the whole; show it only if an
        earlier round differs (a correction), under a new ETag (``rev``)."""
        try:
            full = build(self.follower.ledger, self.follower.state, self.memo)
        except Exception:  # noqa: BLE001 - the next append or retry tries again
            return
        old = self.data
        if full.checkable.size != old.checkable.size:
            return                               # an append came in between: it rebuilds
        if full.rounds == old.rounds and full.labels == old.labels:
            self.data = dataclasses.replace(old, partial=False)
            self.pages.data = self.data
            return
        self.publish(dataclasses.replace(full, rev=old.rev + 1))

    def publish(self, data: LiveData) -> None:
        """Swap in the pages of ``data``; render the pages phones will ask for again
        (``hot``) ahead of the nudge, so that the stampede after a posting is served from
        memory; then nudge.  A waiting append cuts the rendering short (it is folded
        first; phones then render what is left on demand)."""
        pages = PageSet(data, self.env, url=self.url, reporting=self.reporting)
        old, self.data, self.pages = self.data, data, pages
        self.built_at = time.monotonic()
        nudge = self.loop is not None and self.dirty is not None and worth_a_nudge(old, data)
        keys = list(PRERENDER)
        if nudge:
            keys += sorted(self.hot_before | self.hot, key=_player_first)
        self.prerender(pages, keys)
        if nudge and self.dirty is not None:
            self._call_in_loop(self.dirty.set)

    def _call_in_loop(self, fn: Callable[[], object]) -> None:
        """``fn`` on the server's event loop, from the follower's thread; nothing once the
        loop has closed (the server is shutting down: no page is waiting any more)."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        try:
            loop.call_soon_threadsafe(fn)
        except RuntimeError:      # closed between the check and the call
            pass

    def prerender(self, pages: PageSet, keys: list[str]) -> int:
        """Render ``keys`` of ``pages`` (cached ones are skipped); stops at ``PRERENDER_S``
        or when an append is waiting.  How many it rendered."""
        end = time.monotonic() + PRERENDER_S
        done = 0
        checked = 0.0
        for key in keys:                         # an append waiting is folded first
            if self.stop.is_set() or time.monotonic() > end:
                break
            if self.wake.is_set() and time.monotonic() - checked > 0.02:
                checked = time.monotonic()       # a wake may be a checkpoint's or a
                if self.follower.grew():         # second look at the same commit
                    break
            if pages.cached(key) is None and pages.get(key) is not None:
                done += 1
        return done

    def _on_published(self) -> None:
        fired, self.published = self.published, asyncio.Event()
        fired.set()

    async def fresh(self, size: int, timeout: float = FRESH_S) -> bool:
        """Wait until the follower has folded the log up to ``size`` (after the server's
        own write: the report form, the staff page — read from the folded state — show it;
        the public pages follow with the build, a fraction of a second later); False after
        ``timeout``."""
        end = time.monotonic() + timeout
        while self.follower.state.size < size:
            self.wake.set()
            left = end - time.monotonic()
            if left <= 0:
                return False
            try:
                await asyncio.wait_for(self.published.wait(), left)
            except TimeoutError:
                return False
        return True

    def close(self) -> None:
        self.stop.set()
        self.wake.set()
        if self.listener is not None:
            self.listener.stop.set()
        self.follower.close()

    # -- the nudges -----------------------------------------------------------------------
    def _nudge_json(self) -> str:
        cp = self.data.checkable
        return json.dumps({"size": cp.size, "root": cp.root, "live": self.data.live,
                           "v": etag_of(self.data), "spread": spread_ms(self.streams)},
                          separators=(",", ":"))

    async def broadcast(self) -> None:
        """Wake every stream at most once per ``COALESCE_S``; the last change is always
        sent (trailing), so a burst of appends costs one refetch per phone."""
        assert self.dirty is not None  # noqa: S101 - set by start()
        last = 0.0
        while True:
            await self.dirty.wait()
            wait = COALESCE_S - (time.monotonic() - last)
            if wait > 0:
                await asyncio.sleep(wait)
            self.dirty.clear()
            self.hot_before, self.hot = self.hot, set()
            self.nudge = self._nudge_json()
            fired, self.nudged = self.nudged, asyncio.Event()
            fired.set()
            last = time.monotonic()

    async def stream(self) -> AsyncIterator[str]:
        self.streams += 1
        try:
            yield f"retry: 3000\nevent: log\ndata: {self.nudge}\n\n"
            while True:
                ev = self.nudged
                try:
                    await asyncio.wait_for(ev.wait(), HEARTBEAT_S)
                except TimeoutError:
                    yield ": heartbeat\n\n"
                    continue
                yield f"event: log\ndata: {self.nudge}\n\n"
        finally:
            self.streams -= 1


def spread_ms(streams: int) -> int:
    """The window within which the phones of ``streams`` open streams refetch after a
    nudge (``live.js``: 200 ms + a random part of it): 1.3 s, widened for a field whose
    refetches would otherwise arrive faster than ``PAGES_PER_S``."""
    return max(SPREAD_MS, streams * 1000 // PAGES_PER_S)


def _player_first(key: str) -> tuple[int, int, str]:
    """The shared pages first, then players by number."""
    kind, _, arg = key.partition("/")
    return (1, int(arg), "") if kind == "player" and arg.isdigit() else (0, 0, key)


def worth_a_nudge(old: LiveData, new: LiveData) -> bool:
    """Whether phones are told that the log grew: always, but for a round paired while
    pairings are held — the pages then say it is being checked, and phones are nudged
    when the head judge posts it (ADR 0023)."""
    if new.live != old.live or new.rev != old.rev:
        return True
    return not (new.rounds == old.rounds and set(old.held) < set(new.held))


def _matches(inm: str | None, tag: str) -> bool:
    if not inm:
        return False
    wanted = {t.strip().removeprefix("W/").strip('"').removesuffix("-gz")
              for t in inm.split(",")}
    return tag in wanted or "*" in wanted


def respond(request: Request, page: Page, *, cache: str = "no-cache") -> Response:
    """``page`` with its ETag: a 304 when the phone has it, gzip when it takes it."""
    gz = page.gz is not None and "gzip" in request.headers.get("accept-encoding", "")
    headers = {"ETag": f'"{page.etag}-gz"' if gz else f'"{page.etag}"',
               "Cache-Control": cache, "Vary": "Accept-Encoding", **SECURITY}
    if _matches(request.headers.get("if-none-match"), page.etag):
        return Response(status_code=304, headers=headers)
    if gz:
        headers["Content-Encoding"] = "gzip"
    body = page.gz if gz and page.gz is not None else page.body
    return Response(body, status_code=page.status, media_type=page.content_type,
                    headers=headers)


def create_app(hub: Hub, *, qr_page: bytes | None = None,
               station: Station | None = None, gate: Gate | None = None) -> Starlette:
    """The application over ``hub`` (started and stopped with the app's lifespan); with
    ``station``, players report their results (``server.report_routes``); ``gate``
    bounds the live-update streams (``server.limits``)."""
    from contextlib import asynccontextmanager

    async def page(request: Request, key: str) -> Response:
        pages = hub.pages
        p = pages.cached(key)
        if p is None:
            p = await run_in_threadpool(pages.get, key)
        if p is None:
            return missing(request, "There is no such page on this event's site.")
        hub.hot.add(key)
        return respond(request, p)

    def missing(request: Request, what: str) -> Response:
        return Response(hub.pages.render_missing(what), status_code=404,
                        media_type="text/html; charset=utf-8", headers=SECURITY)

    async def home(request: Request) -> Response:
        return await page(request, "home")

    async def named(request: Request) -> Response:
        return await page(request, request.url.path.strip("/"))

    async def player(request: Request) -> Response:
        raw = request.path_params["n"]
        n = whole(raw)
        if n is None or n not in hub.pages.data.labels:
            return missing(request, f"No player #{raw[:20]} is registered in this event.")
        return await page(request, f"player/{n}")

    async def round_(request: Request) -> Response:
        raw = request.path_params["n"]
        n = whole(raw)
        if n is None or hub.pages.data.round(n) is None:
            return missing(request, f"{hub.pages.data.noun} {raw[:20]} has no posted "
                                    "pairings.")
        return await page(request, f"round/{n}")

    async def find(request: Request) -> Response:
        q = request.query_params.get("q", "")[:100]
        if not q.strip():
            return await page(request, "find")
        pages = hub.pages
        found = pages.data.search(q)
        if len(found) == 1:
            return RedirectResponse(f"/p/{found[0][0]}", status_code=303)
        return Response(pages.render_find(q, found), media_type="text/html; charset=utf-8",
                        headers={"Cache-Control": "no-cache", **SECURITY})

    async def proof(request: Request) -> Response:
        raw = request.path_params["n"]
        n = whole(raw)
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

    async def static(request: Request) -> Response:
        return respond(request, hub.static[request.url.path.strip("/")],
                       cache="public, max-age=3600")

    async def qr(request: Request) -> Response:
        if qr_page is None:
            return missing(request, "No address was given for the QR code.")
        return Response(qr_page, media_type="text/html; charset=utf-8", headers=SECURITY)

    throttle = Throttle()

    async def card(request: Request) -> Response:
        """``/c/TOKEN``, the QR code on a player's or a staff card: keep it on this phone
        and go to the player's page (the staff page)."""
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
        go = RedirectResponse("/staff" if cred.official is not None else f"/p/{cred.number}",
                              status_code=303)
        go.set_cookie(COOKIE, token, max_age=MAX_AGE_S, path="/", httponly=True,
                      samesite="lax", secure=request.url.scheme == "https")
        return go

    async def me(request: Request) -> Response:
        """``/me``: the page of the player whose card this phone holds (the staff page
        for a staff card)."""
        token = request.cookies.get(COOKIE, "")
        cred = holder(hub.follower.state, token) if token else None
        if cred is None:
            resp = RedirectResponse("/find", status_code=303)
            if token:
                resp.delete_cookie(COOKIE, path="/")
            return resp
        return RedirectResponse("/staff" if cred.official is not None
                                else f"/p/{cred.number}", status_code=303)

    async def health(request: Request) -> Response:
        d = hub.pages.data
        return Response(json.dumps({"tournament": d.log, "live": d.live,
                                    **d.checkable.json()}),
                        media_type="application/json", headers={"Cache-Control": "no-cache"})

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub.start(asyncio.get_running_loop())
        task = asyncio.create_task(hub.broadcast())
        try:
            yield
        finally:
            task.cancel()
            if station is not None:
                station.close()
            hub.close()

    routes = [Route("/", home), Route("/find", find), Route("/p/{n}", player),
              Route("/c/{token}", card), Route("/me", me),
              Route("/round/{n}", round_), Route("/proof/{n}.json", proof),
              Route("/live", LiveStreams(hub.stream, gate or Gate())),
              Route("/health", health), Route("/qr", qr),
              Route("/style.css", static), Route("/live.js", static),
              Route("/report.js", static)]
    routes += [Route(f"/{k}", named) for k in ("pairings", "standings", "bracket", "verify")]
    if station is not None:
        from server.report_routes import report_routes
        from server.staff_routes import staff_routes

        routes += report_routes(hub, station) + staff_routes(hub, station)
    return Starlette(routes=routes, lifespan=lifespan, exception_handlers=handlers(hub))


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
