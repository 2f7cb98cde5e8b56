"""The Wheel of Time plug-ins ``wot-classic`` (003, WOT_OLD) and ``wot-2001`` (004,
WOT_2001) (docs/DESIGN.md §10): Games in Cycles on the WoT state and rulebook, with the shared
match layer's wire kinds for pairings and results.

Owns: ``WotRules`` (genesis, removal by forfeiture, the pairing gate, the Judge's TBP
override listed for the audit's review), ``WotEntry`` (a revision's vocabulary, a Game's
tables), ``WotViews`` (Games, progress by Cycles, words, standings) and the plug-ins
``WOT_CLASSIC`` / ``WOT_2001`` (their verbs and the Judge's powers:
``ledger.formats.wot.verbs``), with one ``ParamSpec`` per revision built from
``params.PARAMS``.

May import: ``ledger.core.*`` (the facets, the plug-in, params), ``ledger.errors``,
``ledger.wire.events``,
``ledger.formats.match.*``, ``ledger.formats.wot.*``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from ledger.core.entry_facet import Entry, result_fields
from ledger.core.format_plugin import FormatPlugin
from ledger.core.params import Allowed, ParamSpec
from ledger.core.rules_facet import Rules
from ledger.core.views_facet import Progress, RoundProgress, Views
from ledger.errors import RuleError
from ledger.formats.match.events import RoundPaired
from ledger.formats.wot import apply as _apply  # noqa: F401  (fills WOT_BOOK)
from ledger.formats.wot import checks as _checks  # noqa: F401  (fills WOT_BOOK)
from ledger.formats.wot.book import WOT_BOOK
from ledger.formats.wot.events import WOT_BODIES, TbpOverridden
from ledger.formats.wot.model import Revision
from ledger.formats.wot.params import PARAMS, IntRange, check_params
from ledger.formats.wot.sim import WotSimulation
from ledger.formats.wot.state import WotState
from ledger.formats.wot.time_facet import WotTime
from ledger.formats.wot.verbs import WotCommands, WotJudgePowers, WotRoundDocs
from ledger.wire.events import Body, FormatSpec

if TYPE_CHECKING:
    from ledger.core.entry_facet import ResultFields
    from ledger.core.state_model import TournamentState
    from ledger.core.vocabulary import Given, ResultEntry, Vocabulary
    from ledger.standings_view import StandingsView

#: the largest number of Cycles a genesis may announce (the rules set no upper bound)
MAX_CYCLES = 64


def param_spec(revision: Revision) -> ParamSpec:
    choices: dict[str, Allowed] = {}
    for name, (_, allowed) in PARAMS[revision].items():
        if isinstance(allowed, IntRange):
            choices[name] = (allowed.low, MAX_CYCLES if allowed.high is None else allowed.high)
        else:
            choices[name] = cast(Allowed, allowed)    # str choices, or (False, True)
    return ParamSpec(defaults={k: d for k, (d, _) in PARAMS[revision].items()},
                     choices=choices, default_cut=0)


class WotRules(Rules):
    book = WOT_BOOK

    def __init__(self, revision: Revision) -> None:
        super().__init__(param_spec(revision), WotState)
        self.revision = revision

    def check_spec(self, spec: FormatSpec) -> None:
        super().check_spec(spec)
        if spec.cut:
            raise RuleError("RULES-8", f"{spec.id} has no top cut: the final ranking decides "
                            "(WOTOLD-RANK-1)", hint="leave --cut out")
        check_params(self.revision, spec.params)

    def removed(self, state: TournamentState) -> dict[int, str]:
        """A Judge's Declaration of Forfeiture removes a player (WOTOLD-FORF-1)."""
        from ledger.formats.wot import plan

        return {n: "forfeited" for n in plan.ws(state).removed}

    def paired_round(self, state: TournamentState, body: Body) -> int | None:
        """A Game is paired by its ``round_paired`` (ADR 0023); WoT has no override or
        void."""
        return body.round if isinstance(body, RoundPaired) else None

    def notice(self, state: TournamentState, body: Body,
               checked: bool) -> tuple[str, str] | None:
        """A Judge's TBP override (WOTOLD-FORF-2) is listed for review once checked."""
        if not checked or not isinstance(body, TbpOverridden):
            return None
        return "tbp_override", (f"Judge override: Game {body.round} table {body.table}: "
                                f"#{body.number} TBP {body.old} -> {body.new} (method: "
                                f"{body.method}; reason: {body.reason})")


class WotEntry(Entry):
    def __init__(self, revision: Revision) -> None:
        self.revision = revision

    def result_vocabulary(self) -> Vocabulary:
        from ledger.formats.wot.vocabulary import VOCABULARIES

        return VOCABULARIES[self.revision]

    def table_at(self, state: TournamentState, round_no: int,
                 table: int) -> tuple[list[int], Any] | None:
        from ledger.formats.wot import plan

        g = plan.find_game(state, round_no)
        t = None if g is None else plan.find_table(g, table)
        return None if t is None else ([t.hero, t.villain], t.result)

    def result_kwargs(self, state: TournamentState, entry: ResultEntry, given: Given, *,
                      round_no: int, table: int) -> ResultFields:
        from ledger.formats.wot import vocabulary

        return result_fields(vocabulary.result_kwargs(entry, given, round_no=round_no,
                                                      table=table))

    def slip_given(self, state: TournamentState, row: Mapping[str, str]) -> tuple[Given, str]:
        return self.result_vocabulary().from_slip(row), ""

    def same_result(self, state: TournamentState, result: Any, kw: ResultFields) -> bool:
        """A WoT entry is the recorded result when it says the same code, winner, amounts
        and phase (the phase the code fixes, or the one given for Q3/Q5)."""
        from ledger.errors import TourneyError
        from ledger.formats.wot import plan

        code = str(kw.get("wot_outcome"))
        try:
            lb = plan.default_last_battle(state, code, kw.get("last_battle"))
        except TourneyError:
            return False
        said = (code, kw.get("winner"), dict(kw.get("support") or {}),
                dict(kw.get("pattern") or {}), kw.get("neutral"), kw.get("conceded_by"), lb)
        return said == (result.outcome, result.winner, dict(result.support),
                         dict(result.pattern), result.neutral, result.conceded_by,
                         result.last_battle)


class WotViews(Views):
    def round_display(self, state: TournamentState,
                      round_no: int | None) -> tuple[list[str], dict[str, Any]] | None:
        from ledger.errors import UsageError
        from ledger.formats.wot import display, plan

        games = plan.ws(state).games
        log = state.log
        if not games:
            raise UsageError(f"no Game of {log} has been paired yet",
                             hint="the head judge pairs one with 'tourney round pair'")
        n = games[-1].number if round_no is None else round_no
        if not 1 <= n <= len(games):
            raise UsageError(f"{log} has no Game {n} (Games 1..{len(games)})",
                             hint="run 'tourney round show' for the latest Game")
        return display.game_lines(state, games[n - 1]), display.game_json(state, games[n - 1])

    def round_verdict(self, state: TournamentState, round_no: int) -> str | None:
        from ledger.formats.wot import display

        return display.verdict(state, round_no)

    def draws_nothing(self, state: TournamentState) -> bool:
        from ledger.formats.wot import display

        return display.seed_unused(state)

    def describe_body(self, body: Mapping[str, Any]) -> str:
        from ledger.formats.wot.words import body_words

        return body_words(body)

    def describe_result(self, state: TournamentState, result: Any) -> str:
        from ledger.formats.wot.words import result_words

        return result_words(result)

    def progress(self, state: TournamentState) -> Progress:
        """Games played Cycle by Cycle; over when every Game is played (AMB-W19), the
        winner the sole first place of the final ranking (WOTOLD-RANK-1/2)."""
        from ledger.formats.wot import plan

        if state.registration_closed_seq is None:
            return Progress(phase="registration")
        games = plan.ws(state).games
        g = games[-1] if games else None
        current = None if g is None else RoundProgress(
            number=g.number, phase="game", open=not plan.complete(g), tables=len(g.tables),
            missing_results=[t.table for t in g.tables if t.result is None])
        if g is None or not plan.over(state):
            return Progress(phase="swiss", round=current)
        first = [p.number for p in plan.standings(state)[1] if p.place == 1]
        return Progress(phase="finished", round=current,
                        champion=first[0] if len(first) == 1 else None)

    def standings(self, state: TournamentState) -> StandingsView:
        from ledger.formats.wot.standings_view import view

        return view(state)


def _wot(format_id: str, title: str, player_name: str, revision: Revision) -> FormatPlugin:
    return FormatPlugin(id=format_id, title=title, player_name=player_name, bodies=WOT_BODIES,
                        rules=WotRules(revision), commands=WotCommands(),
                        entry=WotEntry(revision), views=WotViews(),
                        judge_powers=WotJudgePowers(), round_docs=WotRoundDocs(),
                        simulation=WotSimulation(format_id), time=WotTime(revision))


WOT_CLASSIC = _wot("wot-classic",
                   "Wheel of Time CCG, older tournament rules (RULES.md §6, WOT_OLD)",
                   "Wheel of Time CCG, older tournament rules", Revision.WOT_OLD)
WOT_2001 = _wot("wot-2001",
                "Wheel of Time CCG, tournament rules of July 2001 (RULES.md §7, WOT_2001)",
                "Wheel of Time CCG, 2001 tournament rules", Revision.WOT_2001)
