"""The followed tournament of ``tourney serve`` (issue 18) and its pages, in memory.

Owns: ``Hub`` (the follower's thread: it folds each append at once, builds the pages' data
and swaps in a new ``PageSet`` — at once after a quiet log, else at most once per
``BUILD_GAP_S`` while appends stream in, with a trailing build once the writer is idle
``IDLE_S`` (``Hub.due_in``; ADR 0051) — renders the pages phones will ask for again before it
nudges them; it keeps serving the last pages with a "not live" notice while the ledger
cannot be read, and recovers when it can), ``Hub.fresh`` (the one wait of a response for
the log it must show: folded, or on the pages; ADR 0032 §4), the Server-Sent Events nudge
(content-free "the log is now size n, root r", coalesced to one per ``COALESCE_S`` with a
trailing send, the phones' refetch window ``spread_ms``, and a heartbeat comment every
``HEARTBEAT_S``) and ``Hub.of`` (the hub of a request: ``request.app.state.hub``).

May import: ``starlette``, ``server.follow``, ``server.pages``, ``server.view``,
``ledger.*``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import threading
import time
from collections.abc import AsyncIterator, Callable

from starlette.requests import Request

from ledger.storage.location import Location
from server.follow import RESYNC_S, Follower, PgListener, sqlite_watch
from server.i18n import Language, parse
from server.pages import Page, PageSet, environment, etag_of, static_files
from server.view import LiveData, Memo, build

COALESCE_S = 1.5      # at most one nudge per this many seconds, the last one always sent
HEARTBEAT_S = 15.0    # a comment line on an idle stream (keeps proxies and phones awake)
RETRY_S = 5.0         # while the ledger cannot be read: try again this often
JOIN_S = 10.0         # on close: how long the follower's threads may take to end
QUIET_S = 2.0         # after a partial build: the whole is built again once the log is
#                       this long without an append (earlier rounds' corrections show),
#                       plus the phones' refetch window (``Hub.quiet_s``)
PRERENDER = ("home", "pairings", "standings")
PRERENDER_S = 30.0    # at most this long rendering the phones' pages ahead of a nudge (a safety
#                       bound: the phones would render them on demand anyway)
SPREAD_MS = 1300      # phones refetch within 200 ms + this window after a nudge …
PAGES_PER_S = 3000    # … widened so that the phones' refetches arrive at most this fast
#                       (pages from memory, one process: docs/LIVE.md, the stampede)
BUILD_GAP_S = 1.0     # while appends stream in: the pages are built at most this often,
BUILD_SHARE = 0.1     # and the follower builds at most this share of the time (a build
#                       of 0.3 s, 4,096 players: the next one 2.7 s after it) …
IDLE_S = 0.25         # … and once the log has had no append for this long (the trailing
#                       build); a response waiting for the pages (``fresh(shown=True)``)
#                       has them built at once (ADR 0051)
FRESH_S = 5.0         # a response after the server's own write waits at most this long
#                       for the follower to have folded it …
SHOWN_S = 3.0         # … and a receipt this long for the pages to show its event


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
        #: set (and replaced) on the server's loop each time the follower has folded or
        #: published more of the log: what ``fresh`` waits for
        self.advanced = asyncio.Event()
        #: the pages asked for since the last nudge, and in the cycle before it: the
        #: phones that will fetch their page again on the next nudge (rendered ahead)
        self.hot: set[str] = set()
        self.hot_before: set[str] = set()
        #: the coalescing of builds (``due``): when the first append not on the pages was
        #: folded (None: the pages show every folded append), when the last one was, and
        #: the largest log size a response waits to see on the pages
        self.unbuilt_since: float | None = None
        self.last_fold = 0.0
        self.published_at = 0.0     # when the last build's pages were rendered ahead
        self.build_s = 0.0          # the CPU seconds that build and rendering took
        self.wanted = 0

    # -- the follower's thread ------------------------------------------------------------
    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.nudged = asyncio.Event()
        self.dirty = asyncio.Event()
        self.advanced = asyncio.Event()
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
            if self.unbuilt_since is not None and self.data.live:   # folded, not shown
                timeout = min(timeout, max(0.0, self.due_in(time.monotonic())))
            woken = self.wake.wait(timeout=timeout)
            self.wake.clear()
            if self.stop.is_set():
                return
            if woken or not self.data.live or not self.data.partial \
                    or self.unbuilt_since is not None:
                self.refresh()                   # an append, a retry, the resync, or
            else:                                # the trailing build of a burst
                self.settle()

    def due_in(self, now: float) -> float:
        """Seconds until the folded appends not on the pages yet must be built (<= 0:
        now).  At once after a quiet log (the last build ``BUILD_GAP_S`` ago or more) and
        when a response waits for the pages (``wanted``); while appends stream in, at most
        once per ``BUILD_GAP_S`` after the last build was done, and no more than
        ``BUILD_SHARE`` of the follower's CPU (the gap grows with what a build costs: a
        large field), or ``IDLE_S`` after the last one (the writer is idle: the trailing
        build).  The build and the rendering ahead hold the interpreter against the
        server's own writer; one per append made a burst of results from one official
        3-6 times slower (ADR 0051)."""
        if self.unbuilt_since is None:
            return RESYNC_S
        if self.wanted > self.data.checkable.size or not self.data.live:
            return 0.0
        return min(self.published_at + self.gap_s(), self.last_fold + IDLE_S) - now

    def gap_s(self) -> float:
        """The least time between two builds while appends stream in (``due_in``)."""
        return max(BUILD_GAP_S, self.build_s * (1 - BUILD_SHARE) / BUILD_SHARE)

    def in_burst(self, now: float) -> bool:
        """Whether a build now is one of a burst: its appends were held back (they came
        within ``gap_s`` of the last build), the writer is not idle and no response
        waits for the pages.  Such a build renders ahead only the pages phones asked
        for (``publish``)."""
        return (self.unbuilt_since is not None and self.data.live
                and self.unbuilt_since < self.published_at + self.gap_s()
                and now < self.last_fold + IDLE_S
                and self.wanted <= self.data.checkable.size)

    def quiet_s(self) -> float:
        """How long the log stays quiet before a partial build is made whole: past the
        phones' refetches after the nudge (coalescing and their window), so that the
        whole build does not compete with serving them."""
        return QUIET_S + COALESCE_S + spread_ms(self.streams) / 1000

    def refresh(self) -> None:
        """Fold what was appended and, if anything changed, publish new pages (only the
        newest round read again: ``server.view.build``)."""
        cpu = time.thread_time()   # the follower's own CPU, not the wait for the interpreter
        burst = False
        try:
            grew = self.follower.catch_up()
            now = time.monotonic()
            if grew:                             # a response waiting for its own write
                self._call_in_loop(self._advance)
                self.last_fold = now
                if self.unbuilt_since is None:
                    self.unbuilt_since = now
            if self.follower.broken:
                self.follower.reopen()
            if self.unbuilt_since is not None and self.data.live and self.due_in(now) > 0:
                return                           # coalesced: built when due (``due_in``)
            burst = self.in_burst(now)
            data = build(self.follower.ledger, self.follower.state, self.memo,
                         previous=self.data if self.data.live else None) \
                if self.unbuilt_since is not None or not self.data.live else None
            self.unbuilt_since = None
        except Exception:  # noqa: BLE001 - any failure to read: keep the last pages
            self.follower.broken = True
            data = None if not self.data.live else dataclasses.replace(self.data, live=False)
        if data is not None:
            self.publish(data, every=not burst)
            self.build_s = time.thread_time() - cpu

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

    def publish(self, data: LiveData, *, every: bool = True) -> None:
        """Swap in the pages of ``data``; render the pages phones will ask for again
        (``hot``) ahead of the nudge, so that the stampede after a posting is served from
        memory, and (``every``) the shared pages (``PRERENDER``) whether asked for or
        not — not in a burst of appends, where nobody may read them before the next
        build; then nudge.  A waiting append cuts the rendering short (it is folded
        first; phones then render what is left on demand)."""
        pages = PageSet(data, self.env, url=self.url, reporting=self.reporting)
        old, self.data, self.pages = self.data, data, pages
        self.built_at = time.monotonic()
        self._call_in_loop(self._advance)        # a receipt waiting to be shown
        nudge = self.loop is not None and self.dirty is not None and worth_a_nudge(old, data)
        keys = list(PRERENDER) if every else []
        if nudge:
            keys += sorted(self.hot_before | self.hot, key=_player_first)
        self.prerender(pages, keys)
        self.published_at = time.monotonic()
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
        or when an append is waiting.  How many it rendered.  They are rendered in the
        event's default language (``pages set --language``, ADR 0057): what most phones
        of the event ask for; another language renders on its first ask."""
        lang = parse(pages.data.language) or Language.EN
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
            if pages.cached(key, lang) is None and pages.get(key, lang) is not None:
                done += 1
        return done

    def _advance(self) -> None:
        fired, self.advanced = self.advanced, asyncio.Event()
        fired.set()

    async def fresh(self, size: int, *, shown: bool = False,
                    timeout: float | None = None) -> bool:
        """Wait until the follower has folded the log up to ``size`` — after the server's
        own write, the report form and the staff page, read from the folded state, show it
        (ADR 0032 §4) — or, with ``shown``, until the pages show a log of that size: a
        receipt's footer names a log that holds what it proves, a staff page after a
        decision does not offer the table again (issue 32 item 5).  The follower is woken
        and the wait ends on its signal (``advanced``), never a poll; False after
        ``timeout`` (``FRESH_S``, ``SHOWN_S`` with ``shown``)."""
        end = time.monotonic() + (timeout if timeout is not None else
                                  SHOWN_S if shown else FRESH_S)
        if shown:
            self.wanted = max(self.wanted, size)     # built at once, not coalesced
        while (self.pages.data.checkable.size if shown else self.follower.state.size) < size:
            self.wake.set()
            left = end - time.monotonic()
            if left <= 0:
                return False
            try:
                await asyncio.wait_for(self.advanced.wait(), left)
            except TimeoutError:
                return False
        return True

    @staticmethod
    def of(request: Request) -> Hub:
        """The hub of the application serving ``request`` (``create_app`` keeps it in
        ``app.state``)."""
        hub: Hub = request.app.state.hub
        return hub

    def close(self) -> None:
        """Stop the follower's threads, then close its ledger.  The follow thread may be
        inside a fold reading the ledger's connection: closing that connection under it
        crashed the whole process (a segfault in SQLite, seen once in 12 loaded runs of the
        server tests), so the ledger is closed only once the threads have ended; a thread
        still busy after ``JOIN_S`` leaves the ledger to the process's exit."""
        self.stop.set()
        self.wake.set()
        threads = list(self.threads)         # the PostgreSQL listener has its own connection
        if self.listener is not None:
            self.listener.stop.set()
        me = threading.current_thread()
        for t in threads:
            if t is not me and t.ident is not None:
                t.join(timeout=JOIN_S)
        if any(t.is_alive() for t in threads if t is not me):
            return
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


