"""Rules of the officiating kinds (RULES.md §1.3, §4) and the guards this layer adds to
results and pairings — the one implementation, run by the command before signing and by
the audit on replay.

Findings: ``penalty_mismatch`` (a penalty body that is not what the Guide and the log
give: prior offences, upgrade flag, level, round, the re-issued score sheet and its
automatic raise of BR-PEN-3.18.3), ``penalty_not_applied`` (a result that
ignores a pending LoG / LoM or a disqualification, TC-21 / TC-23),
``disqualified_paired`` (a disqualified player in a later pairing), ``role_not_permitted``
through the permissions below.

May import: ``ledger.core.state``, ``ledger.wire.events``, ``ledger.errors``,
``ledger.formats.match.*``, ``ledger.formats.officiating.*``.
"""

from __future__ import annotations

import msgspec

from ledger.core.state import TournamentState
from ledger.errors import RuleError
from ledger.formats.match.apply import find_table
from ledger.formats.match.events import MatchResult, ResultCorrected, ResultRecorded, RoundPaired
from ledger.formats.match.officiating_model import Pending
from ledger.formats.officiating.book_table import OFFICIATING_BOOK as BOOK
from ledger.formats.officiating.book_table import guards
from ledger.formats.officiating.catalogue import Infraction, Penalty, infraction
from ledger.formats.officiating.events import (
    OfficiatingKind,
    PenaltyIssued,
    PlayerDisqualified,
    ScoreSheetReissued,
)
from ledger.formats.officiating.rules import (
    SCORE_SHEET,
    assess,
    auto_raise,
    check_applies_to,
    check_member_field,
    dq_forced_loss,
    head_judges,
    level,
    member_penalty,
    ms,
    off,
    reissue_pending,
    round_now,
)
from ledger.wire.events import Role

JUDGES = frozenset({Role.JUDGE, Role.HEAD_JUDGE})
BOOK.permit(OfficiatingKind.PENALTY_ISSUED.value, JUDGES)                  # FR §1.3.1.3
BOOK.permit(OfficiatingKind.PLAYER_DISQUALIFIED.value, frozenset({Role.HEAD_JUDGE}))  # RANK-9
BOOK.permit(OfficiatingKind.SCORE_SHEET_REISSUED.value,                   # PG §3.18.3
            frozenset({Role.ORGANIZER, Role.HEAD_JUDGE}))


def _mismatch(what: str, expected: object, recorded: object) -> RuleError:
    return RuleError("BR-PEN-RANK-6", f"{what}: expected {expected!r}, recorded {recorded!r}",
                     finding="penalty_mismatch")


@BOOK.checks(PenaltyIssued)
def _penalty(state: TournamentState, body: PenaltyIssued, actor: str) -> None:
    h = ms(state)
    check_member_field(state, body.number, None if body.member is msgspec.UNSET
                       else body.member)
    member = member_penalty(state, body.number, body.member is True)    # issue 20
    if body.number not in h.records and not member:
        raise RuleError("BR-PEN-RANK-1", f"player {body.number} is not in the event",
                        hint="see 'tourney player list' (registration must be closed)")
    if body.number in off(state).dq or member and h.teams is not None and (
            body.number in h.teams.own_dq):
        raise RuleError("BR-PEN-RANK-9", f"player {body.number} is disqualified",
                        hint="no further penalty can change anything")
    inf = infraction(body.infraction)
    if body.penalty is Penalty.DISQUALIFICATION:
        raise RuleError("BR-PEN-RANK-9", "a disqualification is given by the head judge with "
                        "'tourney disqualify'", hint="it records standing and prize policy")
    if body.level != level(state):
        raise _mismatch("tournament level", level(state), body.level)
    if body.round != round_now(state):
        raise _mismatch("round", round_now(state), body.round)
    a = assess(state, body.number, inf, body.penalty, member)
    if body.prior != a.prior:
        raise _mismatch(f"prior penalties in group {inf.group}", a.prior, body.prior)
    if body.upgrade != a.upgrade:
        raise _mismatch("upgrade", a.upgrade, body.upgrade)
    if a.needs_justification and not body.justification.strip():
        why = ("it is judged by analogy" if inf.by_analogy else
               f"the default at level {level(state)} is {a.default}"
               + (f" and the prior offences allow up to {a.ceiling.value}"
                  if a.ceiling else ""))
        raise RuleError("BR-PEN-GEN-2", f"{body.penalty.value} for {inf.section} needs a "
                        f"justification: {why}", hint="pass --justification TEXT")
    _score_sheet(state, body, inf)
    check_applies_to(state, body.number, body.penalty, body.applies_to, member)
    if body.penalty in (Penalty.LOSS_OF_GAME, Penalty.LOSS_OF_MATCH):
        if body.report_to not in head_judges(state):
            raise RuleError("BR-PEN-RANK-7", f"a {body.penalty.value} must be reported to a "
                            "head judge", hint="report_to names a head judge's key id")
        if not body.description.strip():
            raise RuleError("BR-PEN-RANK-7", "the report of a LoG / LoM needs a description",
                            hint="pass --description TEXT (what happened)")


def _score_sheet(state: TournamentState, body: PenaltyIssued, inf: Infraction) -> None:
    """BR-PEN-3.18.3: a penalty for a lost sheet cites the re-issue it follows; where the
    Warning is raised to LoM automatically, a Warning is wrong and the raise is marked."""
    pending = reissue_pending(state, body.number) if inf.section == SCORE_SHEET else None
    cited = None if isinstance(body.reissued_seq, msgspec.UnsetType) else body.reissued_seq
    if cited != pending:
        raise RuleError("BR-PEN-3.18.3", f"re-issued score sheet: expected {pending!r}, "
                        f"recorded {cited!r}", finding="penalty_mismatch")
    raised = not isinstance(body.raised_from, msgspec.UnsetType)
    if auto_raise(state, body.number, inf, Penalty.WARNING):
        if body.penalty is Penalty.WARNING:
            raise RuleError("BR-PEN-3.18.3", f"player {body.number}'s score sheet was "
                            f"re-issued (seq {pending}) and penalties are recorded on score "
                            "sheets: the Warning is raised to Loss of Match",
                            finding="penalty_mismatch")
        if raised and (body.raised_from is not Penalty.WARNING
                       or body.penalty is not Penalty.LOSS_OF_MATCH):
            raise RuleError("BR-PEN-3.18.3", "only a Warning is raised, to Loss of Match",
                            finding="penalty_mismatch")
    elif raised:
        raise RuleError("BR-PEN-3.18.3", "no automatic raise applies to this penalty",
                        finding="penalty_mismatch")


@BOOK.checks(ScoreSheetReissued)
def _reissued(state: TournamentState, body: ScoreSheetReissued, actor: str) -> None:
    h = ms(state)
    if body.number not in h.records:
        raise RuleError("BR-PEN-3.18.3", f"player {body.number} is not in the event",
                        hint="see 'tourney player list'")
    if body.number in off(state).dq:
        raise RuleError("BR-PEN-RANK-9", f"player {body.number} is disqualified")
    if reissue_pending(state, body.number) is not None:
        raise RuleError("BR-PEN-3.18.3", f"player {body.number}'s re-issued sheet (seq "
                        f"{reissue_pending(state, body.number)}) awaits its 3.18.3 penalty",
                        hint="issue it: tourney penalty issue N --infraction 3.18.3 …")
    if not body.reason.strip():
        raise RuleError("BR-PEN-3.18.3", "a re-issue says how the scores were recovered",
                        hint="pass --reason TEXT")
    if body.round != round_now(state):
        raise _mismatch("round", round_now(state), body.round)


@BOOK.checks(PlayerDisqualified)
def _disqualified(state: TournamentState, body: PlayerDisqualified, actor: str) -> None:
    h = ms(state)
    if body.number not in h.records and (h.teams is None or body.number not in
                                         h.teams.member_of):   # a team's member (issue 20)
        raise RuleError("BR-PEN-RANK-9", f"player {body.number} is not in the event")
    check_member_field(state, body.number, None if body.member is msgspec.UNSET
                       else body.member)
    own = h.teams.own_dq if h.teams is not None else {}
    if body.number in (own if body.member is True else off(state).dq):
        raise RuleError("BR-PEN-RANK-9", f"player {body.number} is already disqualified")
    infraction(body.infraction)
    if not body.reason.strip():
        raise RuleError("BR-PEN-RANK-9", "a disqualification needs a reason",
                        hint="pass --reason TEXT")
    if body.round != round_now(state):
        raise _mismatch("round", round_now(state), body.round)
    over = h.champion is not None or h.final
    if body.after_event != over:
        raise _mismatch("after_event", over, body.after_event)


def _games_against(body: MatchResult, players: list[int],
                   number: int) -> int | None:
    if isinstance(body.games, msgspec.UnsetType) or len(body.games) < 2:
        return None
    return body.games[1] if players[0] == number else body.games[0]


def _result_guard(state: TournamentState, body: ResultRecorded | ResultCorrected,
                  actor: str) -> None:
    h = ms(state)
    o = h.officiating
    if not o.pending and not o.dq:      # nothing pending, nobody disqualified: no rule binds
        return
    tab = find_table(h, body.round, body.table)
    if tab is None:
        return
    team = h.teams is not None       # a team table: members' and LoG effects are seats'
    check_effects(state, body, tab.players, {p: [
        x for x in o.pending if x.number == p and x.round == body.round and not x.member
        and (x.match or not team)] for p in tab.players})


def check_effects(state: TournamentState, body: MatchResult, players: list[int],
                  bound: dict[int, list[Pending]]) -> None:
    """A result keeps the losses its players owe: the LoM / LoG effects ``bound`` to this
    match of each player (TC-21) and a disqualification during it (TC-23)."""
    o = off(state)
    for p in players:
        lost = p in body.losers and body.winner != p
        for x in bound[p]:
            if x.match and not lost:
                raise RuleError("BR-PEN-RANK-8", f"the penalty of seq {x.seq} makes this "
                                f"match a loss for player {p}",
                                hint=f"record --concession {p} (the loss the penalty gives)",
                                finding="penalty_not_applied")
        games = sum(1 for x in bound[p] if not x.match)
        if games:
            against = _games_against(body, players, p)
            if against is not None and against < games:
                raise RuleError("BR-PEN-RANK-7", f"player {p} has {games} game loss(es) by "
                                f"penalty in this match but the score gives the opponent "
                                f"{against}", hint="the game score must count them",
                                finding="penalty_not_applied")
            if (against is None or games >= 2) and not lost:
                raise RuleError("BR-PEN-RANK-7", f"player {p}'s game losses by penalty "
                                "decide this match", hint=f"record --concession {p}",
                                finding="penalty_not_applied")
        dq = dq_forced_loss(o, p, body.round)
        if dq is not None and not lost:    # a correction too (issue 21 item 16)
            raise RuleError("BR-PEN-RANK-9", f"player {p} was disqualified (seq {dq}) "
                            "during this match: it is a loss, and no correction turns it",
                            hint=f"record or correct it as a loss for {p} "
                                 f"(--concession {p})", finding="penalty_not_applied")


def check_seat_effects(state: TournamentState, body: MatchResult, fighters: list[int],
                       teams: list[int]) -> None:
    """A seat's result (issue 20) keeps its fighters' own LoM / LoG effects bound to this
    round, and each team's Loss of Game (a team's penalty applies to each member,
    BR-TEAM-6: each member's seat loses the game)."""
    o = off(state)
    check_effects(state, body, fighters, {f: [
        x for x in o.pending if x.round == body.round and (
            x.member and x.number == f or not x.member and not x.match and x.number == t)]
        for f, t in zip(fighters, teams, strict=True)})


guards(ResultRecorded)(_result_guard)
guards(ResultCorrected)(_result_guard)


@guards(RoundPaired)
def _pairing_guard(state: TournamentState, body: RoundPaired, actor: str) -> None:
    dq = off(state).dq
    for t in body.tables:
        for p in t.players:
            if p in dq:
                raise RuleError("BR-PEN-RANK-9", f"player {p} was disqualified at seq "
                                f"{dq[p].seq} and cannot be paired",
                                finding="disqualified_paired")
    if body.bye is not None and body.bye in dq:
        raise RuleError("BR-PEN-RANK-9", f"player {body.bye} was disqualified and cannot "
                        "get a bye", finding="disqualified_paired")
