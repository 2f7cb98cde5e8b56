"""``tourney standings``: the ranked standings as a table, JSON or CSV.

Owns: the printed table (rank, number, name, Swiss record W-L, byes, pair-downs, status,
MW%, OMW%, OOMW% truncated to two decimals) and the choice of output.  The ranking and
the JSON/CSV documents are ``projections.standings``' (AMB-H15), never recomputed here.

May import: ``typer``, ``cli.common``, ``projections.*``, ``ledger.*``.
"""

from __future__ import annotations

import sys
from fractions import Fraction
from typing import Annotated

import typer

from cli.common import JsonOpt, Session
from ledger.errors import UsageError


def percent(value: Fraction) -> str:
    """A fraction of 1 as a percentage truncated (never rounded) to 2 decimals."""
    hundredths = (value.numerator * 10_000) // value.denominator
    return f"{hundredths // 100}.{hundredths % 100:02d}"


def standings(
    ctx: typer.Context,
    csv_out: Annotated[bool, typer.Option("--csv", help="Print CSV (header first).")]
        = False,
    json: JsonOpt = False,
) -> None:
    """Show the standings (table, --json or --csv).

    Order (HotC AMB-H15): champion, top cut by finishing round, then Swiss wins, OMW%,
    OOMW%.  Record, byes and pair-downs count the Swiss phase.

    Example: tourney standings --csv > standings.csv
    """
    from projections.standings import standings as ranked
    from projections.standings import standings_csv, standings_json

    s = Session(ctx, json=json)
    if csv_out and s.json:
        raise UsageError("--csv and --json are two different outputs", hint="pick one")
    with s.ledger(readonly=True) as led:
        log = s.tournament(led)
        st = led.load(log).state
    if csv_out:
        sys.stdout.write(standings_csv(st))
        sys.stdout.flush()
        return
    if s.json:
        s.emit({"tournament": log, **standings_json(st)})
        return
    rows = ranked(st)
    h = st.hotc
    head = (f"{log}: standings after {h.swiss_rounds} Swiss rounds"
            + (f"; top cut {len(h.cut)}" if h.cut is not None else "")
            + (f"; champion #{h.champion}" if h.champion is not None else ""))
    lines = [head, f"{'RANK':>4}  {'NUM':>5}  {'NAME':<26}  {'W-L':>5}  {'BYES':>4}  "
                   f"{'PD':>2}  {'STATUS':<12}  {'MW%':>6}  {'OMW%':>6}  {'OOMW%':>6}"]
    for r in rows:
        name = r.name if len(r.name) <= 26 else r.name[:25] + "…"
        lines.append(f"{r.rank:>4}  {r.number:>5}  {name:<26}  {f'{r.wins}-{r.losses}':>5}  "
                     f"{r.byes:>4}  {r.pair_downs:>2}  {r.status:<12}  {percent(r.mw):>6}  "
                     f"{percent(r.omw):>6}  {percent(r.oomw):>6}")
    s.emit(None, lines)
