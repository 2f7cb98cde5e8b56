"""The ``views`` facet of a format (issue 17, ADR 0021): how its event reads.

Owns: ``Views`` — where the event stands (``progress``) and what comes next in words
(``next_step``), how a round, a table, a result and a recorded body read, what a stage
and an entrant are called on pages, the pairing sheet's score column, a round's verdict,
the cut's report and the standings as data (``ledger.standings_view``); ``Progress`` /
``RoundProgress`` / ``PhaseName``.  Nothing here decides a rule: the CLI, the pages and
the published site print what it returns.

May import: ``msgspec``, ``ledger.core.facet_base`` (``ledger.core.state_model``,
``ledger.standings_view``, ``ledger.wire.events`` for type hints only).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Literal

import msgspec

from ledger.core.facet_base import Facet

if TYPE_CHECKING:
    from ledger.core.state_model import TournamentState
    from ledger.standings_view import StandingsView
    from ledger.wire.events import FormatSpec, SignedEvent

PhaseName = Literal["registration", "swiss", "cut_window", "cut_made", "top_cut", "finished"]


class RoundProgress(msgspec.Struct, frozen=True, kw_only=True):
    """The current round (a Game in Wheel of Time) as ``tourney info`` shows it."""

    number: int
    phase: str
    open: bool
    tables: int
    missing_results: list[int]


class Progress(msgspec.Struct, frozen=True, kw_only=True):
    """Where an event stands (``Views.progress``): what ``tourney info`` prints."""

    phase: PhaseName
    champion: int | None = None
    round: RoundProgress | None = None


class Views(Facet):
    """How a format's event reads; each default is the plainest format's."""

    def progress(self, state: TournamentState) -> Progress:
        """Where the event stands; a format that says nothing more is in its only phase
        once registration closes."""
        return Progress(phase="registration" if state.registration_closed_seq is None
                        else "swiss")

    def next_step(self, state: TournamentState) -> str:
        """What comes next, in words with the command to run (``tourney info`` and the
        line printed when a round closes; issue 17, defect 13): read from ``progress``
        and the recorded cut, so a format without a top cut is never sent to select
        one, and a finished event is never sent anywhere."""
        progress = self.progress(state)
        rnd, phase = progress.round, progress.phase
        cut = state.format.cut if state.format is not None else 0
        if phase == "registration":
            return "register players, then 'tourney registration close'"
        if phase == "finished":
            return "the event is over: 'tourney standings', 'tourney publish DIR', " \
                   "'tourney export DIR' for the auditors"
        if rnd is not None and rnd.open:
            what = "Game" if rnd.phase == "game" else "round"
            return f"enter the results of {what} {rnd.number} ('tourney result record/import')"
        if phase == "cut_window":
            return (f"select the top {cut}: 'tourney cut'" if cut else
                    "no top cut: record the final standings with 'tourney cut'")
        if phase == "cut_made":
            return "seed the bracket: 'tourney bracket'"
        if phase == "top_cut":
            return "pair the next bracket round: 'tourney bracket'"
        return "pair the next round: 'tourney round pair'"

    def player_extras(self, spec: FormatSpec) -> tuple[str, ...]:
        """What a format's title on pages says of this event besides its name and cut."""
        return ()

    def describe_result(self, state: TournamentState, result: Any) -> str:
        """How one table's result reads in words, numbers only (``round show``, ``log``,
        slips, pages): the format's own vocabulary (issue 17).  ``result`` is the
        format's table result state, or None for a table without one ("-")."""
        return "-" if result is None else "recorded"

    def describe_body(self, body: Mapping[str, Any]) -> str:
        """How a recorded result body (its wire fields, as ``log`` reads them) reads in
        words: the same phrase ``describe_result`` gives its table."""
        return "recorded"

    def round_display(self, state: TournamentState,
                      round_no: int | None) -> tuple[list[str], dict[str, Any]] | None:
        """A format whose rounds are not the match layer's tables (Wheel of Time Games)
        says how round ``round_no`` (None: the latest) reads: printable lines and the JSON
        of ``round show``; None: the match layer's display."""
        return None

    def table_seats(self, state: TournamentState, round_no: int,
                    table: int) -> list[dict[str, Any]] | None:
        """A team event's seats of one table (issue 20): ``[{"seat", "players",
        "result"}]`` (result: words or None), position k against position k; None for a
        table of single players (the pages then show the table alone)."""
        return None

    def stage_name(self, state: TournamentState, round_no: int) -> str | None:
        """What players call round ``round_no`` when it is more than a number ("Final",
        "Semifinal", "Quarterfinal" in a top cut; issue 32); None: "Round N"."""
        return None

    def entrant_name(self, state: TournamentState, number: int) -> str | None:
        """What a public page calls entrant ``number`` at a table when it is not one
        player (a team: its name, issue 20); None: the player's public label."""
        return None

    def group_column(self, state: TournamentState) -> tuple[str, int]:
        """The pairing sheet's score column: its header and what one win group is worth
        (HotC pairs by wins; Bushiroad by points, BR-SWISS-2)."""
        return "WINS", 1

    def round_verdict(self, state: TournamentState, round_no: int) -> str | None:
        """When a result completed round ``round_no`` of a format whose rounds close without
        a ``round_closed`` event: what comes next, in words (None: not complete)."""
        return None

    def draws_nothing(self, state: TournamentState) -> bool:
        """The next ``round pair`` draws nothing (no seed is recorded for it)."""
        return False

    def selection_report(self, state: TournamentState, events: list[SignedEvent],
                         names: Callable[[list[int]], str]
                         ) -> tuple[SignedEvent, list[str], dict[str, Any]]:
        """What ``tourney cut`` says of the selection ``events`` recorded: the principal
        event, lines in words (``names`` labels player numbers) and its JSON fields."""
        return events[-1], [], {}

    def standings(self, state: TournamentState) -> StandingsView | None:
        """The standings as this format declares them: columns as data, rows best first
        (``ledger.standings_view``; issue 17, ADR 0021), rendered generically by every
        output.  None: the format keeps no standings."""
        return None
