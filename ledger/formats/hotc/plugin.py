"""The ``hotc-swiss-de`` plug-in: parameters, state, rulebook and facets of the HotC format.

Owns: ``HOTC`` — the composition the core sees (docs/DESIGN.md §10): its identity and its
facets, ``HotcRules`` (genesis, state, rulebook), ``HotcEntry`` (its vocabulary, result
keywords, slips), ``HotcViews`` (the cut's report, the standings) and the verbs of
``ledger.formats.hotc.verbs`` and ``ledger.formats.hotc.simulation``.

May import: ``ledger.core.*`` (the facets, the plug-in, params), ``ledger.errors``,
``ledger.formats.match.*``,
``ledger.formats.officiating.*``,
``ledger.formats.hotc.*``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ledger.core.entry_facet import result_fields
from ledger.core.first_use import on_first_use
from ledger.core.format_plugin import FormatPlugin
from ledger.core.params import Param, ParamSpec
from ledger.core.plugin import Rulebook
from ledger.errors import RuleError
from ledger.formats.hotc.book import HOTC_BOOK
from ledger.formats.hotc.events import BODIES
from ledger.formats.hotc.model import HotcState
from ledger.formats.hotc.revision import (
    DEFAULTS_R3,
    LATEST,
    NEW_IN_R2,
    NEW_IN_R3,
    REQUIRED,
    REVISIONS,
    defaults_for,
)
from ledger.formats.hotc.simulation import HotcSimulation
from ledger.formats.hotc.verbs import HotcCommands, HotcSlowPlay, hotc_options
from ledger.formats.match.book import MATCH_BOOK
from ledger.formats.match.model import Outcome
from ledger.formats.match.plugin import MatchEntry, MatchViews
from ledger.formats.officiating.book import officiating_transitions, with_officiating
from ledger.formats.officiating.events import OFFICIATING_BODIES
from ledger.formats.officiating.params import OFFICIATING_CHOICES
from ledger.formats.officiating.rules_facet import OfficiatedRules
from ledger.formats.officiating.time_facet import OfficiatedTime
from ledger.wire.events import FormatSpec, SignedEvent

if TYPE_CHECKING:
    from ledger.core.entry_facet import DecidedResult, ResultFields
    from ledger.core.state_model import TournamentState
    from ledger.core.vocabulary import Given, ResultEntry, Vocabulary
    from ledger.standings_view import StandingsView

FORMAT_ID = "hotc-swiss-de"

PARAMS = ParamSpec(
    defaults=DEFAULTS_R3,
    choices={"match_minutes": (1, 240), "rules": REVISIONS,
             "pair_down_counts": ("higher", "both"),           # AMB-H1
             "bye_priority": ("least_wins", "no_repeat"),      # AMB-H4 (R2 default first)
             "invitation_required": (False, True),             # HOTC-ENTRY-1 (R2)
             **OFFICIATING_CHOICES},                           # BR-LEVEL-1 …, issue 9
    default_cut=8,
    # a HOTC_2013 genesis has no invitation_required; officiating parameters are recorded
    # only when set, so genesis bytes stay
    optional=NEW_IN_R2 | NEW_IN_R3 | frozenset(OFFICIATING_CHOICES),
)


def _transitions(_: type) -> Rulebook:
    """The fold's book: the match layer's, HotC's and officiating's transitions, without
    importing the checks, commands or vocabulary (a read command folds with it)."""
    from ledger.formats.hotc import cut_apply as _cut  # noqa: F401  (fills HOTC_BOOK)
    from ledger.formats.hotc import slow_play as _slow  # noqa: F401  (fills HOTC_BOOK)
    from ledger.formats.match import apply as _match  # noqa: F401  (fills MATCH_BOOK)

    return officiating_transitions(MATCH_BOOK, HOTC_BOOK)


def _book(_: type) -> Rulebook:
    """The whole rulebook (permissions, checks, transitions): every write and the audit."""
    from ledger.formats.hotc import checks as _checks  # noqa: F401  (fills HOTC_BOOK)
    from ledger.formats.hotc import cut_apply as _cut  # noqa: F401  (fills HOTC_BOOK)
    from ledger.formats.hotc import slow_play as _slow  # noqa: F401  (fills HOTC_BOOK)
    from ledger.formats.match import apply as _match  # noqa: F401  (fills MATCH_BOOK)

    return with_officiating(MATCH_BOOK, HOTC_BOOK)


def _vocabulary(_: type) -> Vocabulary:
    from ledger.formats.hotc.vocabulary import VOCABULARY

    return VOCABULARY


class HotcRules(OfficiatedRules):
    # built on first use: a read command folds with ``transitions`` and never imports
    # the checks, commands or vocabulary (issue 22, ADR 0025 sixth pass)
    book = on_first_use(_book)
    transitions = on_first_use(_transitions)

    def new_state(self) -> HotcState:
        return HotcState(eliminate_at=2)      # HOTC-ELIM-1: a second loss eliminates

    def genesis_params(self, given: dict[str, Param]) -> dict[str, Param]:
        """The defaults of the revision ``given`` names (the newest when it names none):
        a HOTC_2013 genesis records exactly the four parameters it always did."""
        return {**defaults_for(str(given.get("rules", LATEST))), **given}

    def check_spec(self, spec: FormatSpec) -> None:
        super().check_spec(spec)
        rules = str(spec.params.get("rules"))
        required = REQUIRED.get(rules, frozenset())
        extra = sorted((NEW_IN_R2 | NEW_IN_R3) - required & set(spec.params))
        if extra:
            raise RuleError("DESIGN-10", f"{', '.join(extra)} is a parameter of a later "
                            f"revision ({LATEST}), not of {rules}",
                            hint=f"use --param rules={LATEST}")
        missing = sorted(required - set(spec.params))
        if missing:
            raise RuleError("DESIGN-10", f"genesis must record every parameter; missing "
                            f"{', '.join(missing)}", finding="genesis")
        if not 2 <= spec.cut <= 256 or spec.cut & (spec.cut - 1):
            raise RuleError("HOTC-SCOPE-2", f"cut size {spec.cut} is not a power of two in "
                            "2..256", hint="use --cut 2, 4, 8, 16, …")


class HotcEntry(MatchEntry):
    vocabulary = on_first_use(_vocabulary)

    def result_kwargs(self, state: TournamentState, entry: ResultEntry, given: Given, *,
                      round_no: int, table: int) -> ResultFields:
        from ledger.formats.hotc import vocabulary as hotc_vocabulary

        return result_fields(hotc_vocabulary.result_kwargs(state, entry, given,
                                                           round_no=round_no, table=table))

    def slip_given(self, state: TournamentState, row: Mapping[str, str]) -> tuple[Given, str]:
        from ledger.formats.hotc import vocabulary as hotc_vocabulary

        return hotc_vocabulary.slip_given(state, row)

    def decided_result(self, state: TournamentState, kw: ResultFields) -> DecidedResult:
        from ledger.formats.hotc import commands

        kw = hotc_options(kw)
        return commands.decided_result(
            state, round_no=kw["round_no"], table=kw["table"], outcome=Outcome(kw["outcome"]),
            winner=kw.get("winner"), loser=kw.get("loser"), turn_player=kw.get("turn_player"),
            slow_play=kw.get("slow_play"))


class HotcViews(MatchViews):
    def selection_report(self, state: TournamentState, events: list[SignedEvent],
                         names: Callable[[list[int]], str]
                         ) -> tuple[SignedEvent, list[str], dict[str, Any]]:
        from ledger.formats.hotc.report import cut_report

        return cut_report(state, events, names)

    def standings(self, state: TournamentState) -> StandingsView:
        from ledger.formats.hotc.standings_view import view

        return view(state)


HOTC = FormatPlugin(
    id=FORMAT_ID,
    title="HotC Swiss double elimination with a random top cut (RULES.md §2)",
    player_name="HotC Swiss, double elimination",
    bodies=BODIES + OFFICIATING_BODIES,
    rules=HotcRules(PARAMS, HotcState),
    commands=HotcCommands(),
    entry=HotcEntry(),
    views=HotcViews(),
    slow_play=HotcSlowPlay(),
    simulation=HotcSimulation(),
    time=OfficiatedTime(),
)
