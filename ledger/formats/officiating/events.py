"""Wire kinds of the officiating layer: ``penalty_issued`` and ``player_disqualified``.

Owns: ``OfficiatingKind``, ``PenaltyIssued`` (BR-PEN-RANK-1..8, AMB-B20..B22) and
``PlayerDisqualified`` (BR-PEN-RANK-9, AMB-B24, LEDGER-RES-3), and ``OFFICIATING_BODIES``
(registered by every plug-in that merges the officiating book).

May import: ``msgspec``, ``ledger.events`` (Body), ``ledger.formats.officiating.*``.
"""

from __future__ import annotations

from enum import Enum

from ledger.events import Body
from ledger.formats.officiating.catalogue import Penalty
from ledger.formats.officiating.model import AppliesTo, PrizePolicy


class OfficiatingKind(str, Enum):
    PENALTY_ISSUED = "penalty_issued"
    PLAYER_DISQUALIFIED = "player_disqualified"


class PenaltyIssued(Body, frozen=True, kw_only=True):
    """A penalty to one player, as the judge chose it (AMB-B21/B22).

    ``prior`` lists the seqs of this player's earlier penalties in the same upgrade group
    (BR-PEN-RANK-6); ``upgrade`` says the judge raised the penalty above the default because
    of them.  ``report_to`` is the head judge a LoG / LoM is reported to (PG §2)."""

    KIND = OfficiatingKind.PENALTY_ISSUED
    number: int
    infraction: str                 # PG number, e.g. "3.5.3.2"
    penalty: Penalty
    level: int                      # the tournament level the default was read at
    round: int                      # the round in progress or last paired (0 = none)
    applies_to: AppliesTo = AppliesTo.NONE
    prior: list[int] = []
    upgrade: bool = False
    description: str = ""
    justification: str = ""
    report_to: str | None = None


class PlayerDisqualified(Body, frozen=True, kw_only=True):
    """BR-PEN-RANK-9: removed at once; a match in progress is lost; earlier results stand
    in every opponent's record; standing and prizes revoked (void or passed down)."""

    KIND = OfficiatingKind.PLAYER_DISQUALIFIED
    number: int
    round: int
    infraction: str
    reason: str
    standing_revoked: bool
    prize_policy: PrizePolicy
    after_event: bool = False


OFFICIATING_BODIES: tuple[type[Body], ...] = (PenaltyIssued, PlayerDisqualified)
