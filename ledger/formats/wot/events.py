"""Event bodies the Wheel of Time formats add to the shared match layer (docs/DESIGN.md §11).

Owns: ``TbpOverridden`` (the Judge's TBP adjustment after a concession or forfeit,
WOTOLD-FORF-2 / WOT01-FORF-2), ``ForfeitureDeclared`` (the Judge's Declaration of
Forfeiture, WOTOLD-FORF-1/3, AMB-W10/W18) and ``WOT_BODIES`` (every kind a WoT ledger may
hold).  Pairings and results use the match layer's ``round_paired`` / ``result_recorded`` /
``result_corrected`` with their WoT fields.

May import: ``ledger.wire.events`` (Body), ``ledger.formats.match.events``.
"""

from __future__ import annotations

from enum import Enum

from ledger.formats.match.events import ResultCorrected, ResultRecorded, RoundPaired
from ledger.wire.events import Body


class WotKind(str, Enum):
    TBP_OVERRIDDEN = "tbp_overridden"
    FORFEITURE_DECLARED = "forfeiture_declared"


class TbpOverridden(Body, frozen=True, kw_only=True):
    """Replaces ``number``'s TBP for Game ``round`` (table ``table``): ``old`` is the value
    it replaces and ``new`` the Judge's, both exact TBP strings (``"-11/3"``, ``"4"``)."""

    KIND = WotKind.TBP_OVERRIDDEN
    round: int
    table: int
    number: int
    old: str
    new: str
    method: str
    reason: str


class ForfeitureDeclared(Body, frozen=True, kw_only=True):
    """``number`` is removed from the tournament and loses every point (WOTOLD-FORF-1);
    ``round`` is the Game in progress or last paired (0 before Game 1)."""

    KIND = WotKind.FORFEITURE_DECLARED
    number: int
    round: int
    reason: str


WOT_BODIES: tuple[type[Body], ...] = (RoundPaired, ResultRecorded, ResultCorrected,
                                      TbpOverridden, ForfeitureDeclared)
