"""Recommended number of Swiss rounds (BR-SWISS-ROUNDS-1..4, AMB-B28; TC-04).

Owns: ``recommended_swiss_rounds``, the two tables of 002 FR §3.2.1.1 as data, and
``swiss_stop`` / ``swiss_stop_at`` — whether an announced stop rule ends the Swiss stage
(BR-SWISS-ROUNDS-4), from histories or from each fighter's ``undefeated_until``.
The recommendation is advice for ``tourney init``: the organizer may set any number of
rounds or an announced stop rule instead, and outside the tables there is no default, so
the organizer MUST set it (AMB-B28).

May import: the standard library, ``ledger.errors``, ``ledger.formats.bushiroad.model``.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Final

from ledger.errors import RuleError
from ledger.formats.bushiroad.model import History


class RoundRobin(str, Enum):
    """The recommendation for 2–4 fighters: a round robin instead of Swiss (BR-SWISS-ROUNDS-1)."""

    RECOMMENDED = "round_robin"


ROUND_ROBIN: Final = RoundRobin.RECOMMENDED


@dataclass(frozen=True)
class RoundRange:
    """A recommended number of rounds: ``low`` to ``high`` inclusive (equal without a cut)."""

    low: int
    high: int

    @property
    def exact(self) -> int | None:
        return self.low if self.low == self.high else None

    def __str__(self) -> str:
        return str(self.low) if self.low == self.high else f"{self.low}-{self.high}"


#: (first fighter count, last fighter count, rounds) — BR-SWISS-ROUNDS-2, no top cut.
NO_CUT: Final = ((5, 8, 3), (9, 16, 4), (17, 32, 5), (33, 64, 6), (65, 128, 7),
                 (129, 256, 8), (257, 512, 9), (513, 1024, 10))
#: (first, last, low, high) — BR-SWISS-ROUNDS-3, with a top cut.
WITH_CUT: Final = ((9, 64, 3, 5), (65, 128, 4, 6), (129, 256, 5, 7), (257, 512, 6, 8),
                   (513, 1024, 7, 9))


def recommended_swiss_rounds(fighters: int, *, top_cut: bool) -> RoundRange | RoundRobin | None:
    """The recommended Swiss rounds for a field (BR-SWISS-ROUNDS-1/2/3, AMB-B28; TC-04).

    2–4 fighters: a round robin is recommended, with or without a cut (BR-SWISS-ROUNDS-1).
    Otherwise the row of the matching table; ``None`` where no row exists (fewer than 5
    fighters without a cut, fewer than 9 or more than 1024 with one, more than 1024
    without): the organizer must set the rounds or a stop rule (AMB-B28).
    """
    if 2 <= fighters <= 4:
        return ROUND_ROBIN
    if top_cut:
        for first, last, low, high in WITH_CUT:
            if first <= fighters <= last:
                return RoundRange(low, high)
        return None
    for first, last, rounds in NO_CUT:
        if first <= fighters <= last:
            return RoundRange(rounds, rounds)
    return None


class StopRule(str, Enum):
    """``swiss_rounds`` or ``stop_rule`` (RULES.md §8, BR-SWISS-ROUNDS-4)."""

    FIXED = "fixed"                                  # play ``swiss_rounds`` rounds
    ONE_UNDEFEATED = "one_undefeated"                # until at most one undefeated remains
    UNDEFEATED_BELOW_CUT = "undefeated_below_cut"    # until undefeated < cut_size


@dataclass(frozen=True)
class StopCheck:
    stop: bool
    condition_met_after: int | None    # first completed round after which the rule held
    undefeated: int                    # after the rounds completed so far


def undefeated_until(h: History) -> float:
    """The number of completed rounds after which the fighter is no longer undefeated:
    the round of their first loss, or the round after which they dropped or were
    disqualified, whichever is earlier (infinity if neither)."""
    first_loss = min((e.round for e in h.rounds if e.outcome.is_loss), default=None)
    ends = [w.after_round for w in (h.drop, h.dq) if w is not None]
    return float(min(ends + ([first_loss] if first_loss is not None else []),
                     default=float("inf")))


def undefeated_after(histories: Iterable[History], after_round: int) -> int:
    """Fighters still in the event with no loss after ``after_round`` rounds.

    A draw is not a loss (BR-SWISS-4), so an unbeaten fighter with draws counts; a fighter
    who dropped or was disqualified by then does not.
    """
    return sum(1 for h in histories if undefeated_until(h) > after_round)


def swiss_stop(histories: Iterable[History], completed_rounds: int, rule: StopRule, *,
               swiss_rounds: int | None = None, cut_size: int | None = None,
               extra_rounds: int = 0) -> StopCheck:
    """``swiss_stop_at`` over the histories of the field."""
    return swiss_stop_at([undefeated_until(h) for h in histories], completed_rounds, rule,
                         swiss_rounds=swiss_rounds, cut_size=cut_size,
                         extra_rounds=extra_rounds)


def swiss_stop_at(until_rounds: Iterable[float], completed_rounds: int, rule: StopRule, *,
                  swiss_rounds: int | None = None, cut_size: int | None = None,
                  extra_rounds: int = 0) -> StopCheck:
    """Does the announced rule end the Swiss stage after ``completed_rounds`` (BR-SWISS-ROUNDS-4)?

    ``fixed`` stops after ``swiss_rounds``.  ``one_undefeated`` stops once at most one
    undefeated fighter remains; ``undefeated_below_cut`` once fewer than ``cut_size`` do
    (BR-DE-2's rule, offered for Swiss).  ``extra_rounds`` plays that many more rounds after
    the condition first held ("add one more round to give fighters with a loss a chance").
    ``until_rounds`` holds, per fighter, the completed rounds after which they stopped
    being undefeated (``undefeated_until``; infinity if never).
    The count is re-derived from the histories for every completed round, so a drop or a
    correction between rounds is taken into account (evaluate before pairing the next round).
    Round 1 is always played: the rules are checked from the first completed round on.
    """
    if extra_rounds < 0:
        raise RuleError("BR-SWISS-ROUNDS-4", f"extra rounds must be ≥ 0, not {extra_rounds}",
                        hint="announce 0 or more extra rounds")
    until = sorted(until_rounds)

    def count(r: int) -> int:
        return len(until) - bisect_right(until, r)

    now = count(completed_rounds)
    if rule is StopRule.FIXED:
        if swiss_rounds is None or swiss_rounds < 1:
            raise RuleError("BR-SWISS-ROUNDS-4", "a fixed Swiss needs swiss_rounds ≥ 1",
                            hint="set --param swiss_rounds=N")
        met = swiss_rounds if completed_rounds >= swiss_rounds else None
        return StopCheck(met is not None, met, now)
    if rule is StopRule.UNDEFEATED_BELOW_CUT and (cut_size is None or cut_size < 1):
        raise RuleError("BR-SWISS-ROUNDS-4", "stopping below the cut needs cut_size ≥ 1",
                        hint="set --param cut_size=N")
    limit = 2 if rule is StopRule.ONE_UNDEFEATED else (cut_size or 1)
    met = next((r for r in range(1, completed_rounds + 1) if count(r) < limit), None)
    return StopCheck(met is not None and completed_rounds >= met + extra_rounds, met, now)
