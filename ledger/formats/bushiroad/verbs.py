"""The Bushiroad verbs as facets: ``commands`` and ``teams`` (docs/DESIGN.md §8, RULES.md §3).

Owns: ``BushiroadCommands`` (pair, record, correct, drop, cut, bracket, the
registration-close check, what a disqualification entails; each reads its typed
keywords and hands them to ``ledger.formats.bushiroad.commands``, or, for a team table's
seat, to ``team_commands``: a team match's result is derived from its seats, never
typed, BR-TEAM-7) and ``BushiroadTeams`` (teams, late teams, a seat's amendment; issue 20).

May import: ``ledger.core.command_facets``, ``ledger.core.entry_facet``, ``ledger.errors``,
``ledger.formats.match.*``, ``ledger.formats.bushiroad.*``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ledger.core.command_facets import Commands
from ledger.errors import RuleError, UsageError
from ledger.formats.bushiroad import commands, plan, team_commands, team_late
from ledger.formats.bushiroad.plan import FormatId
from ledger.formats.bushiroad.teams import team_mode, teams_of, unteamed
from ledger.formats.match.model import Outcome

if TYPE_CHECKING:
    from ledger.core.aggregate import Tournament
    from ledger.core.entry_facet import DecidedResult, ResultFields
    from ledger.core.state_model import TournamentState
    from ledger.wire.events import SignedEvent
    from ledger.wire.keys import Signer


def _typed_team_result(t: Tournament, kw: ResultFields) -> bool:
    """A team table's own result typed (not a drop's or a penalty's): refused."""
    return team_mode(t.state) and kw.get("outcome") not in (Outcome.DROP, Outcome.PENALTY)


def decided(state: TournamentState, kw: ResultFields) -> DecidedResult:
    """What an entry decides (a seat's, or a table's), recording nothing."""
    seat = kw.get("seat")
    if seat is not None:
        return team_commands.seat_decision(
            state, round_no=kw["round_no"], table=kw["table"], seat=seat,
            outcome=Outcome(kw["outcome"]), winner=kw.get("winner"), loser=kw.get("loser"),
            games=kw.get("games"), annex_values=kw.get("annex_values"))
    return commands.decided_result(
        state, round_no=kw["round_no"], table=kw["table"], outcome=Outcome(kw["outcome"]),
        winner=kw.get("winner"), loser=kw.get("loser"), games=kw.get("games"),
        annex_values=kw.get("annex_values"), turn_player=kw.get("turn_player"),
        slow_play=kw.get("slow_play"))


class BushiroadCommands(Commands):
    def pair_round(self, t: Tournament, signer: Signer, time: str, *,
                   material: str | None = None, source: str | None = None
                   ) -> list[SignedEvent]:
        return commands.pair_round(t, signer, time, material=material, source=source)

    def record_result(self, t: Tournament, signer: Signer, time: str,
                      kw: ResultFields) -> list[SignedEvent]:
        seat = kw.get("seat")
        if seat is None and _typed_team_result(t, kw):
            raise team_commands.refuse_typed(kw["round_no"], kw["table"],
                                             teams_of(t.state).size)
        if seat is not None:
            return team_commands.record_seat(
                t, signer, time, round_no=kw["round_no"], table=kw["table"], seat=seat,
                outcome=Outcome(kw["outcome"]), winner=kw.get("winner"),
                loser=kw.get("loser"), games=kw.get("games"),
                annex_values=kw.get("annex_values"), turn_player=kw.get("turn_player"),
                slow_play=kw.get("slow_play"), note=kw.get("note", ""),
                penalty_seq=kw.get("penalty_seq"))
        return commands.record_result(
            t, signer, time, round_no=kw["round_no"], table=kw["table"],
            outcome=Outcome(kw["outcome"]), winner=kw.get("winner"), loser=kw.get("loser"),
            games=kw.get("games"), annex_values=kw.get("annex_values"),
            turn_player=kw.get("turn_player"), slow_play=kw.get("slow_play"),
            note=kw.get("note", ""), losers=kw.get("losers"),
            penalty_seq=kw.get("penalty_seq"))

    def correct_result(self, t: Tournament, signer: Signer, time: str,
                       kw: ResultFields) -> list[SignedEvent]:
        seat = kw.get("seat")
        if seat is not None:
            return team_commands.correct_seat(
                t, signer, time, round_no=kw["round_no"], table=kw["table"], seat=seat,
                outcome=Outcome(kw["outcome"]), reason=kw["reason"], winner=kw.get("winner"),
                loser=kw.get("loser"), games=kw.get("games"),
                annex_values=kw.get("annex_values"), turn_player=kw.get("turn_player"),
                slow_play=kw.get("slow_play"))
        if _typed_team_result(t, kw):
            raise team_commands.refuse_typed(kw["round_no"], kw["table"],
                                             teams_of(t.state).size)
        return commands.correct_result(
            t, signer, time, round_no=kw["round_no"], table=kw["table"],
            outcome=Outcome(kw["outcome"]), reason=kw["reason"], winner=kw.get("winner"),
            loser=kw.get("loser"), games=kw.get("games"),
            annex_values=kw.get("annex_values"), turn_player=kw.get("turn_player"),
            slow_play=kw.get("slow_play"), losers=kw.get("losers"))

    def drop_player(self, t: Tournament, signer: Signer, time: str, number: int,
                    reason: str = "") -> list[SignedEvent]:
        number = team_commands.team_of_drop(t, number)      # BR-DROP-4
        return commands.drop_player(t, signer, time, number, reason)

    def select_cut(self, t: Tournament, signer: Signer, time: str, *,
                   material: str | None = None, source: str | None = None,
                   no_champion: str | None = None) -> list[SignedEvent]:
        if no_champion is not None:
            raise UsageError("--no-champion does not apply to this format",
                             hint="it is the HotC head judge's ruling (AMB-H9)")
        return commands.select_cut(t, signer, time, material=material, source=source)

    def seed_bracket(self, t: Tournament, signer: Signer, time: str, *,
                     material: str | None = None,
                     source: str | None = None) -> list[SignedEvent]:
        return commands.seed_bracket(t, signer, time, material=material, source=source)

    def after_disqualification(self, t: Tournament, signer: Signer, time: str, number: int,
                               member: bool = False) -> list[SignedEvent]:
        """BR-DROP-4: a member's disqualification drops the team (a team's own, given to
        its number without ``member``, is the team's disqualification)."""
        return team_commands.member_gone(t, signer, time, number, member)

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


class BushiroadTeams:
    """Team events (issue 20): a team, a late team with its fighters, a seat amended."""

    def register_team(self, t: Tournament, signer: Signer, time: str, *, members: list[int],
                      name: str | None = None,
                      representative: int | None = None) -> list[SignedEvent]:
        """A team of a team event (BR-TEAM-1…4); reached by 'tourney team add'."""
        return team_commands.register_team(t, signer, time, members=members, name=name,
                                           representative=representative)

    def register_late_team(self, t: Tournament, signer: Signer, time: str, *,
                           names: list[str], byes: int, losses: int, reason: str,
                           numbers: list[int] | None = None, name: str | None = None,
                           representative: int | None = None) -> list[SignedEvent]:
        """A team entering after registration closed, its fighters with it (issue 20);
        reached by 'tourney team late'."""
        return team_late.add_late_team(t, signer, time, names=names, byes=byes,
                                       losses=losses, reason=reason, numbers=numbers,
                                       name=name, representative=representative)

    def amend_seat(self, t: Tournament, signer: Signer, time: str,
                   kw: ResultFields) -> list[SignedEvent]:
        """A seat of an earlier round (BR-TEAM-7: the team result follows, issue 20)."""
        seat = kw.get("seat")
        if seat is None:
            raise UsageError("a seat amendment names its seat", hint="pass --seat K")
        return team_commands.amend_seat(
            t, signer, time, round_no=kw["round_no"], table=kw["table"], seat=seat,
            reason=kw["reason"], outcome=Outcome(kw["outcome"]), winner=kw.get("winner"),
            loser=kw.get("loser"), games=kw.get("games"),
            annex_values=kw.get("annex_values"), turn_player=kw.get("turn_player"),
            slow_play=kw.get("slow_play"))
