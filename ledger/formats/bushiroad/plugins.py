"""The Bushiroad plug-ins: ``bushiroad-swiss``, ``bushiroad-de``, ``single-elim`` and
``round-robin`` (docs/DESIGN.md §10), each a composition of the shared match layer, the
Bushiroad rulebook and a qualifying stage (or none), with an optional top cut selected by
ranking (BR-FIN-5) and played as a single-elimination bracket (BR-SE).

Owns: ``BushiroadRules`` (genesis, state, the team guard and the team fold), ``BushiroadEntry``
(its vocabulary, result keywords, slips, a team table's seats), ``BushiroadViews`` (team
displays, the pairing sheet's points, the cut's report, the standings) and the four
plug-ins ``SWISS``, ``DOUBLE_ELIM``, ``SINGLE_ELIM``, ``ROUND_ROBIN`` (their verbs:
``ledger.formats.bushiroad.verbs``; their simulation: ``team_sim``).

May import: ``ledger.core.*`` (the facets, the plug-in, params), ``ledger.errors``,
``ledger.wire.events``,
``ledger.formats.match.*``, ``ledger.formats.officiating.*``, ``ledger.formats.bushiroad.*``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ledger.core.entry_facet import result_fields
from ledger.core.format_plugin import FormatPlugin
from ledger.core.params import Param, ParamSpec
from ledger.errors import RuleError
from ledger.formats.bushiroad import apply as _apply  # noqa: F401  (fills BR_BOOK)
from ledger.formats.bushiroad import checks as _checks  # noqa: F401  (fills BR_BOOK)
from ledger.formats.bushiroad import params, team_commands, team_late
from ledger.formats.bushiroad import team_book as _team_book  # noqa: F401  (fills BR_BOOK)
from ledger.formats.bushiroad import vocabulary as br_vocabulary
from ledger.formats.bushiroad.book import BR_BOOK
from ledger.formats.bushiroad.events import BR_BODIES
from ledger.formats.bushiroad.team_guard import team_guard
from ledger.formats.bushiroad.team_results import check_team_spec
from ledger.formats.bushiroad.team_sim import BushiroadSimulation
from ledger.formats.bushiroad.teams import (
    SIZES,
    TEAM_BODIES,
    open_team_records,
    seat_fighters,
    team_mode,
    team_size,
    teams_of,
)
from ledger.formats.bushiroad.verbs import BushiroadCommands, BushiroadTeams, decided
from ledger.formats.match import apply as _match_apply  # noqa: F401  (fills MATCH_BOOK)
from ledger.formats.match.book import MATCH_BOOK
from ledger.formats.match.events import RoundPaired
from ledger.formats.match.model import MatchState
from ledger.formats.match.plugin import MatchEntry, MatchViews
from ledger.formats.officiating.book import with_officiating
from ledger.formats.officiating.events import OFFICIATING_BODIES
from ledger.formats.officiating.rules_facet import OfficiatedRules
from ledger.formats.officiating.time_facet import OfficiatedTime
from ledger.wire.events import Body, FormatSpec, RegistrationClosed, SignedEvent

if TYPE_CHECKING:
    from ledger.core.entry_facet import DecidedResult, ResultFields
    from ledger.core.state_model import TournamentState
    from ledger.core.vocabulary import Given, ResultEntry
    from ledger.standings_view import StandingsView


class BushiroadRules(OfficiatedRules):
    book = with_officiating(BR_BOOK, MATCH_BOOK)

    def __init__(self, params: ParamSpec, *, eliminate_at: int = 0,
                 max_cut: int = 256) -> None:
        super().__init__(params, MatchState)
        #: losses that eliminate in the qualifying stage (BR-DE-1: 2; Swiss and RR: never)
        self.eliminate_at = eliminate_at
        #: the largest top cut (0 = none allowed)
        self.max_cut = max_cut

    def new_state(self) -> MatchState:
        return MatchState(eliminate_at=self.eliminate_at)

    def genesis_params(self, given: dict[str, Param]) -> dict[str, Param]:
        """The defaults of the revision ``given`` names (the newest when it names none): a
        BR_FR_1_2_0 genesis records exactly the parameters it always did."""
        rules = str(given.get("rules", params.RULES_R2))
        team = params.TEAM_DEFAULTS if given.get("team_mode") in SIZES else {}
        return {**self.params.defaults, **params.REVISION_PARAMS.get(rules, {}), **team,
                **given}

    def check(self, state: TournamentState, body: Body, actor: str) -> None:
        team_guard(state, body)          # team events: the team, not a member (issue 20)
        super().check(state, body, actor)

    def evolve(self, state: TournamentState, ev: SignedEvent) -> None:
        super().evolve(state, ev)
        if not team_mode(state):
            return
        if isinstance(ev.body, RegistrationClosed):     # the entrants are the teams
            open_team_records(state)
        elif isinstance(ev.body, RoundPaired) and state.fmt.teams is not None:
            prefix = f"{ev.body.round}/"               # a round paired again after a void
            for key in [k for k in state.fmt.teams.seats if k.startswith(prefix)]:
                del state.fmt.teams.seats[key]

    def check_spec(self, spec: FormatSpec) -> None:
        super().check_spec(spec)
        check_team_spec(spec)
        rules = str(spec.params.get("rules"))
        own = params.REVISION_PARAMS.get(rules, {})
        other = {k for r in params.REVISION_PARAMS.values() for k in r} - set(own)
        extra = sorted(other & set(spec.params))
        if extra:
            raise RuleError("DESIGN-10", f"{', '.join(extra)} is not a parameter of {rules}",
                            hint=f"use --param rules={params.RULES_R2}")
        missing = sorted(set(own) - set(spec.params))
        if missing:
            raise RuleError("DESIGN-10", f"genesis must record every parameter; missing "
                            f"{', '.join(missing)}", finding="genesis")
        if not 0 <= spec.cut <= self.max_cut:
            raise RuleError("BR-FIN-1", f"a top cut of {spec.cut} is not possible in {spec.id}",
                            hint=f"use --cut 0..{self.max_cut}" if self.max_cut
                            else "this format has no top cut: leave --cut out")
        if spec.params.get("stop_rule") == "undefeated_below_cut" and not spec.cut:
            raise RuleError("BR-SWISS-ROUNDS-4", "stop_rule=undefeated_below_cut needs a top "
                            "cut", hint="pass --cut N, or another stop_rule")
        if spec.params.get("stop_rule", "fixed") != "fixed" and spec.params.get("swiss_rounds"):
            raise RuleError("BR-SWISS-ROUNDS-4", "announce either a fixed number of rounds "
                            "or a stop rule, not both",
                            hint="drop --param swiss_rounds, or use stop_rule=fixed")


class BushiroadEntry(MatchEntry):
    vocabulary = br_vocabulary.VOCABULARY

    def result_kwargs(self, state: TournamentState, entry: ResultEntry, given: Given, *,
                      round_no: int, table: int) -> ResultFields:
        return result_fields(br_vocabulary.result_kwargs(state, entry, given,
                                                         round_no=round_no, table=table))

    def slip_given(self, state: TournamentState, row: Mapping[str, str]) -> tuple[Given, str]:
        return br_vocabulary.slip_given(state, row)

    def decided_result(self, state: TournamentState, kw: ResultFields) -> DecidedResult:
        return decided(state, kw)

    def same_result(self, state: TournamentState, result: Any, kw: ResultFields) -> bool:
        seat = kw.get("seat")
        if seat is None:
            return super().same_result(state, result, kw)
        done = team_commands.seat_recorded(state, kw["round_no"], kw["table"], seat)
        try:
            d = decided(state, kw)
        except RuleError:
            return False
        return done is not None and (done.winner, done.losers, done.games) == (d[0], d[1], d[4])

    def seat_at(self, state: TournamentState, round_no: int, table: int,
                seat: int) -> tuple[list[int], Any] | None:
        """Position ``seat`` of each team of a team table (BR-TEAM-2) and its result."""
        from ledger.formats.bushiroad.team_results import seats_at

        found = self.table_at(state, round_no, table)
        if found is None or not team_mode(state) or not 1 <= seat <= team_size(state):
            return None
        fighters = seat_fighters(state, found[0], seat)
        done = next((r for r in seats_at(state, round_no, table) if r.seat == seat), None)
        return fighters, done


class BushiroadViews(MatchViews):
    def player_extras(self, spec: FormatSpec) -> tuple[str, ...]:
        """Best of three (BR-MATCH-1) and a team event's kind (BR-TEAM-1), in words."""
        teams = {"trio": "teams of three", "tag": "tag teams"}
        return tuple(x for x in (
            "best of three" if spec.params.get("match_format") == "BO3" else "",
            teams.get(str(spec.params.get("team_mode")), "")) if x)

    def selection_report(self, state: TournamentState, events: list[SignedEvent],
                         names: Callable[[list[int]], str]
                         ) -> tuple[SignedEvent, list[str], dict[str, Any]]:
        from ledger.formats.bushiroad.report import selection_report

        return selection_report(state, events, names)

    def group_column(self, state: TournamentState) -> tuple[str, int]:
        """Bushiroad pairs by points (BR-SWISS-2): a win group is points_per_win."""
        fmt = state.format
        return "PTS", int(fmt.params.get("points_per_win", 1)) if fmt else 1

    def next_step(self, state: TournamentState) -> str:
        if team_mode(state) and state.registration_closed_seq is None:
            return ("register fighters, then their teams ('tourney team add|import'), then "
                    "'tourney registration close'")
        return super().next_step(state)

    def round_display(self, state: TournamentState,
                      round_no: int | None) -> tuple[list[str], dict[str, Any]] | None:
        if not team_mode(state):
            return None
        from ledger.formats.bushiroad.team_display import team_round_display

        return team_round_display(state, round_no)

    def table_seats(self, state: TournamentState, round_no: int,
                    table: int) -> list[dict[str, Any]] | None:
        if not team_mode(state):
            return None
        from ledger.formats.bushiroad.team_display import table_seats

        return table_seats(state, round_no, table)

    def entrant_name(self, state: TournamentState, number: int) -> str | None:
        """A team's public name: its approved name (BR-TEAM-4) or "team #N"; its members
        are named at their seats, as the organizer lets pages name players."""
        if not team_mode(state):
            return None
        team = teams_of(state).teams.get(number)
        return None if team is None else f"#{number} {team.name or 'team'}"

    def standings(self, state: TournamentState) -> StandingsView:
        from ledger.formats.bushiroad.standings_view import view

        return view(state)


_BODIES = BR_BODIES + TEAM_BODIES + team_late.LATE_BODIES + OFFICIATING_BODIES


def _bushiroad(format_id: str, title: str, player_name: str, rules: BushiroadRules, *,
               seeds_first: bool = False) -> FormatPlugin:
    return FormatPlugin(id=format_id, title=title, player_name=player_name, bodies=_BODIES,
                        rules=rules, commands=BushiroadCommands(), entry=BushiroadEntry(),
                        views=BushiroadViews(), teams=BushiroadTeams(),
                        simulation=BushiroadSimulation(format_id, seeds_first=seeds_first),
                        time=OfficiatedTime(counts_turns=True))


SWISS = _bushiroad(
    "bushiroad-swiss",
    "Bushiroad Swiss draw with an optional top cut by ranking (RULES.md §3.4–3.5)",
    "Bushiroad Swiss", BushiroadRules(params.SWISS))
DOUBLE_ELIM = _bushiroad(
    "bushiroad-de",
    "Bushiroad double elimination with an optional top cut (RULES.md §3.6–3.7)",
    "Bushiroad double elimination", BushiroadRules(params.DOUBLE_ELIM, eliminate_at=2))
SINGLE_ELIM = _bushiroad(
    "single-elim", "Single elimination seeded by a recorded draw (RULES.md §3.8)",
    "Single elimination", BushiroadRules(params.SINGLE_ELIM, max_cut=0), seeds_first=True)
ROUND_ROBIN = _bushiroad(
    "round-robin", "Round robin for small fields, Swiss standings (BR-SWISS-ROUNDS-1)",
    "Round robin", BushiroadRules(params.ROUND_ROBIN, max_cut=0))
