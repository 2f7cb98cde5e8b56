"""``tourney report list``, ``accept`` and ``reject``: the staff queue of players'
self-reported results and the scorekeeper's one tap (issue 19, ADR 0027).

Owns: the command-line shapes and output of those commands (``accept`` records a table's
matching reports as its result, citing them, in one write for ``--all-matching``; the
result is the format's, from the reports' vocabulary values through ``result_kwargs`` and
its ``record_result``); each table of a round that
waits for its result (no report, one-sided, conflicting, or matching reports side by
side), each report as the format's own ``result record`` options, and for matching
reports the command that records them.  What a report is and how tables stand is
``ledger.core.reports``; how a result reads is the format's
(``projections.result_words.describe``).  Names no format.

May import: ``typer``, ``cli.common``, ``projections.result_words``, ``usecases.*``, ``ledger.*``.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from cli.common import JsonOpt, KeyOpt, Session, events_brief
from ledger.errors import UsageError

app = typer.Typer(no_args_is_help=True, help=(
    "Players' self-reported results (the live server records them): the staff queue.\n\n"
    "Example: tourney report list --round 3"))

@app.command("list")
def report_list(
    ctx: typer.Context,
    round_no: Annotated[int | None, typer.Option(
        "--round", metavar="N", min=1, help="The round (default: the current one).")] = None,
    show_all: Annotated[bool, typer.Option(
        "--all", help="Also list the tables that have their result.")] = False,
    json: JsonOpt = False,
) -> None:
    """List the tables of a round waiting for their result, with the players' reports side
    by side: none, one-sided, conflicting, or matching (ready to record).

    Example: tourney report list --round 2 --json
    """
    from ledger.core.reports import TableStatus, current_round, queue, report_options
    from projections.result_words import describe

    s = Session(ctx, json=json)
    with s.ledger(readonly=True) as led:
        log = s.tournament(led)
        st = led.load(log).state
    n = current_round(st) if round_no is None else round_no
    if n is None:
        raise UsageError("no round is paired yet: there is nothing to report",
                         hint="pair a round with 'tourney round pair'")
    rows = queue(st, n)
    if not rows:
        raise UsageError(f"round {n} has no tables", hint="see 'tourney round show'")
    counts = {status: sum(r.status is status for r in rows) for status in TableStatus}
    tables: list[dict[str, Any]] = []
    lines = [f"round {n}: {len(rows)} tables · " + " · ".join(
        f"{counts[t]} {t.value.replace('_', '-')}" for t in TableStatus)]
    for r in rows:
        reps = [{"number": p, "seq": rep.seq, "credential": rep.credential,
                 "given": dict(rep.given), "options": report_options(st, rep)}
                for p, rep in sorted(r.reports.items())]
        tables.append({"table": r.table, "players": r.players, "status": r.status.value,
                       "result": None if r.result is None else describe(st, r.result),
                       "reports": reps})
        if r.status is TableStatus.SETTLED and not show_all:
            continue
        names = " vs ".join(f"#{p} {st.players[p].name}" if p in st.players else f"#{p}"
                            for p in r.players)
        lines.append(f"table {r.table}  {names}  {r.status.value.replace('_', '-')}"
                     + (f": {describe(st, r.result)}" if r.result is not None else ""))
        lines += [f"  #{x['number']} (seq {x['seq']}): {x['options']}" for x in reps]
        if r.status is TableStatus.MATCHING:
            lines.append(f"  record: tourney result record --round {n} --table {r.table} "
                         f"{reps[0]['options']} --key sk.pem")
    s.emit({"tournament": log, "round": n,
            "counts": {t.value: counts[t] for t in TableStatus}, "tables": tables}, lines)


@app.command("accept")
def report_accept(
    ctx: typer.Context,
    round_no: Annotated[int | None, typer.Option(
        "--round", metavar="N", min=1, help="The round (default: the current one).")] = None,
    table: Annotated[int | None, typer.Option(
        "--table", metavar="T", min=1, help="The table whose matching reports to record.")]
    = None,
    all_matching: Annotated[bool, typer.Option(
        "--all-matching", help="Every table of the round whose reports match.")] = False,
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Record a table's result from its players' matching reports, citing them (scorekeeper,
    judge or head judge: signed with your own key).

    Example: tourney report accept --round 2 --all-matching --key sk.pem
    """
    from usecases.reports import accept_matching

    if (table is None) == (not all_matching):
        raise UsageError("say which tables: --table T or --all-matching",
                         hint="e.g. tourney report accept --round 2 --table 5 --key sk.pem")
    s = Session(ctx, key=key, json=json)
    signer = s.signer()
    accepted: list[int] = []

    def accept(t: Any, time: str) -> list[Any]:
        events, tables = accept_matching(t, signer, time, round_no, table)
        accepted[:] = tables
        return events

    with s.ledger() as led:
        log = s.tournament(led)
        events = led.write(log, accept)
    lines = [f"seq {e.seq}: {e.kind}" + (f" round {e.body.round} table {e.body.table}, "
                                         f"citing reports {e.body.reports}"
                                         if isinstance(getattr(e.body, "reports", None), list)
                                         else "") for e in events]
    s.emit({"ok": True, "tournament": log, "tables": accepted,
            "events": events_brief(events)}, lines)


@app.command("reject")
def report_reject(
    ctx: typer.Context,
    player: Annotated[int, typer.Option(
        "--player", metavar="N", min=1, help="The player whose current report to set aside.")],
    reason: Annotated[str, typer.Option(
        "--reason", metavar="TEXT", help="Why (the player reads it on their page).")],
    round_no: Annotated[int | None, typer.Option(
        "--round", metavar="N", min=1, help="The round (default: the current one).")] = None,
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Set aside a player's current report of their table (scorekeeper, judge or head
    judge; REPORT-14): it stays in the log, stops counting, and the player may report
    again. A result recorded at the desk settles reports without rejecting them.

    Example: tourney report reject --round 2 --player 17 --reason "reported the wrong table" --key sk.pem
    """
    from usecases.reports import reject_report

    if not reason.strip():
        raise UsageError("a rejection needs a reason (the player reads it)",
                         hint="pass --reason TEXT")
    s = Session(ctx, key=key, json=json)
    signer = s.signer()

    def reject(t: Any, time: str) -> Any:
        return reject_report(t, signer, time, round_no, player, reason)

    with s.ledger() as led:
        log = s.tournament(led)
        ev = led.write(log, reject)
    s.emit({"ok": True, "tournament": log, "events": events_brief([ev]),
            "rejected": ev.body.report},
           f"seq {ev.seq}: report_rejected round {ev.body.round} table {ev.body.table}: "
           f"player {player}'s report (seq {ev.body.report}) set aside")
