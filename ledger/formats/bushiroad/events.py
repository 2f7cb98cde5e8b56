"""Event bodies the Bushiroad formats add to the shared match layer.

Owns: ``FinalistsDecided`` (the top-cut selection after the qualifying stage, BR-FIN-1..5;
fixed from then on, BR-FIN-3/4, AMB-B16) and ``StandingsFinalized`` (the end of an event
without a top cut: final order and winner), each with the tie-break draw it used, and
``BR_BODIES`` (every kind a Bushiroad ledger may hold).

May import: ``msgspec``, ``ledger.events`` (Body), ``ledger.formats.match.events``.
"""

from __future__ import annotations

from enum import Enum

from ledger.events import Body
from ledger.formats.match.events import MATCH_BODIES


class BrKind(str, Enum):
    FINALISTS_DECIDED = "finalists_decided"
    STANDINGS_FINALIZED = "standings_finalized"


class FinalistsDecided(Body, frozen=True, kw_only=True):
    """BR-FIN-5: the finalists in ranking order (the bracket's seeds, best first)."""

    KIND = BrKind.FINALISTS_DECIDED
    method: str                    # finalist_method (ranking)
    spots: int
    finalists: list[int]
    excluded: list[int]            # BR-FIN-2 exclusions skipped over
    eliminated: list[int]          # everyone else still active leaves the event
    tiebreak_draw_seq: int | None  # the DRAW-v1 order of tied groups (BR-SWISS-TB-7)


class StandingsFinalized(Body, frozen=True, kw_only=True):
    """The qualifying stage was the whole event: its final order and its winner."""

    KIND = BrKind.STANDINGS_FINALIZED
    order: list[int]
    champion: int | None
    tiebreak_draw_seq: int | None


BR_BODIES: tuple[type[Body], ...] = (*MATCH_BODIES, FinalistsDecided, StandingsFinalized)
