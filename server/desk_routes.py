"""The staff console ``/desk`` of ``tourney serve`` (issue 29 item 1): everything an
official does during an event, from a browser, each action limited to the official's
roles exactly as the CLI is (the CLI's own commands run it: the runner).

Owns: ``routes`` — ``GET /desk`` (who is signed in, their roles, the key mode, the round
at a glance: ``server.desk_glance``; the commands in panels; ``?q=`` filters them),
``GET|POST /desk/do/{path}`` (one command's form generated from its spec,
``server.desk_forms``; posted, it runs through ``request.app.state.runner``
(``usecases.command_specs.CommandRunner``, built by ``tourney serve`` from the typer
tree) and shows the CLI's text, or the refusal as the CLI's sentence, nothing written;
a disqualification only after a confirmation step; ``check`` previews instead of
signing), ``GET|POST /desk/result`` (a result by table number: the outcome picked from
the format's vocabulary, the report form's own ``server.report.form_for``, recorded as
``result record``), ``GET /desk/slips/{n}`` (a round's result slips to print) and the
console's ``/desk.css`` and ``/desk.js``.  Signed with the official's own key, which the
server holds only when started with ``--staff-key`` (the key mode says so).

May import: ``starlette``, ``server.*`` (not ``server.app``), ``usecases.command_specs``,
``ledger.*``, the standard library.
"""

from __future__ import annotations

import enum
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ledger.errors import UsageError
from server.desk_forms import args_from, fields_of, guide, label_of, panels
from server.desk_glance import glance
from server.errors import Refused, whole
from server.form_body import read_body
from server.forms import private_page
from server.hub import Hub
from server.report import CSRF_COOKIE, csrf_ok, new_csrf
from server.staff_routes import official
from usecases.command_specs import CommandRunner, CommandSpec, Outcome, ParamKind

TEMPLATES = Path(__file__).resolve().parent / "templates"
RESULT = "result/record"
CONFIRM = {"disqualify"}          # commands asked twice before they are signed


class KeyMode(enum.Enum):
    """Who signs the official's commands from this console."""

    SERVER = "server"     # the server holds the official's key (--staff-key)
    BROWSER = "browser"   # a key made in this browser, bound by the head judge
    NONE = "none"         # neither: the console reads, the desk's CLI signs


def key_mode(request: Request, kid: str) -> KeyMode:
    station = getattr(request.app.state, "station", None)
    if station is not None and kid in station.staff:
        return KeyMode.SERVER
    bound = getattr(request.app.state, "browser_keys", None)
    if callable(bound) and bound(kid):
        return KeyMode.BROWSER
    return KeyMode.NONE


def runner_of(request: Request) -> CommandRunner | None:
    runner: CommandRunner | None = getattr(request.app.state, "runner", None)
    return runner


def _specs(request: Request) -> list[CommandSpec]:
    runner = runner_of(request)
    return list(runner.specs()) if runner is not None else []


def _spec(request: Request, path: str) -> CommandSpec | None:
    runner = runner_of(request)
    return None if runner is None else next((s for s in runner.specs() if s.path == path),
                                            None)


def _page(request: Request, name: str, status: int = 200, **kw: Any) -> Response:
    hub = Hub.of(request)
    csrf = request.cookies.get(CSRF_COOKIE) or new_csrf()
    kid, why = official(request)
    st = hub.follower.state
    off = st.officials.get(kid) if kid else None
    roles = sorted(r.value for r in st.active_roles(kid)) if kid else []
    ctx = {"problem": None, "done": None, "refused": None, "preview": False, "g": None,
           "groups": [], "guide": [], "form": None, "round": None, "table": None,
           "kid": kid, "why": why, "who": off.name if off else None,
           "roles": roles, "mode": key_mode(request, kid).value if kid else "none",
           "has_runner": runner_of(request) is not None, **kw}
    return private_page(hub, name, status, {CSRF_COOKIE: csrf}, csrf=csrf, **ctx)


def _words(error: dict[str, Any] | None) -> tuple[str, str, str]:
    """(sentence, hint, rule) of a refusal as the CLI prints it."""
    e = error or {}
    return str(e.get("message") or "refused"), str(e.get("hint") or ""), \
        str(e.get("rule") or "")


async def desk(request: Request) -> Response:
    hub = Hub.of(request)
    kid, why = official(request)
    if kid is None:
        return _page(request, "desk.html", 403, problem=why, g=None, groups=[])
    done = whole(request.query_params.get("done"), 18)
    if done is not None:
        await hub.fresh(done, shown=True)
    q = request.query_params.get("q", "").strip().lower()[:60]
    specs = [s for s in _specs(request)
             if not q or q in s.path.replace("/", " ") or q in s.summary.lower()]
    g = glance(hub.follower.state, hub.pages.data)
    mine = {r.value for r in hub.follower.state.active_roles(kid)}
    notyours = {s.path for s in specs if s.roles and not mine.intersection(s.roles)}
    return _page(request, "desk.html", g=g, groups=panels(specs), q=q, done=done,
                 notyours=notyours,
                 rounds=[r["round"] for r in hub.pages.data.rounds])


def _outcome_page(request: Request, spec: CommandSpec, out: Outcome,
                  posted: dict[str, str], preview: bool = False) -> Response:
    if out.ok:
        return _page(request, "desk_do.html", 200, spec=spec, fields=fields_of(spec, posted),
                     done=out, preview=preview, guide=_guide(spec))
    msg, hint, rule = _words(out.error)
    return _page(request, "desk_do.html", out.status, spec=spec,
                 fields=fields_of(spec, posted), refused=(msg, hint, rule),
                 guide=_guide(spec))


def _guide(spec: CommandSpec) -> list[tuple[str, str]]:
    return guide() if spec.param("infraction") is not None else []


async def do_form(request: Request) -> Response:
    spec = _spec(request, request.path_params["path"])
    kid, why = official(request)
    if kid is None:
        return _page(request, "desk.html", 403, problem=why, g=None, groups=[])
    if spec is None:
        return _page(request, "desk.html", 404, g=None, groups=[],
                     problem="The desk has no such command; pick one from the console.")
    given = {k: v for k, v in request.query_params.items() if len(v) < 200}
    return _page(request, "desk_do.html", spec=spec, fields=fields_of(spec, given),
                 guide=_guide(spec))


async def _posted(request: Request) -> tuple[str | None, dict[str, str], dict[str, bytes],
                                              Response | None]:
    """The signed-in official and the posted form, or the page that refuses it."""
    fields, files = await read_body(request)
    if not csrf_ok(request.cookies.get(CSRF_COOKIE), fields.get("csrf"),
                   request.headers.get("origin"), request.headers.get("host", "")):
        return None, fields, files, _page(
            request, "desk.html", 403, g=None, groups=[], problem="This form is out of "
            "date or did not come from this site; open the console again.")
    kid, why = official(request)
    if kid is None:
        return None, fields, files, _page(request, "desk.html", 403, problem=why, g=None,
                                          groups=[])
    return kid, fields, files, None


def _no_key(request: Request, kid: str) -> Outcome:
    """The refusal of a command from an official whose key this server does not hold
    (a browser key signs through ``…/prepare`` and ``…/submit`` instead)."""
    return Outcome(ok=False, status=403, error={
        "kind": "usage", "message": "this server does not hold your key, so it cannot "
        "sign for you", "hint": "restart it with --staff-key YOUR.pem, or run the command "
        "at the desk with your key", "rule": None})


async def _run(request: Request, kid: str, spec: CommandSpec, args: dict[str, Any],
               preview: bool = False) -> Outcome:
    runner = runner_of(request)
    if runner is None:
        raise Refused(503, "This server runs no commands; start it with 'tourney serve'.")
    station = request.app.state.station
    signer = station.staff.get(kid)
    if signer is None:
        if spec.signed:
            return _no_key(request, kid)
        signer = station.signer      # a read: nothing is signed or written
    if preview:
        return await _check(request, runner, spec, args, signer)
    out = await run_in_threadpool(runner.run, spec.path, args, signer)
    if out.ok and out.seq:
        await Hub.of(request).fresh(out.seq)
    return out


def _offer_of(request: Request, spec: CommandSpec) -> CommandSpec | None:
    """The command that says what ``spec`` would do and writes nothing (``penalty
    offer`` for ``penalty issue``: the Guide's default and the upgrade, TC-20)."""
    head = spec.path.rsplit("/", 1)[0]
    return _spec(request, head + "/offer") if "/" in spec.path else None


async def _check(request: Request, runner: CommandRunner, spec: CommandSpec,
                 args: dict[str, Any], signer: Any) -> Outcome:
    """What ``spec`` would record, signing nothing: the runner's preview (decided on the
    ledger as it is, not saved) and the command's offer (the upgrade) when it has one."""
    texts: list[str] = []
    offer = _offer_of(request, spec)
    if offer is not None:
        some = {k: v for k, v in args.items() if offer.param(k) is not None}
        out: Outcome = await run_in_threadpool(runner.run, offer.path, some, signer)
        if not out.ok:
            return out
        texts.append(out.text)
    look = getattr(runner, "preview", None)
    if look is not None:
        out = await run_in_threadpool(look, spec.path, args, signer)
        if not out.ok:
            return out
        texts.append(out.text)
    if not texts:
        return Outcome(ok=False, status=400, error={
            "kind": "usage", "message": "this command has no check: it is decided when "
            "it is signed", "hint": "sign it, or check the rules first", "rule": None})
    return Outcome(ok=True, status=200, text="\n".join(t for t in texts if t))


async def do(request: Request) -> Response:
    kid, fields, files, refused = await _posted(request)
    if refused is not None or kid is None:
        return refused or Response(status_code=403)
    spec = _spec(request, request.path_params["path"])
    if spec is None:
        return _page(request, "desk.html", 404, g=None, groups=[],
                     problem="The desk has no such command; pick one from the console.")
    try:
        args = args_from(spec, fields, files)
    except UsageError as err:
        out = Outcome(ok=False, status=400, error={"kind": "usage", "message": err.message,
                                                   "hint": err.hint, "rule": None})
        return _outcome_page(request, spec, out, fields)
    if "check" in fields:
        return _outcome_page(request, spec, await _run(request, kid, spec, args, True),
                             fields, preview=True)
    if spec.path in CONFIRM and fields.get("confirm") != "yes":
        return _page(request, "desk_confirm.html", spec=spec, fields=fields_of(spec, fields),
                     posted={k: v for k, v in fields.items() if k not in ("csrf",
                                                                          "confirm")},
                     shown=[(label_of(p), args.get(p.name)) for p in spec.params
                            if p.name in args])
    return _outcome_page(request, spec, await _run(request, kid, spec, args), fields)


async def result_form(request: Request) -> Response:
    """``GET /desk/result?round=R&table=T``: the table's outcomes to pick from."""
    from server.report import form_for

    hub = Hub.of(request)
    kid, why = official(request)
    if kid is None:
        return _page(request, "desk.html", 403, problem=why, g=None, groups=[])
    st = hub.follower.state
    from ledger.core.reports import current_round

    rnd = whole(request.query_params.get("round")) or current_round(st)
    table = whole(request.query_params.get("table"))
    form = None if rnd is None or table is None else \
        form_for(st, rnd, table, hub.pages.data.labels)
    problem = None if table is None or form is not None else \
        f"Round {rnd} has no table {table}; check the number."
    return _page(request, "desk_result.html", 200 if problem is None else 404,
                 round=rnd, table=table, form=form, problem=problem,
                 labels=hub.pages.data.labels)


def _result_args(state: Any, given: dict[str, str]) -> dict[str, Any]:
    """A table's outcome in the vocabulary's words → ``result record``'s arguments (the
    vocabulary names each field's option: ``ledger.core.vocabulary.ResultField``)."""
    from ledger.core.format_socket import plugin_for
    from ledger.core.vocabulary import FieldKind

    plugin = plugin_for(state.format.id if state.format else None)
    args: dict[str, Any] = {}
    if plugin is None:
        return args
    for f in plugin.entry.result_vocabulary().fields:
        text = given.get(f.name)
        if text is None:
            continue
        if f.kind in (FieldKind.FLAG, FieldKind.SWITCH):
            on = text.strip().lower() in ("yes", "true", "1")
            opt = f.option if on else (f"--{f.off}" if f.off else "")
            if opt:
                args[opt.lstrip("-").replace("-", "_")] = True
        else:
            args[f.option.lstrip("-").replace("-", "_")] = text.strip()
    return args


def _typed(spec: CommandSpec, name: str, value: Any) -> Any:
    """A vocabulary field's text as the spec's parameter takes it (a whole number)."""
    p = spec.param(name)
    if p is not None and p.kind is ParamKind.INTEGER and isinstance(value, str) \
            and value.isdigit() and len(value) < 12:
        return int(value)
    return value


async def result(request: Request) -> Response:
    from server.report import form_for, given_from_form

    kid, fields, _files, refused = await _posted(request)
    if refused is not None or kid is None:
        return refused or Response(status_code=403)
    hub = Hub.of(request)
    st = hub.follower.state
    spec = _spec(request, RESULT)
    rnd, table = whole(fields.get("round")), whole(fields.get("table"))
    form = None if rnd is None or table is None else \
        form_for(st, rnd, table, hub.pages.data.labels)
    if spec is None or form is None:
        return _page(request, "desk_result.html", 404, round=rnd, table=table, form=None,
                     problem=f"Round {rnd} has no table {table}; check the number.")
    try:
        args = {"round": rnd, "table": table, **_result_args(st, given_from_form(form,
                                                                                fields))}
        args = {k: _typed(spec, k, v) for k, v in args.items()}
    except UsageError as err:
        return _page(request, "desk_result.html", 400, round=rnd, table=table, form=form,
                     refused=(err.message, err.hint or "", ""))
    out = await _run(request, kid, spec, args)
    if not out.ok:
        return _page(request, "desk_result.html", out.status, round=rnd, table=table,
                     form=form, refused=_words(out.error))
    return _page(request, "desk_result.html", 200, round=rnd, table=None, form=None,
                 done=out)


async def slips(request: Request) -> Response:
    """A posted round's result slips, one per table, for the desk's printer."""
    hub = Hub.of(request)
    kid, why = official(request)
    if kid is None:
        return _page(request, "desk.html", 403, problem=why, g=None, groups=[])
    n = whole(request.path_params["n"])
    r = hub.pages.data.round(n) if n is not None else None
    if r is None:
        return _page(request, "desk.html", 404, g=None, groups=[],
                     problem=f"Round {n} is not posted; post it first, then print its "
                             "slips.")
    return _page(request, "desk_slips.html", r=r)


async def static(request: Request) -> Response:
    name = request.url.path.lstrip("/")
    body = (TEMPLATES / name).read_bytes()
    ctype = "text/css" if name.endswith(".css") else "text/javascript"
    return Response(body, media_type=ctype + "; charset=utf-8",
                    headers={"Cache-Control": "no-cache",
                             "X-Content-Type-Options": "nosniff"})


routes: list[BaseRoute] = [
    Route("/desk", desk, methods=["GET"]),
    Route("/desk/result", result_form, methods=["GET"]),
    Route("/desk/result", result, methods=["POST"]),
    Route("/desk/slips/{n}", slips, methods=["GET"]),
    Route("/desk/do/{path:path}", do_form, methods=["GET"]),
    Route("/desk/do/{path:path}", do, methods=["POST"]),
    Route("/desk.css", static, methods=["GET"]),
    Route("/desk.js", static, methods=["GET"]),
]
