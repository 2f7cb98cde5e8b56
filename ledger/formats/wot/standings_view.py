"""The Wheel of Time standings as the format declares them (issue 17, ADR 0021).

Owns: ``view`` — RANK # NAME GP TBP W-L-T BYES STATUS (GP then TBP, shared places
1, 2, 2, 4: WOTOLD-RANK-1/2, AMB-W11/W12), rows from ``ledger.formats.wot.standing_rows``
(totals and places are ``plan.standings``', never recomputed); players removed by a
Declaration of Forfeiture follow without a rank.  TBP prints as the format writes it
(``model.format_tbp``), its exact fraction kept in JSON ``figures``.

May import: ``ledger.*``.
"""

from __future__ import annotations

from functools import partial

from ledger.core.state import TournamentState
from ledger.formats.wot import plan
from ledger.formats.wot.model import format_tbp
from ledger.formats.wot.standing_rows import row_json, wot_standings
from ledger.standings_view import Align, Column, OpenRound, Row, Show, StandingsView

COLUMNS = (
    Column("rank", "RANK", Show.NUMBER, Align.RIGHT, phone=True, player_label="Rank",
           player_help="Place in the ranking; equal scores share a place."),
    Column("number", "#", Show.NUMBER, Align.RIGHT, phone=True, title="player number",
           player_label="#", player_help="Player number."),
    Column("name", "NAME", phone=True, player_label="Name", player_help="Player name."),
    Column("gp", "GP", Show.NUMBER, Align.RIGHT, phone=True, title="Game Points",
           player_label="GP", player_help="Game Points: players are ranked by them first."),
    Column("tbp", "TBP", Show.DECIMAL, Align.RIGHT, phone=True, decimal=format_tbp,
           title="Tie-Breaker Points", player_label="TBP",
           player_help="Tie-Breaker Points: they rank players with equal Game Points."),
    Column("record", "W-L-T", align=Align.RIGHT, title="wins-losses-ties",
           player_label="W-L-T", player_help="Games won, lost and tied."),
    Column("byes", "BYES", Show.NUMBER, Align.RIGHT, player_label="Byes",
           player_help="Games won without an opponent."),
    Column("status", "STATUS", player_label="Status",
           player_help="Still playing, dropped or finished."),
)
CSV_COLUMNS = ("rank", "number", "name", "gp", "tbp", "wins", "losses", "ties", "byes",
               "status")


def view(state: TournamentState) -> StandingsView:
    games = plan.ws(state).games
    scored = sum(1 for g in games if plan.complete(g))
    final = plan.over(state)
    rows = []
    for r in wot_standings(state):
        status = "finished" if final and r.status == "active" else r.status
        rows.append(Row(
            number=r.number, name=r.name, rank=r.rank, status=status,
            values={"rank": r.rank, "number": r.number, "name": r.name, "gp": r.gp,
                    "tbp": r.tbp, "record": f"{r.wins}-{r.losses}-{r.ties}",
                    "byes": r.byes, "status": status},
            doc=partial(row_json, r)))
    # wot_standings_json's document, its rows (last) built on first use
    summary = {"format": state.format.id if state.format else None,
               "games_paired": len(games), "games_scored": scored,
               "games_total": plan.games_total(state), "final": final, "players": None}
    firsts = [r.number for r in rows if r.rank == 1]
    last = games[-1] if games else None
    open_game = (OpenRound(last.number, last.paired_seq, noun="Game")
                 if last is not None and not plan.complete(last) else None)
    head = (f"{'final ranking' if final else 'standings'} after {scored} of "
            f"{plan.games_total(state)} Games (GP, then TBP; equal scores share a place)")
    return StandingsView(
        heading=head, columns=COLUMNS, rows=tuple(rows), summary=summary,
        csv_columns=CSV_COLUMNS, open_round=open_game,
        champion=firsts[0] if len(firsts) == 1 and final else None, cut=None,
        rounds=len(games), round_noun="Game")
