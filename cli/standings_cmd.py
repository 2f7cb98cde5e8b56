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
    OOMW%.  W-L and byes count the Swiss phase; TOP is the top-cut record (JSON:
    top_cut_wins, top_cut_losses).

    Example: tourney standings --csv > standings.csv
    """
    from projections.standings import standings as ranked
    from projections.standings import standings_csv, standings_json

    s = Session(ctx, json=json)
    if csv_out and s.json:
        raise UsageError("--csv and --json are two different outputs", hint="pick one")
    with s.ledger() as led:
        log = s.tournament(led)
        st = led.load(log).state
    if csv_out:
        sys.stdout.write(standings_csv(st))
        sys.stdout.flush()
        return
    if s.json:
        s.emit({"tournament": log, **standings_json(st)})
        return
    from cli.text import ljust

    rows = ranked(st)
    h = st.hotc
    recs = h.records
    head = (f"{log}: standings after {h.swiss_rounds} Swiss rounds"
            + (f"; top cut {len(h.cut)}" if h.cut is not None else "")
            + (f"; champion #{h.champion}" if h.champion is not None else ""))
    top = h.cut is not None
    lines = [head, f"{'RANK':>4}  {'NUM':>5}  {ljust('NAME', 22)}  {'W-L':>5}  "
                   + (f"{'TOP':>5}  " if top else "")
                   + f"{'BYES':>4}  {'STATUS':<11}  {'MW%':>6}  {'OMW%':>6}  {'OOMW%':>6}"]
    for r in rows:
        rec = recs.get(r.number)
        tw, tl = (rec.top_wins, rec.top_losses) if rec is not None else (0, 0)
        lines.append(f"{r.rank:>4}  {r.number:>5}  {ljust(r.name, 22)}  "
                     f"{f'{r.wins}-{r.losses}':>5}  " + (f"{f'{tw}-{tl}':>5}  " if top else "")
                     + f"{r.byes:>4}  {r.status:<11}  {percent(r.mw):>6}  "
                     f"{percent(r.omw):>6}  {percent(r.oomw):>6}")
    lines.append("W-L is the Swiss record (the tiebreakers' basis)"
                 + ("; TOP is the top-cut record" if top else ""))
    s.emit(None, lines)
