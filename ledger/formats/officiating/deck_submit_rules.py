"""Rules of a player's own decklist (issue 30 item 4; ADR 0056): the organizer's
deadline (``deck_deadline_set``) and a list handed in from the player's card
(``deck_submitted``), one implementation for the command side and the audit.

- DECK-LIST-1: a player submits their own list only while the organizer's deadline is
  set and not past: the submission's own event time (the log's clock, never the wall
  clock; ``ledger.core.event_time``) is before it (``deck_after_deadline``).  The deadline
  is an RFC 3339 UTC time; a later ``deck_deadline_set`` replaces it.
- BR-DECK-1: a list is registered once, by the desk (``deck_registered``) or by the player
  (``deck_submitted``); a second is refused (``deck_immutable``), a fix is a
  ``deck_corrected``.  The player's credential is checked as for every own act
  (REPORT-15, ``ledger.core.rules``).

Owns: ``deadline_refusal`` (why a player may not submit now, or None: the page asks it
before it offers the form), the checks and transitions of the two kinds.

May import: ``ledger.core.*``, ``ledger.errors``, ``ledger.wire.*``,
``ledger.formats.match.*``, ``ledger.formats.officiating.*``.
"""

from __future__ import annotations

from ledger.core.event_time import event_time
from ledger.core.state import TournamentState
from ledger.errors import RuleError
from ledger.formats.match.model import has_left
from ledger.formats.match.officiating_model import OfficiatingState
from ledger.formats.officiating.book_table import OFFICIATING_BOOK as BOOK
from ledger.formats.officiating.deck_floor import DeckCheckKind, DeckDeadlineSet, DeckSubmitted
from ledger.formats.officiating.rules import refusing_match_state
from ledger.wire.clock import parse_time
from ledger.wire.events import Role, SignedEvent

RULE = "DECK-LIST-1"
BOOK.permit(DeckCheckKind.DECK_DEADLINE_SET.value, frozenset({Role.ORGANIZER,
                                                             Role.HEAD_JUDGE}))
#: no official signs a player's list: a station signs it as the player's own act
#: (REPORT-15; ``ledger.core.signing.signing_table`` adds that row from the body's shape)
BOOK.permit(DeckCheckKind.DECK_SUBMITTED.value, frozenset())


def _is_hash(h: str) -> bool:
    return len(h) == 64 and all(c in "0123456789abcdef" for c in h)


def deadline_refusal(o: OfficiatingState, time: str) -> str | None:
    """Why a list submitted at ``time`` (the log's clock) is refused, or None."""
    if o.deck_deadline is None:
        return "the organizer takes no decklists from players' cards in this event"
    if parse_time(time) >= parse_time(o.deck_deadline):
        return f"the decklist deadline ({o.deck_deadline}) has passed"
    return None


@BOOK.checks(DeckDeadlineSet)
def _deadline(state: TournamentState, body: DeckDeadlineSet, actor: str) -> None:
    refusing_match_state(state)
    try:
        parse_time(body.at)
    except ValueError:
        raise RuleError(RULE, f"the deadline {body.at!r} is not an RFC 3339 UTC time",
                        hint="e.g. --at 2026-06-01T09:30:00Z") from None


@BOOK.applies(DeckDeadlineSet)
def _deadline_apply(state: TournamentState, ev: SignedEvent, body: DeckDeadlineSet) -> None:
    state.fmt.officiating.deck_deadline = body.at


@BOOK.checks(DeckSubmitted)
def _submitted(state: TournamentState, body: DeckSubmitted, actor: str) -> None:
    h = refusing_match_state(state)
    o = h.officiating
    if body.number not in state.players or has_left(h, body.number):
        raise RuleError(RULE, f"player {body.number} is not playing in this event",
                        hint="ask at the desk")
    if body.number in o.decks:
        raise RuleError("BR-DECK-1", f"player {body.number}'s list is already registered "
                        f"(seq {o.deck_seqs.get(body.number)}): a registered list does "
                        "not change", hint="a judge fixes it with a correction",
                        finding="deck_immutable")
    if not _is_hash(body.sha256):
        raise RuleError("BR-DECK-1", "sha256 is not 64 lowercase hex digits")
    time = event_time()
    if time is None:
        raise RuleError(RULE, "the submission's time is unknown", finding="deck_after_deadline")
    why = deadline_refusal(o, time)
    if why is not None:
        raise RuleError(RULE, why, hint="hand your list in at the desk",
                        finding="deck_after_deadline")


@BOOK.applies(DeckSubmitted)
def _submitted_apply(state: TournamentState, ev: SignedEvent, body: DeckSubmitted) -> None:
    o = state.fmt.officiating
    o.decks[body.number] = body.sha256
    o.deck_seqs[body.number] = ev.seq
