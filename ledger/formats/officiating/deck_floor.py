"""Wire kinds of deck checks on the floor (issue 30 item 3): a check's start and its end
with the outcome and the penalty it led to.  The tables to check are drawn by an ordinary
``draw_made`` under the context ``<log>/R<n>/deck-checks`` (docs/DESIGN.md §6,
``ledger.formats.officiating.deck_rules``).

Owns: ``DeckCheckKind``, ``DeckCheckOutcome``, ``DeckCheckStarted``, ``DeckCheckEnded``,
``DeckCorrected``, ``DeckPublished``, ``DeckDeadlineSet``, ``DeckSubmitted`` (issue 30 item
4: the organizer's deadline and a player's own list from their card), ``DECK_CHECK_BODIES``,
``deck_ctx``
(the draw context of a round's deck checks).

May import: ``ledger.wire.events`` (Body), ``msgspec``.
"""

from __future__ import annotations

from enum import Enum

import msgspec

from ledger.wire.events import Body

#: the last segment of a deck-check draw's context: ``<log>/R<n>/deck-checks``
DECK_CHECKS = "deck-checks"


def deck_ctx(log: str, round_no: int) -> str:
    return f"{log}/R{round_no}/{DECK_CHECKS}"


class DeckCheckKind(str, Enum):
    DECK_CHECK_STARTED = "deck_check_started"
    DECK_CHECK_ENDED = "deck_check_ended"
    DECK_CORRECTED = "deck_corrected"
    DECK_PUBLISHED = "deck_published"
    DECK_DEADLINE_SET = "deck_deadline_set"
    DECK_SUBMITTED = "deck_submitted"


class DeckCheckOutcome(str, Enum):
    """What a deck check found (002 PG §3.1.1.x: a mismatch is penalised by its own event,
    which the end cites)."""

    MATCHES = "matches"          # both decks match their registrations
    MISMATCH = "mismatch"        # a deck differs from its registered list
    ILLEGAL = "illegal"          # a deck breaks the construction rules


class DeckCheckStarted(Body, frozen=True, kw_only=True, omit_defaults=True):
    """A judge takes the decks of one table of the round in progress (BR-DECK-3); the
    event's time is the check's start.  ``draw_seq`` cites the deck-check draw that chose
    the table (none: a check the judge chose, e.g. on suspicion)."""

    KIND = DeckCheckKind.DECK_CHECK_STARTED
    round: int
    table: int
    draw_seq: int | None = None


class DeckCheckEnded(Body, frozen=True, kw_only=True, omit_defaults=True):
    """The decks go back; the event's time is the check's end (the interval start → end is
    the table's extra preparation time, BR-EXT-3).  ``penalty_seq`` cites the penalty it
    led to (a ``penalty_issued`` to a player of that table, after the start)."""

    KIND = DeckCheckKind.DECK_CHECK_ENDED
    start_seq: int
    outcome: DeckCheckOutcome
    penalty_seq: int | None = None
    note: str = ""


class DeckCorrected(Body, frozen=True, kw_only=True, omit_defaults=True):
    """A registered list fixed under 002 PG §3.1.1.2–3.1.1.4 (BR-DECK-1: the registration
    itself never changes): cites the registration or correction it replaces and the penalty
    given for it.  Like a registration, the list itself is optional (its hash always)."""

    KIND = DeckCheckKind.DECK_CORRECTED
    number: int
    replaces_seq: int
    penalty_seq: int
    sha256: str
    list: str | None = None


class DeckPublished(Body, frozen=True, kw_only=True):
    """The organizer publishes a player's list (e.g. the top cut after the event): the text
    must hash to the player's current registration, so anyone can check it."""

    KIND = DeckCheckKind.DECK_PUBLISHED
    number: int
    list: str


class DeckDeadlineSet(Body, frozen=True, kw_only=True):
    """The organizer's deadline for players' own decklists (DECK-LIST-1): a submission is
    recorded only when its event's time (the log's clock) is before ``at`` (RFC 3339 UTC).
    A later one replaces it; none on the log: players do not submit their own lists."""

    KIND = DeckCheckKind.DECK_DEADLINE_SET
    at: str


class DeckSubmitted(Body, frozen=True, kw_only=True):
    """Player ``number`` hands in their own list from their card (BR-DECK-1, DECK-LIST-1):
    the station signs it as the player's act with their ``credential`` (REPORT-15) and the
    phone's signature when one is bound (REPORT-19/20).  Only the list's hash is on the
    log; the text stays in the station's store (``usecases.deck_texts``) until published."""

    KIND = DeckCheckKind.DECK_SUBMITTED
    number: int
    sha256: str
    credential: str | msgspec.UnsetType = msgspec.UNSET
    device_sig: str | msgspec.UnsetType = msgspec.UNSET
    device_use: int | msgspec.UnsetType = msgspec.UNSET


DECK_CHECK_BODIES: tuple[type[Body], ...] = (DeckCheckStarted, DeckCheckEnded, DeckCorrected,
                                             DeckPublished, DeckDeadlineSet, DeckSubmitted)
