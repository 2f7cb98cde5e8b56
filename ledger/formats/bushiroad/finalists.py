"""Selecting the finalists of a Bushiroad top cut: by ranking, by nation/clan, by title.

Owns: ``select_by_ranking`` (BR-FIN-5 with the BR-FIN-2 exclusions), ``select_by_group``
(BR-FIN-6 nation/clan and BR-FIN-7 title, in steps, with ``step_overflow_choice``,
``fin_draw_handling`` and ``fin_count_excluded_full_wins``; AMB-B15, AMB-B34, AMB-B35) and
``remaining_finalists`` (BR-FIN-3/4: a vacancy after ``finalists_decided`` is never refilled,
AMB-B16).  Each selection returns the finalists, the step every finalist came from, the
fighters skipped as excluded, the unfilled spots and warnings.

Pure: a random overflow choice is not drawn here.  When a step needs one and no order was
given, the selection stops with ``pending_draw`` (the step, its candidates pre-ordered by
fighter number, the spots); the caller records a DRAW-v1 draw over exactly those
candidates and calls again with ``draw_orders = {step: order}``.

May import: the standard library, ``ledger.errors``, ``ledger.formats.bushiroad.model``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum

from ledger.errors import RuleError
from ledger.formats.bushiroad.model import FighterId


class Exclusion(str, Enum):
    """Why a fighter is not a candidate (BR-FIN-2 a/b/c; a drop or DQ also ends candidacy)."""

    DECLINED = "declined"                    # (a) told the organizer before the decision
    CONDITIONAL_ENTRY = "conditional_entry"  # (b) entered on condition of not advancing
    NO_INTENT = "no_intent"                  # (c) no intent / inappropriate (e.g. absent)
    DROPPED = "dropped"
    DISQUALIFIED = "disqualified"


class GroupMethod(str, Enum):
    """``finalist_method`` values that select in steps."""

    NATION_CLAN = "nation_clan"   # BR-FIN-6, VG Nation Fight / Clan Fight
    TITLE = "title"               # BR-FIN-7, WS Neo-Standard


class OverflowChoice(str, Enum):
    """``step_overflow_choice`` (AMB-B15): qualifying-phase ranking, or a recorded draw."""

    RANKING = "ranking"
    RANDOM = "random"


class DrawHandling(str, Enum):
    """``fin_draw_handling`` (AMB-B34)."""

    LITERAL = "literal"
    UNBEATEN_AS_FULL_WIN = "unbeaten_as_full_win"


class ChosenBy(str, Enum):
    """How a finalist was chosen within their step."""

    ALL = "all"            # every candidate of the step fitted
    RANKING = "ranking"    # BR-FIN-5, or an overflowing step taken by ranking
    RANDOM = "random"      # an overflowing step taken in the recorded draw order


@dataclass(frozen=True)
class QualifierRecord:
    """A fighter's qualifying-phase record (byes count as wins, AMB-B1) and deck group."""

    fighter: FighterId
    wins: int
    losses: int
    draws: int = 0
    group: str | None = None     # nation/clan, or the declared title (BR-FIN-7)


@dataclass(frozen=True)
class Pick:
    fighter: FighterId
    step: int
    chosen_by: ChosenBy


@dataclass(frozen=True)
class StepTrace:
    """One step: its candidates (in ranking order) and whom it selected.

    ``full_win_users`` is k − 2 for a step k ≥ 2 (how many counted full-win fighters use the
    candidates' nation/clan/title) and ``None`` for step 1 and for selection by ranking.
    """

    step: int
    full_win_users: int | None
    candidates: tuple[FighterId, ...]
    selected: tuple[FighterId, ...]
    chosen_by: ChosenBy


@dataclass(frozen=True)
class PendingDraw:
    """A step with more candidates than spots under ``step_overflow_choice = random``."""

    step: int
    candidates: tuple[FighterId, ...]    # pre-ordered by fighter number (LEDGER-RAND-1)
    spots: int


@dataclass(frozen=True)
class Selection:
    finalists: tuple[FighterId, ...]
    picks: tuple[Pick, ...]
    steps: tuple[StepTrace, ...]
    skipped: tuple[tuple[FighterId, Exclusion], ...]
    unfilled: int
    warnings: tuple[str, ...] = ()
    pending_draw: PendingDraw | None = field(default=None)


def _refuse(rule: str, message: str, hint: str) -> RuleError:
    return RuleError(rule, message, hint=hint, finding="invalid_selection")


def _check_ranking(ranking: Sequence[FighterId], spots: int) -> None:
    if spots < 0:
        raise _refuse("BR-FIN-5", f"the cut size must be ≥ 0, not {spots}", "set cut_size")
    if len(set(ranking)) != len(ranking):
        raise _refuse("BR-FIN-5", "the ranking lists a fighter twice",
                      "pass the final standings order (ties resolved)")


def select_by_ranking(ranking: Sequence[FighterId], spots: int,
                      excluded: Mapping[FighterId, Exclusion] | None = None) -> Selection:
    """BR-FIN-5: take fighters in ranking order, skipping the excluded (BR-FIN-2; TC-24a).

    ``ranking`` is the qualifying standings with every tie resolved.  An excluded fighter
    is skipped and the next-ranked fighter advances; spots beyond the field stay unfilled.
    """
    _check_ranking(ranking, spots)
    excluded = excluded or {}
    chosen: list[FighterId] = []
    skipped: list[tuple[FighterId, Exclusion]] = []
    for f in ranking:
        if len(chosen) == spots:
            break
        if f in excluded:
            skipped.append((f, excluded[f]))
        else:
            chosen.append(f)
    picks = tuple(Pick(f, 1, ChosenBy.RANKING) for f in chosen)
    trace = StepTrace(1, None, tuple(chosen), tuple(chosen), ChosenBy.RANKING)
    return Selection(tuple(chosen), picks, (trace,), tuple(skipped), spots - len(chosen))


def _choose(step: int, candidates: list[FighterId], room: int, overflow: OverflowChoice,
            draw_orders: Mapping[int, Sequence[FighterId]]
            ) -> tuple[list[FighterId], ChosenBy] | PendingDraw:
    if len(candidates) <= room:
        return candidates, ChosenBy.ALL
    if overflow is OverflowChoice.RANKING:
        return candidates[:room], ChosenBy.RANKING
    order = draw_orders.get(step)
    if order is None:
        return PendingDraw(step, tuple(sorted(candidates)), room)
    if sorted(order) != sorted(candidates):
        raise _refuse("BR-FIN-6", f"the draw order for step {step} ({list(order)}) is not a "
                      f"permutation of its candidates {sorted(candidates)}",
                      "draw over exactly the pending candidates")
    return list(order)[:room], ChosenBy.RANDOM


def select_by_group(records: Iterable[QualifierRecord], ranking: Sequence[FighterId],
                    spots: int, excluded: Mapping[FighterId, Exclusion] | None = None, *,
                    method: GroupMethod = GroupMethod.NATION_CLAN,
                    overflow: OverflowChoice = OverflowChoice.RANKING,
                    draw_orders: Mapping[int, Sequence[FighterId]] | None = None,
                    draw_handling: DrawHandling = DrawHandling.LITERAL,
                    count_excluded_full_wins: bool = False) -> Selection:
    """BR-FIN-6 / BR-FIN-7: select in steps by nation/clan or title (TC-24 b/c/d).

    Step 1: every non-excluded fighter who won all qualifying rounds (0 losses, 0 draws;
    with ``unbeaten_as_full_win`` 0 losses).  Step k ≥ 2: non-excluded fighters with exactly
    one loss whose group is used by exactly k − 2 counted full-win fighters — those
    selected in step 1, or every full-win fighter with ``count_excluded_full_wins``
    (AMB-B35).  A step with more candidates than spots is cut by ranking or by the recorded
    draw order (AMB-B15).  Unfilled spots stay unfilled (BR-FIN-6).  Warns when the phase
    has draws (AMB-B34).
    """
    _check_ranking(ranking, spots)
    excluded = excluded or {}
    orders = draw_orders or {}
    recs = {r.fighter: r for r in records}
    if sorted(recs) != sorted(ranking):
        raise _refuse("BR-FIN-6", "the ranking and the qualifier records name different "
                      "fighters", "pass one record per ranked fighter")
    position = {f: i for i, f in enumerate(ranking)}

    def full_win(r: QualifierRecord) -> bool:
        return r.losses == 0 and (r.draws == 0 or
                                  draw_handling is DrawHandling.UNBEATEN_AS_FULL_WIN)

    warnings: list[str] = []
    drawn = sorted(f for f, r in recs.items() if r.draws > 0)
    if drawn:
        lost = [f for f in drawn if recs[f].losses == 0 and not full_win(recs[f])]
        warnings.append(f"AMB-B34: the qualifying phase has draws (fighters {drawn}); "
                        f"fin_draw_handling={draw_handling.value}"
                        + (f" leaves unbeaten fighters {lost} in no step" if lost else ""))
    chosen: list[FighterId] = []
    picks: list[Pick] = []
    steps: list[StepTrace] = []
    skipped = [(f, excluded[f]) for f in ranking if f in excluded]

    def finish(pending: PendingDraw | None = None) -> Selection:
        return Selection(tuple(chosen), tuple(picks), tuple(steps), tuple(skipped),
                         spots - len(chosen), tuple(warnings), pending)

    def run(step: int, users: int | None, candidates: list[FighterId]) -> PendingDraw | None:
        candidates.sort(key=position.__getitem__)
        got = _choose(step, candidates, spots - len(chosen), overflow, orders)
        if isinstance(got, PendingDraw):
            return got
        taken, how = got
        chosen.extend(taken)
        picks.extend(Pick(f, step, how) for f in taken)
        steps.append(StepTrace(step, users, tuple(candidates), tuple(taken), how))
        return None

    full = [f for f in ranking if full_win(recs[f])]
    pending = run(1, None, [f for f in full if f not in excluded])
    if pending is not None:
        return finish(pending)
    counted = full if count_excluded_full_wins else list(chosen)
    for f in counted + [f for f in ranking if recs[f].losses == 1 and f not in excluded]:
        if recs[f].group is None:
            raise _refuse("BR-FIN-7" if method is GroupMethod.TITLE else "BR-FIN-6",
                          f"fighter {f} has no {method.value.replace('_', '/')} recorded",
                          "record every candidate's deck group (TitleDeclared for titles)")
    users = Counter(recs[f].group for f in counted)
    one_loss = [f for f in ranking if recs[f].losses == 1 and f not in excluded]
    for k in range(2, max(users.values(), default=0) + 3):
        if len(chosen) == spots:
            break
        pending = run(k, k - 2, [f for f in one_loss if users[recs[f].group] == k - 2])
        if pending is not None:
            return finish(pending)
    if len(chosen) < spots:
        rule = "BR-FIN-7" if method is GroupMethod.TITLE else "BR-FIN-6"
        warnings.append(f"{rule}: {spots - len(chosen)} spot(s) left unfilled after the "
                        "steps; no further fighters are selected")
    return finish()


def remaining_finalists(decided: Sequence[FighterId],
                        vacated: Iterable[FighterId]) -> tuple[FighterId, ...]:
    """The finalists after vacancies that arose after ``finalists_decided`` (BR-FIN-3/4).

    Nobody is added: a vacancy (absence, disqualification, …) is not refilled (AMB-B16;
    TC-24a).  A vacated fighter who is not a finalist is refused.
    """
    gone = set(vacated)
    stray = sorted(gone - set(decided))
    if stray:
        raise _refuse("BR-FIN-4", f"fighter(s) {stray} are not finalists",
                      "only a finalist's seat can fall vacant")
    return tuple(f for f in decided if f not in gone)
