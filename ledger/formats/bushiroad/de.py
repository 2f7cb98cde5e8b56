"""Bushiroad double elimination: each fighter's status and when the stage ends.

Owns: ``status`` (BR-DE-1/5: 0 or 1 loss active, 2 losses eliminated; a drop or a
disqualification ends participation) and ``end_check`` (BR-DE-2/5, AMB-B9).

End condition (AMB-B9), evaluated after each round (``after_round = 0`` is before round 1):
- without a cut: the first round that leaves exactly one undefeated fighter ends the event
  and that fighter wins; if a round leaves none undefeated, pairing continues among the
  non-eliminated fighters until one remains (that one wins; none left: no champion, the
  head judge records a ruling);
- with a cut of X: the stage stops when fewer than X undefeated fighters remain, and the
  finalists are then selected by the announced method (``finalists``).

May import: the standard library, ``ledger.errors``, ``ledger.formats.bushiroad.model``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from ledger.errors import RuleError
from ledger.formats.bushiroad.model import FighterId, History


class Status(str, Enum):
    UNDEFEATED = "undefeated"        # active, 0 losses
    ONE_LOSS = "one_loss"            # active, 1 loss
    ELIMINATED = "eliminated"        # 2 losses (BR-DE-1)
    DROPPED = "dropped"
    DISQUALIFIED = "disqualified"

    @property
    def active(self) -> bool:
        return self in (Status.UNDEFEATED, Status.ONE_LOSS)


class EndReason(str, Enum):
    CONTINUE = "continue"
    ONE_UNDEFEATED = "one_undefeated"          # BR-DE-5, no cut
    ONE_REMAINING = "one_remaining"            # AMB-B9, after a round left none undefeated
    NONE_REMAINING = "none_remaining"          # AMB-B9: no champion (head-judge ruling)
    UNDEFEATED_BELOW_CUT = "undefeated_below_cut"   # BR-DE-2, go to finalist selection


@dataclass(frozen=True)
class EndCheck:
    ended: bool
    reason: EndReason
    champion: FighterId | None
    undefeated: tuple[FighterId, ...]
    active: tuple[FighterId, ...]


def status(h: History, after_round: int) -> Status:
    """The fighter's status once ``after_round`` rounds are complete (BR-DE-1, BR-DROP-2).

    Two losses eliminate, whatever came after; otherwise a disqualification or a drop that
    took effect by then ends participation (a drop after pairings has its forced loss in
    the history, BR-DROP-2).
    """
    if h.losses(upto=after_round) >= 2:
        return Status.ELIMINATED
    if h.dq is not None and h.dq.after_round <= after_round:
        return Status.DISQUALIFIED
    if h.drop is not None and h.drop.after_round <= after_round:
        return Status.DROPPED
    return Status.UNDEFEATED if h.losses(upto=after_round) == 0 else Status.ONE_LOSS


def end_check(histories: Iterable[History], after_round: int,
              cut: int | None = None) -> EndCheck:
    """Does the DE stage end after ``after_round`` rounds (BR-DE-2/5, AMB-B9)?

    ``cut`` is the number of finalists X, or ``None`` for a DE event without a top cut.
    Before round 1 a field that is already below the cut, or of one fighter, ends at once.
    """
    if cut is not None and cut < 1:
        raise RuleError("BR-DE-2", f"the cut size must be ≥ 1, not {cut}", hint="set cut_size")
    hs = sorted(histories, key=lambda h: h.fighter)
    st = {h.fighter: status(h, after_round) for h in hs}
    undefeated = tuple(f for f, s in st.items() if s is Status.UNDEFEATED)
    active = tuple(f for f, s in st.items() if s.active)

    def done(reason: EndReason, champion: FighterId | None = None) -> EndCheck:
        return EndCheck(True, reason, champion, undefeated, active)

    if cut is not None:
        if len(undefeated) < cut:
            return done(EndReason.UNDEFEATED_BELOW_CUT)
        return EndCheck(False, EndReason.CONTINUE, None, undefeated, active)
    if len(undefeated) == 1:
        return done(EndReason.ONE_UNDEFEATED, undefeated[0])
    if not undefeated:
        if len(active) == 1:
            return done(EndReason.ONE_REMAINING, active[0])
        if not active:
            return done(EndReason.NONE_REMAINING)
    return EndCheck(False, EndReason.CONTINUE, None, undefeated, active)
