"""The ``hotc-swiss-de`` plug-in: parameters, state, rulebook and verbs of the HotC format.

Owns: ``HotcFormat`` / ``HOTC`` — the composition the core sees (docs/DESIGN.md §10).

May import: ``ledger.core.plugin``, ``ledger.core.params``, ``ledger.errors``,
``ledger.formats.match.*``,
``ledger.formats.officiating.*``,
``ledger.formats.hotc.*``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ledger.core.first_use import on_first_use
from ledger.core.params import Param, ParamSpec
from ledger.core.plugin import Progress, Rulebook
from ledger.errors import RuleError, UsageError
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
from ledger.formats.match.book import MATCH_BOOK
from ledger.formats.match.plan import match_progress
from ledger.formats.match.plugin import MatchFormat
from ledger.formats.officiating.book import officiating_transitions, with_officiating
from ledger.formats.officiating.events import (
    OFFICIATING_BODIES,
    REPAIRING_BODIES,
    UNPAIRING_BODIES,
)
from ledger.formats.officiating.params import OFFICIATING_CHOICES
from ledger.wire.events import FormatSpec, SignedEvent

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from ledger.core.aggregate import Tournament
    from ledger.core.plugin import DecidedResult
    from ledger.core.state import TournamentState
    from ledger.core.vocabulary import Given, ResultEntry, Vocabulary
    from ledger.standings_view import StandingsView
    from ledger.wire.keys import Signer

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


def _hotc_result_options(kw: dict[str, Any]) -> dict[str, Any]:
    """HotC matches are single games with no draws: refuse the game-score options."""
    for name, option in (("games", "--games"), ("annex_values", "--annex-a")):
        if kw.pop(name, None) is not None:
            raise UsageError(f"{option} does not apply to {FORMAT_ID}",
                             hint="HotC results: --winner, --concession, --timeout, "
                                  "--slow-play, --double-loss or --tie")
    return kw


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


class HotcFormat(MatchFormat):
    id = FORMAT_ID
    title = "HotC Swiss double elimination with a random top cut (RULES.md §2)"
    player_name = "HotC Swiss, double elimination"
    params = PARAMS
    state_type = HotcState
    bodies = BODIES + OFFICIATING_BODIES
    pairing_bodies = MatchFormat.pairing_bodies + REPAIRING_BODIES
    unpairing_bodies = UNPAIRING_BODIES
    # built on first use: a read command folds with ``transitions`` and never imports
    # the checks, commands or vocabulary (issue 22, ADR 0025 sixth pass)
    book = on_first_use(_book)
    transitions = on_first_use(_transitions)
    vocabulary = on_first_use(_vocabulary)

    def result_kwargs(self, state: TournamentState, entry: ResultEntry, given: Given, *,
                      round_no: int, table: int) -> dict[str, Any]:
        from ledger.formats.hotc import vocabulary as hotc_vocabulary

        return hotc_vocabulary.result_kwargs(state, entry, given, round_no=round_no,
                                             table=table)

    def slip_given(self, state: TournamentState, row: Mapping[str, str]) -> tuple[Given, str]:
        from ledger.formats.hotc import vocabulary as hotc_vocabulary

        return hotc_vocabulary.slip_given(state, row)

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

    def pair_round(self, t: Tournament, signer: Signer, time: str, *,
                   material: str | None = None, source: str | None = None) -> list[SignedEvent]:
        from ledger.formats.hotc import commands

        return commands.pair_round(t, signer, time, material=material, source=source)

    def record_result(self, t: Tournament, signer: Signer, time: str,
                      **kw: Any) -> list[SignedEvent]:
        from ledger.formats.hotc import commands

        return commands.record_result(t, signer, time, **_hotc_result_options(kw))

    def correct_result(self, t: Tournament, signer: Signer, time: str,
                       **kw: Any) -> list[SignedEvent]:
        from ledger.formats.hotc import commands

        return commands.correct_result(t, signer, time, **_hotc_result_options(kw))

    def selection_report(self, state: TournamentState, events: list[SignedEvent],
                         names: Callable[[list[int]], str]
                         ) -> tuple[SignedEvent, list[str], dict[str, Any]]:
        from ledger.formats.hotc.report import cut_report

        return cut_report(state, events, names)

    def call_slow_play(self, t: Tournament, signer: Signer, time: str,
                       **kw: Any) -> SignedEvent:
        from ledger.formats.hotc import slow_play

        return slow_play.call_slow_play(t, signer, time, **kw)

    def rule_slow_play(self, t: Tournament, signer: Signer, time: str,
                       **kw: Any) -> SignedEvent:
        from ledger.formats.hotc import slow_play

        return slow_play.rule_slow_play(t, signer, time, **kw)

    def progress(self, state: TournamentState) -> Progress:
        return match_progress(state)

    def decided_result(self, t: Tournament, **kw: Any) -> DecidedResult:
        from ledger.formats.hotc import commands

        return commands.decided_result(t, **_hotc_result_options(kw))

    def drop_player(self, t: Tournament, signer: Signer, time: str, number: int,
                    reason: str = "") -> list[SignedEvent]:
        from ledger.formats.hotc import commands

        return commands.drop_player(t, signer, time, number, reason)

    def select_cut(self, t: Tournament, signer: Signer, time: str, *,
                   material: str | None = None, source: str | None = None,
                   no_champion: str | None = None) -> list[SignedEvent]:
        from ledger.formats.hotc import commands

        return commands.select_cut(t, signer, time, material=material, source=source,
                                   no_champion=no_champion)

    def seed_bracket(self, t: Tournament, signer: Signer, time: str, *,
                     material: str | None = None,
                     source: str | None = None) -> list[SignedEvent]:
        from ledger.formats.hotc import commands

        return commands.seed_bracket(t, signer, time, material=material, source=source)

    def standings(self, state: TournamentState) -> StandingsView:
        from ledger.formats.hotc.standings_view import view

        return view(state)


HOTC = HotcFormat()
