"""Wire kinds of deck checks on the floor (issue 30 item 3): a check's start and its end
with the outcome and the penalty it led to.  The tables to check are drawn by an ordinary
``draw_made`` under the context ``<log>/R<n>/deck-checks`` (docs/DESIGN.md §6,
``ledger.formats.officiating.deck_rules``).

Owns: ``DeckCheckKind``, ``DeckCheckOutcome``, ``DeckCheckStarted``, ``DeckCheckEnded``,
``DeckCorrected``, ``DeckPublished`` (issue 30 item 4), ``DECK_CHECK_BODIES``, ``deck_ctx``
(the draw context of a round's deck checks).

May import: ``ledger.wire.events`` (Body).
"""

from __future__ import annotations

from enum import Enum

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


DECK_CHECK_BODIES: tuple[type[Body], ...] = (DeckCheckStarted, DeckCheckEnded, DeckCorrected,
                                             DeckPublished)
