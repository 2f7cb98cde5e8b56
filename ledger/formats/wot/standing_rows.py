"""Wheel of Time standings read model (docs/DESIGN.md §11): GP and TBP as exact strings and the
ranking with shared places (1, 2, 2, 4; WOTOLD-RANK-1/2, AMB-W11/W12).

Owns: ``WotRow``, ``wot_standings`` (rows in ranking order, removed players last without a
rank) and ``wot_standings_json`` (CSV: ``standings_view``).  Totals and places are
``ledger.formats.wot.plan.standings``' (the functions the pairing and the audit use); this
module only counts wins, losses, ties and byes for display.

May import: ``ledger.*``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ledger.core.state import TournamentState
from ledger.formats.wot import plan
from ledger.formats.wot.model import format_tbp


@dataclass(frozen=True)
class WotRow:
    rank: int | None
    number: int
    name: str
    gp: int
    tbp: Fraction
    wins: int
    losses: int
    ties: int
    byes: int
    status: str


def _counts(state: TournamentState) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for g in plan.ws(state).games:
        if g.bye is not None:
            out.setdefault(g.bye, [0, 0, 0, 0])[3] += 1
        for t in g.tables:
            if t.result is None:
                continue
            res = plan.result_of(t)
            lost = set(plan.losers(res))
            for p in (t.hero, t.villain):
                c = out.setdefault(p, [0, 0, 0, 0])
                c[0 if p == res.winner else 1 if p in lost else 2] += 1
    return out


def wot_standings(state: TournamentState) -> list[WotRow]:
    tot, places = plan.standings(state)
    counts = _counts(state)
    final = plan.over(state)
    firsts = [p for p in places if p.place == 1]
    rows: list[WotRow] = []

    def name(n: int) -> str:
        player = state.players.get(n)
        return player.name if player is not None else ""

    for p in places:
        w, lo, ti, by = counts.get(p.number, [0, 0, 0, 0])
        status = "champion" if final and len(firsts) == 1 and p.place == 1 else "active"
        rows.append(WotRow(p.place, p.number, name(p.number), p.gp, p.tbp, w, lo, ti, by,
                           status))
    for n in plan.ws(state).removed:
        w, lo, ti, by = counts.get(n, [0, 0, 0, 0])
        rows.append(WotRow(None, n, name(n), 0, Fraction(0), w, lo, ti, by, "disqualified"))
    return rows


def row_json(r: WotRow) -> dict[str, Any]:
    return {"number": r.number, "name": r.name, "rank": r.rank, "gp": str(r.gp),
            "tbp": format_tbp(r.tbp), "wins": r.wins, "losses": r.losses, "ties": r.ties,
            "byes": r.byes, "status": r.status}


def wot_standings_json(state: TournamentState) -> dict[str, Any]:
    games = plan.ws(state).games
    return {"format": state.format.id if state.format else None,
            "games_paired": len(games),
            "games_scored": sum(1 for g in games if plan.complete(g)),
            "games_total": plan.games_total(state), "final": plan.over(state),
            "players": [row_json(r) for r in wot_standings(state)]}
