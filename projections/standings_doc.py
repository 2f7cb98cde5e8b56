"""The standings document of any format: one entry point for the CLI, publishing and the
publisher's check (``tourney audit report``).

Owns: ``standings_document`` (the ``standings --json`` document of the tournament's
format: HotC, Bushiroad or Wheel of Time) and ``event_summary`` (champion, cut, rounds
played: the figures every format states).  Dispatches on the type of the format state the
plug-in keeps, never on a list of format ids.

May import: ``ledger.*``, ``projections.*``.
"""

from __future__ import annotations

from typing import Any

from ledger.formats.match.model import MatchState
from ledger.formats.wot.state import WotState
from ledger.state import TournamentState


def standings_document(state: TournamentState) -> dict[str, Any]:
    if isinstance(state.fmt, WotState):
        from projections.wot_standings import wot_standings_json
        return wot_standings_json(state)
    if state.format is not None and state.format.id == "hotc-swiss-de" or not isinstance(
            state.fmt, MatchState):
        from projections.standings import standings_json
        return standings_json(state)
    from projections.br_standings import br_standings_json
    return br_standings_json(state)


def event_summary(state: TournamentState,
                  table: dict[str, Any] | None = None) -> dict[str, Any]:
    """Champion (or None), the top cut (sorted, or None) and the rounds paired so far;
    ``table``: the ``standings_document`` already computed, if any."""
    h = state.fmt
    if isinstance(h, MatchState):     # a revoked champion's title passes down or is void
        champ = None if h.champion is None else (
            table if table is not None else standings_document(state))["champion"]
        return {"champion": champ, "cut": None if h.cut is None else sorted(h.cut),
                "rounds": len(h.rounds)}
    if isinstance(h, WotState):
        rows = standings_document(state)["players"]
        firsts = [r["number"] for r in rows if r.get("rank") == 1]
        return {"champion": firsts[0] if len(firsts) == 1 and standings_document(
            state).get("final") else None, "cut": None, "rounds": len(h.games)}
    return {"champion": None, "cut": None, "rounds": 0}
