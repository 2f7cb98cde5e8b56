"""What the live server holds at most (issue 27 item 4): live-update streams per address
and in all.

Owns: ``STREAMS_PER_ADDRESS`` and ``STREAMS`` (the bounds docs/LIVE.md states),
``API_BODY_MAX`` (the largest API command body), ``Gate``
(open streams counted per address; a stream over a bound is refused) and ``LiveStreams``
(``GET /live`` as an ASGI app: a stream takes a place in the gate for as long as it is
open, whatever ends it — a phone gone, the server stopping — and a refused one is a
plain 429 with ``Retry-After``; the page's script then polls every 15 s instead, so a
phone over the bound still follows the event, ``server/templates/live.js``).

The per-address bound is set high on purpose: a venue's Wi-Fi (NAT) or the reverse proxy
of docs/OPERATIONS.md §7 puts every phone behind one address, and a bound meant for one
misbehaving machine must not refuse a whole venue.

May import: ``starlette``, the standard library.
"""

from __future__ import annotations

import json
import threading
from collections.abc import AsyncIterator, Callable

from starlette.responses import Response, StreamingResponse
from starlette.types import Receive, Scope, Send

#: open live-update streams from one address, at most (a venue behind one NAT: every
#: phone of a 1,000-player event with its page open)
STREAMS_PER_ADDRESS = 1000
#: open live-update streams in all, at most (each is one open socket; the process may
#: hold 20,000 files, and pages, the ledger and the proxy need the rest)
STREAMS = 10_000
#: the largest body of an API command (``server.api_commands``): a CSV of players or
#: slips of a large event fits with room to spare
API_BODY_MAX = 4 * 1024 * 1024


class Gate:
    """Open streams per address (thread-safe); ``enter`` refuses one over a bound."""

    def __init__(self, per_address: int = STREAMS_PER_ADDRESS, total: int = STREAMS) -> None:
        self.per_address, self.total = per_address, total
        self.open: dict[str, int] = {}
        self.count = 0
        self._lock = threading.Lock()

    def enter(self, who: str) -> bool:
        with self._lock:
            if self.count >= self.total or self.open.get(who, 0) >= self.per_address:
                return False
            self.open[who] = self.open.get(who, 0) + 1
            self.count += 1
            return True

    def leave(self, who: str) -> None:
        with self._lock:
            left = self.open.get(who, 0) - 1
            if left > 0:
                self.open[who] = left
            else:
                self.open.pop(who, None)
            self.count = max(0, self.count - 1)


class LiveStreams:
    """``GET /live``: the Server-Sent Events stream ``stream()`` gives, within ``gate`` —
    by default the application's own, ``app.state.hub.stream`` within ``app.state.gate``
    (``server.app.create_app`` keeps them there)."""

    def __init__(self, stream: Callable[[], AsyncIterator[str]] | None = None,
                 gate: Gate | None = None) -> None:
        self.stream, self.gate = stream, gate

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        stream: Callable[[], AsyncIterator[str]] = self.stream if self.stream is not None \
            else scope["app"].state.hub.stream
        gate: Gate = self.gate if self.gate is not None else scope["app"].state.gate
        client = scope.get("client")
        who = str(client[0]) if client else "?"
        if scope.get("method") not in ("GET", "HEAD"):
            await Response("GET /live only\n", status_code=405, media_type="text/plain",
                           headers={"Allow": "GET, HEAD"})(scope, receive, send)
            return
        if not gate.enter(who):
            body = json.dumps({"error": "too many live-update streams; this page polls "
                                        "every 15 s instead"})
            await Response(body + "\n", status_code=429, media_type="application/json",
                           headers={"Retry-After": "60", "Cache-Control": "no-store"}
                           )(scope, receive, send)
            return
        try:
            await StreamingResponse(stream(), media_type="text/event-stream",
                                    headers={"Cache-Control": "no-cache",
                                             "X-Accel-Buffering": "no"}
                                    )(scope, receive, send)
        finally:
            gate.leave(who)
