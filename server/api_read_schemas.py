"""The OpenAPI 3.1 description of the HTTP API's reads (issue 29 item 3): plain data.

Owns: ``OPENAPI_PATHS`` (a path item per read of ``server.api_reads``, with parameters and
response schemas) and ``SCHEMAS`` (the component schemas they refer to, under
``#/components/schemas/``).  The API's generator merges both into
``/api/v1/openapi.json``; ``tests/test_api_reads.py`` validates a document holding them
and checks every answer of the reads against its schema.

May import: the standard library.
"""

from __future__ import annotations

from typing import Any

__all__ = ["OPENAPI_PATHS", "SCHEMAS"]

_REF = "#/components/schemas/"
_S = {"type": "string"}
_I = {"type": "integer"}
_B = {"type": "boolean"}


def _null(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [schema, {"type": "null"}]}


def _obj(required: list[str], **props: Any) -> dict[str, Any]:
    return {"type": "object", "required": required, "properties": props}


_CLOCK = _null(_obj(["round", "started", "minutes", "ends", "called"], round=_I,
                    started=_S, minutes=_I, ends=_S, called=_B))
_SEAT = _obj(["seat", "a", "b", "result", "players"], seat=_I, a=_S, b=_S, result=_S,
             players={"type": "array", "items": _I,
                      "description": "the two players' numbers at this seat"})
_TABLE = _obj(["table", "a", "b", "result", "entrants", "seats"],
              table={"type": ["integer", "string"]},
              a={**_S, "description": "side a as the pages name it (with its side, if any)"},
              b=_S, result={**_S, "description": "the format's words; '—' while none"},
              marks=_S, winner=_null({**_I, "description": "0: side a, 1: side b"}),
              entrants={"type": "array", "items": _I,
                        "description": "side a's and side b's numbers (teams' at a team "
                                       "table)"},
              seats={"type": "array", "items": _SEAT,
                     "description": "a team table's seats (empty otherwise)"})
_MATCH = _obj(["round", "name", "table", "opponent", "result", "outcome", "recorded"],
              round=_I, name=_S, table={"type": ["integer", "string"]}, opponent=_S,
              side=_S, team=_S, result=_S,
              outcome={"enum": ["won", "lost", "drew", "", "bye"]}, recorded=_B,
              extra_minutes=_I)
_ROW = _obj(["cells", "exact"], status=_S,
            cells={"type": "object", "additionalProperties": _S,
                   "description": "each column's text, by the column's key"},
            exact={"type": "object", "additionalProperties": _S,
                   "description": "a percentage's exact fraction, by the column's key"})

SCHEMAS: dict[str, Any] = {
    "ReadError": _obj(["ok", "error"], ok={"const": False}, error=_obj(
        ["kind", "message", "hint"], kind={"enum": ["usage", "storage"]}, message=_S, hint=_S)),
    "Event": _obj(
        ["ok", "tournament", "name", "format", "players", "status", "rounds", "held",
         "log", "pages"],
        ok={"const": True}, tournament=_S, name=_S,
        format=_obj(["id", "title"], id=_S, title=_S), round_noun=_S, players=_I,
        status=_S, over=_B, live=_B, champion=_null(_S),
        rounds={"type": "array", "items": _obj(
            ["round", "name", "closed", "tables"], round=_I, name=_S, phase=_S,
            closed=_B, tables=_I)},
        current_round=_null(_I), held={"type": "array", "items": _I}, clock=_CLOCK,
        bracket=_obj(["seeding", "seeds", "rounds"], seeding=_S,
                     seeds={"type": "array", "items": _obj(["seed", "label"], seed=_I,
                                                            label=_S)},
                     rounds={"type": "array", "items": _I,
                             "description": "the top cut's rounds (in /rounds/{n})"}),
        log=_obj(["size", "root", "served", "public_size"], size=_I, root=_S,
                 signed=_B, cosignatures=_I, latest_checkpoint=_null(_I), served=_B,
                 public_size=_I),
        pages=_obj(["names", "penalties", "hold_pairings"],
                   names={"enum": ["full", "initial", "number"]}, penalties=_B,
                   hold_pairings=_B)),
    "Round": _obj(
        ["ok", "round", "name", "closed", "tables"], ok={"const": True}, round=_I,
        name=_S, noun=_S, phase=_S, stage=_null(_S), closed=_B, paired_seq=_null(_I),
        pairing_note=_null(_S), override_note=_null(_S), bye=_null(_S),
        advances={"type": "array", "items": _S}, clock=_CLOCK,
        tables={"type": "array", "items": _TABLE}),
    "Standings": _obj(
        ["ok", "columns", "rows", "removed"], ok={"const": True}, heading=_null(_S),
        as_of=_null(_S),
        columns={"type": "array", "items": _obj(["key", "label", "title"], key=_S,
                                                 label=_S, title=_S)},
        rows={"type": "array", "items": _ROW},
        removed={"type": "array", "items": _obj(["number", "name", "word"], number=_I,
                                                 name=_S, word=_S)}),
    "Player": _obj(
        ["ok", "number", "label", "matches"], ok={"const": True}, number=_I, label=_S,
        dropped=_B, disqualified=_B, now=_null(_MATCH), held_next=_null(_I),
        standing=_null(_ROW), matches={"type": "array", "items": _MATCH},
        penalties=_null({"type": "array", "items": _S})),
}


def _json(name: str, what: str) -> dict[str, Any]:
    return {"description": what, "headers": {"ETag": {"schema": _S}},
            "content": {"application/json": {"schema": {"$ref": _REF + name}}}}


def _error(what: str) -> dict[str, Any]:
    return {"description": what,
            "content": {"application/json": {"schema": {"$ref": _REF + "ReadError"}}}}


_NOT_MODIFIED = {"304": {"description": "Not modified (If-None-Match held the ETag)"}}
_INM = {"name": "If-None-Match", "in": "header", "required": False, "schema": _S}


def _n(what: str) -> dict[str, Any]:
    return {"name": "n", "in": "path", "required": True, "description": what,
            "schema": {"type": "integer", "minimum": 1}}


def _get(op: str, summary: str, ok: dict[str, Any], *params: dict[str, Any],
         errors: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"get": {"operationId": op, "summary": summary, "tags": ["reads"],
                    "parameters": [*params, _INM],
                    "responses": {"200": ok, **_NOT_MODIFIED, **(errors or {})}}}


OPENAPI_PATHS: dict[str, Any] = {
    "/api/v1/event": _get(
        "readEvent", "The event: name, format, rounds posted and held, state, log size "
        "and root, the public pages' options", _json("Event", "The event")),
    "/api/v1/rounds/{n}": _get(
        "readRound", "A posted round's tables with their results, in the format's words "
        "(a held round is not posted)", _json("Round", "The round"),
        _n("the round (a Game in Wheel of Time)"),
        errors={"400": _error("Not a round number"),
                "404": _error("No posted pairings for that round")}),
    "/api/v1/standings": _get(
        "readStandings", "The standings the pages show, with the format's columns",
        _json("Standings", "The standings")),
    "/api/v1/players/{n}": _get(
        "readPlayer", "A player's matches, standing and table now",
        _json("Player", "The player"), _n("the player's number"),
        errors={"400": _error("Not a player number"),
                "404": _error("No such player")}),
    "/api/v1/log": _get(
        "readLog", "The signed leaves after seq `after`, verbatim, one per line "
        "(the lines of `tourney export`'s log.jsonl); up to just before a held round's "
        "pairing; only while the pages show full names and penalties",
        {"description": "NDJSON: each line one stored leaf (canonical JSON), in seq order",
         "headers": {"ETag": {"schema": _S},
                     "Tourney-Next-After": {"description": "the seq of the last leaf "
                                            "sent: the next request's `after`",
                                            "schema": _I},
                     "Tourney-Public-Size": {"description": "how many leaves are served "
                                             "now", "schema": _I}},
         "content": {"application/x-ndjson": {"schema": _S}}},
        {"name": "after", "in": "query", "required": False,
         "schema": {"type": "integer", "minimum": 0, "default": 0}},
        {"name": "limit", "in": "query", "required": False,
         "schema": {"type": "integer", "minimum": 1, "maximum": 5000, "default": 1000}},
        errors={"400": _error("`after` or `limit` is not a number in range"),
                "403": _error("The pages do not show full names and penalties"),
                "404": _error("`after` is beyond the leaves served"),
                "503": _error("The ledger cannot be read right now (kind: storage)")}),
    "/api/v1/stream": {"get": {
        "operationId": "readStream", "tags": ["reads"],
        "summary": "Server-Sent Events: `event: log` with {size, root, live, v, spread} "
                   "each time the pages change (v: the reads' ETag), the /live stream",
        "responses": {
            "200": {"description": "text/event-stream",
                    "content": {"text/event-stream": {"schema": _S}}},
            "429": {"description": "Too many open streams; poll instead"}}}},
}
