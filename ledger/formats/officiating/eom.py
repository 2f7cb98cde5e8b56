"""End of Match Procedures of 001 (RULES.md §5, TC-25) as pure functions any format may use.

Owns: ``overtime_turns`` (EOM-NSE-1/2, AMB-E1), ``nse_match`` (EOM-NSE-3/4: a game
unfinished after overtime is drawn; more game wins take the match, else a draw),
``Board`` (the values Steps 2–4 compare) and ``se_decide`` (EOM-SE-1..6: Steps 1–4 with
the values compared; the step that decided is a ``DecidedBy`` ``eom_step_N``).

May import: ``ledger.formats.match.model``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ledger.formats.match.model import DecidedBy

OVERTIME_MINUTES = 5
OVERTIME_TURNS = 3


def overtime_turns(called_during_end_of_turn: bool, next_is_turn0: bool = True) -> list[str]:
    """The turn labels after time is called: turn 0 (the turn in progress, or under
    AMB-E1 the next one when time is called during the end-of-turn announcement), then up
    to three additional turns (or five minutes, whichever first)."""
    labels = ["turn 0", "turn 1", "turn 2", "turn 3"]
    if called_during_end_of_turn and not next_is_turn0:
        return labels[1:]
    return labels


@dataclass(frozen=True)
class Board:
    """One player's values at the end of overtime: champion life stat and damage, influence,
    cards in the Main Deck, and whether they took the game's final turn."""

    life: int
    damage: int
    influence: int
    main_deck: int
    final_turn: bool = False

    @property
    def pool(self) -> int:          # EOM-SE-3: available life pool
        return self.life - self.damage


@dataclass(frozen=True)
class Decision:
    winner: int | None              # None: a draw (non-single elimination only)
    decided_by: DecidedBy
    compared: list[list[int]]       # the values compared at the deciding step, a then b
    games: tuple[int, int]          # game wins after the procedure


def nse_match(a: int, b: int, wins_a: int, wins_b: int) -> Decision:
    """EOM-NSE-3/4: the unfinished game is a draw; more game wins take the match."""
    winner = a if wins_a > wins_b else b if wins_b > wins_a else None
    return Decision(winner, DecidedBy.EOM_STEP_1, [[wins_a], [wins_b]], (wins_a, wins_b))


def se_decide(a: int, b: int, wins_a: int, wins_b: int, board_a: Board | None,
              board_b: Board | None) -> Decision:
    """EOM-SE-2..5: Step 1 (game wins); else Steps 2–4 decide the current game and Step 1
    is applied again.  ``board_*`` is None when no game is in progress (then the game wins
    must differ; AMB-E3 plays a deciding game first)."""
    if wins_a != wins_b:
        return nse_match(a, b, wins_a, wins_b)
    if board_a is None or board_b is None:
        raise ValueError("equal game wins and no game in progress: play a deciding game "
                         "under overtime rules first (AMB-E3)")
    steps = [
        (DecidedBy.EOM_STEP_2, [board_a.pool], [board_b.pool]),
        (DecidedBy.EOM_STEP_3, [board_a.influence], [board_b.influence]),
        (DecidedBy.EOM_STEP_4, [board_a.main_deck, int(board_a.final_turn)],
         [board_b.main_deck, int(board_b.final_turn)]),
    ]
    for by, va, vb in steps:
        if va != vb:
            a_wins = va > vb
            ga, gb = (wins_a + 1, wins_b) if a_wins else (wins_a, wins_b + 1)
            return Decision(a if a_wins else b, by, [va, vb], (ga, gb))
    raise ValueError("both players took the final turn: the values are inconsistent")
