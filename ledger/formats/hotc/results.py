"""Match outcomes → winner, losers and loss reasons (HOTC-TIME-2/3, HOTC-TOP-2, AMB-H8/H11/H14).

Owns: ``decide_result`` — the one mapping from what happened at a table to who won and
why each loser lost, used by the command side and re-run by the audit.

May import: ``ledger.errors``, ``ledger.formats.match.model``.
"""

from __future__ import annotations

from typing import NamedTuple

from ledger.errors import RuleError
from ledger.formats.match.model import LossReason, Outcome, Phase

# enum members read as module constants: a member read through its enum class is a
# metaclass lookup on every use, and these are read for every event the audit
# folds (issue 28)
_REASON_CONCESSION = LossReason.CONCESSION
_REASON_DROP_AFTER_PAIRING = LossReason.DROP_AFTER_PAIRING
_REASON_PENALTY = LossReason.PENALTY
_REASON_PLAY = LossReason.PLAY
_REASON_TIE = LossReason.TIE
_REASON_TIMEOUT_DOUBLE = LossReason.TIMEOUT_DOUBLE
_REASON_TIMEOUT_SLOW_PLAY = LossReason.TIMEOUT_SLOW_PLAY
_REASON_TIMEOUT_TURN_PLAYER = LossReason.TIMEOUT_TURN_PLAYER
_OUTCOME_CONCESSION = Outcome.CONCESSION
_OUTCOME_DOUBLE_LOSS = Outcome.DOUBLE_LOSS
_OUTCOME_DROP = Outcome.DROP
_OUTCOME_PENALTY = Outcome.PENALTY
_OUTCOME_SLOW_PLAY = Outcome.SLOW_PLAY
_OUTCOME_TIE = Outcome.TIE
_OUTCOME_TIMEOUT = Outcome.TIMEOUT
_OUTCOME_WIN = Outcome.WIN
_PHASE_SWISS = Phase.SWISS


class Decided(NamedTuple):
    """Who won and why each loser lost (a tuple: built for every result the audit
    re-decides, issue 28)."""

    winner: int | None
    losers: list[int]
    loss_reasons: list[LossReason]


def _other(players: list[int], p: int) -> int:
    return players[1] if players[0] == p else players[0]


def _member(players: list[int], p: int | None, what: str, rule: str = "LEDGER-RES-1") -> int:
    if p is None:
        raise RuleError(rule, f"{what} must be one of the players at this table "
                        f"(#{players[0]} v #{players[1]})", hint=f"name {what} by player number")
    if p not in players:
        raise RuleError(rule, f"#{p} is not at this table (#{players[0]} v #{players[1]})",
                        hint=f"{what} is #{players[0]} or #{players[1]}")
    return p


def decide_result(phase: Phase, players: list[int], outcome: Outcome, *,
                  winner: int | None = None, loser: int | None = None,
                  turn_player: int | None = None, slow_play: list[int] | None = None,
                  losers: list[int] | None = None) -> Decided:
    """Who won and why each loser lost, for one match.  ``losers`` naming both players of
    a drop (or of a double loss by penalty) is the table both left after its pairing: no
    winner (BR-DROP-2, TC-23)."""
    calls = sorted(set(slow_play or []))
    for p in calls:
        _member(players, p, "a slow-play call", "HOTC-TIME-2")
    if turn_player is not None and (phase is _PHASE_SWISS or outcome not in (
            _OUTCOME_TIMEOUT, _OUTCOME_SLOW_PLAY)):
        # a top-cut slow-play timeout records whose turn it was beside the upheld call
        # that decides it (R2, TC-11f)
        raise RuleError("HOTC-TOP-2", "a turn player decides only a top-cut timeout",
                        hint="leave out --turn-player (a Swiss timeout is a double loss, "
                             "HOTC-TIME-2)")
    if outcome is _OUTCOME_WIN:
        w = _member(players, winner, "the winner")
        return Decided(w, [_other(players, w)], [_REASON_PLAY])
    if outcome is _OUTCOME_CONCESSION:
        conceder = _member(players, loser, "the conceding player")
        return Decided(_other(players, conceder), [conceder], [_REASON_CONCESSION])
    if outcome is _OUTCOME_PENALTY:               # a Loss of Match or a DQ (issue 17)
        # a player of this table, like every player a HotC result names (LEDGER-RES-1);
        # the penalty it cites is checked by the officiating layer (BR-PEN-RANK-8/9 by
        # HOTC-SCOPE-3), not here (issue 27 item 8: this error cited BR-PEN-RANK-8)
        penalised = _member(players, loser, "the penalised player")
        return Decided(_other(players, penalised), [penalised], [_REASON_PENALTY])
    if outcome in (_OUTCOME_DROP, _OUTCOME_DOUBLE_LOSS) and losers is not None and \
            len(losers) > 1:                  # both left after the pairing (BR-DROP-2)
        if sorted(losers) != sorted(players):
            raise RuleError("BR-DROP-2", f"a double loss names both players "
                            f"({players[0]} v {players[1]}), not {losers}")
        why = _REASON_DROP_AFTER_PAIRING if outcome is _OUTCOME_DROP else _REASON_PENALTY
        return Decided(None, sorted(players), [why] * 2)
    if outcome is _OUTCOME_DROP:
        dropper = _member(players, loser, "the dropping player")
        return Decided(_other(players, dropper), [dropper], [_REASON_DROP_AFTER_PAIRING])
    if len(calls) == 2:
        raise RuleError("HOTC-TIME-3", "both players were called for slow play: the match is "
                        "supervised to a natural result, not a timeout",
                        hint="record the natural result with --winner (AMB-H11)")
    if outcome is _OUTCOME_SLOW_PLAY:
        if len(calls) != 1:
            raise RuleError("HOTC-TIME-2", "a slow-play timeout names the one player whose "
                            "call was upheld", hint="pass --slow-play NUMBER")
        return Decided(_other(players, calls[0]), [calls[0]], [_REASON_TIMEOUT_SLOW_PLAY])
    if calls:
        raise RuleError("HOTC-TIME-2", "an upheld slow-play call decides a timeout",
                        hint="use --slow-play NUMBER for a timeout with an upheld call")
    if outcome is _OUTCOME_TIMEOUT:
        if phase is _PHASE_SWISS:
            return Decided(None, sorted(players), [_REASON_TIMEOUT_DOUBLE] * 2)
        if turn_player is None:
            raise RuleError("HOTC-TOP-2", "a top-cut timeout needs the turn player",
                            hint="pass --turn-player NUMBER: the player whose turn it was "
                                 "loses")
        tp = _member(players, turn_player, "the turn player", "HOTC-TOP-2")
        return Decided(_other(players, tp), [tp], [_REASON_TIMEOUT_TURN_PLAYER])
    if outcome is _OUTCOME_TIE:
        if phase is not _PHASE_SWISS:
            raise RuleError("BR-SE-2", "the top cut has no ties: when both meet a losing "
                            "condition the turn player loses (AMB-H14)",
                            hint="record --winner with the non-turn player")
        return Decided(None, sorted(players), [_REASON_TIE] * 2)
    raise RuleError("HOTC-TIME-2", f"unknown outcome {outcome!r}")
