"""Leaving a round after its pairing (BR-DROP-2, AMB-B17, AMB-B24, TC-23): one
implementation for every format that plays matches (HotC and the Bushiroad formats), read
by the commands, by the checks and so by the audit.

A player *left* round r when their loss at their table of round r was forced rather than
played: a drop after the pairing (``drop_after_pairing``), a disqualification given in
that round before the result, or a Loss of Match bound to that match.  When the other
player of such a table then leaves the same round too (a drop or a disqualification while
the round is open) or receives a Loss of Match for that match, BR-DROP-2 gives the table
no winner: both lose (Swiss: 0 points each; DE: a loss each).  The first departure's
result named the opponent the winner, so the second records a ``result_corrected`` citing
it — for a drop a consequence of the drop, which a scorekeeper (who records drops,
RULES.md §1.3) may sign; the outcome is ``drop`` (a drop or DQ came second, loss reasons
``drop_after_pairing``) or ``double_loss`` by penalty (a LoM came second, ``penalty``).

Owns: ``forced_loss``, ``both_out`` (the second departure makes a double loss),
``left_now`` / ``double_forfeit`` (how the winner left after it), ``both_owe``,
``check_drop_losers``
and ``check_penalty_losers`` (who a drop or penalty result may name) and
``check_corrector`` (a scorekeeper signs a correction only for a drop's double loss).

May import: ``ledger.core.state``, ``ledger.wire.events``, ``ledger.errors``,
``ledger.formats.match.model``.

Both players of a new pairing may also owe the match to Loss of Match penalties given
before the round (``both_owe``): that table too is a double loss by penalty, recorded
with the pairing (``officiating.commands.apply_pending``).
"""

from __future__ import annotations

from ledger.core.state import TournamentState
from ledger.errors import RuleError
from ledger.formats.match.model import (
    LossReason,
    MatchState,
    Outcome,
    ResultState,
    RoundState,
    Status,
    TableState,
)
from ledger.wire.events import Role

# enum members read as module constants: a member read through its enum class is a
# metaclass lookup on every use, and these are read for every event the audit
# folds (issue 28)
_REASON_DROP_AFTER_PAIRING = LossReason.DROP_AFTER_PAIRING
_OUTCOME_DOUBLE_LOSS = Outcome.DOUBLE_LOSS
_OUTCOME_DROP = Outcome.DROP
_OUTCOME_PENALTY = Outcome.PENALTY
_STATUS_DROPPED = Status.DROPPED


BOTH_OUT_RULE = "BR-DROP-2"
_CORRECTORS = frozenset({Role.JUDGE, Role.HEAD_JUDGE})


def forced_loss(h: MatchState, round_no: int, res: ResultState, player: int) -> bool:
    """``player`` lost ``res`` because they left the round, not by play."""
    if player not in res.losers:
        return False
    reasons = dict(zip(res.losers, res.loss_reasons, strict=False))
    if reasons.get(player) is _REASON_DROP_AFTER_PAIRING:
        return True
    dq = h.officiating.dq.get(player)
    if dq is not None and dq.round == round_no and dq.seq < res.seq:
        return True
    return any(p.number == player and p.match and p.round == round_no and p.seq < res.seq
               for p in h.officiating.pending)


def both_out(h: MatchState, rnd: RoundState, tab: TableState, number: int) -> bool:
    """``number`` won this table of the open round only because the opponent left it, so
    ``number`` leaving now too leaves the table without a winner (BR-DROP-2)."""
    res = tab.result
    return (rnd.closed_seq is None and res is not None and res.winner == number
            and bool(res.losers)
            and all(forced_loss(h, rnd.number, res, p) for p in res.losers))


def left_now(h: MatchState, rnd: RoundState, res: ResultState, number: int) -> str | None:
    """How ``number``, still the winner of ``res``, has left the open round since:
    ``"drop"``, ``"dq"`` (a disqualification, handled as a drop, AMB-B24) or ``"lom"`` (a
    Loss of Match bound to this match); None if they have not."""
    r = h.records.get(number)
    if r is None:
        return None
    if r.status is _STATUS_DROPPED and r.dropped_round == rnd.number:
        return "drop"          # still the winner, so the drop came after that result
    dq = h.officiating.dq.get(number)
    if dq is not None and dq.round == rnd.number and dq.seq > res.seq:
        return "dq"
    if any(p.number == number and p.match and p.round == rnd.number and p.seq > res.seq
           for p in h.officiating.pending):
        return "lom"
    return None


def double_forfeit(h: MatchState, rnd: RoundState, tab: TableState) -> str | None:
    """How the winner of the table's current result — who held it only because the
    opponent left — has since left the round too (``left_now``), or None."""
    res = tab.result
    if res is None or res.winner is None or not both_out(h, rnd, tab, res.winner):
        return None
    return left_now(h, rnd, res, res.winner)


def check_drop_losers(h: MatchState, rnd: RoundState, tab: TableState,
                      losers: list[int]) -> None:
    """A drop result names one loser who dropped, or both players when the second of them
    dropped or was disqualified after the first left (BR-DROP-2)."""
    if len(losers) == 2 and sorted(losers) == sorted(tab.players) and \
            double_forfeit(h, rnd, tab) in ("drop", "dq"):
        return
    for loser in losers:
        rec = h.records.get(loser)
        if len(losers) != 1 or rec is None or rec.status is not _STATUS_DROPPED:
            raise RuleError(BOTH_OUT_RULE, f"player {loser} has not dropped"
                            if len(losers) == 1 else
                            f"round {rnd.number} table {tab.table}: a double loss by drop "
                            "needs both players to have left the round after its pairing",
                            hint="use 'tourney drop NUMBER'")


def both_owe(h: MatchState, rnd: RoundState, tab: TableState, seat: bool = False) -> bool:
    """Both players of the table owe this match to a Loss of Match (or a single-game
    LoG) bound to it — penalties given before the round, bound when it was paired.  A
    team event's seat (``seat``): both fighters owe it to their own penalties (issue 20)."""
    return all(any(x.number == p and x.match and x.round == rnd.number
                   and x.member == seat for x in h.officiating.pending)
               for p in tab.players)


def check_penalty_losers(h: MatchState, rnd: RoundState, tab: TableState,
                         losers: list[int], seat: bool = False) -> None:
    """A double loss by penalty: both players owe this match to a Loss of Match, or the
    winner by the opponent's departure then received a Loss of Match for this match too
    (BR-DROP-2: 'both fighters lose')."""
    if not (len(losers) == 2 and sorted(losers) == sorted(tab.players)
            and (both_owe(h, rnd, tab, seat) or not seat
                 and double_forfeit(h, rnd, tab) == "lom")):
        raise RuleError(BOTH_OUT_RULE, f"round {rnd.number} table {tab.table}: a double "
                        "loss by penalty needs a Loss of Match for this match given to "
                        "both players, or to the winner after the opponent left",
                        hint="see 'tourney penalty list'")


def check_corrector(state: TournamentState, h: MatchState, rnd: RoundState,
                    tab: TableState, winner: int | None, losers: list[int],
                    outcome: Outcome, actor: str) -> None:
    """A key that is neither judge nor head judge (a scorekeeper recording a drop) may
    sign a correction only for the BR-DROP-2 double loss its drop makes."""
    off = state.officials.get(actor)
    if off is not None and _CORRECTORS.intersection(off.roles):
        return
    if winner is None and sorted(losers) == sorted(tab.players) and \
            outcome in (_OUTCOME_DROP, _OUTCOME_DOUBLE_LOSS) and \
            double_forfeit(h, rnd, tab) in ("drop", "dq"):
        return
    raise RuleError("RULES-1.3", "result_corrected must be signed by judge or head-judge "
                    "(a scorekeeper signs only the double loss of a drop, BR-DROP-2)",
                    hint="sign with a judge's key", finding="role_not_permitted")


def check_penalty_cited(h: MatchState, rnd: RoundState, tab: TableState, outcome: Outcome,
                        losers: list[int], penalty_seq: int | None,
                        seat: bool = False) -> None:
    """A loss by penalty (outcome ``penalty``, issue 17) cites the Loss of Match bound to
    this match of its loser (BR-PEN-RANK-8) or the loser's disqualification in this round
    (BR-PEN-RANK-9); any other result cites none."""
    if outcome is not _OUTCOME_PENALTY:
        if penalty_seq is not None:
            raise RuleError("BR-PEN-RANK-8", f"a {outcome.value} result cites no penalty",
                            finding="result_mismatch")
        return
    o = h.officiating
    loser = losers[0] if len(losers) == 1 else None
    lom = any(p.seq == penalty_seq and p.number == loser and p.match
              and p.round == rnd.number and p.member == seat for p in o.pending)
    dq = o.dq.get(loser) if loser is not None and not seat else None
    if lom or (dq is not None and dq.seq == penalty_seq and dq.round == rnd.number):
        return
    raise RuleError("BR-PEN-RANK-8", f"round {rnd.number} table {tab.table}: a loss by "
                    f"penalty cites seq {penalty_seq}, which is neither a Loss of Match for "
                    f"this match nor a disqualification in this round of #{loser}",
                    hint="see 'tourney penalty list'", finding="result_mismatch")
