"""Officiating decisions shared by the commands (to decide) and the checks (to verify).

Owns: the tournament level (BR-LEVEL-2), prior offences in a group (BR-PEN-RANK-4..6,
AMB-B21, TC-20), whether a penalty is an upgrade or needs a justification (BR-PEN-GEN-2,
AMB-B22), where a LoG / LoM may apply (BR-PEN-RANK-7/8, AMB-B20) and which table it
decides, the head judges a LoG / LoM is reported to, the result a pending effect
demands (TC-21), the lost score sheet of BR-PEN-3.18.3 (its default after a re-issue,
and the automatic raise of its Warning), and when a double loss with no game is the
wrong-table amendment's (``check_no_show``, AMB-B25).

May import: ``ledger.core.state``, ``ledger.wire.events``, ``ledger.errors``,
``ledger.formats.match.*``, ``ledger.formats.officiating.*``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ledger.core.state import TournamentState
from ledger.errors import RuleError
from ledger.formats.match.departure import both_out
from ledger.formats.match.model import MatchState, RoundState, Status, TableState
from ledger.formats.match.officiating_model import AppliesTo, OfficiatingState, PenaltyRecord
from ledger.formats.match.plan import current_round_number, open_round
from ledger.formats.match.team_model import seat_key
from ledger.formats.officiating.catalogue import (
    Infraction,
    Penalty,
    Range,
    default_range,
    in_default,
    range_text,
)
from ledger.formats.officiating.params import penalties_on_score_sheets
from ledger.wire.events import Role

LEVEL_PARAM = "tournament_level"


def refusing_match_state(state: TournamentState) -> MatchState:
    """The event's match state, refused (RULES-8) when its format plays no matches: what
    every officiating command and check reads penalties from."""
    h = state.fmt
    if not isinstance(h, MatchState):
        raise RuleError("RULES-8", "this format does not play matches, so match officiating "
                        "does not apply here (penalties, late entries with their game "
                        "losses, slow play)",
                        hint="see 'tourney --help' for what this format's events take "
                             "(Wheel of Time: forfeit, tbp-override)")
    return h


def off(state: TournamentState) -> OfficiatingState:
    return refusing_match_state(state).officiating


def level(state: TournamentState) -> int:
    """The tournament level fixed at genesis, or as amended since (BR-LEVEL-1/2; 1 when
    not recorded)."""
    h = state.fmt
    if isinstance(h, MatchState) and h.officiating.level is not None:
        return h.officiating.level
    v = state.format.params.get(LEVEL_PARAM, 1) if state.format else 1
    return v if isinstance(v, int) and not isinstance(v, bool) else 1


def games_per_match(state: TournamentState) -> int:
    """Games needed in a match: BO3 needs 2 of 3; HotC and BO1 play one game."""
    fmt = state.format
    return 3 if fmt is not None and fmt.params.get("match_format") == "BO3" else 1


def prior(state: TournamentState, number: int, group: str,
          member: bool = False) -> list[PenaltyRecord]:
    """This player's earlier penalties in ``group`` in this tournament (BR-PEN-RANK-2/6;
    penalties last only until the end of their tournament, so one log is the scope).  A
    team member's (issue 20): their own and their team's, since a penalty given to a team
    applies to each member (BR-TEAM-6); a team's: the team's own, not its members'."""
    h = refusing_match_state(state)
    team = h.teams.member_of.get(number) if member and h.teams is not None else None
    return [p for p in h.officiating.penalties if p.group == group and (
        p.number == number and p.member == member
        or p.number == team and not p.member)]


def member_penalty(state: TournamentState, number: int, flag: bool) -> bool:
    """Issue 20 (BR-TEAM-6, ADR 0026): a penalty is a team member's own — its effect on
    the member's seat — when ``number`` is a member other than the representative (whose
    number names the team), or the representative with ``member`` recorded."""
    teams = refusing_match_state(state).teams
    if teams is None:
        return False
    return flag or (number in teams.member_of and number not in teams.teams)


def check_member_field(state: TournamentState, number: int, member: object) -> None:
    """``member`` on a penalty or disqualification (issue 20) tells the representative's
    own from the team's: recorded only there, as true (one encoding for each meaning)."""
    if member is not True and member is not None:
        raise RuleError("BR-TEAM-6", "'member' is recorded only as true",
                        finding="penalty_mismatch")
    teams = refusing_match_state(state).teams
    if member is True and (teams is None or number not in teams.teams):
        raise RuleError("BR-TEAM-6", f"#{number} is not a team's representative: 'member' "
                        "is only for the representative of a team event, whose number also "
                        "names the team", hint="omit --member (another member's number "
                        "names the member)", finding="penalty_mismatch")


def member_seat(state: TournamentState, number: int
                ) -> tuple[RoundState, TableState, int] | None:
    """Member ``number``'s open-round team table without a team result, and their seat
    (position k, BR-TEAM-2), when that seat has no result yet."""
    teams = refusing_match_state(state).teams
    team = None if teams is None else teams.member_of.get(number)
    found = None if team is None else seated(state, team)
    if teams is None or team is None or found is None:
        return None
    rnd, tab = found
    k = teams.teams[team].members.index(number) + 1
    done = any(r.seat == k for r in teams.seats.get(seat_key(rnd.number, tab.table), []))
    return None if done else (rnd, tab, k)


def _seated(state: TournamentState, number: int, member: bool) -> object | None:
    return member_seat(state, number) if member else seated(state, number)


def _future(state: TournamentState, number: int, member: bool) -> bool:
    teams = refusing_match_state(state).teams
    team = teams.member_of.get(number) if member and teams is not None else None
    return has_future_match(state, number if team is None else team)


def upgrade_ceiling(priors: list[PenaltyRecord]) -> Penalty | None:
    """How far a repeat may be raised: after cautions, to a Warning (BR-PEN-RANK-4); after
    a Warning or more, to LoG, LoM or DQ (BR-PEN-RANK-5)."""
    if not priors:
        return None
    top = max(Penalty(p.penalty).rank for p in priors)
    return Penalty.WARNING if top < Penalty.WARNING.rank else Penalty.DISQUALIFICATION


@dataclass(frozen=True)
class Assessment:
    """What the Guide says of one penalty choice."""

    default: str               # the default range's text for this level
    prior: list[int]           # seqs of earlier penalties in the same group
    ceiling: Penalty | None    # the upgrade the priors allow (None: no upgrade)
    upgrade: bool              # the choice is above the default, within the upgrade
    needs_justification: bool


#: PG §3.18.3: losing a score sheet is DQ, or W ~ LoM once the sheet is re-issued
SCORE_SHEET = "3.18.3"
REISSUED: Range = (Penalty.WARNING, Penalty.LOSS_OF_MATCH)


def reissue_pending(state: TournamentState, number: int) -> int | None:
    """The seq of ``number``'s re-issued score sheet not yet followed by its penalty."""
    h = state.fmt
    return h.officiating.reissued.get(number) if isinstance(h, MatchState) else None


def auto_raise(state: TournamentState, number: int, inf: Infraction,
               penalty: Penalty) -> bool:
    """BR-PEN-3.18.3 (AMB-B21, the one automatic raise): after the organizer or head judge
    re-issued the lost sheet, in an event that records penalties on score sheets, the
    Warning of a fighter who continues (still has a match) is raised to Loss of Match,
    whatever their earlier penalties.  A fighter who dropped first did not continue."""
    return (inf.section == SCORE_SHEET and penalty is Penalty.WARNING
            and reissue_pending(state, number) is not None
            and penalties_on_score_sheets(state)
            and (seated(state, number) is not None or has_future_match(state, number)))


def assess(state: TournamentState, number: int, inf: Infraction,
           penalty: Penalty, member: bool = False) -> Assessment:
    lvl = level(state)
    priors = prior(state, number, inf.group, member)
    ceiling = upgrade_ceiling(priors)
    if inf.section == SCORE_SHEET and reissue_pending(state, number) is not None:
        rng: Range | None = REISSUED
        inside = REISSUED[0].rank <= penalty.rank <= REISSUED[1].rank
    else:
        rng = default_range(inf, lvl)
        inside = in_default(inf, lvl, penalty)
    upgrade = (not inside and rng is not None and penalty.rank > rng[1].rank
               and ceiling is not None and penalty.rank <= ceiling.rank)
    return Assessment(default=range_text(rng), prior=[p.seq for p in priors],
                      ceiling=ceiling, upgrade=upgrade,
                      needs_justification=inf.by_analogy or not (inside or upgrade))


def seated(state: TournamentState, number: int) -> tuple[RoundState, TableState] | None:
    """The open-round table ``number`` plays at and that has no result yet."""
    rnd = open_round(state)
    if rnd is None:
        return None
    for t in rnd.tables:
        if number in t.players and t.result is None:
            return rnd, t
    return None


def forfeit_winner(state: TournamentState, number: int) -> bool:
    """``number`` won their open-round match only because the opponent left it (a drop,
    DQ or LoM after the pairing): a LoM for that match leaves it without a winner
    (BR-DROP-2, ``match.departure``)."""
    rnd = open_round(state)
    if rnd is None:
        return False
    tab = next((t for t in rnd.tables if number in t.players), None)
    return tab is not None and both_out(refusing_match_state(state), rnd, tab, number)


#: PG §3.10.2: played the wrong match, found after the result was reported
WRONG_TABLE = "3.10.2"


def check_no_show(state: TournamentState, round_no: int, table: int, players: list[int],
                  correction: bool) -> None:
    """AMB-B25: a double loss with no game played — neither assigned fighter sat at the
    table — comes only from the wrong-table amendment (BR-PEN-3.10.2-AMEND): a correction
    of a table both of whose fighters were already penalised under PG 3.10.2 in that round
    (the amendment gives the penalties first, then the results)."""
    penalised = {p.number for p in off(state).penalties
                 if p.section == WRONG_TABLE and p.round == round_no}
    if correction and set(players) <= penalised:
        return
    raise RuleError("BR-PEN-3.10.2-AMEND-1", f"round {round_no} table {table}: a double "
                    "loss with no game played is the wrong-table amendment of a table "
                    "neither fighter showed at (both penalised under 3.10.2 first)",
                    hint="use 'tourney result wrong-table'", finding="result_mismatch")


def holds_bye(state: TournamentState, number: int) -> bool:
    """``number`` has the bye of the round in progress (BR-SWISS-7: a LoM turns it into a
    loss)."""
    rnd = open_round(state)
    return rnd is not None and rnd.bye == number and rnd.phase.value == "swiss"


def has_future_match(state: TournamentState, number: int) -> bool:
    h = refusing_match_state(state)
    rec = h.records.get(number)
    if rec is None or h.champion is not None or h.final:
        return False
    return rec.status in (Status.ACTIVE, Status.CUT) and rec.cut_finish is None


def default_applies_to(state: TournamentState, number: int, penalty: Penalty,
                       member: bool = False) -> AppliesTo:
    """A member's LoG / LoM (issue 20) lands on the member's seat: the seat in progress,
    else the member's next seat (a team's bye has no seats: it waits for one)."""
    if penalty not in (Penalty.LOSS_OF_GAME, Penalty.LOSS_OF_MATCH):
        return AppliesTo.NONE
    lom = penalty is Penalty.LOSS_OF_MATCH
    if _seated(state, number, member) is not None or lom and not member and (
            holds_bye(state, number) or forfeit_winner(state, number)):
        return AppliesTo.CURRENT_MATCH if lom else AppliesTo.CURRENT_GAME
    if _future(state, number, member):
        return AppliesTo.NEXT_MATCH if lom else AppliesTo.FIRST_GAME_OF_NEXT_MATCH
    return AppliesTo.NONE


_ALLOWED = {
    Penalty.LOSS_OF_GAME: {AppliesTo.CURRENT_GAME, AppliesTo.NEXT_GAME,
                           AppliesTo.FIRST_GAME_OF_NEXT_MATCH, AppliesTo.NONE},
    Penalty.LOSS_OF_MATCH: {AppliesTo.CURRENT_MATCH, AppliesTo.NEXT_MATCH, AppliesTo.NONE},
}


def check_applies_to(state: TournamentState, number: int, penalty: Penalty,
                     applies_to: AppliesTo, member: bool = False) -> None:
    """BR-PEN-RANK-7/8 and AMB-B20: where this LoG / LoM may take effect (a team
    member's: on their seat, issue 20)."""
    at = _seated(state, number, member)
    bye = not member and (holds_bye(state, number) or forfeit_winner(state, number))
    allowed = _ALLOWED.get(penalty, {AppliesTo.NONE})
    if applies_to not in allowed:
        raise RuleError("AMB-B20", f"a {penalty.value} cannot apply to {applies_to.value}",
                        hint="allowed: " + ", ".join(sorted(a.value for a in allowed)))
    current = applies_to in (AppliesTo.CURRENT_GAME, AppliesTo.CURRENT_MATCH)
    on_bye = applies_to is AppliesTo.CURRENT_MATCH and bye
    if current and at is None and not on_bye:
        raise RuleError("BR-PEN-RANK-8", f"player {number} is not in a match without a "
                        "result now", hint="between matches the penalty applies to the next "
                        "match (--applies-to next_match / first_game_of_next_match)")
    if applies_to is AppliesTo.NEXT_GAME and at is None and games_per_match(state) > 1:
        raise RuleError("AMB-B20", "next_game is the next game of a match in progress",
                        hint="between matches use first_game_of_next_match")
    future = applies_to in (AppliesTo.NEXT_MATCH, AppliesTo.FIRST_GAME_OF_NEXT_MATCH) or (
        applies_to is AppliesTo.NEXT_GAME and games_per_match(state) == 1)
    if future and not _future(state, number, member):
        raise RuleError("AMB-B20", f"player {number} has no further match in this event",
                        hint="record it with --applies-to none: it changes no result")
    if applies_to is AppliesTo.NONE and penalty in _ALLOWED and (
            at is not None or bye or _future(state, number, member)):
        raise RuleError("BR-PEN-RANK-7", f"player {number} still has a match: a "
                        f"{penalty.value} changes a result", hint="choose --applies-to")


def binds_now(state: TournamentState, penalty: Penalty, applies_to: AppliesTo) -> bool:
    """Whether the effect belongs to the match in progress (else the next one)."""
    if applies_to in (AppliesTo.CURRENT_GAME, AppliesTo.CURRENT_MATCH):
        return True
    return applies_to is AppliesTo.NEXT_GAME and games_per_match(state) > 1


def dq_forced_loss(o: OfficiatingState, number: int, round_no: int) -> int | None:
    """The seq of ``number``'s disqualification when it made their match of ``round_no``
    a loss (given while that match had no result, BR-PEN-RANK-9(a)): every result,
    correction and amendment of that match must keep it a loss (ADR 0018)."""
    dq = o.dq.get(number)
    return dq.seq if dq is not None and dq.round == round_no and dq.in_match else None


def head_judges(state: TournamentState) -> list[str]:
    return sorted(k for k, o in state.officials.items()
                  if o.revoked_seq is None and Role.HEAD_JUDGE in o.roles)


def round_now(state: TournamentState) -> int:
    return current_round_number(state)
