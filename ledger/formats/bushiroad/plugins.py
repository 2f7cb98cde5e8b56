"""The Bushiroad plug-ins: ``bushiroad-swiss``, ``bushiroad-de``, ``single-elim`` and
``round-robin`` (docs/DESIGN.md §10), each a composition of the shared match layer, the
Bushiroad rulebook and a qualifying stage (or none), with an optional top cut selected by
ranking (BR-FIN-5) and played as a single-elimination bracket (BR-SE).

Owns: ``BushiroadFormat`` (the verbs, shared) and its four subclasses (id, title,
parameters, the stage's elimination threshold).

May import: ``ledger.core.plugin``, ``ledger.core.params``, ``ledger.errors``,
``ledger.wire.events``,
``ledger.formats.match.*``, ``ledger.formats.bushiroad.*``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ledger.core.params import Param
from ledger.core.plugin import Progress
from ledger.errors import RuleError
from ledger.formats.bushiroad import apply as _apply  # noqa: F401  (fills BR_BOOK)
from ledger.formats.bushiroad import checks as _checks  # noqa: F401  (fills BR_BOOK)
from ledger.formats.bushiroad import commands, params, plan, team_commands, team_late
from ledger.formats.bushiroad import team_book as _team_book  # noqa: F401  (fills BR_BOOK)
from ledger.formats.bushiroad import vocabulary as br_vocabulary
from ledger.formats.bushiroad.book import BR_BOOK
from ledger.formats.bushiroad.events import BR_BODIES
from ledger.formats.bushiroad.plan import FormatId
from ledger.formats.bushiroad.team_guard import team_guard
from ledger.formats.bushiroad.team_results import check_team_spec
from ledger.formats.bushiroad.teams import (
    SIZES,
    TEAM_BODIES,
    open_team_records,
    seat_fighters,
    team_mode,
    team_size,
    teams_of,
    unteamed,
)
from ledger.formats.match import apply as _match_apply  # noqa: F401  (fills MATCH_BOOK)
from ledger.formats.match.book import MATCH_BOOK
from ledger.formats.match.events import RoundPaired
from ledger.formats.match.model import MatchState, Outcome
from ledger.formats.match.plan import match_progress
from ledger.formats.match.plugin import MatchFormat
from ledger.formats.officiating.book import with_officiating
from ledger.formats.officiating.events import (
    OFFICIATING_BODIES,
    REPAIRING_BODIES,
    UNPAIRING_BODIES,
)
from ledger.wire.events import Body, FormatSpec, RegistrationClosed, SignedEvent

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from ledger.core.aggregate import Tournament
    from ledger.core.plugin import DecidedResult
    from ledger.core.state import TournamentState
    from ledger.core.vocabulary import Given, ResultEntry
    from ledger.standings_view import StandingsView
    from ledger.wire.keys import Signer


class BushiroadFormat(MatchFormat):
    state_type = MatchState

    def player_extras(self, spec: FormatSpec) -> tuple[str, ...]:
        """Best of three (BR-MATCH-1) and a team event's kind (BR-TEAM-1), in words."""
        teams = {"trio": "teams of three", "tag": "tag teams"}
        return tuple(x for x in (
            "best of three" if spec.params.get("match_format") == "BO3" else "",
            teams.get(str(spec.params.get("team_mode")), "")) if x)

    bodies = BR_BODIES + TEAM_BODIES + team_late.LATE_BODIES + OFFICIATING_BODIES
    pairing_bodies = MatchFormat.pairing_bodies + REPAIRING_BODIES
    unpairing_bodies = UNPAIRING_BODIES
    book = with_officiating(BR_BOOK, MATCH_BOOK)
    game_scores = True
    #: losses that eliminate in the qualifying stage (BR-DE-1: 2; Swiss and RR: never)
    eliminate_at: ClassVar[int] = 0
    #: the largest top cut (0 = none allowed)
    max_cut: ClassVar[int] = 256

    vocabulary = br_vocabulary.VOCABULARY

    def selection_report(self, state: TournamentState, events: list[SignedEvent],
                         names: Callable[[list[int]], str]
                         ) -> tuple[SignedEvent, list[str], dict[str, Any]]:
        from ledger.formats.bushiroad.report import selection_report

        return selection_report(state, events, names)

    def group_column(self, state: TournamentState) -> tuple[str, int]:
        """Bushiroad pairs by points (BR-SWISS-2): a win group is points_per_win."""
        fmt = state.format
        return "PTS", int(fmt.params.get("points_per_win", 1)) if fmt else 1

    def result_kwargs(self, state: TournamentState, entry: ResultEntry, given: Given, *,
                      round_no: int, table: int) -> dict[str, Any]:
        return br_vocabulary.result_kwargs(state, entry, given, round_no=round_no,
                                           table=table)

    def slip_given(self, state: TournamentState, row: Mapping[str, str]) -> tuple[Given, str]:
        return br_vocabulary.slip_given(state, row)

    def new_state(self) -> MatchState:
        return MatchState(eliminate_at=self.eliminate_at)

    def genesis_params(self, given: dict[str, Param]) -> dict[str, Param]:
        """The defaults of the revision ``given`` names (the newest when it names none): a
        BR_FR_1_2_0 genesis records exactly the parameters it always did."""
        rules = str(given.get("rules", params.RULES_R2))
        team = params.TEAM_DEFAULTS if given.get("team_mode") in SIZES else {}
        return {**self.params.defaults, **params.REVISION_PARAMS.get(rules, {}), **team,
                **given}

    def next_step(self, state: TournamentState) -> str:
        if team_mode(state) and state.registration_closed_seq is None:
            return ("register fighters, then their teams ('tourney team add|import'), then "
                    "'tourney registration close'")
        return super().next_step(state)

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

    def check_registration_close(self, state: TournamentState) -> None:
        """Issue 17, defect 9: a Swiss with ``swiss_rounds=0`` needs a recommended number
        of rounds for its field (BR-SWISS-ROUNDS-2/3); outside the tables the organizer
        must set it (AMB-B28), and genesis fixed it, so registration does not close on a
        field that would dead-end at 'round pair'."""
        field = len(state.players)
        if team_mode(state):
            left = unteamed(state)
            if left:
                raise RuleError("BR-TEAM-1", f"fighters {left} are on no team",
                                hint="register their team ('tourney team add') or withdraw "
                                     "them; nothing was written")
            field = len(teams_of(state).teams)
            if field < 2:
                raise RuleError("BR-TEAM-1", "a team event needs at least 2 teams",
                                hint="register teams with 'tourney team add'")
        if plan.fmt_id(state) is not FormatId.SWISS:
            return
        try:
            plan.rounds_for_field(state, field)
        except RuleError as err:
            cut = plan.cut_size(state)
            fits = "9-1024 fighters with a top cut" if cut else "5-1024 fighters"
            raise RuleError(err.rule, err.message.removesuffix(f" [{err.rule}]"),
                            hint=f"the table covers {fits}: register or withdraw fighters "
                                 "to fit it, or start the event in a new ledger with "
                                 "'tourney --ledger NEW.db init … --param swiss_rounds=N' "
                                 "(round-robin for 2-4 fighters); nothing was written",
                            finding=err.finding) from None

    def pair_round(self, t: Tournament, signer: Signer, time: str, *,
                   material: str | None = None, source: str | None = None) -> list[SignedEvent]:
        return commands.pair_round(t, signer, time, material=material, source=source)

    def record_result(self, t: Tournament, signer: Signer, time: str,
                      **kw: Any) -> list[SignedEvent]:
        seat = kw.pop("seat", None)
        if team_mode(t.state) and seat is None and kw.get("outcome") not in (
                Outcome.DROP, Outcome.PENALTY):
            raise team_commands.refuse_typed(kw["round_no"], kw["table"],
                                             teams_of(t.state).size)
        if seat is not None:
            return team_commands.record_seat(t, signer, time, seat=seat, **kw)
        return commands.record_result(t, signer, time, **kw)

    def register_team(self, t: Tournament, signer: Signer, time: str, *,
                      members: list[int], name: str | None = None,
                      representative: int | None = None) -> list[SignedEvent]:
        """A team of a team event (BR-TEAM-1…4); reached by 'tourney team add'."""
        return team_commands.register_team(t, signer, time, members=members, name=name,
                                           representative=representative)

    def register_late_team(self, t: Tournament, signer: Signer, time: str,
                           **kw: Any) -> list[SignedEvent]:
        """A team entering after registration closed, its fighters with it (issue 20);
        reached by 'tourney team late'."""
        return team_late.add_late_team(t, signer, time, **kw)

    def same_result(self, t: Tournament, result: Any, kw: dict[str, Any]) -> bool:
        if kw.get("seat") is None:
            return super().same_result(t, result, kw)
        done = team_commands.seat_recorded(t, kw["round_no"], kw["table"], kw["seat"])
        try:
            decided = team_commands.seat_decision(t, **kw)
        except RuleError:
            return False
        return done is not None and (getattr(done, "winner", None), getattr(done, "losers",
                                     None), getattr(done, "games", None)) == (
            decided[0], decided[1], decided[4])

    def correct_result(self, t: Tournament, signer: Signer, time: str,
                       **kw: Any) -> list[SignedEvent]:
        seat = kw.pop("seat", None)
        if seat is not None:
            return team_commands.correct_seat(t, signer, time, seat=seat, **kw)
        if team_mode(t.state) and kw.get("outcome") not in (Outcome.DROP, Outcome.PENALTY):
            raise team_commands.refuse_typed(kw["round_no"], kw["table"],
                                             teams_of(t.state).size)
        return commands.correct_result(t, signer, time, **kw)

    def progress(self, state: TournamentState) -> Progress:
        return match_progress(state)

    def decided_result(self, t: Tournament, **kw: Any) -> DecidedResult:
        if kw.get("seat") is not None:
            return team_commands.seat_decision(t, **kw)
        kw.pop("seat", None)
        return commands.decided_result(t, **kw)

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

    def amend_seat(self, t: Tournament, signer: Signer, time: str,
                   **kw: Any) -> list[SignedEvent]:
        """A seat of an earlier round (BR-TEAM-7: the team result follows, issue 20)."""
        return team_commands.amend_seat(t, signer, time, **kw)

    def after_disqualification(self, t: Tournament, signer: Signer, time: str,
                               number: int, member: bool = False) -> list[SignedEvent]:
        """BR-DROP-4: a member's disqualification drops the team (a team's own, given to
        its number without ``member``, is the team's disqualification)."""
        return team_commands.member_gone(t, signer, time, number, member)

    def drop_player(self, t: Tournament, signer: Signer, time: str, number: int,
                    reason: str = "") -> list[SignedEvent]:
        number = team_commands.team_of_drop(t, number)      # BR-DROP-4
        return commands.drop_player(t, signer, time, number, reason)

    def select_cut(self, t: Tournament, signer: Signer, time: str, *,
                   material: str | None = None, source: str | None = None) -> list[SignedEvent]:
        return commands.select_cut(t, signer, time, material=material, source=source)

    def seed_bracket(self, t: Tournament, signer: Signer, time: str, *,
                     material: str | None = None,
                     source: str | None = None) -> list[SignedEvent]:
        return commands.seed_bracket(t, signer, time, material=material, source=source)

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
        from ledger.formats.bushiroad.teams import teams_of

        team = teams_of(state).teams.get(number)
        return None if team is None else f"#{number} {team.name or 'team'}"

    def standings(self, state: TournamentState) -> StandingsView:
        from ledger.formats.bushiroad.standings_view import view

        return view(state)


class BushiroadSwiss(BushiroadFormat):
    id = "bushiroad-swiss"
    title = "Bushiroad Swiss draw with an optional top cut by ranking (RULES.md §3.4–3.5)"
    player_name = "Bushiroad Swiss"
    params = params.SWISS


class BushiroadDoubleElim(BushiroadFormat):
    id = "bushiroad-de"
    title = "Bushiroad double elimination with an optional top cut (RULES.md §3.6–3.7)"
    player_name = "Bushiroad double elimination"
    params = params.DOUBLE_ELIM
    eliminate_at = 2


class SingleElim(BushiroadFormat):
    id = "single-elim"
    title = "Single elimination seeded by a recorded draw (RULES.md §3.8)"
    player_name = "Single elimination"
    params = params.SINGLE_ELIM
    max_cut = 0


class RoundRobin(BushiroadFormat):
    id = "round-robin"
    title = "Round robin for small fields, Swiss standings (BR-SWISS-ROUNDS-1)"
    player_name = "Round robin"
    params = params.ROUND_ROBIN
    max_cut = 0


SWISS = BushiroadSwiss()
DOUBLE_ELIM = BushiroadDoubleElim()
SINGLE_ELIM = SingleElim()
ROUND_ROBIN = RoundRobin()
