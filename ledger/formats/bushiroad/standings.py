"""Bushiroad standings from the folded match state: histories, ranking and rows.

Owns: ``histories`` (the ``History`` of every fighter, read from ``PlayerRecord.played``
and ``opponents``), ``stage_rounds`` (R_total), ``ranking`` (``tiebreak.rank`` with the
tournament's parameters, ties resolved by the recorded tie-break order) and
``final_order``.  The one implementation the commands (finalists, final standings), the
projections and the audit share.

May import: ``ledger.state``, ``ledger.formats.match.*``, ``ledger.formats.bushiroad.*``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ledger.formats.bushiroad.model import History, Outcome, RoundEntry, Withdrawal
from ledger.formats.bushiroad.params import tiebreak_params
from ledger.formats.bushiroad.tiebreak import Group, Ranking, StandingsKind, rank, resolve_ties
from ledger.formats.match.model import MatchState, PlayerRecord, Status
from ledger.state import TournamentState

_OUTCOME = {"W": Outcome.WIN, "B": Outcome.WIN, "L": Outcome.LOSS, "D": Outcome.DRAW,
            "X": Outcome.DOUBLE_LOSS, "N": Outcome.LOSS}


def _history(r: PlayerRecord, dq_round: int | None = None,
             dropped_before_dq: bool = False) -> History:
    opponents = iter(r.opponents)
    entries = tuple(RoundEntry(i, None if c in "BN" else next(opponents, None), _OUTCOME[c])
                    for i, c in enumerate(r.played, start=1) if c in _OUTCOME)
    drop = None
    # a drop stays a drop when a disqualification follows it (TC-06b: the DQ of a fighter
    # who had already dropped does not move their DE rounds, under either de_dq_as_drop)
    if (r.status is Status.DROPPED or dropped_before_dq) and \
            r.dropped_after_rounds is not None:
        drop = Withdrawal(after_round=r.dropped_after_rounds)
    # a disqualification takes effect after its round: the match in progress was
    # forfeited, so that round counts as completed (AMB-B24, TC-06b); the DE standings
    # apply it as a drop only under de_dq_as_drop
    dq = Withdrawal(after_round=dq_round) if dq_round is not None else None
    return History(fighter=r.number, rounds=entries, drop=drop, dq=dq)


def histories(state: TournamentState) -> list[History]:
    h: MatchState = state.fmt
    dq = h.officiating.dq
    return [_history(r, dq[r.number].round if r.number in dq else None,
                     r.number in dq and dq[r.number].dropped_before)
            for r in sorted(h.records.values(), key=lambda r: r.number)]


def stage_rounds(state: TournamentState) -> int:
    """R_total: the fixed number of rounds once known, else the rounds played so far
    (provisional standings use R_total = r, AMB-B31; DE counts its own rounds, AMB-B12)."""
    h: MatchState = state.fmt
    played = h.swiss_rounds
    return max(h.rounds_total if h.swiss_over and h.rounds_total else played, 1)


def kind_of(state: TournamentState) -> StandingsKind:
    h: MatchState = state.fmt
    return StandingsKind.DOUBLE_ELIM if h.eliminate_at else StandingsKind.SWISS


def ranking(state: TournamentState, tiebreak: Sequence[int] | None = None, *,
            validate: bool = False) -> Ranking:
    """The standings of the qualifying stage, ties resolved by the tie-break order (the one
    given, else the one recorded) where one was drawn (BR-SWISS-TB-8, BR-DE-TB-1)."""
    h: MatchState = state.fmt
    r = rank(histories(state), kind=kind_of(state), total_rounds=stage_rounds(state),
             params=tiebreak_params(state), validate=validate)
    order = tiebreak if tiebreak is not None else h.tiebreak
    if order is not None and r.unresolved:
        r = resolve_ties(r, orders_from(order, r.unresolved))
    return r


def orders_from(draw: Sequence[int], groups: Sequence[Group]) -> dict[Group, list[int]]:
    """Each tied group ordered as its members appear in one DRAW-v1 result."""
    pos = {n: i for i, n in enumerate(draw)}
    return {g: sorted(g, key=lambda n: pos.get(n, len(pos) + n)) for g in groups}


def tied_players(state: TournamentState) -> list[int]:
    """Every fighter in a group still tied after head-to-head (the tie-break draw's items)."""
    return sorted(n for g in ranking(state).unresolved for n in g)


def final_order(state: TournamentState, tiebreak: Sequence[int] | None = None) -> list[int]:
    return [row.fighter for row in ranking(state, tiebreak).rows]
