"""The outcome options of ``tourney result record`` / ``correct`` and what they mean.

Owns: the option types (exactly one of --winner, --concession, --timeout, --slow-play,
--double-loss, --tie, --draw, --annex-a; ``--both-slow-play`` with --winner;
--turn-player with a top-cut --timeout; --games), ``choose`` (the options → one
``Choice``) and ``Choice.kwargs`` (the keyword arguments of the format's
``record_result`` / ``correct_result`` / ``decided_result``).  Who won and why each loser
lost is the format's own decision, never made here.

May import: ``typer``, ``cli.wot_cmd``, ``ledger.errors``, ``ledger.formats.match``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cli.wot_cmd import is_wot
from ledger.errors import UsageError
from ledger.formats.match.model import Outcome

if TYPE_CHECKING:
    from ledger.state import TournamentState

_Opt = typer.Option
RoundOpt = Annotated[int, _Opt("--round", metavar="N", min=1, help="Round number.")]
TableOpt = Annotated[int, _Opt("--table", metavar="T", min=1, help="Table number.")]
WinnerOpt = Annotated[int | None, _Opt(
    "--winner", metavar="NUMBER", show_default=False, rich_help_panel="Outcome (exactly one)",
    help="The match was played out (or supervised to its end): NUMBER won.")]
ConcessionOpt = Annotated[int | None, _Opt(
    "--concession", metavar="NUMBER", show_default=False,
    rich_help_panel="Outcome (exactly one)", help="NUMBER conceded: the opponent wins.")]
TimeoutOpt = Annotated[bool, _Opt(
    "--timeout", rich_help_panel="Outcome (exactly one)",
    help="Time ran out, no upheld slow-play call: Swiss = double loss (HOTC-TIME-2); "
         "top cut = the --turn-player loses (HOTC-TOP-2).")]
SlowPlayOpt = Annotated[int | None, _Opt(
    "--slow-play", metavar="NUMBER", show_default=False,
    rich_help_panel="Outcome (exactly one)",
    help="Time ran out after an upheld slow-play call against NUMBER: NUMBER loses.")]
DoubleLossOpt = Annotated[bool, _Opt(
    "--double-loss", rich_help_panel="Outcome (exactly one)",
    help="Swiss only: the match went to time with no upheld slow-play call, both lose "
         "(HOTC-TIME-2; the same as --timeout in the Swiss phase: a time loss).")]
TieOpt = Annotated[bool, _Opt(
    "--tie", rich_help_panel="Outcome (exactly one)",
    help="Swiss only: both met a losing condition at once, both lose (AMB-H14; not a "
         "time loss).")]
TurnPlayerOpt = Annotated[int | None, _Opt(
    "--turn-player", metavar="NUMBER", show_default=False,
    help="With --timeout in the top cut: whose turn it was (that player loses).")]
DrawOpt = Annotated[bool, _Opt(
    "--draw", rich_help_panel="Outcome (exactly one)",
    help="Bushiroad: the match ended with equal game wins (Swiss / round robin: a draw "
         "worth 0, BR-SWISS-4; DE: a tie, both lose, BR-DE-3).")]
GamesOpt = Annotated[str | None, _Opt(
    "--games", metavar="A-B[-D]", show_default=False,
    help="Bushiroad: game wins of the first and second player at the table [and drawn "
         "games], e.g. 2-1; with --timeout the unfinished game counts as drawn (BR-SWISS-5).")]
AnnexOpt = Annotated[str | None, _Opt(
    "--annex-a", metavar="A/B[;A/B…]", show_default=False,
    rich_help_panel="Outcome (exactly one)",
    help="Bushiroad, Annex A announced: the values compared at time-up (and at later "
         "checkpoints) for the first/second player: VG damage, WS level,clock, BF life "
         "(BR-ANNEXA-*), e.g. --annex-a 2,3/2,5; --games counts the games before it.")]
BothSlowOpt = Annotated[bool, _Opt(
    "--both-slow-play",
    help="With --winner: both players were called for slow play and the match was "
         "supervised to its natural result (HOTC-TIME-3).")]


@dataclass(frozen=True)
class Choice:
    """The outcome the command line asked for, before the table is known."""

    outcome: Outcome
    winner: int | None = None
    loser: int | None = None
    turn_player: int | None = None
    slow_play: int | None = None
    both_slow_play: bool = False
    swiss_only: str | None = None   # the option that exists only in the Swiss phase
    games: list[int] | None = None
    annex_values: list[list[list[int]]] | None = None

    def kwargs(self, state: TournamentState, round_no: int, table: int) -> dict[str, Any]:
        """Keyword arguments of ``record_result`` / ``correct_result``."""
        from ledger.formats.match.apply import find_round, find_table
        from ledger.formats.match.model import Phase

        if is_wot(state):
            raise UsageError("a Wheel of Time result names its outcome code",
                             hint="e.g. --outcome O1 --winner 3 --support 3=6,8=2 (classic) "
                                  "or --outcome Q1 --winner 3 --pattern 3=9,8=4 (2001)")
        rnd = find_round(state.fmt, round_no)
        if self.swiss_only and rnd is not None and rnd.phase is Phase.TOP_CUT:
            raise UsageError(f"{self.swiss_only} does not exist in the top cut",
                             hint="time in the top cut: --timeout --turn-player N "
                                  "(HOTC-TOP-2); a simultaneous loss: --winner with the "
                                  "non-turn player (BR-SE-2)")
        if rnd is not None and self.outcome is Outcome.TIMEOUT and self.swiss_only is None:
            if rnd.phase is Phase.TOP_CUT and self.turn_player is None:
                raise UsageError("a top-cut timeout needs --turn-player NUMBER",
                                 hint="the player whose turn it was when time ran out "
                                      "loses (HOTC-TOP-2); with an upheld slow-play call "
                                      "use --slow-play NUMBER")
            if rnd.phase is Phase.SWISS and self.turn_player is not None:
                raise UsageError("--turn-player does not apply in the Swiss phase",
                                 hint="a Swiss timeout is a double loss whoever's turn it "
                                      "was (HOTC-TIME-2): leave out --turn-player")

        calls: list[int] = []
        if self.slow_play is not None:
            calls = [self.slow_play]
        elif self.both_slow_play:
            tab = find_table(state.fmt, round_no, table)
            calls = list(tab.players) if tab is not None else []
        kw: dict[str, Any] = {"round_no": round_no, "table": table, "outcome": self.outcome,
                              "winner": self.winner, "loser": self.loser,
                              "turn_player": self.turn_player, "slow_play": calls}
        if self.games is not None:
            kw["games"] = self.games
        if self.annex_values is not None:
            kw["annex_values"] = self.annex_values
        return kw


def parse_games(text: str | None) -> list[int] | None:
    """``--games 2-1`` or ``2-1-1`` → [2, 1] / [2, 1, 1]."""
    if text is None:
        return None
    parts = text.split("-")
    if len(parts) not in (2, 3) or not all(p.isdigit() for p in parts):
        raise UsageError(f"--games {text!r} is not A-B or A-B-D",
                         hint="game wins of the first and second player [and drawn games], "
                              "e.g. --games 2-1")
    return [int(p) for p in parts]


def parse_annex(text: str | None) -> list[list[list[int]]] | None:
    """``--annex-a 2,3/2,5;2,3/3,5`` → [[[2, 3], [2, 5]], [[2, 3], [3, 5]]]."""
    if text is None:
        return None
    out: list[list[list[int]]] = []
    for checkpoint in text.split(";"):
        sides = checkpoint.strip().split("/")
        try:
            if len(sides) != 2:
                raise ValueError
            out.append([[int(v) for v in side.split(",")] for side in sides])
        except ValueError:
            raise UsageError(f"--annex-a {text!r} is not A_VALUES/B_VALUES[;…]",
                             hint="e.g. WS level,clock: --annex-a 2,3/2,5") from None
    return out


def choose(winner: int | None, concession: int | None, timeout: bool,
           slow_play: int | None, double_loss: bool, turn_player: int | None,
           both_slow_play: bool, tie: bool = False, draw: bool = False,
           games: str | None = None, annex: str | None = None) -> Choice:
    """Exactly one outcome option, and the modifiers only where they mean something."""
    given = [name for name, on in (("--winner", winner is not None),
                                   ("--concession", concession is not None),
                                   ("--timeout", timeout),
                                   ("--slow-play", slow_play is not None),
                                   ("--double-loss", double_loss),
                                   ("--tie", tie), ("--draw", draw),
                                   ("--annex-a", annex is not None)) if on]
    hint = ("pass exactly one of --winner, --concession, --timeout, --slow-play, "
            "--double-loss, --tie (HotC) or --winner, --draw, --timeout, --concession, "
            "--annex-a (Bushiroad)")
    if not given:
        raise UsageError("no outcome given", hint=hint)
    if len(given) > 1:
        raise UsageError(f"{' and '.join(given)} are different outcomes", hint=hint)
    if turn_player is not None and not timeout:
        raise UsageError("--turn-player only goes with --timeout",
                         hint="the turn player matters only when time runs out in the top cut")
    if both_slow_play and winner is None:
        raise UsageError("--both-slow-play only goes with --winner",
                         hint="after both calls the match is played to its natural result "
                              "(HOTC-TIME-3): record that with --winner")
    g = parse_games(games)
    if winner is not None:
        return Choice(Outcome.WIN, winner=winner, both_slow_play=both_slow_play, games=g)
    if concession is not None:
        return Choice(Outcome.CONCESSION, loser=concession, games=g)
    if draw:
        return Choice(Outcome.DRAW, games=g)
    if annex is not None:
        return Choice(Outcome.WIN, games=g or [0, 0], annex_values=parse_annex(annex))
    if timeout:
        return Choice(Outcome.TIMEOUT, turn_player=turn_player, games=g)
    if slow_play is not None:
        return Choice(Outcome.SLOW_PLAY, slow_play=slow_play)
    if double_loss:
        return Choice(Outcome.TIMEOUT, swiss_only="--double-loss")
    return Choice(Outcome.TIE, swiss_only="--tie")
