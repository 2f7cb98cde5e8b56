"""Match outcomes → winner, losers and loss reasons (HOTC-TIME-2/3, HOTC-TOP-2, AMB-H8/H11/H14).

Owns: ``decide_result`` — the one mapping from what happened at a table to who won and
why each loser lost, used by the command side and re-run by the audit.

May import: ``ledger.errors``, ``ledger.formats.match.model``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ledger.errors import RuleError
from ledger.formats.match.model import LossReason, Outcome, Phase


@dataclass(frozen=True)
class Decided:
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
    if turn_player is not None and (phase is Phase.SWISS or outcome not in (
            Outcome.TIMEOUT, Outcome.SLOW_PLAY)):
        # a top-cut slow-play timeout records whose turn it was beside the upheld call
        # that decides it (R2, TC-11f)
        raise RuleError("HOTC-TOP-2", "a turn player decides only a top-cut timeout",
                        hint="leave out --turn-player (a Swiss timeout is a double loss, "
                             "HOTC-TIME-2)")
    if outcome is Outcome.WIN:
        w = _member(players, winner, "the winner")
        return Decided(w, [_other(players, w)], [LossReason.PLAY])
    if outcome is Outcome.CONCESSION:
        conceder = _member(players, loser, "the conceding player")
        return Decided(_other(players, conceder), [conceder], [LossReason.CONCESSION])
    if outcome is Outcome.PENALTY:               # a Loss of Match or a DQ (issue 17)
        # a player of this table, like every player a HotC result names (LEDGER-RES-1);
        # the penalty it cites is checked by the officiating layer (BR-PEN-RANK-8/9 by
        # HOTC-SCOPE-3), not here (issue 27 item 8: this error cited BR-PEN-RANK-8)
        penalised = _member(players, loser, "the penalised player")
        return Decided(_other(players, penalised), [penalised], [LossReason.PENALTY])
    if outcome in (Outcome.DROP, Outcome.DOUBLE_LOSS) and losers is not None and \
            len(losers) > 1:                  # both left after the pairing (BR-DROP-2)
        if sorted(losers) != sorted(players):
            raise RuleError("BR-DROP-2", f"a double loss names both players "
                            f"({players[0]} v {players[1]}), not {losers}")
        why = LossReason.DROP_AFTER_PAIRING if outcome is Outcome.DROP else LossReason.PENALTY
        return Decided(None, sorted(players), [why] * 2)
    if outcome is Outcome.DROP:
        dropper = _member(players, loser, "the dropping player")
        return Decided(_other(players, dropper), [dropper], [LossReason.DROP_AFTER_PAIRING])
    if len(calls) == 2:
        raise RuleError("HOTC-TIME-3", "both players were called for slow play: the match is "
                        "supervised to a natural result, not a timeout",
                        hint="record the natural result with --winner (AMB-H11)")
    if outcome is Outcome.SLOW_PLAY:
        if len(calls) != 1:
            raise RuleError("HOTC-TIME-2", "a slow-play timeout names the one player whose "
                            "call was upheld", hint="pass --slow-play NUMBER")
        return Decided(_other(players, calls[0]), [calls[0]], [LossReason.TIMEOUT_SLOW_PLAY])
    if calls:
        raise RuleError("HOTC-TIME-2", "an upheld slow-play call decides a timeout",
                        hint="use --slow-play NUMBER for a timeout with an upheld call")
    if outcome is Outcome.TIMEOUT:
        if phase is Phase.SWISS:
            return Decided(None, sorted(players), [LossReason.TIMEOUT_DOUBLE] * 2)
        if turn_player is None:
            raise RuleError("HOTC-TOP-2", "a top-cut timeout needs the turn player",
                            hint="pass --turn-player NUMBER: the player whose turn it was "
                                 "loses")
        tp = _member(players, turn_player, "the turn player", "HOTC-TOP-2")
        return Decided(_other(players, tp), [tp], [LossReason.TIMEOUT_TURN_PLAYER])
    if outcome is Outcome.TIE:
        if phase is not Phase.SWISS:
            raise RuleError("BR-SE-2", "the top cut has no ties: when both meet a losing "
                            "condition the turn player loses (AMB-H14)",
                            hint="record --winner with the non-turn player")
        return Decided(None, sorted(players), [LossReason.TIE] * 2)
    raise RuleError("HOTC-TIME-2", f"unknown outcome {outcome!r}")
