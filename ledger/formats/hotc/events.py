"""Event bodies of the HotC format (wire kinds, DESIGN.md §8 JSON contract).

Owns: ``RoundPaired``, ``ResultRecorded``, ``ResultCorrected``, ``PlayerDropped``,
``RoundClosed``, ``CutMade``, ``BracketSeeded``, ``ChampionDeclared`` — each a msgspec
Struct with an explicit wire tag (registered through the plug-in).

May import: ``msgspec``, ``ledger.events`` (Body), ``ledger.formats.hotc.model``.
"""

from __future__ import annotations

from enum import Enum

import msgspec

from ledger.events import Body
from ledger.formats.hotc.model import LossReason, Outcome, Phase

PAIRING_ALGORITHM = "hotc-pair/v1"


class HotcKind(str, Enum):
    ROUND_PAIRED = "round_paired"
    RESULT_RECORDED = "result_recorded"
    RESULT_CORRECTED = "result_corrected"
    PLAYER_DROPPED = "player_dropped"
    ROUND_CLOSED = "round_closed"
    CUT_MADE = "cut_made"
    BRACKET_SEEDED = "bracket_seeded"
    CHAMPION_DECLARED = "champion_declared"


class Table(msgspec.Struct, frozen=True, kw_only=True):
    """One match of a round (HOTC-PAIR-7): players, win groups, rematch and pair-down."""

    table: int
    players: list[int]
    groups: list[int]
    rematch: bool = False
    pair_down: int | None = None
    pair_up: int | None = None


class RoundPaired(Body, frozen=True, kw_only=True):
    KIND = HotcKind.ROUND_PAIRED
    round: int
    phase: Phase
    tables: list[Table]
    bye: int | None
    advances: list[int] = []
    draws: list[int] = []          # seqs of the draw_made events this pairing used
    algorithm: str = PAIRING_ALGORITHM


class ResultRecorded(Body, frozen=True, kw_only=True):
    KIND = HotcKind.RESULT_RECORDED
    round: int
    table: int
    winner: int | None
    losers: list[int]
    outcome: Outcome
    loss_reasons: list[LossReason]
    turn_player: int | None = None
    slow_play: list[int] = []      # players with an upheld slow-play call in this match
    note: str = ""


class ResultCorrected(Body, frozen=True, kw_only=True):
    KIND = HotcKind.RESULT_CORRECTED
    round: int
    table: int
    winner: int | None
    losers: list[int]
    outcome: Outcome
    loss_reasons: list[LossReason]
    corrects_seq: int
    reason: str
    turn_player: int | None = None
    slow_play: list[int] = []


class DropTiming(str, Enum):
    BEFORE_PAIRING = "before_pairing"
    AFTER_PAIRING = "after_pairing"
    AFTER_RESULT = "after_result"
    CUT_WINDOW = "cut_window"


class PlayerDropped(Body, frozen=True, kw_only=True):
    KIND = HotcKind.PLAYER_DROPPED
    number: int
    round: int
    timing: DropTiming
    reason: str = ""


class RoundClosed(Body, frozen=True, kw_only=True):
    """All results of a round are in; the stop rule's verdict (HOTC-STOP-1)."""

    KIND = HotcKind.ROUND_CLOSED
    round: int
    phase: Phase
    undefeated: int
    one_loss: int
    eliminated: list[int]
    swiss_over: bool


class CutMade(Body, frozen=True, kw_only=True):
    """Top-cut selection (HOTC-CUT-1..3, AMB-H6/H7/H9)."""

    KIND = HotcKind.CUT_MADE
    spots: int
    undefeated: list[int]
    pool: list[int]
    drawn: list[int]
    cut: list[int]
    eliminated: list[int]
    draw_seq: int | None


class BracketSeeded(Body, frozen=True, kw_only=True):
    """Random seeding onto slots 1..N (HOTC-TOP-1, AMB-H9/H10); null = empty slot."""

    KIND = HotcKind.BRACKET_SEEDED
    slots: list[int | None]
    draw_seq: int


class ChampionDeclared(Body, frozen=True, kw_only=True):
    KIND = HotcKind.CHAMPION_DECLARED
    number: int
    round: int


#: the wire kinds this format adds (registered by its plug-in)
BODIES: tuple[type[Body], ...] = (RoundPaired, ResultRecorded, ResultCorrected, PlayerDropped,
                                  RoundClosed, CutMade, BracketSeeded, ChampionDeclared)
