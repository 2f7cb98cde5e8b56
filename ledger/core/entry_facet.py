"""The ``entry`` facet of a format (issue 17, ADR 0027): how a result is entered.

Owns: ``Entry`` — the format's result vocabulary as data (``ledger.core.vocabulary``),
where a result goes (``round_phase`` / ``table_at`` / ``seat_at``), what an entry means
(``result_kwargs``: every format rule on an outcome lives there, never in the CLI), a
slip row's fields (``slip_given``) and whether an entry repeats or conflicts with what is
recorded (``decided_result`` / ``same_result``); ``ResultFields``, the typed keywords of
a result entry (what ``Commands.record_result`` / ``correct_result`` take) and
``result_fields`` (a mapping checked into them), and ``DecidedResult``.  The station's
report checks (``ledger.core.report_rules``) read it.

May import: ``ledger.errors``, ``ledger.core.facet_base`` (``ledger.core.vocabulary``,
``ledger.core.state_model`` for type hints only).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, NotRequired, Required, TypedDict, cast

from ledger.core.facet_base import Facet
from ledger.errors import RuleError

if TYPE_CHECKING:
    from ledger.core.state_model import TournamentState
    from ledger.core.vocabulary import Given, ResultEntry, Vocabulary

#: (winner, losers, loss reasons, outcome, games or None): a result as decided, in the
#: order the format records it (``Entry.decided_result``)
DecidedResult = tuple[Any, list[int], list[Any], Any, "list[int] | None"]


class ResultFields(TypedDict, total=False):
    """A result entry's keywords, each format reading its own (docs/DESIGN.md §11): the
    match layer's (HotC, Bushiroad: ``outcome`` a ``ledger.formats.match.model.Outcome``),
    a team seat's (``seat``, BR-TEAM-2) and a Wheel of Time Game's (``wot_outcome`` …).
    A format refuses a keyword that is not its own (``UsageError``)."""

    round_no: Required[int]
    table: Required[int]
    outcome: NotRequired[str]
    winner: int | None
    loser: int | None
    losers: list[int] | None
    games: list[int] | None
    annex_values: list[list[list[int]]] | None
    turn_player: int | None
    slow_play: list[int] | None
    note: str
    reason: str
    penalty_seq: int | None
    seat: int | None
    wot_outcome: str | None
    last_battle: bool | None
    support: dict[int, int] | None
    pattern: dict[int, int] | None
    neutral: int | None
    conceded_by: int | None


_KEYS = ResultFields.__required_keys__ | ResultFields.__optional_keys__


def result_fields(raw: Mapping[str, Any]) -> ResultFields:
    """A result entry's keywords read from a mapping built field by field (a format's
    ``result_kwargs``): every key one of ``ResultFields``', ``round_no`` and ``table``
    present (a ``TypeError`` names any other, as a keyword call would)."""
    unknown = sorted(set(raw) - _KEYS)
    if unknown or not {"round_no", "table"} <= set(raw):
        raise TypeError(f"not result fields: {unknown or 'round_no/table missing'}")
    return cast(ResultFields, dict(raw))


class Entry(Facet):
    """Result entry of a format that records results; the default records none."""

    #: the results its matches can have, as data (issue 17, ``ledger.core.vocabulary``):
    #: the options of ``result record|correct|amend``, the slip columns of ``result
    #: import`` and ``tourney result codes`` are read from it; None: no result is recorded
    vocabulary: ClassVar[Vocabulary | None] = None

    def result_vocabulary(self) -> Vocabulary:
        if self.vocabulary is None:
            raise self.no_verb("result record")
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

    def call_citable(self, state: TournamentState, seq: int) -> bool:
        """Whether the event at ``seq`` is a ruling, penalty or appeal a closed judge call
        may cite (CALL-5); none by default (a format without them: a call cites nothing)."""
        return False

    def seat_at(self, state: TournamentState, round_no: int, table: int,
                seat: int) -> tuple[list[int], Any] | None:
        """A team table's seat ``seat`` (1, 2, …): its two fighters and its result (None:
        none yet); None when the table has no such seat (an individual event: no seats).
        Players report their own seat from it (REPORT-21)."""
        return None

    def result_kwargs(self, state: TournamentState, entry: ResultEntry, given: Given, *,
                      round_no: int, table: int) -> ResultFields:
        """The keywords of ``record_result`` / ``correct_result`` / ``decided_result`` for
        ``entry`` of this format's vocabulary with the ``given`` field values (every
        format rule on what an outcome means lives here, never in the CLI)."""
        raise self.no_verb("result record")

    def slip_given(self, state: TournamentState, row: Mapping[str, str]) -> tuple[Given, str]:
        """One slip row (``result import``; columns besides round and table) → the field
        values it gives and a note kept with the result."""
        return self.result_vocabulary().from_slip(row), ""

    def decided_result(self, state: TournamentState, kw: ResultFields) -> DecidedResult:
        """What a result entry (``kw``, ``round_no`` and ``table`` included) decides for
        its table, recording nothing, from the state alone: how a station tells an
        identical re-entry (nothing to write) from a conflicting one, and how the audit
        checks a station's result against its reports (REPORT-11)."""
        raise self.no_verb("result entry")

    def same_result(self, state: TournamentState, result: Any, kw: ResultFields) -> bool:
        """Whether the result entry ``kw`` decides exactly the recorded ``result``: a
        retried or doubly keyed slip writes nothing.  By default ``decided_result``
        against the result's winner, losers, loss reasons, outcome and games; a format
        that cannot say never counts as the same (the entry is then a conflict)."""
        try:
            decided = self.decided_result(state, kw)
        except RuleError:
            return False
        games = result.games
        recorded = (result.winner, list(result.losers), list(result.loss_reasons),
                    result.outcome, None if games is None else list(games))
        return (decided[0], list(decided[1]), list(decided[2]), decided[3],
                None if decided[4] is None else list(decided[4])) == recorded
