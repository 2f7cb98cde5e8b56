"""``tourney report list``: the staff queue of players' self-reported results (issue 19,
ADR 0027).

Owns: the command-line shape and output of that command: each table of a round that
waits for its result (no report, one-sided, conflicting, or matching reports side by
side), each report as the format's own ``result record`` options, and for matching
reports the command that records them.  What a report is and how tables stand is
``ledger.core.reports``; how a result reads is the format's
(``projections.result_words.describe``).  Names no format.

May import: ``typer``, ``cli.common``, ``projections.result_words``, ``ledger.*``.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from cli.common import JsonOpt, Session
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
