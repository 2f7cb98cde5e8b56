"""``tourney standings``: the ranked standings as a table, JSON or CSV.

Owns: the printed table (rank, number, name, Swiss record W-L, byes, pair-downs, status,
MW%, OMW%, OOMW% truncated to two decimals) and the choice of output.  The ranking and
the JSON/CSV documents are ``projections.standings``' (AMB-H15), never recomputed here.

May import: ``typer``, ``cli.common``, ``projections.*``, ``ledger.*``.
"""

from __future__ import annotations

import sys
from fractions import Fraction
from typing import TYPE_CHECKING, Annotated

import typer

from cli.common import JsonOpt, Session
from ledger.errors import UsageError

if TYPE_CHECKING:
    from ledger.state import TournamentState


def percent(value: Fraction) -> str:
    """A fraction of 1 as a percentage truncated (never rounded) to 2 decimals."""
    hundredths = (value.numerator * 10_000) // value.denominator
    return f"{hundredths // 100}.{hundredths % 100:02d}"


def standings(
    ctx: typer.Context,
    csv_out: Annotated[bool, typer.Option("--csv", help="Print CSV (header first).")]
        = False,
    html: Annotated[bool, typer.Option(
        "--html", help="Print one self-contained HTML page (phone and print CSS).")] = False,
    json: JsonOpt = False,
) -> None:
    """Show the standings (table, --json, --csv or --html for the desk printer).

    Order (HotC AMB-H15): champion, top cut by finishing round, then Swiss wins, OMW%,
    OOMW%.  W-L and byes count the Swiss phase; TOP is the top-cut record (JSON:
    top_cut_wins, top_cut_losses).

    Example: tourney standings --html > standings.html
    """
    from projections.standings import standings as ranked
    from projections.standings import standings_csv, standings_json

    s = Session(ctx, json=json)
    if sum((csv_out, s.json, html)) > 1:
        raise UsageError("--csv, --json and --html are different outputs", hint="pick one")
    with s.ledger(readonly=True) as led:
        log = s.tournament(led)
        st = led.load(log).state
    if html:
        from projections.site import standings_page
        from projections.standings_doc import standings_document

        sys.stdout.write(standings_page(st, standings_document(st)["players"], st.size))
        sys.stdout.flush()
        return
    from cli.wot_cmd import is_wot

    if is_wot(st):
        _wot(s, log, st, csv_out)
        return
    if st.format is not None and st.format.id != "hotc-swiss-de":
        _br(s, log, st, csv_out)
        return
    if csv_out:
        sys.stdout.write(standings_csv(st))
        sys.stdout.flush()
        return
    if s.json:
        s.emit({"tournament": log, **standings_json(st)})
        return
    from cli.text import ljust

    rows = ranked(st)
    h = st.fmt
    recs = h.records
    head = (f"{log}: standings after {h.swiss_rounds} Swiss rounds"
            + (f"; top cut {len(h.cut)}" if h.cut is not None else "")
            + champion_note(st)
            + (f"; no champion (head judge's ruling, seq {h.no_champion_seq})"
               if getattr(h, "no_champion_seq", None) is not None else ""))
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


def _br(s: Session, log: str, st: TournamentState, csv_out: bool) -> None:
    """Bushiroad formats: points, W-L-D, MW% (truncated, floored), OMW%, OOMW% (BR-SWISS-TB,
    BR-DE-TB); the JSON and CSV are ``projections.br_standings``'."""
    from projections.br_standings import br_standings, br_standings_csv, br_standings_json

    if csv_out:
        sys.stdout.write(br_standings_csv(st))
        sys.stdout.flush()
        return
    if s.json:
        s.emit({"tournament": log, "format": st.format.id if st.format else None,
                **br_standings_json(st)})
        return
    h = st.fmt
    total = f" of {h.rounds_total}" if h.rounds_total else ""
    head = (f"{log}: standings after {h.swiss_rounds}{total} rounds"
            + (f"; top cut {len(h.cut)}" if h.cut is not None else "")
            + champion_note(st)
            + ("; final" if h.final else " (provisional: MW% over the rounds played, "
               "AMB-B31)" if not h.swiss_over else ""))
    lines = [head, f"{'RANK':>4}  {'NUM':>5}  {'NAME':<26}  {'PTS':>4}  {'W-L-D':>7}  "
                   f"{'STATUS':<12}  {'MW%':>5}  {'OMW%':>6}  {'OOMW%':>6}"]
    for r in br_standings(st):
        name = r.name if len(r.name) <= 26 else r.name[:25] + "…"
        lines.append(f"{r.rank:>4}  {r.number:>5}  {name:<26}  {r.points:>4}  "
                     f"{f'{r.wins}-{r.losses}-{r.draws}':>7}  {r.status:<12}  "
                     f"{percent(r.mw):>6}  {percent(r.omw):>6}  {percent(r.oomw):>6}")
    s.emit(None, lines)


def _wot(s: Session, log: str, st: TournamentState, csv_out: bool) -> None:
    """Wheel of Time: GP and TBP (exact strings), shared places 1, 2, 2, 4 (DESIGN.md §11);
    the rows are ``projections.wot_standings``'."""
    from cli.wot_cmd import standings_lines
    from projections.wot_standings import wot_standings_csv, wot_standings_json

    if csv_out:
        sys.stdout.write(wot_standings_csv(st))
        sys.stdout.flush()
        return
    if s.json:
        s.emit({"tournament": log, **wot_standings_json(st)})
        return
    s.emit(None, standings_lines(log, st))


def champion_note(st: TournamentState) -> str:
    """"; champion #N" for the header: the champion of record (a disqualified champion's
    title passed down or void, ``projections.revocation.champion_of_record``)."""
    from projections.standings_doc import event_summary

    h = st.fmt
    if getattr(h, "champion", None) is None:
        return ""
    champ = event_summary(st)["champion"]
    dq = h.officiating.dq.get(h.champion)
    if champ == h.champion:
        return f"; champion #{champ}"
    why = f"#{h.champion} disqualified (seq {dq.seq if dq else '?'})"
    return (f"; champion #{champ} (passed down: {why})" if champ is not None
            else f"; no champion (title void: {why})")
