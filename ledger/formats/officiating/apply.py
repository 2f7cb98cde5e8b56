"""State transitions of the officiating kinds, and the binding of pending LoG / LoM
effects to the match they decide when a round is paired.  Applies only: never validates.

May import: ``msgspec``, ``ledger.core.state``, ``ledger.wire.events``, ``ledger.formats.match.*``,
``ledger.formats.officiating.*``.
"""

from __future__ import annotations

import msgspec

from ledger.core.state import TournamentState
from ledger.formats.match.events import RoundPaired
from ledger.formats.match.model import LossReason, MatchState, Phase, RoundState, Status
from ledger.formats.match.officiating_model import DqRecord, PenaltyRecord, Pending
from ledger.formats.match.unbeaten import add_losses, set_status
from ledger.formats.officiating.book_table import OFFICIATING_BOOK as BOOK
from ledger.formats.officiating.catalogue import Penalty, group
from ledger.formats.officiating.events import (
    PenaltyIssued,
    PlayerDisqualified,
    ScoreSheetReissued,
)
from ledger.formats.officiating.rules import binds_now, games_per_match, member_penalty
from ledger.wire.events import SignedEvent


@BOOK.applies(PenaltyIssued)
def _penalty(state: TournamentState, ev: SignedEvent, body: PenaltyIssued) -> None:
    h: MatchState = state.fmt
    o = h.officiating
    if not isinstance(body.reissued_seq, msgspec.UnsetType):
        o.reissued.pop(body.number, None)        # BR-PEN-3.18.3: the re-issue is settled
    member = member_penalty(state, body.number, body.member is True)     # issue 20
    o.penalties.append(PenaltyRecord(
        seq=ev.seq, number=body.number, section=body.infraction,
        group=group(body.infraction), penalty=body.penalty.value, round=body.round,
        applies_to=body.applies_to, upgrade=body.upgrade, member=member))
    if body.penalty not in (Penalty.LOSS_OF_GAME, Penalty.LOSS_OF_MATCH) or \
            body.applies_to.value == "none":
        return
    match = body.penalty is Penalty.LOSS_OF_MATCH or games_per_match(state) == 1
    now = binds_now(state, body.penalty, body.applies_to)
    rnd = h.rounds[-1] if h.rounds else None
    if now and match and not member and rnd is not None and rnd.closed_seq is None and \
            rnd.bye == body.number and rnd.number == body.round and \
            rnd.phase is Phase.SWISS:
        _bye_lost(h, body.number, rnd.number)      # BR-SWISS-7: the bye round is a loss
        return
    o.pending.append(Pending(seq=ev.seq, number=body.number, match=match,
                             after_round=body.round, round=body.round if now else None,
                             member=member))


@BOOK.applies(ScoreSheetReissued)
def _reissued(state: TournamentState, ev: SignedEvent, body: ScoreSheetReissued) -> None:
    state.fmt.officiating.reissued[body.number] = ev.seq


@BOOK.applies(PlayerDisqualified)
def _disqualified(state: TournamentState, ev: SignedEvent, body: PlayerDisqualified) -> None:
    h: MatchState = state.fmt
    if body.member is True and h.teams is not None:   # the representative as a member
        h.teams.own_dq[body.number] = ev.seq           # (issue 20): the team drops
        return
    r = h.records.get(body.number)
    rnd = h.rounds[-1] if h.rounds else None
    in_match = rnd is not None and rnd.number == body.round and rnd.closed_seq is None \
        and any(body.number in t.players and t.result is None for t in rnd.tables)
    h.officiating.dq[body.number] = DqRecord(
        seq=ev.seq, round=body.round, standing_revoked=body.standing_revoked,
        prize_policy=body.prize_policy, after_event=body.after_event,
        dropped_before=r is not None and r.status is Status.DROPPED, in_match=in_match)
    if r is None:
        return
    if r.status is Status.CUT and r.cut_finish is None:
        r.cut_finish = len(h.rounds) if h.rounds and h.rounds[-1].closed_seq is None \
            else len(h.rounds) + 1
    if r.dropped_after_rounds is None:   # DE counts a DQ as a drop (AMB-B24, de_dq_as_drop)
        r.dropped_round = body.round
        r.dropped_after_rounds = sum(
            1 for x in h.rounds if x.phase.value == "swiss" and (
                x.closed_seq is not None or x.bye == body.number or any(
                    body.number in t.players and t.result is not None for t in x.tables)))
        r.dropped_losses = r.losses
    set_status(h, r, Status.DISQUALIFIED)


@BOOK.applies(RoundPaired)
def _bind(state: TournamentState, ev: SignedEvent, body: RoundPaired) -> None:
    """Pending effects bind to the new round's match of their player.  A Loss of Match
    whose player gets this round's Swiss bye binds to the bye: the bye round is the
    player's next match (PG §3.9.1: the bye fighter is seated and the bye issued after the
    match starts), and BR-SWISS-7 makes a bye lost to a LoM a loss worth nothing.  A Loss
    of Game waits for a match with games (a bye has none)."""
    h: MatchState = state.fmt
    o = h.officiating
    if not o.pending:
        return
    seated = {p for t in body.tables for p in t.players}
    bye_lost = False
    teams = h.teams.member_of if h.teams is not None else {}
    for p in o.pending:
        if p.round is not None or p.after_round >= body.round:
            continue
        if (teams.get(p.number) if p.member else p.number) in seated:
            p.round = body.round           # a member's: their team's table (issue 20)
        elif not p.member and lom_on_bye(state, p, body.round, body.bye, body.phase):
            p.round = body.round
            if not bye_lost:
                _bye_lost(h, p.number, body.round)
                bye_lost = True


def lom_on_bye(state: TournamentState, p: Pending, round_no: int, bye: int | None,
               phase: Phase) -> bool:
    """``p`` is a Loss of Match given before round ``round_no`` whose player holds its
    Swiss bye ``bye`` (BR-PEN-RANK-8 with BR-SWISS-7)."""
    if not p.match or p.number != bye or phase is not Phase.SWISS or \
            p.after_round >= round_no:
        return False
    o = state.fmt.officiating
    return any(r.seq == p.seq and r.penalty == Penalty.LOSS_OF_MATCH.value
               for r in o.penalties)


def carried_bye_loss(state: TournamentState, rnd: RoundState) -> bool:
    """The bye of ``rnd`` was lost to a Loss of Match given before the round (bound to it
    at the pairing), not to one given during it."""
    o = state.fmt.officiating
    return rnd.bye is not None and any(
        x.round == rnd.number and lom_on_bye(state, x, rnd.number, rnd.bye, rnd.phase)
        for x in o.pending)


def _bye_lost(h: MatchState, number: int, round_no: int) -> None:
    """A bye turned into a loss by a Loss of Match: worth nothing, still no opponent
    (BR-SWISS-7, AMB-B1)."""
    r = h.records.get(number)
    if r is None:
        return
    r.wins -= 1
    add_losses(h, r, 1)
    r.loss_reasons.append(LossReason.PENALTY)
    s = r.played.ljust(round_no, "-")
    r.played = s[:round_no - 1] + "N" + s[round_no:]
    if r.losses >= 2 and r.second_loss_round is None:
        r.second_loss_round = round_no
    if h.eliminate_at and r.losses >= h.eliminate_at and r.status is Status.ACTIVE:
        set_status(h, r, Status.ELIMINATED)


def bye_restored(h: MatchState, number: int, round_no: int) -> None:
    """``_bye_lost`` taken back (a voided pairing, ADR 0012): the bye is a win again."""
    r = h.records.get(number)
    if r is None:
        return
    r.wins += 1
    add_losses(h, r, -1)
    if LossReason.PENALTY in r.loss_reasons:
        i = len(r.loss_reasons) - 1 - r.loss_reasons[::-1].index(LossReason.PENALTY)
        del r.loss_reasons[i]
    s = r.played.ljust(round_no, "-")
    r.played = s[:round_no - 1] + "B" + s[round_no:]
    if r.second_loss_round == round_no:
        r.second_loss_round = None
    if h.eliminate_at and r.losses < h.eliminate_at and r.status is Status.ELIMINATED:
        set_status(h, r, Status.ACTIVE)
