"""The HTTP API's OpenAPI document (issue 29 item 3): generated from the commands' specs
(``usecases.command_specs.CommandSpec``, read off the CLI's own signatures), never
written by hand.

Owns: ``openapi(specs, extra_paths)`` — an OpenAPI 3.1 document with ``POST
/api/v1/<path>`` for every spec (its JSON body: one property per parameter, by the
parameter's name, typed by its ``ParamKind``; the success and refusal bodies; the staff
card as a bearer token or, for the console's scripts, as its cookie with the form token
in ``X-CSRF-Token`` (``SECURITY``, ``SECURITY_SCHEMES``); the roles that may sign it
as ``x-roles``, from the ledger's roles table, and how it is saved as ``x-steps`` /
``x-atomic``; tagged by its group) and the paths ``extra_paths`` adds (the reads: GET
/api/v1/...), ``SUCCESS`` and ``REFUSAL`` (the two answer bodies as JSON schemas).

May import: ``usecases.command_specs``, ``server.cards`` and ``server.report`` (the
cookies' names), the standard library.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from server.cards import COOKIE
from server.report import CSRF_COOKIE
from usecases.command_specs import CommandSpec, Param, ParamKind

VERSION = "1"
SUCCESS: dict[str, Any] = {
    "type": "object", "required": ["ok", "seq", "events", "receipt", "text"],
    "properties": {
        "ok": {"const": True},
        "seq": {"type": ["integer", "null"], "description": "the log's size after it"},
        "events": {"type": "array", "items": {"type": "object"},
                   "description": "the signed leaves it wrote, decoded"},
        "receipt": {"type": ["object", "null"],
                    "description": "tourney-receipt/v1 of the result it recorded"},
        "text": {"type": "string", "description": "the CLI's lines"},
        "data": {"description": "the CLI's --json document"},
        "files": {"type": "array", "description": "files the command wrote for the caller "
                  "(seed commit's secret): never kept on the server",
                  "items": {"type": "object",
                            "required": ["param", "name", "encoding", "content"],
                            "properties": {"param": {"type": "string"},
                                           "name": {"type": "string"},
                                           "encoding": {"enum": ["utf-8", "base64"]},
                                           "content": {"type": "string"}}}}}}
REFUSAL: dict[str, Any] = {
    "type": "object", "required": ["ok", "error"],
    "properties": {
        "ok": {"const": False},
        "error": {"type": "object", "required": ["kind", "message", "hint", "rule"],
                  "properties": {
                      "kind": {"enum": ["usage", "auth", "rule", "verification", "storage",
                                        "internal"]},
                      "message": {"type": "string"},
                      "hint": {"type": ["string", "null"]},
                      "rule": {"type": ["string", "null"]}}}}}
#: how a command authenticates (``server.api_commands.api_official``): the bearer staff
#: card, or the card's cookie *and* the form token in ``X-CSRF-Token`` (both in one
#: requirement: OpenAPI ANDs the schemes of one object and ORs the objects)
SECURITY: list[dict[str, list[str]]] = [{"staffCard": []},
                                        {"cardCookie": [], "formToken": []}]
SECURITY_SCHEMES: dict[str, Any] = {
    "staffCard": {"type": "http", "scheme": "bearer",
                  "description": "the staff card's token (the code after /c/ in its link)"},
    "cardCookie": {"type": "apiKey", "in": "cookie", "name": COOKIE,
                   "description": "the console's session: the staff card's cookie, set "
                                  "when the card's link (/c/<token>) is opened; only with "
                                  "formToken, and not with an Authorization header"},
    "formToken": {"type": "apiKey", "in": "header", "name": "X-CSRF-Token",
                  "description": f"the form token: the value of the {CSRF_COOKIE} cookie "
                                 "a console page sets, sent with that cookie (from this "
                                 "site); the card's cookie without it is refused with "
                                 "403"}}
#: the refusal statuses and what each means (docs/API.md "Commands")
STATUSES = {"400": "usage: a parameter is missing, unknown or malformed (CLI exit 2)",
            "401": "no staff card, or an unknown or revoked one",
            "403": "a player's card, a key the server does not hold, or a role the rules "
                   "refuse (RULES-1.3)",
            "404": "no such command",
            "409": "refused by a rule (CLI exit 3); the rule is named",
            "413": "the body is too large",
            "422": "a signature, proof or checkpoint did not verify (CLI exit 4)",
            "429": "too many unknown cards from this address",
            "503": "the ledger cannot be read or written (CLI exit 5)"}


def _schema(p: Param) -> dict[str, Any]:
    one: dict[str, Any]
    if p.kind is ParamKind.INTEGER:
        one = {"type": "integer"}
    elif p.kind is ParamKind.NUMBER:
        one = {"type": "number"}
    elif p.kind is ParamKind.FLAG:
        one = {"type": "boolean"}
    elif p.kind is ParamKind.CHOICE and p.choices:
        one = {"type": "string", "enum": list(p.choices)}
    elif p.kind is ParamKind.FILE:
        one = {"type": "string", "contentMediaType": "text/plain",
               "description": "the file's contents (never a path on the server)"}
    else:
        one = {"type": "string"}
    out: dict[str, Any] = {"type": "array", "items": one} if p.multiple else dict(one)
    words = " ".join(x for x in (p.help, "CLI: " + " ".join(p.opts) if p.opts else
                                 f"CLI: the argument {p.metavar or p.name.upper()}") if x)
    if p.kind is ParamKind.FLAG and p.off:
        words += f"; false: {p.off}"
    out["description"] = (str(out.get("description", "")) + " " + words).strip()
    if p.default not in (None, (), [], "") and not p.multiple:
        out["default"] = p.default
    return out


def _who(spec: CommandSpec) -> str:
    """Who may sign it (``x-roles``, from the ledger's roles table) and how it is saved
    (``x-steps``): the rules still decide, a refusal is 403."""
    who = ", ".join(r.replace("_", " ") for r in spec.roles) or \
        "no role in this event's format"
    steps = {"one": "", "resumable": " Saved in several steps: run it again to continue.",
             "once": " Saved in several steps: a key in the browser cannot sign it "
                     "(…/prepare refuses it)."}[spec.steps.value]
    return f"\n\nSigned by: {who}.{steps}"


def operation(spec: CommandSpec) -> dict[str, Any]:
    required = [p.name for p in spec.params if p.required]
    body: dict[str, Any] = {"type": "object", "additionalProperties": False,
                            "properties": {p.name: _schema(p) for p in spec.params}}
    if required:
        body["required"] = required
    refusal = {"$ref": "#/components/responses/Refusal"}
    return {
        "operationId": spec.path.replace("/", "_").replace("-", "_"),
        "summary": spec.summary or spec.path,
        "description": spec.help + ("\n\nReads only: nothing is signed or written."
                                    if not spec.signed else _who(spec)),
        "tags": [spec.group or spec.words[0]],
        "x-roles": list(spec.roles),
        "x-atomic": spec.atomic,
        "x-steps": spec.steps.value,
        "security": SECURITY,
        "requestBody": {"required": bool(required),
                        "content": {"application/json": {"schema": body}}},
        "responses": {"200": {"description": "done (or, for a read, said)",
                              "content": {"application/json": {
                                  "schema": {"$ref": "#/components/schemas/Success"}}}},
                      **{code: refusal for code in STATUSES}},
    }


def openapi(specs: Sequence[CommandSpec],
            extra_paths: Mapping[str, Any] | None = None,
            extra_schemas: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The API's OpenAPI 3.1 document: the commands of ``specs``, ``extra_paths`` and the
    component schemas they refer to (``extra_schemas``)."""
    paths: dict[str, Any] = {f"/api/v1/{s.path}": {"post": operation(s)} for s in specs}
    for path, item in (extra_paths or {}).items():
        paths.setdefault(path, {}).update(item)
    return {
        "openapi": "3.1.0",
        "info": {"title": "tourney API", "version": VERSION,
                 "description": "The desk's commands, run by the CLI's own code and "
                                "signed by the official whose staff card authenticates "
                                "the request (docs/API.md)."},
        "paths": paths,
        "components": {
            "schemas": {**(extra_schemas or {}), "Success": SUCCESS, "Refusal": REFUSAL},
            "responses": {"Refusal": {
                "description": "refused; nothing was written. " + "; ".join(
                    f"{k}: {v}" for k, v in STATUSES.items()),
                "content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/Refusal"}}}}},
            "securitySchemes": SECURITY_SCHEMES},
    }
