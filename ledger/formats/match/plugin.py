"""The facets shared by the formats that play rounds of matches on the shared match layer
(HotC, the Bushiroad formats): what they answer alike about results and rounds.

Owns: ``MatchRules`` (who has left, who the officials removed, which events pair,
re-pair or take back a round's pairing — the public pages' posting gate, ADR 0023:
``round_paired`` of Swiss and bracket rounds, and the bodies a format adds: its
officiating layer's ``pairing_overridden`` pairs again, ``pairing_voided`` takes it back
(``ledger.formats.officiating.rules_facet``) — and the kinds a station may sign, derived),
``MatchEntry`` (the phase of a round, a table's players and result) and ``MatchViews``
(the words of a result, ``ledger.formats.match.words``; a top-cut stage's name; whether
the next pairing draws: a bracket round pairs by its slots).  Each format still
declares its own vocabulary and maps it.

May import: ``ledger.core.rules_facet``, ``ledger.core.entry_facet``,
``ledger.core.views_facet``, ``ledger.wire.events``, ``ledger.formats.match.*``; never
``ledger.formats.officiating``, which sits above the match layer
(docs/adr/0039-layering-layers-and-rule-ids.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from ledger.core.entry_facet import Entry
from ledger.core.rules_facet import Rules
from ledger.core.views_facet import Progress, Views
from ledger.formats.match import words
from ledger.formats.match.events import MatchKind, RoundPaired
from ledger.formats.match.model import MatchState, has_left

if TYPE_CHECKING:
    from ledger.core.state_model import TournamentState
    from ledger.wire.events import Body


class RoundBody(Protocol):
    """A body that names the round it pairs or un-pairs."""

    @property
    def round(self) -> int: ...


class MatchRules(Rules):
    #: a round's close (its standings summary) and the champion the bracket leaves are
    #: fully derived and re-derived by the audit (ADR 0027: a station may sign them)
    derived_kinds = frozenset({MatchKind.ROUND_CLOSED.value, MatchKind.CHAMPION_DECLARED.value})
    #: the bodies that pair a round and that take its pairing back (each has ``round``); a
    #: format adds its officiating layer's (``ledger.formats.officiating.rules_facet``)
    pairing_bodies: tuple[type[RoundBody], ...] = (RoundPaired,)
    unpairing_bodies: tuple[type[RoundBody], ...] = ()

    def has_left(self, state: TournamentState, number: int) -> bool:
        # hot (the roster asks it per player): the plug-in's own state, read unchecked
        return has_left(state.fmt, number)

    def removed(self, state: TournamentState) -> dict[int, str]:
        """Those disqualified in the shared officiating layer."""
        return {n: "disqualified" for n in state.format_state(MatchState).officiating.dq}

    def paired_round(self, state: TournamentState, body: Body) -> int | None:
        return body.round if isinstance(body, self.pairing_bodies) else None

    def unpaired_round(self, state: TournamentState, body: Body) -> int | None:
        return body.round if isinstance(body, self.unpairing_bodies) else None


class MatchEntry(Entry):
    def round_phase(self, state: TournamentState, round_no: int) -> str | None:
        from ledger.formats.match import vocab  # writes only (issue 22)

        return vocab.round_phase(state, round_no)

    def table_at(self, state: TournamentState, round_no: int,
                 table: int) -> tuple[list[int], Any] | None:
        from ledger.formats.match import vocab

        return vocab.table_at(state, round_no, table)

    def call_citable(self, state: TournamentState, seq: int) -> bool:
        """CALL-5: a ruling, an appeal (raised or decided), a penalty or a
        disqualification of the officiating record."""
        from ledger.formats.match.officiating_model import cites_ruling

        return cites_ruling(state.format_state(MatchState).officiating, seq)


class MatchViews(Views):
    def progress(self, state: TournamentState) -> Progress:
        from ledger.formats.match.plan import match_progress

        return match_progress(state)

    def stage_name(self, state: TournamentState, round_no: int) -> str | None:
        """A top-cut round by how far it is from the final (as ``finish_words`` names
        the players who lose in it)."""
        from ledger.formats.match.standings_view import stage_words

        return stage_words(state.fmt, round_no)

    def describe_result(self, state: TournamentState, result: Any) -> str:
        return words.result_words(result)

    def describe_body(self, body: Mapping[str, Any]) -> str:
        return words.body_words(body)

    def draws_nothing(self, state: TournamentState) -> bool:
        return state.format_state(MatchState).slots is not None  # a bracket round: its slots
