"""The HTTP API's reads (issue 29 item 3): the public pages' data as JSON, the signed
leaves for mirrors, and the live-update stream — free, open, no card.

Owns: ``routes`` — ``GET /api/v1/event``, ``/api/v1/rounds/{n}``, ``/api/v1/standings``,
``/api/v1/players/{n}``, ``/api/v1/log?after=SEQ&limit=N`` and ``/api/v1/stream``;
``OPENAPI_PATHS`` (their OpenAPI 3.1 path items, which the API's generator merges into
``/api/v1/openapi.json``); the documents (``event_doc``, ``round_doc``, ``standings_doc``,
``player_doc``) and ``log_gate`` (whether and how far the signed leaves are served).

What they show is exactly what the public pages show, read from the same data
(``server.view.LiveData`` of the hub's current ``PageSet``: folded once per log size by the
follower, never per request): posted rounds only (a held round's pairings are not public:
ADR 0023), players named by the organizer's names mode, penalties only if published.  Each
document is encoded once per ``PageSet`` (and not again at the next log size when it is
made of data the follower kept: the standings while a round is played, earlier rounds)
and served from memory with the pages' ETag (``server.pages.etag_of``): 304 on
``If-None-Match``, gzip when asked.  The signed leaves
are served verbatim as NDJSON (one leaf per line, the bytes of ``tourney export``'s
``log.jsonl``), only while the names mode is ``full`` and penalties are public (the leaves
hold both), and only up to just before the earliest held pairing (``public_size``).  Bad
input is ``{"ok": false, "error": {"kind": "usage", "message", "hint"}}`` with 400, 403 or
404, never a 5xx (a ledger that cannot be read is 503, ``"kind": "storage"``).
ADR 0045 (``docs/adr/0045-api-reads-gates-and-leaves.md``).

May import: ``starlette``, ``server.hub``, ``server.pages``, ``server.site_routes``,
``server.limits``, ``server.errors``, ``server.view``, ``server.api_read_schemas``,
``ledger.*``, the standard library.
"""

from __future__ import annotations

import gzip
import json
import threading
import weakref
from collections.abc import Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route
from starlette.types import Message, Receive, Scope, Send

from ledger.errors import StorageError
from ledger.wire.pages import NameStyle
from server.api_read_schemas import OPENAPI_PATHS
from server.errors import RETRY_AFTER_S, STORAGE, whole
from server.hub import Hub
from server.limits import LiveStreams
from server.pages import Page, PageSet
from server.site_routes import respond
from server.view import Appearance, LiveData

__all__ = ["LIMIT", "MAX_LIMIT", "OPENAPI_PATHS", "PREFIX", "event_doc", "log_gate",
           "player_doc", "round_doc", "routes", "standings_doc"]

PREFIX = "/api/v1"
JSON = "application/json"
NDJSON = "application/x-ndjson"
LIMIT = 1000          # leaves per /log answer unless ``limit`` says fewer …
MAX_LIMIT = 5000      # … or more, up to this
OPEN = {"Access-Control-Allow-Origin": "*"}    # free and open: a broadcaster's overlay too


# -- the documents (plain data of one LiveData) ----------------------------------------------
def _table(t: dict[str, Any]) -> dict[str, Any]:
    """A table of ``projections.site.round_view`` as the page shows it: ``a`` and ``b``
    (labels, with a side where the format has one), ``entrants`` (their numbers: players,
    or teams at a team table, whose ``seats`` then name the players, with ``players``)."""
    return {**t, "seats": [dict(s) for s in t.get("seats") or []]}


def _clock(d: LiveData, number: int | None) -> dict[str, Any] | None:
    c = d.clock
    if c is None or number is None or c.round != number:
        return None
    return {"round": c.round, "started": c.started, "minutes": c.minutes, "ends": c.ends,
            "called": c.called}


def log_gate(d: LiveData) -> tuple[bool, int]:
    """Whether the signed leaves are served (they hold every name and every penalty: only
    when the pages show full names and penalties) and up to which seq (the log before the
    earliest held pairing; the whole folded log when none is held)."""
    return (d.names is NameStyle.FULL and d.penalties is not None,
            min(d.public_size, d.checkable.size))


def event_doc(d: LiveData) -> dict[str, Any]:
    served, upto = log_gate(d)
    current = d.current
    return {
        "ok": True, "tournament": d.log, "name": d.name,
        "format": {"id": d.format_id, "title": d.format_title}, "round_noun": d.noun,
        "players": d.players, "status": d.status, "over": d.over, "live": d.live,
        "champion": d.champion,
        "rounds": [{"round": r["round"], "name": r["name"], "phase": r["phase_label"],
                    "closed": bool(r["closed"]), "tables": len(r["tables"])}
                   for r in d.rounds],
        "current_round": current["round"] if current is not None else None,
        "held": list(d.held),
        "bracket": {"seeding": d.bracket["seeding"],
                    "seeds": [{"seed": i, "label": label} for i, label in d.bracket["seeds"]],
                    "rounds": [r["round"] for r in d.bracket["rounds"]]},
        "clock": _clock(d, current["round"] if current is not None else None),
        "log": {**d.checkable.json(), "served": served, "public_size": upto},
        "pages": {"names": d.names.value, "penalties": d.penalties is not None,
                  "hold_pairings": d.hold_pairings},
    }


def round_doc(d: LiveData, number: int) -> dict[str, Any] | None:
    r = d.round(number)
    if r is None:
        return None
    return {
        "ok": True, "round": r["round"], "name": r["name"], "noun": r["noun"],
        "phase": r["phase_label"], "stage": r["stage"], "closed": bool(r["closed"]),
        "paired_seq": r["paired_seq"], "pairing_note": r["pairing_note"],
        "override_note": r["override_note"], "bye": r["bye_label"],
        "advances": list(r["advance_labels"]), "clock": _clock(d, number),
        "tables": [_table(t) for t in r["tables"]],
    }


def _row(columns: list[str], cells: list[dict[str, Any]]) -> dict[str, Any]:
    return {"cells": {k: c["text"] for k, c in zip(columns, cells, strict=True)},
            "exact": {k: c["exact"] for k, c in zip(columns, cells, strict=True)
                      if c.get("exact") is not None}}


def standings_doc(d: LiveData) -> dict[str, Any]:
    t = d.standings
    removed = [{"number": n, "name": name, "word": word}
               for n, (name, word) in sorted(d.removed.items())]
    if t is None:
        return {"ok": True, "heading": None, "as_of": None, "columns": [], "rows": [],
                "removed": removed}
    keys = [str(c["key"]) for c in t["columns"]]
    return {"ok": True, "heading": t["heading"], "as_of": t.get("as_of"),
            "columns": [{"key": c["key"], "label": c["label"], "title": c["title"]}
                        for c in t["columns"]],
            "rows": [{"status": row["status"], **_row(keys, row["cells"])}
                     for row in t["rows"]],
            "removed": removed}


def _match(d: LiveData, a: Appearance) -> dict[str, Any]:
    r = d.rounds[a.round_index]
    return {"round": r["round"], "name": r["name"], "table": a.where,
            "opponent": a.opponent, "side": a.side, "team": a.team, "result": a.words,
            "outcome": a.outcome, "recorded": a.recorded, "extra_minutes": a.extra_minutes}


def player_doc(d: LiveData, number: int) -> dict[str, Any] | None:
    if number not in d.labels:
        return None
    current, held_next = d.now_of(number)
    cells = d.standing_of.get(number)
    keys = [str(c["key"]) for c in d.standings["columns"]] if d.standings else []
    return {
        "ok": True, "number": number, "label": d.labels[number],
        "dropped": number in d.dropped, "disqualified": number in d.disqualified,
        "now": None if current is None else _match(d, current), "held_next": held_next,
        "standing": _row(keys, cells) if cells is not None and keys else None,
        "matches": [_match(d, a) for a in d.appearances(number)],
        "penalties": None if d.penalties is None else list(d.penalties.get(number, [])),
    }


# -- encoded once per PageSet ----------------------------------------------------------------
_docs: weakref.WeakKeyDictionary[PageSet, dict[str, Page | None]] = \
    weakref.WeakKeyDictionary()
_lock = threading.Lock()


def _encode(doc: dict[str, Any], etag: str) -> Page:
    body = json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"
    gz = gzip.compress(body, 6, mtime=0) if len(body) >= 512 else None
    return Page(body=body, gz=gz, etag=etag, content_type=JSON)


#: the last body of each document made from data kept from one log size to the next (the
#: standings while a round is played, an earlier round): ``source`` -> body, reused
_bodies: dict[str, tuple[tuple[object, object], Page]] = {}


def _source(d: LiveData, key: str) -> tuple[object, object] | None:
    """What the document ``key`` is made of, when the follower keeps it as the same object
    across log sizes (``server.view.build``): that object and what else the document
    shows; None for a document made afresh each time."""
    if key == "standings":
        return d.standings, tuple(sorted(d.removed.items()))
    if key.startswith("round/"):
        n = int(key.partition("/")[2])
        return d.round(n), _clock(d, n)
    return None


def document(pages: PageSet, key: str,
             make: Callable[[LiveData], dict[str, Any] | None]) -> Page | None:
    """The document ``key`` of ``pages``' log size, encoded once (None: there is none);
    a body made of the same kept data as at the last log size is not encoded again."""
    with _lock:
        kept = _docs.setdefault(pages, {})
        if key in kept:
            return kept[key]
        src = _source(pages.data, key)
        last = _bodies.get(key)
    if src is not None and src[0] is not None and last is not None \
            and last[0][0] is src[0] and last[0][1] == src[1]:
        page: Page | None = Page(body=last[1].body, gz=last[1].gz, etag=pages.etag,
                                 content_type=JSON)
    else:
        doc = make(pages.data)
        page = None if doc is None else _encode(doc, pages.etag)
        if src is not None and page is not None:
            with _lock:
                _bodies[key] = (src, page)
    with _lock:
        return kept.setdefault(key, page)


# -- answers ---------------------------------------------------------------------------------
def refuse(status: int, message: str, hint: str, kind: str = "usage") -> Response:
    """The API's refusal: one sentence of what was wrong and one of what to do."""
    body = {"ok": False, "error": {"kind": kind, "message": message, "hint": hint}}
    extra = {"Retry-After": str(RETRY_AFTER_S)} if status == STORAGE else {}
    return Response(json.dumps(body, ensure_ascii=False) + "\n", status_code=status,
                    media_type=JSON, headers={"Cache-Control": "no-store", **OPEN, **extra})


def _answer(request: Request, page: Page) -> Response:
    resp = respond(request, page)
    resp.headers.update(OPEN)
    return resp


async def _serve(request: Request, key: str,
                 make: Callable[[LiveData], dict[str, Any] | None]) -> Page | None:
    pages = Hub.of(request).pages
    with _lock:
        kept = _docs.get(pages)
        if kept is not None and key in kept:
            return kept[key]
    return await run_in_threadpool(document, pages, key, make)


def _none() -> Response:      # event_doc and standings_doc always answer: never reached
    return refuse(404, "there is no such document", f"see {PREFIX}/event")


def _number(request: Request) -> int | None:
    return whole(request.path_params["n"])


async def event(request: Request) -> Response:
    page = await _serve(request, "event", event_doc)
    return _answer(request, page) if page is not None else _none()


async def rounds(request: Request) -> Response:
    raw, n = request.path_params["n"], _number(request)
    data = Hub.of(request).pages.data
    if n is None or n < 1:
        return refuse(400, f"'{raw[:20]}' is not a {data.noun.lower()} number",
                      f"give a whole number from 1, e.g. {PREFIX}/rounds/1")
    page = await _serve(request, f"round/{n}", lambda d: round_doc(d, n))
    if page is None:
        posted = [r["round"] for r in data.rounds]
        return refuse(404, f"{data.noun} {n} has no posted pairings",
                      f"posted: {', '.join(map(str, posted)) or 'none yet'}; "
                      f"see {PREFIX}/event")
    return _answer(request, page)


async def standings(request: Request) -> Response:
    page = await _serve(request, "standings", standings_doc)
    return _answer(request, page) if page is not None else _none()


async def players(request: Request) -> Response:
    raw, n = request.path_params["n"], _number(request)
    data = Hub.of(request).pages.data
    if n is None or n < 1:
        return refuse(400, f"'{raw[:20]}' is not a player number",
                      f"give a whole number from 1, e.g. {PREFIX}/players/1")
    page = await _serve(request, f"player/{n}", lambda d: player_doc(d, n))
    if page is None:
        return refuse(404, f"no player #{n} is registered in this event",
                      f"players are numbered 1 to {data.players}")
    return _answer(request, page)


def _query_int(request: Request, name: str, default: int) -> int | None:
    raw = request.query_params.get(name)
    return default if raw is None else whole(raw)


def _leaves(hub: Hub, after: int, upto: int) -> bytes:
    """The stored leaves ``after`` < seq <= ``upto``, verbatim, one per line (from a
    read-only connection of its own: the follower's is its thread's)."""
    from ledger.storage.store import Ledger

    with Ledger(hub.location, readonly=True) as led:
        return b"".join(leaf + b"\n" for _seq, leaf in
                        led.raw_leaves(hub.follower.log, after=after, upto=upto))


async def log(request: Request) -> Response:
    hub = Hub.of(request)
    data = hub.pages.data
    after, limit = _query_int(request, "after", 0), _query_int(request, "limit", LIMIT)
    served, upto = log_gate(data)
    if after is None:
        return refuse(400, f"after={request.query_params['after'][:20]!r} is not a seq",
                      "give the seq of the last leaf you hold, 0 for the first page")
    if limit is None or not 1 <= limit <= MAX_LIMIT:
        return refuse(400, f"limit={request.query_params['limit'][:20]!r} is not a "
                           f"number from 1 to {MAX_LIMIT}",
                      f"leave it out for {LIMIT} leaves a page")
    if not served:
        return refuse(403, "this event's public pages do not show full names and "
                           "penalties, and its signed leaves hold both, so they are not "
                           "served", "follow the event's reads instead (/api/v1/event); "
                           "the organizer can publish them ('tourney pages set --names "
                           "full --penalties') or give an auditor an export bundle")
    if after > upto:
        return refuse(404, f"after={after} is beyond the {upto} leaves served",
                      "ask again from the seq of the last leaf you hold"
                      + (" (a held round's pairing and what follows it are served once "
                         "it is posted)" if upto < data.checkable.size else ""))
    end = min(after + limit, upto)
    page = Page(body=b"", gz=None, etag=f"log-{data.log}-{after}-{end}",
                content_type=NDJSON)
    headers = {"Tourney-Next-After": str(end), "Tourney-Public-Size": str(upto), **OPEN}
    resp = respond(request, page)              # a 304 (or an empty page) reads nothing
    if resp.status_code != 304 and end > after:
        try:
            body = await run_in_threadpool(_leaves, hub, after, end)
        except StorageError as err:
            return refuse(STORAGE, f"the ledger cannot be read right now: {err.message}",
                          f"ask again in {RETRY_AFTER_S} s", kind="storage")
        # compressed per request, and leaves are mostly signatures and hashes: level 1
        gz = gzip.compress(body, 1, mtime=0) if len(body) >= 512 else None
        resp = respond(request, Page(body=body, gz=gz, etag=page.etag,
                                     content_type=NDJSON))
    resp.headers.update(headers)
    return resp


class OpenStream:
    """``/live`` (``server.limits.LiveStreams``: the same stream, the same bounds) with
    ``Access-Control-Allow-Origin: *``, so that a page on another site can follow it."""

    def __init__(self) -> None:
        self.live = LiveStreams()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_open(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []),
                                                  (b"access-control-allow-origin", b"*")]}
            await send(message)

        await self.live(scope, receive, send_open)


routes: list[BaseRoute] = [
    Route(f"{PREFIX}/event", event), Route(f"{PREFIX}/rounds/{{n}}", rounds),
    Route(f"{PREFIX}/standings", standings), Route(f"{PREFIX}/players/{{n}}", players),
    Route(f"{PREFIX}/log", log), Route(f"{PREFIX}/stream", OpenStream()),
]
