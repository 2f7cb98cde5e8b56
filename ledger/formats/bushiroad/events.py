"""Event bodies the Bushiroad formats add to the shared match layer.

Owns: ``FinalistsDecided`` (the top-cut selection after the qualifying stage, BR-FIN-1..5;
fixed from then on, BR-FIN-3/4, AMB-B16) and ``StandingsFinalized`` (the end of an event
without a top cut: final order and winner), each with the tie-break draw it used, and
``BR_BODIES`` (every kind a Bushiroad ledger may hold).

May import: ``msgspec``, ``ledger.wire.events`` (Body), ``ledger.formats.match.events``.
"""

from __future__ import annotations

from enum import Enum

import msgspec

from ledger.formats.match.events import MATCH_BODIES
from ledger.wire.events import Body


class BrKind(str, Enum):
    FINALISTS_DECIDED = "finalists_decided"
    STANDINGS_FINALIZED = "standings_finalized"


class Step(msgspec.Struct, frozen=True, kw_only=True):
    """One step of a nation/clan or title selection (BR-FIN-6/7): its candidates in ranking
    order, whom it selected, and how (all, ranking, or a recorded draw)."""

    step: int
    full_win_users: int | None
    candidates: list[int]
    selected: list[int]
    chosen_by: str
    draw_seq: int | None = None


class FinalistsDecided(Body, frozen=True, kw_only=True):
    """BR-FIN-5/6/7: the finalists, seeds best first (ranking order)."""

    KIND = BrKind.FINALISTS_DECIDED
    method: str                    # finalist_method
    spots: int
    finalists: list[int]
    excluded: list[int]            # BR-FIN-2 exclusions skipped over
    eliminated: list[int]          # everyone else still active leaves the event
    tiebreak_draw_seq: int | None  # the DRAW-v1 order of tied groups (BR-SWISS-TB-7)
    steps: list[Step] | msgspec.UnsetType = msgspec.UNSET   # nation_clan / title only
    warnings: list[str] | msgspec.UnsetType = msgspec.UNSET  # e.g. AMB-B34


class StandingsFinalized(Body, frozen=True, kw_only=True):
    """The qualifying stage was the whole event: its final order and its winner."""

    KIND = BrKind.STANDINGS_FINALIZED
    order: list[int]
    champion: int | None
    tiebreak_draw_seq: int | None


BR_BODIES: tuple[type[Body], ...] = (*MATCH_BODIES, FinalistsDecided, StandingsFinalized)
