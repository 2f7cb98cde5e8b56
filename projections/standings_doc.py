"""The standings of any format: one entry point for the CLI, publishing and the
publisher's check (``tourney audit report``).

Owns: ``standings_view`` (the format's declared ``StandingsView``, ``FormatPlugin.standings``),
``settled_view`` (mid-round: the view as of the last completed round, saying so — defect 5),
``standings_document`` (the format's normative JSON document: what ``report_published``
signs, unchanged since rule revision 1) and ``event_summary`` (champion, cut, rounds
played: the figures every format states).  Names no format: the plug-in declares it all.

May import: ``ledger.*`` (the core and the socket, no format package), ``projections.*``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ledger.core.format_socket import plugin_for
from ledger.core.state import TournamentState, apply_event
from ledger.standings_view import StandingsView
from ledger.wire.events import open_leaf

if TYPE_CHECKING:
    from ledger.storage.reader import RawLeaves

_NONE = StandingsView(heading="no standings", columns=(), rows=(), summary={},
                      csv_columns=())


def standings_view(state: TournamentState) -> StandingsView:
    """The standings as the tournament's format declares them (an empty view without)."""
    plugin = plugin_for(state.format.id if state.format else None)
    view = plugin.views.standings(state) if plugin is not None and state.fmt is not None else None
    return view if view is not None else _NONE


def state_before(led: RawLeaves, log: str, seq: int) -> TournamentState:
    """The tournament folded from its first event up to (not including) ``seq``."""
    state = TournamentState()
    for ver, leaf in led.raw_leaves(log):
        if ver >= seq:
            break
        apply_event(state, open_leaf(leaf))
    return state


def settled_view(led: RawLeaves, log: str, state: TournamentState, *,
                 cache: dict[int, StandingsView] | None = None,
                 current: StandingsView | None = None,
                 folded: dict[int, StandingsView] | None = None) -> StandingsView:
    """The standings as of the last completed round: while a round (a Game) is in progress
    the view is the one its pairing was made from, and says so (defect 5).  ``cache``
    keeps that view by the pairing's seq (the live server: once per round, not once per
    append); ``current``: the state's own view when the caller has it; ``folded``: views
    of the state just before event seq, by seq, from a caller that folds the log event by
    event (the live server's follower) — ``state_before`` is then not folded again."""
    view = standings_view(state) if current is None else current
    open_round = view.open_round
    if open_round is None:
        return view
    kept = None if cache is None else cache.get(open_round.paired_seq)
    if kept is not None:
        return kept
    before = (folded or {}).get(open_round.paired_seq) or \
        standings_view(state_before(led, log, open_round.paired_seq))
    settled = _as_of(before, open_round)
    if cache is not None:
        cache[open_round.paired_seq] = settled
    return settled


def _as_of(before: StandingsView, open_round: Any) -> StandingsView:
    noun = open_round.noun
    done = open_round.number - 1
    as_of = (f"as of {noun} {done}" if done > 0 else f"before {noun} 1") + (
        f"; {noun} {open_round.number} is in progress (results not all in)")
    return before.with_as_of(as_of, open_round)


def standings_document(state: TournamentState) -> dict[str, Any]:
    """The format's normative standings document (``players``: the ranked rows)."""
    return standings_view(state).document


def event_summary(state: TournamentState) -> dict[str, Any]:
    """Champion (or None), the top cut (sorted, or None) and the rounds paired so far."""
    view = standings_view(state)
    return {"champion": view.champion, "cut": view.cut, "rounds": view.rounds}
