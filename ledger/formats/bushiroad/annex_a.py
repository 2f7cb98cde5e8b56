"""Annex A: deciding a game at time-up in Vanguard, Weiss Schwarz and Buddyfight.

Owns: ``compare`` (one comparison of the announced criterion at one checkpoint) and
``decide_game`` (the checkpoints in order until a fighter loses), each returning the record
the ledger keeps: which criterion decided and the values compared (BR-ANNEXA-0).

- VG (BR-ANNEXA-VG-1): more cards in the damage zone loses; equal → compare again at the
  end of the current turn, then at the end of each next turn.
- WS (BR-ANNEXA-WS-1): higher level loses; equal levels → more cards in clock loses; both
  equal → play on, compare again at a later check timing where level or clock changed.
- BF (BR-ANNEXA-BF-1): less life loses; equal → end of the current turn, then each next turn.

Annex A applies only when announced before the tournament; the caller checks that
(``results.decide_match`` refuses an Annex A result otherwise).

May import: the standard library, ``ledger.errors``, ``ledger.formats.bushiroad.model``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Literal

from ledger.errors import RuleError
from ledger.formats.bushiroad.model import FighterId


class Game(str, Enum):
    """The Bushiroad titles with an Annex A protocol (BR-SCOPE-1)."""

    VG = "VG"
    WS = "WS"
    BF = "BF"


class Criterion(str, Enum):
    """The value an Annex A comparison looks at."""

    VG_DAMAGE = "vg_damage"     # more loses
    WS_LEVEL = "ws_level"       # higher loses
    WS_CLOCK = "ws_clock"       # more loses
    BF_LIFE = "bf_life"         # less loses


class Checkpoint(str, Enum):
    """When a comparison is made: at time-up, at the end of a turn (VG, BF), at a check
    timing where level or clock changed (WS)."""

    TIME_UP = "time_up"
    END_OF_TURN = "end_of_turn"
    CHECK_TIMING = "check_timing"


#: The values each title compares, in order.
CRITERIA: dict[Game, tuple[Criterion, ...]] = {
    Game.VG: (Criterion.VG_DAMAGE,),
    Game.WS: (Criterion.WS_LEVEL, Criterion.WS_CLOCK),
    Game.BF: (Criterion.BF_LIFE,),
}
_LATER = {Game.VG: Checkpoint.END_OF_TURN, Game.WS: Checkpoint.CHECK_TIMING,
          Game.BF: Checkpoint.END_OF_TURN}


@dataclass(frozen=True)
class Values:
    """One fighter's values at a checkpoint (only those of the game's criteria are read)."""

    damage: int | None = None
    level: int | None = None
    clock: int | None = None
    life: int | None = None

    def of(self, criterion: Criterion) -> int:
        value = {Criterion.VG_DAMAGE: self.damage, Criterion.WS_LEVEL: self.level,
                 Criterion.WS_CLOCK: self.clock, Criterion.BF_LIFE: self.life}[criterion]
        if value is None:
            raise RuleError("BR-ANNEXA-0", f"Annex A needs the {criterion.value} of both "
                            "fighters", hint=f"record {criterion.value} for each fighter")
        if value < 0 and criterion is not Criterion.BF_LIFE:
            raise RuleError("BR-ANNEXA-0", f"{criterion.value} cannot be negative ({value})",
                            hint="record the count of cards")
        return value


@dataclass(frozen=True)
class Compared:
    """One criterion compared: the values of fighter a and fighter b."""

    criterion: Criterion
    a: int
    b: int


@dataclass(frozen=True)
class Comparison:
    """The record of one checkpoint: every criterion compared, and who lost (or continue)."""

    checkpoint: Checkpoint
    compared: tuple[Compared, ...]
    loser: FighterId | None

    @property
    def result(self) -> Literal["loser", "continue"]:
        return "continue" if self.loser is None else "loser"

    @property
    def criterion(self) -> Criterion:
        """The criterion that decided (or, on ``continue``, the last one compared)."""
        return self.compared[-1].criterion


@dataclass(frozen=True)
class AnnexADecision:
    """The checkpoints in order; the last one decided the game unless ``loser`` is None."""

    game: Game
    a: FighterId
    b: FighterId
    comparisons: tuple[Comparison, ...]

    @property
    def loser(self) -> FighterId | None:
        return self.comparisons[-1].loser if self.comparisons else None

    @property
    def winner(self) -> FighterId | None:
        loser = self.loser
        return None if loser is None else (self.b if loser == self.a else self.a)


def compare(game: Game, a: FighterId, b: FighterId, va: Values, vb: Values,
            checkpoint: Checkpoint = Checkpoint.TIME_UP) -> Comparison:
    """One Annex A comparison (BR-ANNEXA-VG-1, BR-ANNEXA-WS-1, BR-ANNEXA-BF-1; TC-26 b/c).

    Returns the fighter who loses the game, or ``continue`` (loser ``None``) when the
    values are equal, with every criterion compared and its values.
    """
    if a == b:
        raise RuleError("BR-ANNEXA-0", "an Annex A comparison needs two different fighters",
                        hint="name both fighters of the game")
    compared: list[Compared] = []
    for criterion in CRITERIA[game]:
        x, y = va.of(criterion), vb.of(criterion)
        compared.append(Compared(criterion, x, y))
        if x != y:
            a_loses = x < y if criterion is Criterion.BF_LIFE else x > y
            return Comparison(checkpoint, tuple(compared), a if a_loses else b)
    return Comparison(checkpoint, tuple(compared), None)


def decide_game(game: Game, a: FighterId, b: FighterId,
                checkpoints: Sequence[tuple[Values, Values]]) -> AnnexADecision:
    """Run Annex A over the values at each checkpoint, in order, until a fighter loses.

    The first pair is taken at time-up; the later ones at the end of each turn (VG, BF) or
    at each later check timing where level or clock changed (WS).  Values given after the
    game was already decided are refused: the record must end at the deciding checkpoint.
    Returns a decision whose ``loser`` is ``None`` when every checkpoint was equal (the
    game continues).
    """
    if not checkpoints:
        raise RuleError("BR-ANNEXA-0", "Annex A needs the values at time-up",
                        hint="record both fighters' values when time was called")
    out: list[Comparison] = []
    for i, (va, vb) in enumerate(checkpoints):
        if out and out[-1].loser is not None:
            raise RuleError("BR-ANNEXA-0", f"the game was decided at checkpoint {i}; "
                            f"{len(checkpoints) - i} later checkpoint(s) given",
                            hint="record the checkpoints up to the deciding one")
        out.append(compare(game, a, b, va, vb, Checkpoint.TIME_UP if i == 0 else _LATER[game]))
    return AnnexADecision(game, a, b, tuple(out))
