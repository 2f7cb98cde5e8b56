"""The Bushiroad formats' standings as they declare them (issue 17, ADR 0021): columns and
rows for every output (``tourney standings`` text, JSON, CSV, HTML, the published site).

Owns: ``view`` — RANK # NAME POINTS W-L-D BYES STATUS MW% OMW% OOMW% over the qualifying
stage (BR-SWISS-TB, BR-DE-TB), the top cut's finish first; a single-elimination event
(no qualifying stage, BR-SE) shows each player's bracket finish (champion, finalist,
semi-finalist …) instead.  Rows, ranks and arithmetic are
``ledger.formats.bushiroad.standing_rows``' (never recomputed); disqualified players whose
standing was revoked follow, unranked and marked (BR-PEN-RANK-9).

May import: ``ledger.*``.
"""

from __future__ import annotations

from functools import partial

from ledger.core.state import TournamentState
from ledger.formats.bushiroad.plan import FormatId, fmt_id
from ledger.formats.bushiroad.standing_rows import COLUMNS, br_standings, row_document
from ledger.formats.match.model import MatchState, PlayerRecord, Status
from ledger.formats.match.revocation import revoked_marks
from ledger.formats.match.standings_view import (
    NAME,
    NUMBER,
    RANK,
    STATUS,
    bracket_rounds,
    champion_shown,
    finish_words,
    open_round,
    percent_column,
    shown_status,
)
from ledger.standings_view import Align, Column, Row, Show, StandingsView

POINTS = Column("points", "POINTS", Show.NUMBER, Align.RIGHT, phone=True,
                title="match points (the sort key)", player_label="Points",
                player_help="Match points: players are ranked by them first.")
RECORD = Column("record", "W-L-D", align=Align.RIGHT, phone=True, title="wins-losses-draws",
                player_label="W-L-D", player_help="Matches won, lost and drawn.")
BYES = Column("byes", "BYES", Show.NUMBER, Align.RIGHT, player_label="Byes",
              player_help="Rounds won without an opponent.")
FINISH = Column("finish", "FINISH", phone=True, title="how far they went in the bracket",
                player_label="Finish", player_help="How far they went in the bracket.")
BRACKET_RECORD = Column("record", "W-L", align=Align.RIGHT, phone=True,
                        title="bracket wins-losses", player_label="W-L",
                        player_help="Bracket matches won and lost.")
PERCENTS = (percent_column("mw", "MW%", "match-win percentage, truncated, floor 33% "
                           "(BR-SWISS-TB-3)",
                           "Share of matches won (never below 33%): the first tiebreaker."),
            percent_column("omw", "OMW%", "opponents' match-win percentage",
                           "The opponents' average MW%: the second tiebreaker."),
            percent_column("oomw", "OOMW%", "opponents' opponents' match-win percentage",
                           "The opponents' average OMW%: the third tiebreaker."))


def _members(state: TournamentState, number: int) -> tuple[tuple[int, str], ...] | None:
    """A team's members by position (BR-TEAM-2) with their names; None outside a team
    event."""
    teams = getattr(getattr(state.fmt, "teams", None), "teams", None)
    team = teams.get(number) if teams else None
    if team is None:
        return None
    return tuple((m, state.players[m].name if m in state.players else "")
                 for m in team.members)


def view(state: TournamentState) -> StandingsView:
    h = state.fmt if isinstance(state.fmt, MatchState) else MatchState()
    bracket_only = fmt_id(state) is FormatId.SINGLE_ELIM
    marks = revoked_marks(h.officiating.dq)
    over = h.final or h.champion is not None
    rows = []
    for s in (br_standings(state, keep_revoked=True) if h.records else []):
        rec = h.records.get(s.number) or PlayerRecord(number=s.number)
        mark = marks.get(s.number)
        status = (Status.DISQUALIFIED.value if mark is not None
                  else shown_status(h, rec, over))
        record = (f"{s.wins}-{s.losses}" if bracket_only
                  else f"{s.wins}-{s.losses}-{s.draws}")
        rows.append(Row(
            number=s.number, name=s.name, rank=None if mark else s.rank, status=status,
            values={"rank": None if mark else s.rank, "number": s.number, "name": s.name,
                    "points": s.points, "record": record, "byes": rec.byes,
                    "status": status, "finish": status if mark else finish_words(h, rec),
                    "mw": s.mw, "omw": s.omw, "oomw": s.oomw},
            doc=partial(row_document, s), revoked=mark,
            members=_members(state, s.number)))
    champ, said = champion_shown(h, rows)
    if bracket_only:
        columns: tuple[Column, ...] = (RANK, NUMBER, NAME, FINISH, BRACKET_RECORD)
        played = sum(1 for r in h.rounds if all(t.result for t in r.tables))
        head = ("bracket not seeded yet" if h.slots is None else
                f"bracket after {played} of {bracket_rounds(h)} rounds" + said)
        notes: tuple[str, ...] = ("Ranked by bracket finish (BR-SE): the champion, the "
                                  "finalist, the semi-finalists, and so on.",)
        seeding = "random seeding by a recorded draw (BR-SE-1)"
    else:
        columns = (RANK, NUMBER, NAME, POINTS, RECORD, BYES, STATUS, *PERCENTS)
        total = f" of {h.rounds_total}" if h.rounds_total else ""
        head = (f"standings after {h.swiss_rounds}{total} rounds"
                + (f"; top cut {len(h.cut)}" if h.cut is not None else "")
                + said
                + ("; final" if h.final else " (provisional: MW% over the rounds played, "
                   "AMB-B31)" if not h.swiss_over else ""))
        notes = ()
        seeding = "seeded by ranking: 1 v N, 2 v N−1 … (BR-FIN-5)"
    return StandingsView(
        heading=head, columns=columns, rows=tuple(rows),
        summary={"rounds": h.swiss_rounds, "rounds_total": h.rounds_total,
                 "champion": champ, "final": bool(h.final)},
        csv_columns=tuple(COLUMNS), notes=notes, open_round=open_round(h),
        champion=champ, cut=None if h.cut is None else sorted(h.cut),
        rounds=len(h.rounds), seeding=seeding)
