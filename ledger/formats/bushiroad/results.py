"""A Bushiroad match's result from its game scores and how it ended.

Owns: ``decide_match`` (winner, losers, match-draw flag and ``decided_by`` for one match,
per stage and timeout policy), ``simultaneous_loss`` (who wins a game in which both
fighters met a losing condition at once) and ``bye_result``.  The command side calls it to
build ``result_recorded``; the audit re-runs it on the recorded body.

Rules: BR-MATCH-1/3 (BO1/BO3, game wins decide, equal game wins), BR-SWISS-4/5 (Swiss: a
draw is worth 0), BR-DE-3/6 and AMB-B8 (DE: equal game wins at time-up is a tie, a double
loss; TC-05b), BR-SE-2/3/4 and AMB-B13 (SE: non-turn fighter wins a simultaneous loss, both
lose at time-up unless ``br_se_equal_games_at_time = extra_game``; TC-26), AMB-B14
(outside SE a simultaneous loss draws the game), AMB-B32 (the unfinished game is drawn,
then game wins are compared), BR-CONC-1, BR-DROP-2, BR-SWISS-7, AMB-B25 (neither assigned
fighter showed at the table: both lose, Swiss 0 points, DE a loss each).

``decided_by`` (docs/DESIGN.md §11) is: ``bye`` for a bye; ``concession``, ``penalty`` and
``drop`` for those endings; otherwise ``double_loss`` whenever both fighters lose, else
``annex_a`` when an Annex A game decided a match with a winner, else ``timeout`` for a match
ended by time, else ``played``.

May import: the standard library, ``ledger.errors``, ``ledger.formats.bushiroad.model``.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from enum import Enum

from ledger.errors import RuleError
from ledger.formats.bushiroad.model import FighterId, Outcome, RoundEntry
from ledger.formats.match.model import DecidedBy


class Stage(str, Enum):
    """The stage kinds whose match rules differ (docs/DESIGN.md §10)."""

    SWISS = "swiss"
    ROUND_ROBIN = "round_robin"          # Swiss match rules (BR-SWISS-ROUNDS-1)
    DOUBLE_ELIM = "double_elim"
    SINGLE_ELIM = "single_elim"


class MatchFormat(str, Enum):
    """``match_format`` (BR-MATCH-1)."""

    BO1 = "BO1"
    BO3 = "BO3"


class TimeoutPolicy(str, Enum):
    """The three BR ``timeout_policy`` values (RULES.md §8): named by what equal game wins
    at time-up become; all three draw the unfinished game and compare game wins first."""

    DRAW = "draw"                                              # BR Swiss
    GAME_WINS_THEN_DOUBLE_LOSS = "game_wins_then_double_loss"  # BR DE
    BOTH_LOSE = "both_lose"                                    # BR SE


class SeEqualGames(str, Enum):
    """``br_se_equal_games_at_time`` (AMB-B13)."""

    BOTH_LOSE = "both_lose"
    EXTRA_GAME = "extra_game"


class Ending(str, Enum):
    """How the match ended, as the table reports it."""

    PLAYED = "played"           # played out: a BO1 game, or a BO3 to two game wins
    TIMEOUT = "timeout"         # time called; the unfinished game is counted as a draw
    ANNEX_A = "annex_a"         # time called; Annex A decided the unfinished game
    EXTRA_GAME = "extra_game"   # SE: equal game wins at time-up, the extra game decided it
    CONCESSION = "concession"   # a fighter conceded the match (BR-CONC-1)
    PENALTY = "penalty"         # Loss of Match for one or both fighters
    DROP = "drop"               # drop or DQ after pairings (BR-DROP-2, AMB-B24)
    NO_SHOW = "no_show"         # neither assigned fighter sat at the table: both lose
    #                             (wrong-table amendment, BR-PEN-3.10.2-AMEND, AMB-B25)


DEFAULT_POLICY: dict[Stage, TimeoutPolicy] = {
    Stage.SWISS: TimeoutPolicy.DRAW,
    Stage.ROUND_ROBIN: TimeoutPolicy.DRAW,
    Stage.DOUBLE_ELIM: TimeoutPolicy.GAME_WINS_THEN_DOUBLE_LOSS,
    Stage.SINGLE_ELIM: TimeoutPolicy.BOTH_LOSE,
}


@dataclass(frozen=True)
class Games:
    """Game score of a match: fighter a's wins, fighter b's wins, drawn games."""

    a: int
    b: int
    draws: int = 0

    def as_wire(self) -> list[int]:
        """``"games": [wins_a, wins_b, draws]`` of ``result_recorded`` (docs/DESIGN.md §11)."""
        return [self.a, self.b, self.draws]


@dataclass(frozen=True)
class MatchResult:
    """Who won, who lost, whether the match is a draw, and how it was decided."""

    a: FighterId
    b: FighterId | None
    winner: FighterId | None
    losers: tuple[FighterId, ...]
    draw: bool
    decided_by: DecidedBy
    games: Games
    warnings: tuple[str, ...] = ()

    def outcome_for(self, fighter: FighterId) -> Outcome:
        """This match as one fighter's ``Outcome`` (the history entry the standings read)."""
        if fighter not in (self.a, self.b):
            raise RuleError("BR-MATCH-1", f"fighter {fighter} did not play this match",
                            hint=f"the match is {self.a} v {self.b}")
        if self.draw:
            return Outcome.DRAW
        if self.winner == fighter:
            return Outcome.WIN
        if self.winner is not None or self.b is None:   # a bye lost to a Loss of Match
            return Outcome.LOSS
        return Outcome.DOUBLE_LOSS


    def entries(self, round_number: int) -> tuple[RoundEntry, ...]:
        """The history entries this result gives each fighter in ``round_number``: what the
        projections append to ``History.rounds`` (one implementation for the standings)."""
        if self.b is None:
            return (RoundEntry(round_number, None, self.outcome_for(self.a)),)
        return (RoundEntry(round_number, self.b, self.outcome_for(self.a), self.games.a),
                RoundEntry(round_number, self.a, self.outcome_for(self.b), self.games.b))


def _refuse(rule: str, message: str, hint: str) -> RuleError:
    return RuleError(rule, message, hint=hint, finding="invalid_result")


def simultaneous_loss(stage: Stage, turn_fighter: FighterId,
                      other: FighterId) -> FighterId | None:
    """The winner of a game where both fighters met a losing condition at once.

    Single elimination: the non-turn fighter wins the game (BR-SE-2; TC-26a).  Elsewhere the
    game is drawn (``None``): it adds a drawn game and game wins decide the match (AMB-B14).
    """
    return other if stage is Stage.SINGLE_ELIM else None


def bye_result(fighter: FighterId, *, loss_of_match: bool = False) -> MatchResult:
    """A bye: a win worth M points (AMB-B1), or a loss when the unseated bye fighter got a
    severe-tardiness Loss of Match (BR-SWISS-7, decided by ``penalty``)."""
    if loss_of_match:
        return MatchResult(fighter, None, None, (fighter,), False, DecidedBy.PENALTY, Games(0, 0))
    return MatchResult(fighter, None, fighter, (), False, DecidedBy.BYE, Games(0, 0))


def _check_games(fmt: MatchFormat, g: Games, ending: Ending) -> None:
    if min(g.a, g.b, g.draws) < 0:
        raise _refuse("BR-MATCH-1", f"game counts cannot be negative ({g.as_wire()})",
                      "record wins and draws as counts")
    top = 1 if fmt is MatchFormat.BO1 else 2
    if max(g.a, g.b) > top and ending is not Ending.EXTRA_GAME:
        raise _refuse("BR-MATCH-1", f"a {fmt.value} match ends at {top} game win(s), not "
                      f"{g.a}-{g.b}", "check the game score")
    if ending is Ending.PLAYED and fmt is MatchFormat.BO3 and max(g.a, g.b) < 2:
        raise _refuse("BR-MATCH-1", f"a BO3 match played out has a fighter on 2 game wins, "
                      f"not {g.a}-{g.b}", "an unfinished match at time-up is --timeout")
    if (fmt is MatchFormat.BO1 and ending is not Ending.EXTRA_GAME
            and g.a + g.b + g.draws != 1):
        raise _refuse("BR-MATCH-1", f"a BO1 match is one game, not {g.as_wire()}",
                      "record the one game (a drawn game counts in draws)")
    if ending is Ending.TIMEOUT and max(g.a, g.b) >= top:
        raise _refuse("BR-MATCH-1", f"time was called but {g.a}-{g.b} had already decided "
                      f"the {fmt.value} match", "record it as played")
    if ending is Ending.ANNEX_A and max(g.a, g.b) == 0:
        raise _refuse("BR-ANNEXA-0", "Annex A decides the unfinished game, so the score "
                      "includes at least that game's win", "count the Annex A game")


def decide_match(stage: Stage, fmt: MatchFormat, a: FighterId, b: FighterId, games: Games,
                 ending: Ending = Ending.PLAYED, *,
                 policy: TimeoutPolicy | None = None,
                 se_equal_games: SeEqualGames = SeEqualGames.BOTH_LOSE,
                 annex_a_announced: bool = False,
                 losers: Collection[FighterId] = ()) -> MatchResult:
    """The result of one match between fighters ``a`` and ``b``.

    ``games`` counts every game including the unfinished one at time-up (a draw, or its
    Annex A winner) and a drawn simultaneous loss (AMB-B14).  ``policy`` defaults to the
    stage's BR policy.  ``losers`` names the conceding fighter (CONCESSION), or the fighter(s)
    given a Loss of Match (PENALTY) or dropping/disqualified after pairings (DROP); with
    both named, both lose and nobody wins (BR-DROP-2).  ``NO_SHOW`` (neither assigned
    fighter sat at the table, the wrong-table amendment of AMB-B25) is a double loss with
    no game.  Refuses a game score the ending
    cannot produce, an Annex A result when Annex A was not announced (BR-ANNEXA-0), and an
    SE result with equal game wins that needs the extra game (BR-SE-4, AMB-B13).
    """
    if a == b:
        raise _refuse("BR-MATCH-1", "a match needs two different fighters", "check the table")
    policy = policy or DEFAULT_POLICY[stage]
    if policy is TimeoutPolicy.DRAW and stage in (Stage.DOUBLE_ELIM, Stage.SINGLE_ELIM):
        raise _refuse("BR-DE-3", f"an elimination stage ({stage.value}) has no drawn "
                      "matches, so its timeout policy cannot be draw",
                      "use game_wins_then_double_loss or both_lose")
    pair = (a, b)
    if ending in (Ending.CONCESSION, Ending.PENALTY, Ending.DROP):
        named = sorted(set(losers))
        if not named or any(x not in pair for x in named) or (
                ending is Ending.CONCESSION and len(named) != 1):
            raise _refuse("BR-CONC-1" if ending is Ending.CONCESSION else "BR-DROP-2",
                          f"a {ending.value} result names "
                          f"{'the' if ending is Ending.CONCESSION else 'one or both'} losing "
                          f"fighter(s) of {a} v {b}, not {named}", "pass --loser NUMBER")
        if min(games.a, games.b, games.draws) < 0:
            raise _refuse("BR-MATCH-1", "game counts cannot be negative", "record counts")
        by = {Ending.CONCESSION: DecidedBy.CONCESSION, Ending.PENALTY: DecidedBy.PENALTY,
              Ending.DROP: DecidedBy.DROP}[ending]
        winner = None if len(named) == 2 else (b if named[0] == a else a)
        return MatchResult(a, b, winner, tuple(named), False, by, games)
    if ending is Ending.NO_SHOW:      # the games played at wrong tables are discarded
        if losers or games != Games(0, 0, 0):
            raise _refuse("BR-PEN-3.10.2", f"neither {a} nor {b} showed at their table: no "
                          f"game counts and nobody is named, not {games.as_wire()}",
                          "record games 0-0")
        return MatchResult(a, b, None, pair, False, DecidedBy.DOUBLE_LOSS, games)
    if losers:
        raise _refuse("BR-MATCH-1", f"a {ending.value} result is decided by the game score, "
                      "not by a named loser", "drop --loser")
    if ending is Ending.ANNEX_A and not annex_a_announced:
        raise _refuse("BR-ANNEXA-0", "Annex A decides a game only if it was announced "
                      "before the tournament", "record the timeout without Annex A")
    if ending is Ending.EXTRA_GAME and (stage is not Stage.SINGLE_ELIM or
                                        se_equal_games is not SeEqualGames.EXTRA_GAME):
        raise _refuse("BR-SE-4", "an extra game after time-up is played only in single "
                      "elimination with br_se_equal_games_at_time=extra_game",
                      "record the timeout result")
    _check_games(fmt, games, ending)
    timed = ending in (Ending.TIMEOUT, Ending.ANNEX_A)
    if games.a != games.b:
        winner = a if games.a > games.b else b
        by = {Ending.ANNEX_A: DecidedBy.ANNEX_A, Ending.TIMEOUT: DecidedBy.TIMEOUT}.get(
            ending, DecidedBy.PLAYED)
        return MatchResult(a, b, winner, ((b if winner == a else a),), False, by, games)
    if ending is Ending.EXTRA_GAME:
        raise _refuse("BR-SE-4", f"the extra game must decide the match, not leave it "
                      f"{games.a}-{games.b}", "record the extra game's winner")
    # Equal game wins: BR-MATCH-3 outside time, the timeout policy at time-up.
    warnings: tuple[str, ...] = ()
    if timed:
        if policy is TimeoutPolicy.DRAW:
            return MatchResult(a, b, None, (), True, DecidedBy.TIMEOUT, games)
        if policy is TimeoutPolicy.BOTH_LOSE and stage is Stage.SINGLE_ELIM:
            if se_equal_games is SeEqualGames.EXTRA_GAME:
                raise _refuse("BR-SE-4", f"equal game wins ({games.a}-{games.b}) at time-up: "
                              "br_se_equal_games_at_time=extra_game plays one further game",
                              "record the match with --extra-game after that game")
            if not annex_a_announced:
                warnings = ("AMB-B13: single elimination without Annex A: both fighters "
                            "lost at time-up; the next-round opponent advances unplayed",)
        return MatchResult(a, b, None, pair, False, DecidedBy.DOUBLE_LOSS, games, warnings)
    if stage in (Stage.SWISS, Stage.ROUND_ROBIN):
        return MatchResult(a, b, None, (), True, DecidedBy.PLAYED, games)     # BR-MATCH-3
    if stage is Stage.DOUBLE_ELIM:
        return MatchResult(a, b, None, pair, False, DecidedBy.DOUBLE_LOSS, games)  # BR-DE-3
    raise _refuse("BR-SE-4", f"equal game wins ({games.a}-{games.b}) in single elimination: "
                  "the fighters play an extra game", "record the match after the extra game")
