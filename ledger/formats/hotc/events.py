"""Event bodies of the HotC format beyond the shared match layer.

Owns: ``CutMade`` (the random-fill top-cut selection, HOTC-CUT-1..3) and ``BODIES``, every
kind a ``hotc-swiss-de`` ledger may hold (the match layer's and its own).

May import: ``msgspec``, ``ledger.events`` (Body), ``ledger.formats.match.events``.
"""

from __future__ import annotations

from enum import Enum

from ledger.events import Body
from ledger.formats.match.events import MATCH_BODIES


class HotcKind(str, Enum):
    CUT_MADE = "cut_made"


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


BODIES: tuple[type[Body], ...] = (*MATCH_BODIES, CutMade)
