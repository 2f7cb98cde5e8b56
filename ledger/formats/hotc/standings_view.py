"""The HotC standings as the format declares them (issue 17, ADR 0021): columns and rows
for every output (``tourney standings`` text, JSON, CSV, HTML, the published site).

Owns: ``view`` — the ``StandingsView`` of a HotC event: RANK # NAME W-L (Swiss record, the
sort key after the cut, AMB-H15) TOP BYES STATUS MW% OMW% OOMW%, rows in the order and with
the arithmetic of ``ledger.formats.hotc.standings`` (never recomputed), disqualified
players whose standing was revoked shown last, unranked, marked (BR-PEN-RANK-9).

May import: ``ledger.*``.
"""

from __future__ import annotations

from fractions import Fraction
from functools import partial

from ledger.core.state import TournamentState
from ledger.formats.hotc.standings import COLUMNS, ranked_lines, row_document
from ledger.formats.match.model import MatchState, Status
from ledger.formats.match.revocation import revoked_marks
from ledger.formats.match.standings_view import (
    NAME,
    NUMBER,
    RANK,
    STATUS,
    champion_shown,
    open_round,
    percent_column,
    shown_status,
)
from ledger.standings_view import Align, Column, Row, Show, StandingsView

RECORD = Column("record", "W-L", align=Align.RIGHT, phone=True,
                title="Swiss wins-losses (the tiebreakers' basis)", player_label="W-L",
                player_help="Swiss matches won and lost.")
TOP = Column("top", "TOP", align=Align.RIGHT, title="top-cut wins-losses",
             player_label="Top cut", player_help="Top-cut matches won and lost.")
BYES = Column("byes", "BYES", Show.NUMBER, Align.RIGHT, player_label="Byes",
              player_help="Rounds won without an opponent.")
PERCENTS = (percent_column("mw", "MW%", "match-win percentage (BR-DE-TB-3)",
                           "Share of Swiss matches won: the first tiebreaker."),
            percent_column("omw", "OMW%", "opponents' match-win percentage",
                           "The opponents' average MW%: the second tiebreaker."),
            percent_column("oomw", "OOMW%", "opponents' opponents' match-win percentage",
                           "The opponents' average OMW%: the third tiebreaker."))


def view(state: TournamentState) -> StandingsView:
    h = state.fmt if isinstance(state.fmt, MatchState) else MatchState()
    top = h.cut is not None
    columns = (RANK, NUMBER, NAME, RECORD, *((TOP,) if top else ()), BYES, STATUS,
               *PERCENTS)
    marks = revoked_marks(h.officiating.dq)
    over = h.champion is not None
    fractions: dict[tuple[int, int], Fraction] = {}   # a field shares few distinct values

    def frac(num: int, den: int) -> Fraction:
        f = fractions.get((num, den))
        if f is None:
            f = fractions[num, den] = Fraction(num, den)
        return f

    players = state.players
    rows = []
    for x in ranked_lines(state, keep_revoked=True):
        mark = marks.get(x.number)
        rec = x.rec
        status = (Status.DISQUALIFIED.value if mark is not None
                  else shown_status(h, rec, over))
        name = players[x.number].name if x.number in players else ""   # row_document's
        rows.append(Row(
            number=x.number, name=name, rank=None if mark else x.rank, status=status,
            values={"rank": None if mark else x.rank, "number": x.number,
                    "name": name, "record": f"{x.wins}-{x.losses}",
                    "top": f"{rec.top_wins}-{rec.top_losses}", "byes": x.byes,
                    "status": status, "mw": frac(x.mw, 100), "omw": frac(*x.omw),
                    "oomw": frac(*x.oomw)},
            doc=partial(row_document, state, x), revoked=mark))
    champ, said = champion_shown(h, rows)
    head = (f"standings after {h.swiss_rounds} Swiss rounds"
            + (f"; top cut {len(h.cut)}" if h.cut is not None else "")
            + said
            + (f"; no champion (head judge's ruling, seq {no_champion})"
               if (no_champion := getattr(h, "no_champion_seq", None)) is not None else ""))
    notes = ("W-L is the Swiss record (the tiebreakers' basis)"
             + ("; TOP is the top-cut record" if top else ""),)
    return StandingsView(
        heading=head, columns=columns, rows=tuple(rows),
        summary={"rounds": h.swiss_rounds, "champion": champ},
        csv_columns=COLUMNS, notes=notes, open_round=open_round(h), champion=champ,
        cut=None if h.cut is None else sorted(h.cut), rounds=len(h.rounds),
        seeding="random seeding by a recorded draw (HOTC-TOP-1)")
