"""What the staff console's endpoints share (issue 29 item 1): who signs, the runner,
the page, the posted form, running a command.

Owns: ``DESK_ROLES`` and ``official`` (the signed-in official of a staff card: any role
that signs commands, a time-keeper too), ``KeyMode`` and ``key_mode`` (who signs the
signed-in official's commands here: the server holding their key, ``--staff-key``; a key
in their browser, bound by the head judge — ``app.state.browser_keys``, set by the
browser-key routes; or none), ``runner_of``,
``specs_of`` and ``spec_of`` (the server's ``usecases.command_specs.CommandRunner``,
``app.state.runner``, and its specs), ``page`` (a console page for one official,
``server.forms.private_page``, with the form token's cookie and ``cw``, the command
words in the page's language: ``server.command_words``; a refused command's sentence and
hint in the page's language: ``server.sentences.refusal_words`` through ``cw.say``),
``words`` (a refusal's sentence and hint as the CLI prints them), ``posted`` (the posted
form, its form token and the official checked), ``no_key`` and ``run_command`` (a
command run with the official's key through the runner, the page then waiting until the
pages hold it: ``Hub.fresh``) and ``check`` (what a command would record, signing
nothing: the runner's preview and the command's own ``offer`` sibling, e.g. ``penalty
offer``: the upgrade).

May import: ``starlette``, ``server.hub``, ``server.forms``, ``server.form_body``,
``server.errors``, ``server.report``, ``server.cards``, ``server.i18n``,
``server.command_words``,
``usecases.command_specs``,
``server.sentences``, ``ledger.*``, the standard library.
"""

from __future__ import annotations

import enum
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from ledger.wire.events import Role
from server.command_words import command_words
from server.errors import Refused
from server.form_body import read_body
from server.forms import private_page, staff_official
from server.hub import Hub
from server.i18n import of_request
from server.report import CSRF_COOKIE, csrf_ok, new_csrf
from server.sentences import refusal_words
from usecases.command_specs import CommandRunner, CommandSpec, Outcome, Steps

#: the roles that sign an official's commands (not the station, not a witness): who may
#: open the console; what each may do is the ledger's rule, exactly as at the terminal
DESK_ROLES = frozenset({Role.HEAD_JUDGE, Role.JUDGE, Role.SCOREKEEPER, Role.TIME_KEEPER,
                        Role.ORGANIZER})


def official(request: Request) -> tuple[str | None, str]:
    """(the signed-in official's key id, why not) from the staff card's cookie."""
    return staff_official(request, DESK_ROLES, "Your staff card belongs to an official who "
                                               "no longer has a role in this event.")


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


def specs_of(request: Request) -> list[CommandSpec]:
    runner = runner_of(request)
    return list(runner.specs()) if runner is not None else []


def spec_of(request: Request, path: str) -> CommandSpec | None:
    runner = runner_of(request)
    return None if runner is None else next((s for s in runner.specs() if s.path == path),
                                            None)


def page(request: Request, name: str, status: int = 200, **kw: Any) -> Response:
    hub = Hub.of(request)
    csrf = request.cookies.get(CSRF_COOKIE) or new_csrf()
    kid, why = official(request)
    st = hub.follower.state
    off = st.officials.get(kid) if kid else None
    roles = sorted(r.value for r in st.active_roles(kid)) if kid else []
    ctx = {"problem": None, "done": None, "refused": None, "written": None,
           "preview": False, "g": None,
           "groups": [], "guide": {}, "form": None, "round": None, "table": None,
           "labels": {}, "details": [], "only_mine": False, "notyours": set(),
           "kid": kid, "why": why, "who": off.name if off else None,
           "roles": roles, "mode": key_mode(request, kid).value if kid else "none",
           "has_runner": runner_of(request) is not None,
           "has_station": getattr(request.app.state, "station", None) is not None, **kw}
    lang = of_request(request, hub.pages.data.language)
    ctx.setdefault("cw", command_words(lang))
    if ctx["refused"]:                  # the CLI's (English) refusal in the page's words
        msg, hint, rule = ctx["refused"]
        say = command_words(lang).sayer(hub.pages.sentences(lang))
        ctx["refused"] = (*refusal_words(say, msg, hint), rule)
    return private_page(hub, name, status, {CSRF_COOKIE: csrf}, lang, csrf=csrf, **ctx)


def words(error: dict[str, Any] | None) -> tuple[str, str, str]:
    """(sentence, hint, rule) of a refusal as the CLI prints it."""
    e = error or {}
    return str(e.get("message") or "refused"), str(e.get("hint") or ""), \
        str(e.get("rule") or "")


async def posted(request: Request) -> tuple[str | None, dict[str, str], dict[str, bytes],
                                              Response | None]:
    """The signed-in official and the posted form, or the page that refuses it."""
    fields, files = await read_body(request)
    if not csrf_ok(request.cookies.get(CSRF_COOKIE), fields.get("csrf"),
                   request.headers.get("origin"), request.headers.get("host", "")):
        return None, fields, files, page(
            request, "desk.html", 403, g=None, groups=[], problem="This form is out of "
            "date or did not come from this site; open the console again.")
    kid, why = official(request)
    if kid is None:
        return None, fields, files, page(request, "desk.html", 403, problem=why, g=None,
                                          groups=[])
    return kid, fields, files, None


def no_key(request: Request, kid: str, spec: CommandSpec | None = None) -> Outcome:
    """The refusal of a command from an official whose key this server does not hold
    (a browser key signs through ``…/prepare`` and ``…/submit`` instead, except a command
    saved in several steps that a second run changes: ``Steps.ONCE``)."""
    browser = key_mode(request, kid) is KeyMode.BROWSER
    if browser and spec is not None and spec.steps is Steps.ONCE:
        hint = f"a key in your browser cannot sign {' '.join(spec.words)} (it is saved " \
               "in several steps): run it at the desk's terminal with your key file"
    elif browser:
        hint = "turn JavaScript on: a key made in your browser signs it (see the key page)"
    else:
        hint = "restart it with --staff-key YOUR.pem, or run the command at the desk " \
               "with your key"
    return Outcome(ok=False, status=403, error={
        "kind": "usage", "message": "this server does not hold your key, so it cannot "
        "sign for you", "hint": hint, "rule": None})


async def run_command(request: Request, kid: str, spec: CommandSpec, args: dict[str, Any],
               preview: bool = False) -> Outcome:
    runner = runner_of(request)
    if runner is None:
        raise Refused(503, "This server runs no commands; start it with 'tourney serve'.")
    station = request.app.state.station
    signer = station.staff.get(kid) if station is not None else None
    if signer is None:
        if spec.signed or station is None:
            return no_key(request, kid, spec)
        signer = station.signer      # a read: nothing is signed or written
    if preview:
        return await check(request, runner, spec, args, signer)
    out = await run_in_threadpool(runner.run, spec.path, args, signer)
    if out.ok and out.seq:
        await Hub.of(request).fresh(out.seq)
    return out


def offer_of(request: Request, spec: CommandSpec) -> CommandSpec | None:
    """The command that says what ``spec`` would do and writes nothing (``penalty
    offer`` for ``penalty issue``: the Guide's default and the upgrade, TC-20)."""
    head = spec.path.rsplit("/", 1)[0]
    return spec_of(request, head + "/offer") if "/" in spec.path else None


async def check(request: Request, runner: CommandRunner, spec: CommandSpec,
                 args: dict[str, Any], signer: Any) -> Outcome:
    """What ``spec`` would record, signing nothing: the runner's preview (decided on the
    ledger as it is, not saved) and the command's offer (the upgrade) when it has one."""
    texts: list[str] = []
    offer = offer_of(request, spec)
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
