"""Wire kinds of the officiating layer: penalties, disqualification and corrections.

Owns: ``OfficiatingKind``, ``CorrectionKind``, ``PenaltyIssued`` (BR-PEN-RANK-1..8,
AMB-B20..B22), ``PlayerDisqualified`` (BR-PEN-RANK-9, AMB-B24, LEDGER-RES-3),
``ScoreSheetReissued`` (BR-PEN-3.18.3), the
corrections ``ResultAmended``, ``PairingOverridden``, ``PlayerUndropped``,
``PlayerAddedLate``, ``LevelAmended``, ``PairingVoided`` (ADR 0012);
``OFFICIATING_BODIES`` (registered by every plug-in that merges the
officiating book).

May import: ``msgspec``, ``ledger.wire.events`` (Body), ``ledger.formats.match.events`` /
``.model``, ``ledger.formats.officiating.*``.
"""

from __future__ import annotations

from enum import Enum

import msgspec

from ledger.formats.match.events import Table
from ledger.formats.match.model import LossReason, Outcome
from ledger.formats.match.officiating_model import AppliesTo, PrizePolicy
from ledger.formats.officiating.catalogue import Penalty
from ledger.formats.officiating.deck_floor import DECK_CHECK_BODIES
from ledger.formats.officiating.floor import FLOOR_BODIES
from ledger.wire.events import Body


class OfficiatingKind(str, Enum):
    PENALTY_ISSUED = "penalty_issued"
    PLAYER_DISQUALIFIED = "player_disqualified"
    SCORE_SHEET_REISSUED = "score_sheet_reissued"


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
    #: BR-PEN-3.18.3: the ``score_sheet_reissued`` this penalty for a lost sheet follows
    #: (its default becomes W ~ LoM), and the Warning the judge chose when it was raised to
    #: LoM automatically (penalties recorded on score sheets, AMB-B21)
    reissued_seq: int | msgspec.UnsetType = msgspec.UNSET
    raised_from: Penalty | msgspec.UnsetType = msgspec.UNSET
    #: a team event (issue 20): ``True`` when ``number`` — the team's representative,
    #: whose number also names the team — is penalised as a member, not the team
    #: (BR-TEAM-6; ADR 0026); absent otherwise (another member's number names the member)
    member: bool | msgspec.UnsetType = msgspec.UNSET


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
    #: a team event (issue 20): ``True`` when the representative is disqualified as a
    #: member (the team drops, BR-DROP-4), not the team; absent otherwise (ADR 0026)
    member: bool | msgspec.UnsetType = msgspec.UNSET


class ScoreSheetReissued(Body, frozen=True, kw_only=True):
    """PG §3.18.3: the organizer or head judge re-issues a lost score sheet whose scores
    can be recovered; the fighter's 3.18.3 penalty is then W ~ LoM instead of DQ."""

    KIND = OfficiatingKind.SCORE_SHEET_REISSUED
    number: int
    round: int
    reason: str


OFFICIATING_BODIES: tuple[type[Body], ...] = (PenaltyIssued, PlayerDisqualified,
                                              ScoreSheetReissued)


# -- corrections real events need (issue 9 §7): each cites what it changes ----------------
class CorrectionKind(str, Enum):
    RESULT_AMENDED = "result_amended"
    PAIRING_OVERRIDDEN = "pairing_overridden"
    PLAYER_UNDROPPED = "player_undropped"
    PLAYER_ADDED_LATE = "player_added_late"
    LEVEL_AMENDED = "level_amended"
    PAIRING_VOIDED = "pairing_voided"


class ResultAmended(Body, frozen=True, kw_only=True):
    """The head judge changes the result of an earlier qualifying round (after the next
    round was paired: BR-PEN-3.10.2-AMEND-3, TC-12(d)); pairings made since stand."""

    KIND = CorrectionKind.RESULT_AMENDED
    round: int
    table: int
    corrects_seq: int
    winner: int | None
    losers: list[int]
    outcome: Outcome
    loss_reasons: list[LossReason]
    reason: str
    games: list[int] | msgspec.UnsetType = msgspec.UNSET


class PairingOverridden(Body, frozen=True, kw_only=True):
    """The head judge's own pairing of the open round, replacing the engine's
    ``round_paired`` (``paired_seq``, which stays on the log beside it) before any result."""

    KIND = CorrectionKind.PAIRING_OVERRIDDEN
    round: int
    paired_seq: int
    tables: list[Table]
    bye: int | None
    reason: str


class PlayerUndropped(Body, frozen=True, kw_only=True):
    """A drop recorded by mistake is undone before the next pairing (head judge).
    ``forfeit_seq`` (a drop after the pairing, BR-DROP-2) cites the drop's forfeit result
    of the open round, taken back with the drop: the match is played and recorded as
    usual.  Unset, a forfeit loss stands (ADR 0018; the field is absent from the wire)."""

    KIND = CorrectionKind.PLAYER_UNDROPPED
    number: int
    round: int
    reason: str
    forfeit_seq: int | msgspec.UnsetType = msgspec.UNSET


class PlayerAddedLate(Body, frozen=True, kw_only=True):
    """A player registered after round 1 (head judge), entering with the byes and losses
    the organizer announced for the rounds already played."""

    KIND = CorrectionKind.PLAYER_ADDED_LATE
    number: int
    name: str
    rounds: int          # qualifying rounds already paired
    byes: int
    losses: int
    reason: str


class LevelAmended(Body, frozen=True, kw_only=True):
    """BR-LEVEL-2: the organizer changes the tournament level; penalties already given keep
    the level they were given at (each records it)."""

    KIND = CorrectionKind.LEVEL_AMENDED
    level: int
    reason: str


class PairingVoided(Body, frozen=True, kw_only=True):
    """The head judge voids the open round's pairing (``paired_seq``, which stays on the
    log) before any result is entered (issue 9 §7); the round is then paired again, its
    draws under the next attempt's contexts ``<log>/R<n>/v<k>/…`` (ADR 0012)."""

    KIND = CorrectionKind.PAIRING_VOIDED
    round: int
    paired_seq: int
    reason: str


#: the head judge's bodies that pair the open round again and that take its pairing back: a
#: match format adds them to ``MatchFormat.pairing_bodies`` / ``unpairing_bodies``
REPAIRING_BODIES = (PairingOverridden,)
UNPAIRING_BODIES = (PairingVoided,)

CORRECTION_BODIES: tuple[type[Body], ...] = (ResultAmended, PairingOverridden,
                                             PlayerUndropped, PlayerAddedLate, LevelAmended,
                                             PairingVoided)
OFFICIATING_BODIES = (OFFICIATING_BODIES + CORRECTION_BODIES + FLOOR_BODIES
                      + DECK_CHECK_BODIES)
