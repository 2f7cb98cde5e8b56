"""Event bodies of the shared match layer (wire kinds, docs/DESIGN.md §8 and §11 contracts).

Owns: ``RoundPaired``, ``ResultRecorded``, ``ResultCorrected``, ``PlayerDropped``,
``RoundClosed``, ``BracketSeeded``, ``ChampionDeclared`` — each a msgspec Struct with an
explicit wire tag, one body type per kind for every format (registered by the plug-ins
that use them).  Fields added after the HotC format shipped default to ``UNSET`` and are
then absent from the bytes, so every ``hotc-swiss-de`` leaf keeps its exact bytes while
newer formats record ``games`` and ``decided_by`` (docs/DESIGN.md §11).

May import: ``msgspec``, ``ledger.wire.events`` (Body), ``ledger.formats.match.model``.
"""

from __future__ import annotations

from enum import Enum
from typing import Literal

import msgspec

from ledger.formats.match.model import DecidedBy, LossReason, Outcome, Phase
from ledger.wire.events import Body

PAIRING_ALGORITHM = "hotc-pair/v1"
#: a Wheel of Time deck (docs/DESIGN.md §11 ``sides`` values)
WotSide = Literal["hero", "villain"]


class MatchKind(str, Enum):
    ROUND_PAIRED = "round_paired"
    RESULT_RECORDED = "result_recorded"
    RESULT_CORRECTED = "result_corrected"
    PLAYER_DROPPED = "player_dropped"
    ROUND_CLOSED = "round_closed"
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
    KIND = MatchKind.ROUND_PAIRED
    round: int
    phase: Phase
    tables: list[Table]
    bye: int | None
    advances: list[int] = []
    draws: list[int] = []          # seqs of the draw_made events this pairing used
    algorithm: str = PAIRING_ALGORITHM
    # Wheel of Time (docs/DESIGN.md §11): every seated player's deck, the side the bye is
    # deemed to have played (null: no bye), the deck repeats AMB-W7(c)/W10 allow, and how
    # the pairing was reached (AMB-W8: ranked, no_rematch, no_same_deck, best or exact)
    sides: dict[str, WotSide] | msgspec.UnsetType = msgspec.UNSET
    bye_side: WotSide | None | msgspec.UnsetType = msgspec.UNSET
    deck_repeats: list[int] | msgspec.UnsetType = msgspec.UNSET
    method: str | msgspec.UnsetType = msgspec.UNSET


class AnnexA(msgspec.Struct, frozen=True, kw_only=True):
    """The Annex A record of a game decided at time-up (BR-ANNEXA-0): the title, the values
    compared at each checkpoint — ``[[values of players[0]], [values of players[1]]]`` in the
    title's criterion order (VG damage; WS level, clock; BF life) — and who lost."""

    game: str
    checkpoints: list[list[list[int]]]
    loser: int


class MatchResult(Body, frozen=True, kw_only=True):
    """The fields a result and its correction share (one table's decided result)."""

    round: int
    table: int
    winner: int | None
    losers: list[int]
    outcome: Outcome
    loss_reasons: list[LossReason]
    turn_player: int | None = None
    slow_play: list[int] = []      # players with an upheld slow-play call in this match
    games: list[int] | msgspec.UnsetType = msgspec.UNSET   # [wins a, wins b, drawn games]
    decided_by: DecidedBy | msgspec.UnsetType = msgspec.UNSET
    annex_a: AnnexA | msgspec.UnsetType = msgspec.UNSET
    # Wheel of Time (docs/DESIGN.md §11): the sides (equal to the pairing's), support/opposition
    # (classic) or Pattern + Neutral Pattern (2001) as the outcome needs, who conceded or
    # was declared forfeit, and whether the game ended in the Last Battle
    sides: dict[str, WotSide] | msgspec.UnsetType = msgspec.UNSET
    support: dict[str, int] | msgspec.UnsetType = msgspec.UNSET
    pattern: dict[str, int] | msgspec.UnsetType = msgspec.UNSET
    neutral: int | msgspec.UnsetType = msgspec.UNSET
    conceded_by: int | msgspec.UnsetType = msgspec.UNSET
    last_battle: bool | msgspec.UnsetType = msgspec.UNSET
    #: HotC R2: the seq of the upheld slow_play_called a slow-play timeout cites
    slow_play_call: int | msgspec.UnsetType = msgspec.UNSET
    #: ``penalty_results=cited`` (issue 17): the seq of the Loss of Match
    #: (``penalty_issued``) or disqualification (``player_disqualified``) a loss by
    #: penalty (outcome ``penalty``) is
    penalty_seq: int | msgspec.UnsetType = msgspec.UNSET


class ResultRecorded(MatchResult, frozen=True, kw_only=True):
    KIND = MatchKind.RESULT_RECORDED
    note: str = ""
    #: issue 19 (ADR 0027): the seqs of the players' ``result_reported`` this result
    #: settles (REPORT-10/11); on the wire only when given
    reports: list[int] | msgspec.UnsetType = msgspec.UNSET


class ResultCorrected(MatchResult, frozen=True, kw_only=True):
    KIND = MatchKind.RESULT_CORRECTED
    corrects_seq: int
    reason: str


class DropTiming(str, Enum):
    BEFORE_PAIRING = "before_pairing"
    AFTER_PAIRING = "after_pairing"
    AFTER_RESULT = "after_result"
    CUT_WINDOW = "cut_window"


class PlayerDropped(Body, frozen=True, kw_only=True):
    """``credential``: the player dropped themselves from their page with this credential,
    signed by a station (REPORT-15, ADR 0027); absent (every desk drop) it is not on the
    wire.  ``device_sig`` / ``device_use``: the card's phone key signed the drop's
    statement, when one is bound to it (REPORT-19/20; set by ``acting_scope``)."""

    KIND = MatchKind.PLAYER_DROPPED
    number: int
    round: int
    timing: DropTiming
    reason: str = ""
    credential: str | msgspec.UnsetType = msgspec.UNSET
    device_sig: str | msgspec.UnsetType = msgspec.UNSET
    device_use: int | msgspec.UnsetType = msgspec.UNSET


class RoundClosed(Body, frozen=True, kw_only=True):
    """All results of a round are in; the stop rule's verdict (HOTC-STOP-1)."""

    KIND = MatchKind.ROUND_CLOSED
    round: int
    phase: Phase
    undefeated: int
    one_loss: int
    eliminated: list[int]
    swiss_over: bool


class BracketSeeded(Body, frozen=True, kw_only=True):
    """Random seeding onto slots 1..N (HOTC-TOP-1, AMB-H9/H10); null = empty slot."""

    KIND = MatchKind.BRACKET_SEEDED
    slots: list[int | None]
    draw_seq: int | None           # None when seeded by ranking (no draw)


class ChampionDeclared(Body, frozen=True, kw_only=True):
    KIND = MatchKind.CHAMPION_DECLARED
    number: int
    round: int


#: the wire kinds of the match layer (registered by each plug-in that plays matches)
MATCH_BODIES: tuple[type[Body], ...] = (RoundPaired, ResultRecorded, ResultCorrected,
                                        PlayerDropped, RoundClosed, BracketSeeded,
                                        ChampionDeclared)
