"""Wire kinds of the floor (issue 9 §4–§6, §8): rulings, appeals and challenges, the
round clock and extensions, the 001 end-of-match decision, deck registration and checks.

Owns: ``FloorKind`` and one body per kind; ``FLOOR_BODIES``.

May import: ``msgspec``, ``ledger.wire.events`` (Body), ``ledger.formats.match.model``.
"""

from __future__ import annotations

from enum import Enum

import msgspec

from ledger.formats.match.model import DecidedBy
from ledger.wire.events import Body


class FloorKind(str, Enum):
    RULING_MADE = "ruling_made"
    CHALLENGE_RAISED = "challenge_raised"
    CHALLENGE_DECIDED = "challenge_decided"
    ROUND_STARTED = "round_started"
    ROUND_TIME_CALLED = "round_time_called"
    TIME_EXTENDED = "time_extended"
    EOM_DECIDED = "eom_decided"
    DECK_REGISTERED = "deck_registered"
    DECK_CHECKED = "deck_checked"


class RulingMade(Body, frozen=True, kw_only=True):
    """A judge's ruling at a table (BR-APPEAL-1/2); its seq is what an appeal cites."""

    KIND = FloorKind.RULING_MADE
    round: int
    table: int
    question: str
    ruling: str
    minutes: int = 0          # how long the ruling took (over 1 → an extension may follow)


class ChallengeRaised(Body, frozen=True, kw_only=True):
    """Players appeal a floor ruling to the head judge (BR-APPEAL-2/3).  ``refused`` lists
    the players who had no challenge left: their request is recorded and refused, and the
    ruling stands for them (AMB-B26)."""

    KIND = FloorKind.CHALLENGE_RAISED
    ruling_seq: int
    players: list[int]
    refused: list[int] = []


class ChallengeDecided(Body, frozen=True, kw_only=True):
    """The head judge's final ruling (LEDGER-RES-3); ``decrement`` lists the challengers
    whose count drops (only when the ruling is the same as the first, BR-APPEAL-3)."""

    KIND = FloorKind.CHALLENGE_DECIDED
    challenge_seq: int
    ruling: str
    same_as_first: bool
    decrement: list[int]


class RoundStarted(Body, frozen=True, kw_only=True):
    """The authoritative start of a round (BR-TIME-5): the event's time is the clock."""

    KIND = FloorKind.ROUND_STARTED
    round: int
    minutes: int              # the round time announced (BR-TIME-1/2)


class RoundTimeCalled(Body, frozen=True, kw_only=True):
    KIND = FloorKind.ROUND_TIME_CALLED
    round: int
    extra_turns: int          # as configured (BR-XTURN-1)


class TimeExtended(Body, frozen=True, kw_only=True):
    """Extra time or turns for one match (BR-EXT-1, EOM-EXT-1, AMB-B27, AMB-E6)."""

    KIND = FloorKind.TIME_EXTENDED
    round: int
    table: int
    minutes: int
    turns: int = 0
    reason: str
    ruling_seq: int | None = None
    #: issue 30: the judge call whose ruling took the time, and the minutes the record
    #: proposed for it (``call_extension.propose``; the audit recomputes them); absent
    #: (every extension before issue 30) they are not on the wire
    call: int | msgspec.UnsetType = msgspec.UNSET
    proposed: int | msgspec.UnsetType = msgspec.UNSET
    #: issue 30 (``clock``): the deck check (seq of its ``deck_check_started``) whose time
    #: the match gets back as preparation time (BR-EXT-3; ``proposed`` then holds the
    #: minutes the check's start → end gives), and the turns proposed where the format's
    #: end of match counts turns (BR-XTURN-1); UNSET, not on the wire, when absent
    deck_check: int | msgspec.UnsetType = msgspec.UNSET
    proposed_turns: int | msgspec.UnsetType = msgspec.UNSET


class EomDecided(Body, frozen=True, kw_only=True):
    """The 001 end-of-match procedure at a table (TC-25): the game wins when overtime
    ended, the step that decided and the values it compared (a then b)."""

    KIND = FloorKind.EOM_DECIDED
    round: int
    table: int
    games: list[int]          # game wins of players[0], players[1] at the end of overtime
    decided_by: DecidedBy
    compared: list[list[int]]
    winner: int | None
    boards: list[list[int]] = []   # Steps 2–4: [life, damage, influence, main deck, final]


class DeckRegistered(Body, frozen=True, kw_only=True):
    """BR-DECK-1: the list is immutable once received; its hash always, the list if kept."""

    KIND = FloorKind.DECK_REGISTERED
    number: int
    sha256: str
    list: str | None = None


class DeckChecked(Body, frozen=True, kw_only=True):
    """BR-DECK-3: a deck check and what it found (a mismatch is penalised separately)."""

    KIND = FloorKind.DECK_CHECKED
    number: int
    matches: bool
    note: str = ""
    minutes: int = 0          # BR-EXT-3: the match may get this much preparation time


FLOOR_BODIES: tuple[type[Body], ...] = (
    RulingMade, ChallengeRaised, ChallengeDecided, RoundStarted, RoundTimeCalled,
    TimeExtended, EomDecided, DeckRegistered, DeckChecked)
