"""Bushiroad standings from the folded match state: histories, ranking and rows.

Owns: ``histories`` (the ``History`` of every fighter, read from ``PlayerRecord.played``
and ``opponents``), ``record_columns`` (the same field as integer columns without a
``History`` per fighter), ``undefeated_until`` (the stop rules' count, read the same way),
``stage_rounds`` (R_total), ``ranking`` (BR-SWISS-TB-8 with the
tournament's parameters, ties resolved by the recorded tie-break order) and
``final_order``.  The one implementation the commands (finalists, final standings), the
projections and the audit share.

May import: ``ledger.core.state``, ``ledger.formats.match.*``, ``ledger.formats.bushiroad.*``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ledger.core.state import TournamentState
from ledger.formats.bushiroad.columns import Columns, Group, Ranking, order_columns
from ledger.formats.bushiroad.model import History, Outcome, RoundEntry, Withdrawal
from ledger.formats.bushiroad.mw import MwDenominator, mw_hundredths
from ledger.formats.bushiroad.params import tiebreak_params
from ledger.formats.bushiroad.tiebreak import (
    H2HGroup,
    StandingsKind,
    TiebreakParams,
    rank,
    ranking_steps,
    resolve_ties,
)
from ledger.formats.match.model import MatchState, PlayerRecord, Status

_FIRST_LOSS = re.compile("[LXN]")      # the qualifying-round characters that are losses
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


def undefeated_until(state: TournamentState) -> list[float]:
    """``rounds.undefeated_until`` of every fighter read from the records (no ``History``):
    the round of the first loss (L, X or N), or the completed rounds at the drop or
    disqualification, whichever is earlier; infinity if neither (BR-SWISS-ROUNDS-4)."""
    h: MatchState = state.fmt
    dq = h.officiating.dq
    never = float("inf")
    first_loss = _FIRST_LOSS.search
    dropped = Status.DROPPED
    out: list[float] = []
    for r in h.records.values():
        m = first_loss(r.played)
        end = m.start() + 1.0 if m is not None else never
        if r.status is dropped and r.dropped_after_rounds is not None:
            end = min(end, r.dropped_after_rounds)
        if dq and r.number in dq:
            end = min(end, dq[r.number].round)
        out.append(float(end))
    return out


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
    given, else the one recorded) where one was drawn (BR-SWISS-TB-8, BR-DE-TB-1).

    A Swiss field is read straight from the folded records (``record_columns``); double
    elimination (E(f) needs drops and disqualifications per fighter), a validating caller
    and any record the fast reading does not cover go through ``histories`` and
    ``tiebreak.rank``.  Both meet in ``columns.order_columns``.
    """
    h: MatchState = state.fmt
    kind, total, params = kind_of(state), stage_rounds(state), tiebreak_params(state)
    cols = None if validate or kind is not StandingsKind.SWISS else \
        record_columns(h, total_rounds=total, params=params)
    if cols is None:
        r = rank(histories(state), kind=kind, total_rounds=total, params=params,
                 validate=validate)
    else:
        r = order_columns(cols, ranking_steps(kind, params), omit=frozenset(),
                          points_per_win=params.points_per_win,
                          pairs_only=params.h2h_group is H2HGroup.PAIRS_ONLY)
    order = tiebreak if tiebreak is not None else h.tiebreak
    if order is not None and r.unresolved:
        r = resolve_ties(r, orders_from(order, r.unresolved))
    return r


def record_columns(h: MatchState, *, total_rounds: int, params: TiebreakParams
                   ) -> Columns | None:
    """The Swiss columns of every fighter read from ``PlayerRecord.played`` / ``opponents``
    with string counts, the same values ``histories`` + ``rank`` give (BR-SWISS-TB-3:
    ``mw.swiss_mw_hundredths``'s arithmetic); ``None`` when a record is not one the
    reading covers (an unknown round character, opponents and matches that do not line
    up), so the caller takes the ``History`` path."""
    recs = sorted(h.records.values(), key=lambda r: r.number)
    m = params.points_per_win
    if m < 1:
        return None                                  # swiss_mw_hundredths refuses it
    by_total = params.swiss_mw_denominator is MwDenominator.TOTAL_ROUNDS
    bye_counts = params.bye_in_own_mw
    wins: list[int] = []
    losses: list[int] = []
    draws: list[int] = []
    mw: list[int] = []
    for r in recs:
        p = r.played
        nw, nl, nd, nx = p.count("W"), p.count("L"), p.count("D"), p.count("X")
        nb, nn, skipped = p.count("B"), p.count("N"), p.count("-")
        if nw + nl + nd + nx + nb + nn + skipped != len(p) or \
                nw + nl + nd + nx != len(r.opponents):
            return None
        w = nw + nb
        rounds = total_rounds if by_total else len(p) - skipped
        if not bye_counts:
            rounds -= nb
            w -= nb
        wins.append(nw + nb)
        losses.append(nl + nx + nn)
        draws.append(nd)
        mw.append(mw_hundredths(w * m, rounds * m))
    by_number = {r.number: r for r in recs}

    def beat(x: int, y: int) -> bool:          # BR-SWISS-TB-6: matches with a winner only
        rec = by_number[x]
        results = [c for c, o in zip((c for c in rec.played if c in "WLDX"), rec.opponents,
                                     strict=True) if o == y]
        return "W" in results and "L" not in results

    return Columns(fighters=[r.number for r in recs], wins=wins, losses=losses, draws=draws,
                   mw=mw, opponents=[r.opponents for r in recs], beat=beat)


def orders_from(draw: Sequence[int], groups: Sequence[Group]) -> dict[Group, list[int]]:
    """Each tied group ordered as its members appear in one DRAW-v1 result."""
    pos = {n: i for i, n in enumerate(draw)}
    return {g: sorted(g, key=lambda n: pos.get(n, len(pos) + n)) for g in groups}


def tied_players(state: TournamentState) -> list[int]:
    """Every fighter in a group still tied after head-to-head (the tie-break draw's items)."""
    return sorted(n for g in ranking(state).unresolved for n in g)


def final_order(state: TournamentState, tiebreak: Sequence[int] | None = None) -> list[int]:
    return [row.fighter for row in ranking(state, tiebreak).rows]
