"""The format plug-in contract (docs/DESIGN.md §10): what the core asks of a tournament format.

Owns: ``Rulebook`` (a format's dispatch tables: state transitions, checks, permissions),
``FormatPlugin`` (the base every format subclasses: id, parameters, state type, the pure
``evolve`` / ``check`` pair, the command verbs it supports, what comes next in words
from its ``progress``, and a command-side check before registration closes) and the socket
``register_format`` / ``plugin_for`` / ``registered_formats``.

The core never imports a format: ``ledger.formats.registry`` (imported by the CLI, the
audit and simulate) registers each format here.  A ledger whose genesis names a format
that is not registered folds only its core facts, and its genesis fails ``rules.check``.

May import: ``msgspec``, ``ledger.wire.events``, ``ledger.errors``, ``ledger.core.params``,
``ledger.core.first_use``
(``ledger.core.state`` / ``ledger.core.aggregate`` for type hints only).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Literal, cast

import msgspec

from ledger.core import format_socket as _socket
from ledger.core.first_use import on_first_use
from ledger.core.format_socket import (
    known_formats,
    load_all_formats,
    make_format,
    parse_params,
    register_lazy,
)
from ledger.core.params import Param, ParamSpec
from ledger.errors import RuleError
from ledger.wire.events import Body, FormatSpec, Role, SignedEvent

if TYPE_CHECKING:
    from collections.abc import Mapping

    from ledger.core.aggregate import Tournament
    from ledger.core.state import TournamentState
    from ledger.core.vocabulary import Given, ResultEntry, Vocabulary
    from ledger.standings_view import StandingsView
    from ledger.wire.keys import Signer

Applier = Callable[["TournamentState", SignedEvent, Any], None]
#: (winner, losers, loss reasons, outcome, games or None): a result as decided, in the
#: order the format records it (``FormatPlugin.decided_result``)
DecidedResult = tuple[Any, list[int], list[Any], Any, "list[int] | None"]
Checker = Callable[["TournamentState", Any, str], None]


class Rulebook:
    """One format's (or one shared layer's) dispatch tables, filled by decorators at import.

    A format may be built from several books (``merged``): e.g. the shared match layer's
    book plus the format's own.  Transitions of one body type run in registration order.
    """

    def __init__(self) -> None:
        self.appliers: dict[type[Body], list[Applier]] = {}
        self.checkers: dict[type[Body], Checker] = {}
        self.permissions: dict[str, frozenset[Role]] = {}

    def applies(self, body_type: type[Body]) -> Callable[[Applier], Applier]:
        def register(fn: Applier) -> Applier:
            self.appliers.setdefault(body_type, []).append(fn)
            return fn
        return register

    def checks(self, body_type: type[Body]) -> Callable[[Checker], Checker]:
        def register(fn: Checker) -> Checker:
            self.checkers[body_type] = fn
            return fn
        return register

    def permit(self, kind: str, roles: frozenset[Role]) -> None:
        self.permissions[kind] = roles

    @staticmethod
    def merged(*books: Rulebook) -> Rulebook:
        out = Rulebook()
        for book in books:
            for t, fns in book.appliers.items():
                out.appliers.setdefault(t, []).extend(fns)
            out.checkers.update(book.checkers)
            out.permissions.update(book.permissions)
        return out


PhaseName = Literal["registration", "swiss", "cut_window", "cut_made", "top_cut", "finished"]


class RoundProgress(msgspec.Struct, frozen=True, kw_only=True):
    """The current round (a Game in Wheel of Time) as ``tourney info`` shows it."""

    number: int
    phase: str
    open: bool
    tables: int
    missing_results: list[int]


class Progress(msgspec.Struct, frozen=True, kw_only=True):
    """Where an event stands (``FormatPlugin.progress``): what ``tourney info`` prints."""

    phase: PhaseName
    champion: int | None = None
    round: RoundProgress | None = None


def _no_verb(plugin: FormatPlugin, verb: str) -> RuleError:
    return RuleError("RULES-8", f"format {plugin.id} has no '{verb}'",
                     hint=f"{plugin.title}: see 'tourney info' for what it runs")


class FormatPlugin:
    """Base class of a format.  Subclasses set the class attributes and override the verbs
    they support; every verb decides events and records them on the aggregate, whose
    ``record`` runs ``rules.check`` (this plug-in's ``check`` included) before signing."""

    id: ClassVar[str]
    title: ClassVar[str]
    #: the name players use for the format on pages ("Bushiroad Swiss"; issue 32): no
    #: rule id, no RULES.md section (``title`` keeps them for the CLI)
    player_name: ClassVar[str] = ""
    params: ClassVar[ParamSpec]
    state_type: ClassVar[type[msgspec.Struct]]
    bodies: ClassVar[tuple[type[Body], ...]] = ()
    book: ClassVar[Rulebook]
    #: the state transitions of ``book`` alone, which is all a fold needs: a format may
    #: fill it without importing its checks (``ledger.core.first_use``; issue 22)
    transitions: ClassVar[Rulebook] = on_first_use(lambda cls: cls.book)
    #: results carry game scores (BO1/BO3 ``games``, docs/DESIGN.md §11) that decide a match at
    #: time-up; a format without them decides a timed-out match by its own rule
    game_scores: ClassVar[bool] = False
    #: the results its matches can have, as data (issue 17, ``ledger.core.vocabulary``): the
    #: options of ``result record|correct|amend``, the slip columns of ``result import``
    #: and ``tourney result codes`` are read from it; None: the format records no result
    vocabulary: ClassVar[Vocabulary | None] = None

    # -- what the core calls -----------------------------------------------------------
    def new_state(self) -> Any:
        return self.state_type()

    def decode_state(self, raw: bytes) -> Any:
        return msgspec.msgpack.decode(raw, type=self.state_type)

    def genesis_params(self, given: dict[str, Param]) -> dict[str, Param]:
        """Every parameter value the genesis records: the defaults under the rule revision
        ``given`` names (or the newest), overridden by ``given``."""
        return {**self.params.defaults, **given}

    def check_spec(self, spec: FormatSpec) -> None:
        """Genesis: every parameter known and allowed (RULES.md §8); formats add more."""
        self.params.check(spec)

    def evolve(self, state: TournamentState, ev: SignedEvent) -> None:
        for fn in self.transitions.appliers.get(type(ev.body), ()):
            fn(state, ev, ev.body)

    def check(self, state: TournamentState, body: Body, actor: str) -> None:
        fn = self.book.checkers.get(type(body))
        if fn is not None:
            fn(state, body, actor)

    def roles_for(self, kind: str) -> frozenset[Role] | None:
        return self.book.permissions.get(kind)

    #: kinds whose whole body the format's rules determine from the state (the command
    #: side and the audit derive it and refuse any other), so that signing one adds no
    #: authority: a station that records an agreed result may sign them when that result
    #: completes a round (ADR 0027, REPORT-9)
    derived_kinds: frozenset[str] = frozenset()

    def player_title(self, spec: FormatSpec) -> str:
        """The format as players name it on pages ("HotC Swiss, double elimination, top
        4"; issue 32): ``player_name``, what ``player_extras`` says of the event, its cut."""
        from ledger.core.player_words import format_title

        return format_title(self.player_name or self.id, cut=spec.cut,
                            extras=self.player_extras(spec))

    def player_extras(self, spec: FormatSpec) -> tuple[str, ...]:
        """What a format's title on pages says of this event besides its name and cut."""
        return ()

    def has_left(self, state: TournamentState, number: int) -> bool:
        """Whether a registered player has withdrawn from the event (dropped, disqualified,
        declared forfeit): such a player is outside the active roster that player draws
        are made over (THREATS T25).  Formats with match records override this."""
        return False

    def removed(self, state: TournamentState) -> dict[int, str]:
        """The entrants (players; in a team event, teams) the officials have removed from
        the event, each with the format's word for it (what a player's page and the live
        standings say now, issue 32): those disqualified in the shared officiating layer.
        Formats that remove players otherwise override this."""
        off = getattr(state.fmt, "officiating", None)
        return {n: "disqualified" for n in getattr(off, "dq", None) or {}}

    def paired_round(self, state: TournamentState, body: Body) -> int | None:
        """The round (a Game in Wheel of Time) ``body`` pairs or re-pairs — an engine's
        pairing, a head judge's override, a pairing after a void — else None.  Called by
        the core's fold after this format's own transition of every event (so: cheap,
        pure, from the body); the public pages' posting gate is keyed on it (ADR 0023)."""
        return None

    def unpaired_round(self, state: TournamentState, body: Body) -> int | None:
        """The round whose pairing ``body`` takes back (a void before any result), else
        None: that round has no pairing to show or post until it is paired again."""
        return None

    # -- command verbs (docs/DESIGN.md §8); a format overrides those it runs ----------------
    def pair_round(self, t: Tournament, signer: Signer, time: str, *,
                   material: str | None = None, source: str | None = None) -> list[SignedEvent]:
        raise _no_verb(self, "round pair")

    def record_result(self, t: Tournament, signer: Signer, time: str,
                      **kw: Any) -> list[SignedEvent]:
        raise _no_verb(self, "result record")

    def correct_result(self, t: Tournament, signer: Signer, time: str,
                       **kw: Any) -> list[SignedEvent]:
        raise _no_verb(self, "result correct")

    def selection_report(self, state: TournamentState, events: list[SignedEvent],
                         names: Callable[[list[int]], str]
                         ) -> tuple[SignedEvent, list[str], dict[str, Any]]:
        """What ``tourney cut`` says of the selection ``events`` recorded: the principal
        event, lines in words (``names`` labels player numbers) and its JSON fields."""
        return events[-1], [], {}

    def call_slow_play(self, t: Tournament, signer: Signer, time: str,
                       **kw: Any) -> SignedEvent:
        """A slow-play call made during a match, recorded when it happens (HotC R2)."""
        raise _no_verb(self, "slowplay call")

    def rule_slow_play(self, t: Tournament, signer: Signer, time: str,
                       **kw: Any) -> SignedEvent:
        raise _no_verb(self, "slowplay rule")

    def progress(self, state: TournamentState) -> Progress:
        """Where the event stands; a format that says nothing more is in its only phase
        once registration closes."""
        return Progress(phase="registration" if state.registration_closed_seq is None
                        else "swiss")

    # -- the result vocabulary (issue 17) -----------------------------------------------
    def result_vocabulary(self) -> Vocabulary:
        if self.vocabulary is None:
            raise _no_verb(self, "result record")
        return self.vocabulary

    def round_phase(self, state: TournamentState, round_no: int) -> str | None:
        """The phase of round ``round_no`` (a ``ResultEntry.phases`` value), None when the
        format has one kind of round or the round is unknown."""
        return None

    def table_at(self, state: TournamentState, round_no: int,
                 table: int) -> tuple[list[int], Any] | None:
        """The players of one table (seat order) and its result state (None: no result
        yet); None when there is no such table."""
        return None

    def seat_at(self, state: TournamentState, round_no: int, table: int,
                seat: int) -> tuple[list[int], Any] | None:
        """A team table's seat ``seat`` (1, 2, …): its two fighters and its result (None:
        none yet); None when the table has no such seat (an individual event: no seats).
        Players report their own seat from it (REPORT-21)."""
        return None

    def result_kwargs(self, state: TournamentState, entry: ResultEntry, given: Given, *,
                      round_no: int, table: int) -> dict[str, Any]:
        """The keywords of ``record_result`` / ``correct_result`` / ``decided_result`` for
        ``entry`` of this format's vocabulary with the ``given`` field values (every
        format rule on what an outcome means lives here, never in the CLI)."""
        raise _no_verb(self, "result record")

    def slip_given(self, state: TournamentState, row: Mapping[str, str]) -> tuple[Given, str]:
        """One slip row (``result import``; columns besides round and table) → the field
        values it gives and a note kept with the result."""
        return self.result_vocabulary().from_slip(row), ""
    def check_registration_close(self, state: TournamentState) -> None:
        """Refuse (``RuleError``) closing registration on a field this format cannot run
        as configured, before anything is written: a command-side check (issue 17,
        defect 9), not an audit rule, so ledgers already closed audit as before."""

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

    def describe_result(self, state: TournamentState, result: Any) -> str:
        """How one table's result reads in words, numbers only (``round show``, ``log``,
        slips, pages): the format's own vocabulary (issue 17).  ``result`` is the
        format's table result state, or None for a table without one ("-")."""
        return "-" if result is None else "recorded"

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

    def describe_body(self, body: Mapping[str, Any]) -> str:
        """How a recorded result body (its wire fields, as ``log`` reads them) reads in
        words: the same phrase ``describe_result`` gives its table."""
        return "recorded"

    def same_result(self, t: Tournament, result: Any, kw: dict[str, Any]) -> bool:
        """Whether the result entry ``kw`` (``record_result``'s keywords) decides exactly
        the recorded ``result``: a retried or doubly keyed slip writes nothing.  By
        default the format's ``decided_result`` against the result's winner, losers,
        loss reasons, outcome and games; a format that cannot say never counts as the
        same (the entry is then a conflict)."""
        try:
            decided = self.decided_result(t, **kw)
        except RuleError:
            return False
        games = getattr(result, "games", None)
        recorded = (getattr(result, "winner", None), list(getattr(result, "losers", [])),
                    list(getattr(result, "loss_reasons", [])), getattr(result, "outcome", None),
                    None if games is None else list(games))
        return (decided[0], list(decided[1]), list(decided[2]), decided[3],
                None if decided[4] is None else list(decided[4])) == recorded

    def decided_result(self, t: Tournament, **kw: Any) -> DecidedResult:
        """What a result entry (``record_result``'s keywords, ``round_no`` and ``table``
        included) decides for its table, recording nothing: how a station tells an
        identical re-entry (nothing to write) from a conflicting one."""
        raise _no_verb(self, "result entry")

    def drop_player(self, t: Tournament, signer: Signer, time: str, number: int,
                    reason: str = "") -> list[SignedEvent]:
        raise _no_verb(self, "drop")

    def amend_seat(self, t: Tournament, signer: Signer, time: str,
                   **kw: Any) -> list[SignedEvent]:
        """Amend one seat of an earlier round's team table (team events, issue 20)."""
        raise _no_verb(self, "amend a seat")

    def after_disqualification(self, t: Tournament, signer: Signer, time: str,
                               number: int, member: bool = False) -> list[SignedEvent]:
        """What a disqualification of ``number`` entails beyond its own events (a team
        event: a member's disqualification drops the team, BR-DROP-4; ``member``: the
        representative's own, not the team's; issue 20)."""
        return []

    def select_cut(self, t: Tournament, signer: Signer, time: str, *,
                   material: str | None = None, source: str | None = None) -> list[SignedEvent]:
        raise _no_verb(self, "cut")

    def seed_bracket(self, t: Tournament, signer: Signer, time: str, *,
                     material: str | None = None,
                     source: str | None = None) -> list[SignedEvent]:
        raise _no_verb(self, "bracket")

    def standings(self, state: TournamentState) -> StandingsView | None:
        """The standings as this format declares them: columns as data, rows best first
        (``ledger.standings_view``; issue 17, ADR 0021), rendered generically by every
        output.  None: the format keeps no standings."""
        return None


# -- the socket, typed as this base (every registered format subclasses it) -------------
def register_format(plugin: FormatPlugin) -> None:
    _socket.register_format(plugin)


def plugin_for(format_id: str | None) -> FormatPlugin | None:
    return cast("FormatPlugin | None", _socket.plugin_for(format_id))


def require_plugin(format_id: str) -> FormatPlugin:
    return cast(FormatPlugin, _socket.require_plugin(format_id))


def registered_formats() -> list[FormatPlugin]:
    return [cast(FormatPlugin, p) for p in _socket.registered_formats()]


def plugin_of(t: Tournament) -> FormatPlugin:
    """The plug-in of a tournament's format, with every verb of this base."""
    return require_plugin(t.state.format.id if t.state.format else "")


__all__ = ["DecidedResult", "FormatPlugin", "Progress", "RoundProgress", "Rulebook",
           "known_formats", "load_all_formats", "make_format", "parse_params", "plugin_for",
           "plugin_of", "register_format", "register_lazy", "registered_formats",
           "require_plugin"]
