"""Event bodies of the HotC format beyond the shared match layer.

Owns: ``CutMade`` (the random-fill top-cut selection, HOTC-CUT-1..3), the HOTC_2013_R2
kinds ``NoChampionRuled`` (a cut of zero, AMB-H9), ``SlowPlayCalled`` and ``SlowPlayRuled``
(HOTC-SLOW-1/2; HotC's own names, apart from the officiating rulings), and ``BODIES``, every
kind a ``hotc-swiss-de`` ledger may hold (the match layer's and its own).

May import: ``msgspec``, ``ledger.wire.events`` (Body), ``ledger.formats.match.events``.
"""

from __future__ import annotations

from enum import Enum

from ledger.formats.match.events import MATCH_BODIES
from ledger.wire.events import Body


class HotcKind(str, Enum):
    CUT_MADE = "cut_made"
    NO_CHAMPION_RULED = "no_champion_ruled"
    SLOW_PLAY_CALLED = "slow_play_called"
    SLOW_PLAY_RULED = "slow_play_ruled"


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


class NoChampionRuled(Body, frozen=True, kw_only=True):
    """HOTC_2013_R2 (AMB-H9, HOTC-TOP-3): the top cut has no player, so the event ends with
    no champion — the head judge's signed ruling, with the reason, citing the cut."""

    KIND = HotcKind.NO_CHAMPION_RULED
    cut_seq: int
    reason: str


class SlowPlayCalled(Body, frozen=True, kw_only=True):
    """HOTC-SLOW-1 (R2): during the match, ``caller`` calls slow play on ``called``."""

    KIND = HotcKind.SLOW_PLAY_CALLED
    round: int
    table: int
    caller: int
    called: int


class SlowPlayRuled(Body, frozen=True, kw_only=True):
    """HOTC-SLOW-2 (R2): the judge who watched the match upholds the call (the called
    player is under the slow-play timeout-loss condition) or does not (the match goes on
    with ``minutes_added`` so that earlier slow play has no effect)."""

    KIND = HotcKind.SLOW_PLAY_RULED
    call_seq: int
    upheld: bool
    minutes_added: int = 0


BODIES: tuple[type[Body], ...] = (*MATCH_BODIES, CutMade, NoChampionRuled, SlowPlayCalled,
                                  SlowPlayRuled)
