"""Results by table and match slips on the staff console (issue 29 item 1).

Owns: ``routes`` — ``GET /desk/result?round=R&table=T`` (the table's outcomes to pick
from: the report form's own ``server.report.form_for``, built from the format's result
vocabulary), ``POST /desk/result`` (the picked outcome → ``result record``'s arguments by
the vocabulary's options, ``result_args``, run with the official's key) and ``GET
/desk/slips/{n}`` (a posted round's result slips, one per table, to print) — and
``result_args`` (also what ``POST /desk/args/result`` answers a browser key with).

May import: ``starlette``, ``server.*`` (not ``server.app``), ``usecases.command_specs``,
``ledger.*``, the standard library.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ledger.errors import UsageError
from server.desk_common import official, page, posted, run_command, spec_of, words
from server.errors import whole
from server.hub import Hub
from usecases.command_specs import CommandSpec, ParamKind

RESULT = "result/record"


def details(state: Any) -> list[str]:
    """Each outcome's rule as the CLI states it (``ResultEntry.summary``), by the
    vocabulary's index: shown under the players' words of each choice."""
    from ledger.core.format_socket import plugin_for

    plugin = plugin_for(state.format.id if state.format else None)
    return [e.summary for e in plugin.entry.result_vocabulary().entries] if plugin else []


async def result_form(request: Request) -> Response:
    """``GET /desk/result?round=R&table=T``: the table's outcomes to pick from."""
    from server.report import form_for

    hub = Hub.of(request)
    kid, why = official(request)
    if kid is None:
        return page(request, "desk.html", 403, problem=why, g=None, groups=[])
    st = hub.follower.state
    from ledger.core.reports import current_round

    rnd = whole(request.query_params.get("round")) or current_round(st)
    table = whole(request.query_params.get("table"))
    seats = () if rnd is None or table is None else seats_of(st, rnd, table)
    seat = whole(request.query_params.get("seat")) if seats else None
    form = None if rnd is None or table is None or (seats and seat is None) else \
        form_for(st, rnd, table, hub.pages.data.labels, seat)
    problem = None if table is None or form is not None or (seats and seat is None) else \
        f"Round {rnd} has no table {table}" + (f" seat {seat}" if seat else "") + \
        "; check the number."
    return page(request, "desk_result.html", 200 if problem is None else 404,
                round=rnd, table=table, seat=seat, seats=seats, form=form, problem=problem,
                labels=hub.pages.data.labels, details=details(st))


def seats_of(state: Any, rnd: int, table: int) -> tuple[int, ...]:
    """The seats of a team table (empty: a one-against-one table, or no such table): a
    team table's result is entered seat by seat (BR-TEAM-2), never for the whole team."""
    from ledger.core.format_socket import plugin_for

    plugin = plugin_for(state.format.id if state.format else None)
    out: list[int] = []
    while plugin is not None and len(out) < 16 and \
            plugin.entry.seat_at(state, rnd, table, len(out) + 1) is not None:
        out.append(len(out) + 1)
    return tuple(out)


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


def result_args(request: Request, spec: CommandSpec, fields: dict[str, str]
                ) -> tuple[Any, dict[str, Any]]:
    """(the table's form, ``result record``'s arguments) of a posted result form; the
    form is None when the round has no such table; a choice left out or a box left
    empty is refused in the form's words (``UsageError``)."""
    from server.report import form_for, given_from_form

    hub = Hub.of(request)
    st = hub.follower.state
    rnd, table = whole(fields.get("round")), whole(fields.get("table"))
    seat = whole(fields.get("seat"))
    form = None if rnd is None or table is None else \
        form_for(st, rnd, table, hub.pages.data.labels, seat)
    if form is None:
        return None, {}
    args = {"round": rnd, "table": table, **_result_args(st, given_from_form(form, fields))}
    return form, {k: _typed(spec, k, v) for k, v in args.items()}


async def result(request: Request) -> Response:
    kid, fields, _files, refused = await posted(request)
    if refused is not None or kid is None:
        return refused or Response(status_code=403)
    spec = spec_of(request, RESULT)
    rnd, table = whole(fields.get("round")), whole(fields.get("table"))
    try:
        form, args = result_args(request, spec, fields) if spec is not None else (None, {})
    except UsageError as err:
        from server.report import form_for

        hub = Hub.of(request)
        form = form_for(hub.follower.state, rnd or 0, table or 0, hub.pages.data.labels,
                        whole(fields.get("seat")))
        return page(request, "desk_result.html", 400, round=rnd, table=table, form=form,
                    refused=(err.message, err.hint or "", ""), labels=hub.pages.data.labels,
                    details=details(hub.follower.state))
    if spec is None or form is None:
        return page(request, "desk_result.html", 404, round=rnd, table=table, form=None,
                    problem=f"Round {rnd} has no table {table}; check the number.")
    out = await run_command(request, kid, spec, args)
    if not out.ok:
        hub = Hub.of(request)
        return page(request, "desk_result.html", out.status, round=rnd, table=table,
                    form=form, refused=words(out.error), labels=hub.pages.data.labels,
                    details=details(hub.follower.state))
    return page(request, "desk_result.html", 200, round=rnd, table=None, form=None,
                done=out)


async def slips(request: Request) -> Response:
    """A posted round's result slips, one per table, for the desk's printer."""
    hub = Hub.of(request)
    kid, why = official(request)
    if kid is None:
        return page(request, "desk.html", 403, problem=why, g=None, groups=[])
    n = whole(request.path_params["n"])
    r = hub.pages.data.round(n) if n is not None else None
    if r is None:
        return page(request, "desk.html", 404, g=None, groups=[],
                    problem=f"Round {n} is not posted; post it first, then print its "
                             "slips.")
    return page(request, "desk_slips.html", r=r, ends=slip_ends(hub, n or 0, r))


def slip_ends(hub: Hub, n: int, r: dict[str, Any]) -> dict[Any, tuple[str, int]]:
    """Each table's own end on its slip (the round clock plus the table's extensions,
    ``server.view_reads.table_ends``), for the tables that have one."""
    from server.view_reads import iso_z, table_ends, table_extra

    state, clock = hub.follower.state, hub.pages.data.clock
    out: dict[Any, tuple[str, int]] = {}
    for tb in r["tables"]:
        extra = table_extra(state, n, tb["table"])
        end = iso_z(table_ends(clock, n, extra))
        if end is not None:
            out[tb["table"]] = (end, extra)
    return out


routes: list[BaseRoute] = [
    Route("/desk/result", result_form, methods=["GET"]),
    Route("/desk/result", result, methods=["POST"]),
    Route("/desk/slips/{n}", slips, methods=["GET"]),
]
