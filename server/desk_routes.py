"""The staff console ``/desk`` of ``tourney serve`` (issue 29 item 1): everything an
official does during an event, from a browser, each action limited to the official's
roles exactly as the CLI is (the CLI's own commands run it: the server's runner).

Owns: ``routes`` — ``GET /desk`` (who is signed in, their roles, the key mode, the round
at a glance: ``server.desk_glance``; the commands in panels; ``?q=`` filters them, in
English or in the page's language),
``GET|POST /desk/do/{path}`` (one command's form generated from its spec,
``server.desk_forms``; posted, it runs through ``request.app.state.runner`` and shows the
CLI's text, or the refusal as the CLI's sentence, nothing written; a disqualification
only after a confirmation step; ``check`` shows what would be recorded, signing
nothing), ``POST /desk/args/{path}`` (the posted form as the command's JSON arguments,
for a browser-held key's prepare / sign / submit), the result by table and the slips
(``server.desk_result``) and the console's ``/desk.css`` and ``/desk.js``.

May import: ``starlette``, ``server.*`` (not ``server.app``), ``usecases.command_specs``,
``ledger.*``, the standard library.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from ledger.errors import UsageError
from server import desk_result
from server.command_words import command_words
from server.desk_common import (
    official,
    page,
    posted,
    run_command,
    spec_of,
    specs_of,
    words,
)
from server.desk_forms import args_from, fields_of, label_of, lists, panels
from server.desk_glance import glance
from server.errors import whole
from server.hub import Hub
from server.i18n import of_request
from usecases.command_specs import CommandSpec, Outcome

TEMPLATES = Path(__file__).resolve().parent / "templates"
CONFIRM = {"disqualify"}          # commands asked twice before they are signed


async def desk(request: Request) -> Response:
    hub = Hub.of(request)
    kid, why = official(request)
    if kid is None:
        return page(request, "desk.html", 403, problem=why, g=None, groups=[])
    done = whole(request.query_params.get("done"), 18)
    # the glance reads the folded state and the pages' data of ONE log size: while appends
    # stream in, the hub builds pages at most once a gap (ADR 0051), so the console asks
    # for the pages of what is folded (built at once for a waiting request), and for at
    # least what its own command wrote
    await hub.fresh(max(done or 0, hub.follower.state.size), shown=True)
    q = request.query_params.get("q", "").strip().lower()[:60]
    # a signing command no role may sign in this event's format (a team's in a solo
    # event, WoT's elsewhere) is left out; one for other roles is marked, or left out
    # with ?mine=1 (the ledger still decides: posting it gives the CLI's refusal)
    mine = {r.value for r in hub.follower.state.active_roles(kid)}
    only_mine = request.query_params.get("mine") == "1"
    cw = command_words(of_request(request, hub.pages.data.language))
    specs = [s for s in specs_of(request)
             if (not q or q in s.path.replace("/", " ") or q in s.summary.lower()
                 or cw.finds(s, q))
             and (not s.signed or s.roles)
             and (not only_mine or not s.signed or mine.intersection(s.roles))]
    g = glance(hub.follower.state, hub.pages.data)
    notyours = {s.path for s in specs if s.signed and not mine.intersection(s.roles)}
    return page(request, "desk.html", g=g, groups=panels(specs), q=q, done=done,
                notyours=notyours, only_mine=only_mine,
                rounds=[r["round"] for r in hub.pages.data.rounds])


def _outcome_page(request: Request, spec: CommandSpec, out: Outcome,
                  posted: dict[str, str], preview: bool = False) -> Response:
    if out.ok:
        return page(request, "desk_do.html", 200, spec=spec, fields=fields_of(spec, posted),
                    done=out, preview=preview, guide=_guide(spec))
    msg, hint, rule = words(out.error)
    return page(request, "desk_do.html", out.status, spec=spec,
                fields=fields_of(spec, posted), refused=(msg, hint, rule),
                written=out.seq if out.events else None,     # a partial import
                guide=_guide(spec))


def _guide(spec: CommandSpec) -> dict[str, list[tuple[str, str]]]:
    return lists(spec)


async def do_form(request: Request) -> Response:
    spec = spec_of(request, request.path_params["path"])
    kid, why = official(request)
    if kid is None:
        return page(request, "desk.html", 403, problem=why, g=None, groups=[])
    if spec is None:
        return page(request, "desk.html", 404, g=None, groups=[],
                    problem="The desk has no such command; pick one from the console.")
    given = {k: v for k, v in request.query_params.items() if len(v) < 200}
    return page(request, "desk_do.html", spec=spec, fields=fields_of(spec, given),
                guide=_guide(spec))


async def do(request: Request) -> Response:
    kid, fields, files, refused = await posted(request)
    if refused is not None or kid is None:
        return refused or Response(status_code=403)
    spec = spec_of(request, request.path_params["path"])
    if spec is None:
        return page(request, "desk.html", 404, g=None, groups=[],
                    problem="The desk has no such command; pick one from the console.")
    try:
        args = args_from(spec, fields, files)
    except UsageError as err:
        out = Outcome(ok=False, status=400, error={"kind": "usage", "message": err.message,
                                                   "hint": err.hint, "rule": None})
        return _outcome_page(request, spec, out, fields)
    if "check" in fields:
        return _outcome_page(request, spec, await run_command(request, kid, spec, args, True),
                             fields, preview=True)
    if spec.path in CONFIRM and fields.get("confirm") != "yes":
        return page(request, "desk_confirm.html", spec=spec, fields=fields_of(spec, fields),
                    posted={k: v for k, v in fields.items() if k not in ("csrf",
                                                                          "confirm")},
                    shown=[(label_of(p), args.get(p.name)) for p in spec.params
                            if p.name in args])
    out = await run_command(request, kid, spec, args)
    if out.ok and out.seq and fields.get("back") == "desk":     # a button of the glance
        return RedirectResponse(f"/desk?done={out.seq}", status_code=303)
    return _outcome_page(request, spec, out, fields)


async def as_args(request: Request) -> Response:
    """``POST /desk/args/{path}``: the posted form as the command's arguments (JSON), for
    a browser-held key: ``desk.js`` then prepares, signs and submits them
    (``/api/v1/{path}/prepare|submit``).  Nothing runs here."""
    kid, fields, files, refused = await posted(request)
    if refused is not None or kid is None:
        return JSONResponse({"ok": False, "error": {
            "kind": "usage", "message": "sign in with your staff card and send the form "
            "from the console", "hint": "", "rule": None}}, status_code=403)
    path = request.path_params["path"]
    spec = spec_of(request, desk_result.RESULT if path == "result" else path)
    try:
        if spec is None:
            raise UsageError(f"the desk has no command {path!r}",
                             hint="pick one from the console")
        args: dict[str, Any] = desk_result.result_args(request, spec, fields)[1] \
            if path == "result" else args_from(spec, fields, files)
    except UsageError as err:
        return JSONResponse({"ok": False, "error": {"kind": "usage", "message": err.message,
                                                    "hint": err.hint, "rule": None}},
                            status_code=400)
    return JSONResponse({"ok": True, "path": spec.path, "args": args},
                        headers={"Cache-Control": "no-store"})


async def static(request: Request) -> Response:
    name = request.url.path.lstrip("/")
    body = (TEMPLATES / name).read_bytes()
    ctype = "text/css" if name.endswith(".css") else "text/javascript"
    return Response(body, media_type=ctype + "; charset=utf-8",
                    headers={"Cache-Control": "no-cache",
                             "X-Content-Type-Options": "nosniff"})


routes: list[BaseRoute] = [
    Route("/desk", desk, methods=["GET"]),
    *desk_result.routes,
    Route("/desk/do/{path:path}", do_form, methods=["GET"]),
    Route("/desk/do/{path:path}", do, methods=["POST"]),
    Route("/desk/args/{path:path}", as_args, methods=["POST"]),
    Route("/desk.css", static, methods=["GET"]),
    Route("/desk.js", static, methods=["GET"]),
]
