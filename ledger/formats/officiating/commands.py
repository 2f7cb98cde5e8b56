"""Officiating commands: decide the events, record them on the aggregate.

Owns: ``issue_penalty`` (the penalty — a lost score sheet's Warning raised to LoM where
BR-PEN-3.18.3 says so — then at once the loss it gives when it decides the match in
progress), ``reissue_sheet`` (PG §3.18.3), ``disqualify`` (the DQ, then the loss of a
match in progress, or the double loss of BR-DROP-2), ``apply_pending`` (after a pairing:
the losses that pending LoM / single-game LoG effects and disqualifications give in the
new round; a table whose two players both owe it is their double loss by penalty,
BR-DROP-2) and ``offer`` (what the Guide says of a choice before it is made: default,
prior offences, upgrade allowed).  Results go through the format's own ``record_result``
verb (a concession by the penalised player), so every format closes its rounds as usual;
the guards then check them.

May import: ``msgspec``, ``ledger.core.aggregate`` (type hints), ``ledger.errors``,
``ledger.wire.events``, ``ledger.wire.keys``, ``ledger.formats.match.*``,
``ledger.formats.officiating.*``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

from ledger.core.plugin import plugin_of
from ledger.core.state import TournamentState
from ledger.errors import RuleError
from ledger.formats.match.commands import leave_open_round
from ledger.formats.match.departure import both_owe
from ledger.formats.match.model import MatchState, Outcome
from ledger.formats.match.officiating_model import AppliesTo, PrizePolicy
from ledger.formats.match.plan import open_round
from ledger.formats.officiating.catalogue import Penalty, infraction
from ledger.formats.officiating.events import (
    PenaltyIssued,
    PlayerDisqualified,
    ScoreSheetReissued,
)
from ledger.formats.officiating.params import cites_penalties
from ledger.formats.officiating.rules import (
    SCORE_SHEET,
    Assessment,
    assess,
    auto_raise,
    default_applies_to,
    head_judges,
    level,
    member_penalty,
    member_seat,
    ms,
    reissue_pending,
    round_now,
    seated,
)
from ledger.wire.events import SignedEvent
from ledger.wire.keys import Signer

if TYPE_CHECKING:
    from ledger.core.aggregate import Tournament


def offer(t: Tournament, number: int, section: str, penalty: Penalty,
          member: bool = False) -> Assessment:
    """The Guide's view of giving ``penalty`` for ``section`` to ``number`` now (TC-20)."""
    return assess(t.state, number, infraction(section), penalty,
                  member_penalty(t.state, number, member))


def _seat_loss(t: Tournament, signer: Signer, time: str, number: int, note: str,
               seq: int) -> list[SignedEvent]:
    """A team member's own LoM (issue 20, BR-TEAM-6 / ADR 0026): the member's seat is
    lost by the penalty; the team result is derived from the seats as always."""
    found = member_seat(t.state, number)
    if found is None:
        return []
    rnd, tab, k = found
    owes = [x for x in ms(t.state).officiating.pending if x.round == rnd.number
            and x.member and x.match]
    teams = ms(t.state).teams
    assert teams is not None
    other = next(p for p in tab.players if teams.member_of.get(number) != p)
    opp = teams.teams[other].members[k - 1]
    if any(x.number == opp for x in owes):     # both fighters owe this seat (BR-DROP-2)
        return t.record_result(signer, time, round_no=rnd.number, table=tab.table, seat=k,
                               outcome=Outcome.DOUBLE_LOSS, losers=sorted([number, opp]),
                               note=f"double loss by penalty (seq {seq})")
    return t.record_result(signer, time, round_no=rnd.number, table=tab.table, seat=k,
                           loser=number, note=note, **penalty_loss(t.state, seq))


def penalty_loss(state: TournamentState, seq: int) -> dict[str, Any]:
    """How a loss by penalty ``seq`` is recorded: as what it is, citing the penalty
    (``penalty_results=cited``, issue 17), or as a concession with a note (before)."""
    if cites_penalties(state):
        return {"outcome": Outcome.PENALTY, "penalty_seq": seq}
    return {"outcome": Outcome.CONCESSION}


def _loss(t: Tournament, signer: Signer, time: str, number: int,
          note: str, seq: int) -> list[SignedEvent]:
    found = seated(t.state, number)
    if found is None:
        return []
    rnd, tab = found
    return t.record_result(signer, time, round_no=rnd.number, table=tab.table,
                           loser=number, note=note, **penalty_loss(t.state, seq))


def apply_pending(t: Tournament, signer: Signer, time: str) -> list[SignedEvent]:
    """The losses the open round owes: pending LoM (and single-game LoG) effects bound to
    it and disqualified players still seated (BR-PEN-RANK-8/9, TC-21(b))."""
    if not isinstance(t.state.fmt, MatchState):
        return []
    rnd = open_round(t.state)
    if rnd is None:
        return []
    out: list[SignedEvent] = []
    pend = ms(t.state).officiating.pending
    for number, seq in sorted({(x.number, x.seq) for x in pend
                               if x.round == rnd.number and x.match and x.member}):
        out += _seat_loss(t, signer, time, number, f"loss by penalty (seq {seq})", seq)
    owed = sorted({(x.number, x.seq) for x in pend
                   if x.round == rnd.number and x.match and not x.member})
    for number, seq in owed:
        found = seated(t.state, number)
        if found is not None and both_owe(ms(t.state), *found):
            tab = found[1]              # both players owe this match: both lose it
            seqs = sorted(s for n, s in owed if n in tab.players)
            out += t.record_result(signer, time, round_no=rnd.number, table=tab.table,
                                   outcome=Outcome.DOUBLE_LOSS, losers=sorted(tab.players),
                                   note="double loss by penalty (seq "
                                   f"{', '.join(map(str, seqs))}, BR-DROP-2)")
            continue
        out += _loss(t, signer, time, number, f"loss by penalty (seq {seq})", seq)
    return out


def issue_penalty(t: Tournament, signer: Signer, time: str, *, number: int, section: str,
                  penalty: Penalty, applies_to: AppliesTo | None = None,
                  description: str = "", justification: str = "",
                  report_to: str | None = None, member: bool = False) -> list[SignedEvent]:
    """``member``: the representative penalised as a member, not the team (issue 20);
    another member's number is the member's own penalty anyway (ADR 0026)."""
    st = t.state
    inf = infraction(section)
    teams = ms(st).teams
    flag = member and teams is not None and number in teams.teams   # recorded only there
    own = member_penalty(st, number, member) if teams is not None else member
    raised: Penalty | msgspec.UnsetType = msgspec.UNSET
    if auto_raise(st, number, inf, penalty):     # BR-PEN-3.18.3: the one automatic raise
        raised, penalty = penalty, Penalty.LOSS_OF_MATCH
        description = description or (f"score sheet lost and re-issued (seq "
                                      f"{reissue_pending(st, number)}): the Warning is "
                                      "raised to Loss of Match (BR-PEN-3.18.3)")
    sheet = reissue_pending(st, number) if inf.section == SCORE_SHEET else None
    a = assess(st, number, inf, penalty, own)
    where = applies_to if applies_to is not None else default_applies_to(st, number, penalty,
                                                                          own)
    hj = None
    if penalty in (Penalty.LOSS_OF_GAME, Penalty.LOSS_OF_MATCH):
        judges = head_judges(st)
        hj = report_to if report_to is not None else (judges[0] if judges else None)
    ev = t.record(PenaltyIssued(
        number=number, infraction=inf.section, penalty=penalty, level=level(st),
        round=round_now(st), applies_to=where, prior=a.prior, upgrade=a.upgrade,
        description=description, justification=justification, report_to=hj,
        reissued_seq=msgspec.UNSET if sheet is None else sheet, raised_from=raised,
        member=True if flag or member and teams is None else msgspec.UNSET), signer, time)
    out = [ev]
    if where in (AppliesTo.CURRENT_MATCH, AppliesTo.CURRENT_GAME):
        rec = [x for x in ms(t.state).officiating.pending if x.seq == ev.seq and x.match]
        if rec and own:         # a member's LoM: their seat is lost (BR-TEAM-6, issue 20)
            out += _seat_loss(t, signer, time, number, f"loss by penalty (seq {ev.seq})",
                              ev.seq)
        elif rec:       # the match in progress is lost; a forfeit win becomes a double loss
            out += leave_open_round(t, signer, time, number,
                                    **penalty_loss(t.state, ev.seq),
                                    note=f"loss by penalty (seq {ev.seq})",
                                    why="received a Loss of Match",
                                    double=Outcome.DOUBLE_LOSS)
    return out


def reissue_sheet(t: Tournament, signer: Signer, time: str, *, number: int,
                  reason: str) -> list[SignedEvent]:
    """PG §3.18.3: the organizer or head judge re-issues a lost score sheet (the scores
    could be recovered); the 3.18.3 penalty that follows is W ~ LoM instead of DQ."""
    return [t.record(ScoreSheetReissued(number=number, round=round_now(t.state),
                                        reason=reason), signer, time)]


def disqualify(t: Tournament, signer: Signer, time: str, *, number: int, section: str,
               reason: str, standing_revoked: bool = True,
               prize_policy: PrizePolicy = PrizePolicy.VOID,
               member: bool = False) -> list[SignedEvent]:
    """``member``: the representative disqualified as a member, not the team (issue 20,
    ADR 0026): recorded as ``member``; the team drops (BR-DROP-4) and loses by the drop."""
    st = t.state
    h = ms(st)
    # recorded only where the number also names the team (or to be refused elsewhere)
    flag = member and (h.teams is None or number in h.teams.teams)
    if number not in h.records and (h.teams is None or number not in h.teams.member_of):
        raise RuleError("BR-PEN-RANK-9", f"player {number} is not in the event",
                        hint="see 'tourney player list'")
    ev = t.record(PlayerDisqualified(
        number=number, round=round_now(st), infraction=infraction(section).section,
        reason=reason, standing_revoked=standing_revoked, prize_policy=prize_policy,
        after_event=h.champion is not None or h.final,
        member=True if flag else msgspec.UNSET), signer, time)
    if flag:
        return [ev, *plugin_of(t).after_disqualification(t, signer, time, number,
                                                         member=True)]
    # the match in progress is lost; a win held only because the opponent left first
    # becomes the table's double loss (AMB-B24: a DQ after pairings is a drop, BR-DROP-2)
    # a team event: a member's disqualification drops the team (BR-DROP-4, issue 20)
    return [ev, *leave_open_round(t, signer, time, number, **penalty_loss(t.state, ev.seq),
                                  note=f"disqualified (seq {ev.seq})",
                                  why="was disqualified"),
            *plugin_of(t).after_disqualification(t, signer, time, number)]
