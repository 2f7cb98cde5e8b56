"""The standings read model of the Bushiroad formats (``bushiroad-swiss``, ``bushiroad-de``,
``single-elim``, ``round-robin``): BR-SWISS-TB / BR-DE-TB over the qualifying stage, with
the top cut's finish first.

Owns: ``BrStanding`` rows and their JSON document (docs/DESIGN.md §8 and §11: ``points``,
``mw`` truncated to two decimals as ``"0.33"``, ``omw`` / ``oomw`` as exact ``"num/den"``,
``rank`` after head-to-head and the recorded tie-break).  The ranking itself is the
format's (``ledger.formats.bushiroad.standings.ranking``), never recomputed here.

Order: the champion; the other finalists by the bracket round they reached (later =
better); then everyone else by the qualifying standings.  Ties that no tie-breaker and no
recorded draw separates share a rank (1, 2, 2, 4).

May import: ``ledger.*``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, NamedTuple

from ledger.core.state import TournamentState
from ledger.formats.bushiroad.mw import fraction_str, mw_str
from ledger.formats.bushiroad.standings import ranking
from ledger.formats.bushiroad.teams import team_label
from ledger.formats.match.model import MatchState, Status
from ledger.formats.match.revocation import revoke, revoked_marks

COLUMNS = ["rank", "number", "name", "points", "wins", "losses", "draws", "status", "mw",
           "omw", "oomw"]
_ALIVE = 10**6


class BrStanding(NamedTuple):
    number: int
    name: str
    rank: int
    points: int
    wins: int
    losses: int
    draws: int
    status: str
    mw: Fraction
    omw: Fraction
    oomw: Fraction
    cut_finish: int | None


def br_standings(state: TournamentState, *, keep_revoked: bool = False) -> list[BrStanding]:
    """The rows best first; ``keep_revoked``: players whose standing was revoked follow,
    with the rank they held (the standings view shows them marked, defect 4)."""
    h: MatchState = state.fmt
    if not isinstance(h, MatchState) or not h.records:
        return []
    r = ranking(state)
    rows = []
    for row in r.rows:
        rec = h.records[row.fighter]
        if rec.status is Status.CHAMPION:
            tier = (0, 0)
        elif h.cut is not None and row.fighter in h.cut:
            tier = (1, -(rec.cut_finish or _ALIVE))
        else:
            tier = (2, 0)
        rows.append((tier, row.place, row, rec))
    rows.sort(key=lambda x: (x[0], x[1], x[2].fighter))
    out: list[BrStanding] = []
    prev: tuple[Any, ...] | None = None
    rank = 0
    for i, (tier, place, row, rec) in enumerate(rows):
        key = (tier, place)
        if key != prev:
            rank, prev = i + 1, key
        p = state.players.get(row.fighter)
        name = p.name if p else ""
        if h.teams is not None:       # a team: its name and members by position (issue 20)
            name = team_label(state, row.fighter)
        out.append(BrStanding(
            number=row.fighter, name=name, rank=rank, points=row.points,
            wins=row.wins, losses=row.losses, draws=row.draws, status=rec.status.value,
            mw=row.mw, omw=row.omw, oomw=row.oomw, cut_finish=rec.cut_finish))
    gone = revoked_marks(h.officiating.dq) if keep_revoked else {}
    return [x._replace(rank=rank) for rank, x in
            revoke([(x.number, x.rank, x) for x in out], h.officiating.dq)] + [
        x for x in out if x.number in gone]


def _rows(state: TournamentState) -> list[dict[str, Any]]:
    return [row_document(s) for s in br_standings(state)]


def row_document(s: BrStanding) -> dict[str, Any]:
    """One row's normative JSON (docs/DESIGN.md §8/§11; what the signed report states)."""
    return {"rank": s.rank, "number": s.number, "name": s.name, "points": s.points,
             "wins": s.wins, "losses": s.losses, "draws": s.draws, "status": s.status,
             "mw": mw_str(s.mw), "omw": fraction_str(s.omw), "oomw": fraction_str(s.oomw),
             "cut_finish": s.cut_finish}


def br_standings_json(state: TournamentState) -> dict[str, Any]:
    h: MatchState = state.fmt
    return {"players": _rows(state), "rounds": h.swiss_rounds if h else 0,
            "rounds_total": h.rounds_total if h else 0,
            "champion": h.champion if h else None, "final": bool(h and h.final)}
