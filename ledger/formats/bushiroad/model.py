"""Inputs of the Bushiroad rule functions: a fighter's history and the closed sets it uses.

Owns: ``Outcome`` (a fighter's result in one round), ``DecidedBy`` (docs/DESIGN.md §11's closed
set), ``RoundEntry``, ``Withdrawal`` (a drop or disqualification), ``History`` and the
consistency check ``check_histories`` that every standing computation runs first.

A history is what the projections fold out of the ledger for one fighter: one entry per
round the fighter was paired in (an opponent, or a bye), and at most one drop and one
disqualification.  Losses at the moment of a drop are *derived* from the entries, never
stated twice (so they cannot disagree).

May import: the standard library, ``ledger.errors`` and ``ledger.formats.match.model``
(the one ``DecidedBy`` of docs/DESIGN.md §11).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from functools import cached_property

from ledger.errors import RuleError

FighterId = int


class Outcome(str, Enum):
    """A fighter's result in one round (BR-SWISS-4, BR-DE-3, BR-DROP-2)."""

    WIN = "win"                  # includes a bye (AMB-B1)
    LOSS = "loss"                # the opponent won
    DRAW = "draw"                # Swiss / round robin only: worth 0 points (BR-SWISS-4/5)
    DOUBLE_LOSS = "double_loss"  # both lost, no winner (BR-DE-3, BR-SE-3, BR-DROP-2)

    @property
    def is_loss(self) -> bool:
        return self in (Outcome.LOSS, Outcome.DOUBLE_LOSS)


#: The outcome the opponent must have recorded for the same match.
MIRROR: Mapping[Outcome, Outcome] = {
    Outcome.WIN: Outcome.LOSS,
    Outcome.LOSS: Outcome.WIN,
    Outcome.DRAW: Outcome.DRAW,
    Outcome.DOUBLE_LOSS: Outcome.DOUBLE_LOSS,
}


@dataclass(frozen=True, slots=True)
class RoundEntry:
    """One round of one fighter: the opponent (``None`` for a bye) and the outcome.

    A bye is normally a ``WIN`` (AMB-B1); a bye turned into a Loss of Match for severe
    tardiness is a ``LOSS`` with no opponent (BR-SWISS-7).  ``games_won`` is the fighter's
    game wins in the match (0 for a bye); it is carried for reports, not for standings.
    """

    round: int
    opponent: FighterId | None
    outcome: Outcome
    games_won: int = 0

    @property
    def is_bye(self) -> bool:
        return self.opponent is None


@dataclass(frozen=True, slots=True)
class Withdrawal:
    """A drop or a disqualification taking effect after ``after_round`` completed rounds.

    ``after_round`` counts every round the fighter completed, including a round whose match
    was forfeited by this very drop or disqualification (its forced loss is an entry of the
    history).  A drop before round 1 is ``after_round = 0``.  The number of losses at that
    moment is derived from the history (BR-DE-TB-4, AMB-B11, AMB-B24).
    """

    after_round: int


@dataclass(frozen=True)
class History:
    """Everything the standings need about one fighter (BR-SWISS-TB, BR-DE-TB)."""

    fighter: FighterId
    rounds: tuple[RoundEntry, ...] = ()
    drop: Withdrawal | None = None
    dq: Withdrawal | None = None

    @cached_property
    def tally(self) -> tuple[int, int, int, int]:
        """(wins, losses, draws, byes won) over the whole history, counted once."""
        outcomes = [e.outcome for e in self.rounds]
        wins, draws = outcomes.count(Outcome.WIN), outcomes.count(Outcome.DRAW)
        byes = 0
        if len(self.opponent_list) != len(self.rounds):
            byes = sum(1 for e in self.rounds if e.opponent is None and e.outcome is Outcome.WIN)
        return wins, len(outcomes) - wins - draws, draws, byes

    def wins(self, upto: int | None = None) -> int:
        if upto is None:
            return self.tally[0]
        return sum(1 for e in self.rounds if e.round <= upto and e.outcome is Outcome.WIN)

    def losses(self, upto: int | None = None) -> int:
        if upto is None:
            return self.tally[1]
        return sum(1 for e in self.rounds if e.round <= upto and e.outcome.is_loss)

    def draws(self) -> int:
        return self.tally[2]

    def byes(self) -> int:
        """Byes won (a bye lost to a Loss of Match is an ordinary lost round, BR-SWISS-7)."""
        return self.tally[3]

    @cached_property
    def opponent_list(self) -> tuple[FighterId, ...]:
        return tuple(e.opponent for e in self.rounds if e.opponent is not None)

    def opponents(self) -> tuple[FighterId, ...]:
        """Opponents of every non-bye round, one per match, in round order (BR-SWISS-TB-4)."""
        return self.opponent_list


def _refuse(message: str, hint: str) -> RuleError:
    return RuleError("BR-SWISS-TB-1", message, hint=hint, finding="inconsistent_history")


def index_histories(histories: Iterable[History]) -> dict[FighterId, History]:
    """The histories keyed by fighter, refusing duplicates."""
    out: dict[FighterId, History] = {}
    for h in histories:
        if h.fighter in out:
            raise _refuse(f"fighter {h.fighter} has two histories",
                          "pass exactly one history per fighter")
        out[h.fighter] = h
    return out


def check_histories(by_fighter: Mapping[FighterId, History], total_rounds: int) -> None:
    """Refuse histories that cannot come from one event of ``total_rounds`` rounds.

    Each round appears at most once per fighter and lies in 1..total_rounds; a fighter never
    meets themself; every opponent has a history with the mirrored entry (same round, the
    fighter as opponent, the mirrored outcome); a bye is a win or a Loss of Match.
    """
    if total_rounds < 0:
        raise _refuse(f"total rounds must be ≥ 0, not {total_rounds}", "pass the rounds held")
    at = {(f, e.round): e for f, h in by_fighter.items() for e in h.rounds}
    for f, h in by_fighter.items():
        rounds = [e.round for e in h.rounds]
        if len(set(rounds)) != len(rounds):
            raise _refuse(f"fighter {f} has two entries for one round", "one entry per round")
        if rounds and (min(rounds) < 1 or max(rounds) > total_rounds):
            bad = next(r for r in rounds if not 1 <= r <= total_rounds)
            raise _refuse(f"fighter {f} has round {bad} outside 1..{total_rounds}",
                          "pass the total number of rounds of the stage")
        for what, w in (("drop", h.drop), ("disqualification", h.dq)):
            if w is None:
                continue
            if not 0 <= w.after_round <= total_rounds:
                raise _refuse(f"fighter {f}'s {what} after round {w.after_round} is outside "
                              f"0..{total_rounds}", "count completed rounds")
            if rounds and max(rounds) > w.after_round + 1:
                raise _refuse(f"fighter {f} has a result in round {max(rounds)} after "
                              f"leaving the event ({what} after round {w.after_round})",
                              "a drop or disqualification ends the history (a forced loss "
                              "may follow it in the next round, BR-DROP-2)")
        for e in h.rounds:
            o = e.opponent
            if e.games_won < 0:
                raise _refuse(f"fighter {f} has negative game wins in round {e.round}",
                              "game wins are counts")
            if o is None:
                if e.outcome is not Outcome.WIN and e.outcome is not Outcome.LOSS:
                    raise _refuse(f"fighter {f}'s bye in round {e.round} is "
                                  f"{e.outcome.value}", "a bye is a win, or a loss (BR-SWISS-7)")
                continue
            if o == f:
                raise _refuse(f"fighter {f} is their own opponent in round {e.round}",
                              "check the pairing")
            mirror = at.get((o, e.round))
            if mirror is None or mirror.opponent != f or mirror.outcome is not MIRROR[e.outcome]:
                raise _refuse(f"round {e.round}: fighter {f} ({e.outcome.value} v {o}) has "
                              f"no mirrored entry for fighter {o}",
                              "pass both sides of every match")
