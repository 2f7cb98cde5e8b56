"""Bushiroad standings: OMW%, OOMW%, head-to-head and the ranking of a field.

Owns: ``opponent_averages`` (OMW% and OOMW% as exact Fractions, BR-SWISS-TB-4/5, AMB-B3,
AMB-B6), ``head_to_head`` (BR-SWISS-TB-6, AMB-B4), ``rank`` (BR-SWISS-TB-1/2/8,
BR-DE-TB-1/2, AMB-B10) and ``resolve_ties`` (BR-SWISS-TB-7).  ``rank`` never draws: it
returns the groups still tied after head-to-head, each pre-ordered by fighter number, and
the caller resolves them with a recorded DRAW-v1 draw (``final_tiebreak = random``) or a
playoff, then passes the orders to ``resolve_ties``.

Exactness without slowness: MW% is an integer number of hundredths, so with
L = lcm(opponent counts) every OMW% is an integer over 100·L and every OOMW% an integer
over 100·L² (``ledger.formats.match.percent.opponent_keys``, shared with the HotC
standings), and sorting compares integers.

May import: the standard library, ``ledger.errors``, ``ledger.formats.bushiroad.*``,
``ledger.formats.match.percent``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction

from ledger.errors import RuleError
from ledger.formats.bushiroad.columns import (
    Columns,
    Step,
    dominance,
    order_columns,
)
from ledger.formats.bushiroad.columns import Group as Group
from ledger.formats.bushiroad.columns import Ranking as Ranking
from ledger.formats.bushiroad.columns import StandingRow as StandingRow
from ledger.formats.bushiroad.model import (
    FighterId,
    History,
    Outcome,
    check_histories,
    index_histories,
)
from ledger.formats.bushiroad.mw import (
    MwDenominator,
    de_mw_hundredths,
    swiss_mw_hundredths,
)
from ledger.formats.match.percent import opponent_keys


class StandingsKind(str, Enum):
    """Which MW% and primary key: Swiss / round robin (points) or double elimination (wins)."""

    SWISS = "swiss"
    DOUBLE_ELIM = "double_elim"


class Territory(str, Enum):
    """``territory``: outside Japan adds OOMW% (BR-SWISS-TB-2, BR-DE-TB-1)."""

    JAPAN = "japan"
    OUTSIDE_JAPAN = "outside_japan"


class H2HGroup(str, Enum):
    """``h2h_group`` (AMB-B4)."""

    DOMINANCE = "dominance"
    PAIRS_ONLY = "pairs_only"


class H2HPosition(str, Enum):
    """``h2h_position`` (AMB-B4, BR-SWISS-TB-8)."""

    AFTER_OOMW = "after_oomw"
    AFTER_OMW = "after_omw"


@dataclass(frozen=True)
class TiebreakParams:
    """The RULES.md §8 parameters the standings read; defaults are the §9.2 proposals.

    ``territory`` has no proposal in RULES.md; the default here is ``outside_japan``, the
    recommended order of 002 FR §3.2.1.2 for events outside Japan (TC-02 uses it).
    """

    points_per_win: int = 1
    territory: Territory = Territory.OUTSIDE_JAPAN
    bye_in_own_mw: bool = True
    swiss_mw_denominator: MwDenominator = MwDenominator.TOTAL_ROUNDS
    h2h_group: H2HGroup = H2HGroup.DOMINANCE
    h2h_position: H2HPosition = H2HPosition.AFTER_OOMW
    de_rank_losses_secondary: bool = False
    de_dq_as_drop: bool = True


def opponent_averages(by_fighter: Mapping[FighterId, History], mw: Mapping[FighterId, int]
                      ) -> tuple[dict[FighterId, Fraction], dict[FighterId, Fraction]]:
    """OMW% and OOMW% of every fighter, exact (BR-SWISS-TB-4/5, BR-DE-TB-5; AMB-B3, AMB-B6).

    OMW%(f) = the mean of MW%(o) over f's opponents, one term per match, bye rounds left
    out of both sum and divisor; OOMW%(f) = the mean of OMW%(o) over the same opponents.
    A fighter with no opponents has OMW% = OOMW% = 0.  ``mw`` is in hundredths.
    """
    omw_key, oomw_key, scale = _opponent_keys(by_fighter, mw)
    return ({f: Fraction(k, 100 * scale) for f, k in omw_key.items()},
            {f: Fraction(k, 100 * scale * scale) for f, k in oomw_key.items()})


def _opponent_keys(by_fighter: Mapping[FighterId, History], mw: Mapping[FighterId, int]
                   ) -> tuple[dict[FighterId, int], dict[FighterId, int], int]:
    fighters = list(by_fighter)
    omw, oomw, scale = opponent_keys(fighters, [mw[f] for f in fighters],
                                     [by_fighter[f].opponents() for f in fighters])
    return dict(zip(fighters, omw, strict=True)), dict(zip(fighters, oomw, strict=True)), scale


def _beat(by_fighter: Mapping[FighterId, History], x: FighterId, y: FighterId) -> bool:
    """x won a match against y and never lost one to y (matches with no winner don't count)."""
    results = [e.outcome for e in by_fighter[x].rounds if e.opponent == y]
    return Outcome.WIN in results and Outcome.LOSS not in results


def head_to_head(group: Group, by_fighter: Mapping[FighterId, History],
                 mode: H2HGroup = H2HGroup.DOMINANCE) -> tuple[Group, ...]:
    """Split a tied group by head-to-head (BR-SWISS-TB-6, AMB-B4; TC-02b).

    ``dominance``: while a remaining member beat every other remaining member, that member
    takes the next place; a last single member takes the place after.  ``pairs_only``: only
    a group of exactly two whose match had a winner is ordered.  Returns the ordered
    pieces: singletons, then at most one group still tied (for the random method or a
    playoff).  Only matches with a winner count; a draw or a double loss decides nothing.
    """
    return dominance(group, lambda x, y: _beat(by_fighter, x, y),
                     mode is H2HGroup.PAIRS_ONLY)


def rank(histories: Iterable[History], *, kind: StandingsKind, total_rounds: int,
         params: TiebreakParams = TiebreakParams(),
         omit: Iterable[FighterId] = (), validate: bool = True) -> Ranking:
    """Order a field by BR-SWISS-TB-8 (Swiss, round robin) or BR-DE-TB-1 (double elimination).

    Primary key: points (Swiss: wins × M, a bye is a win, a draw 0) or, for double
    elimination, wins — then fewer losses if ``de_rank_losses_secondary`` (AMB-B10).  Then
    OMW%, OOMW% (``territory = outside_japan`` only) and head-to-head after OOMW% or after
    OMW% (``h2h_position``).  MW% is BR-SWISS-TB-3 over ``total_rounds`` (pass r for
    provisional standings after round r, AMB-B31) or BR-DE-TB-3 with E(f).

    Every history counts for OMW% (a disqualified fighter's results stay, AMB-B24);
    fighters in ``omit`` (standing revoked) are left out of the rows only.  Members of an
    unresolved group share a place and are listed by fighter number: that tuple is the
    pre-ordered input of the DRAW-v1 tie-break draw (LEDGER-RAND-1).

    ``validate`` runs ``check_histories`` first (command side, audit); a projection that
    replays already-checked events may pass ``False`` (no validation on replay).
    """
    by_fighter = index_histories(histories)
    if validate:
        check_histories(by_fighter, total_rounds)
    m = params.points_per_win
    if kind is StandingsKind.SWISS:
        mw = {f: swiss_mw_hundredths(h, total_rounds=total_rounds, points_per_win=m,
                                     bye_in_own_mw=params.bye_in_own_mw,
                                     denominator=params.swiss_mw_denominator)
              for f, h in by_fighter.items()}
    else:
        drawn = sorted(f for f, h in by_fighter.items() if h.draws())
        if drawn:
            raise RuleError("BR-DE-3", f"double elimination has no drawn matches, but "
                            f"fighter(s) {drawn} have one", hint="a tie is a loss for both "
                            "(double_loss)", finding="inconsistent_history")
        mw = {f: de_mw_hundredths(h, total_rounds=total_rounds, points_per_win=m,
                                  dq_as_drop=params.de_dq_as_drop)
              for f, h in by_fighter.items()}
    fighters = sorted(by_fighter)
    hs = [by_fighter[f] for f in fighters]
    cols = Columns(fighters=fighters, wins=[h.wins() for h in hs],
                   losses=[h.losses() for h in hs], draws=[h.draws() for h in hs],
                   mw=[mw[f] for f in fighters], opponents=[h.opponents() for h in hs],
                   beat=lambda x, y: _beat(by_fighter, x, y))
    return order_columns(cols, ranking_steps(kind, params), omit=frozenset(omit),
                         points_per_win=m, pairs_only=params.h2h_group is H2HGroup.PAIRS_ONLY)


def ranking_steps(kind: StandingsKind, params: TiebreakParams) -> list[Step]:
    """The order of BR-SWISS-TB-8 / BR-DE-TB-1 under the tournament's parameters: points
    (= wins × M), fewer losses (DE, ``de_rank_losses_secondary``, AMB-B10), OMW%,
    head-to-head here under ``h2h_position = after_omw``, OOMW% (``outside_japan``),
    head-to-head here under ``after_oomw`` (AMB-B4)."""
    steps: list[Step] = [("wins",)]
    if kind is StandingsKind.DOUBLE_ELIM and params.de_rank_losses_secondary:
        steps.append(("fewer_losses",))
    after_omw = params.h2h_position is H2HPosition.AFTER_OMW
    oomw = params.territory is Territory.OUTSIDE_JAPAN
    steps.append(("omw",) if after_omw or not oomw else ("omw", "oomw"))
    if after_omw:
        steps.append(None)
        if oomw:
            steps.append(("oomw",))
    else:
        steps.append(None)
    return steps


def resolve_ties(ranking: Ranking, orders: Mapping[Group, Sequence[FighterId]]) -> Ranking:
    """Apply the recorded order of each tied group (DRAW-v1 draw or playoff, BR-SWISS-TB-7).

    ``orders`` maps an unresolved group (as returned) to its members best first.  Groups
    without an order stay unresolved.  An order that is not a permutation of its group, or
    a key that is not an unresolved group, is refused.
    """
    pending = set(ranking.unresolved)
    for group, order in orders.items():
        if group not in pending:
            raise RuleError("BR-SWISS-TB-7", f"{list(group)} is not a tied group of these "
                            "standings", hint="resolve the groups that rank() returned")
        if sorted(order) != sorted(group):
            raise RuleError("BR-SWISS-TB-7", f"order {list(order)} is not a permutation of "
                            f"the tied group {list(group)}", hint="order every member once")
    by_f = {r.fighter: r for r in ranking.rows}
    rows: list[StandingRow] = []
    unresolved: list[Group] = []
    i = 0
    while i < len(ranking.rows):
        place = ranking.rows[i].place
        j = i
        while j < len(ranking.rows) and ranking.rows[j].place == place:
            j += 1
        group = tuple(r.fighter for r in ranking.rows[i:j])
        if len(group) > 1 and group in orders:
            rows.extend(replace(by_f[f], place=place + k) for k, f in enumerate(orders[group]))
        else:
            rows.extend(by_f[f] for f in group)
            if len(group) > 1:
                unresolved.append(group)
        i += len(group)
    return Ranking(tuple(rows), tuple(unresolved))
