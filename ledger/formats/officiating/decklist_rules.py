"""Rules of decklists after registration (issue 30 item 4, BR-DECK-1): a correction under
002 PG §3.1.1.2–3.1.1.4 is a new event citing the list it replaces and the penalty, and a
list is published only as the text its registration hashed.

``tourney audit`` replays these checks, so a published list whose text does not hash to the
registration is flagged (``deck_list_mismatch``) as well as refused at the command.

May import: ``ledger.core.*``, ``ledger.errors``, ``ledger.wire.events``,
``ledger.formats.match.*``, ``ledger.formats.officiating.*``.
"""

from __future__ import annotations

import hashlib

from ledger.core.state import TournamentState
from ledger.errors import RuleError
from ledger.formats.officiating.book_table import OFFICIATING_BOOK as BOOK
from ledger.formats.officiating.deck_floor import DeckCheckKind, DeckCorrected, DeckPublished
from ledger.formats.officiating.rules import refusing_match_state
from ledger.wire.events import Role, SignedEvent

RULE = "BR-DECK-1"
#: the infractions a registration is fixed under (002 PG §3.1.1.2–3.1.1.4)
FIX_SECTIONS = frozenset({"3.1.1.2", "3.1.1.3", "3.1.1.4"})
BOOK.permit(DeckCheckKind.DECK_CORRECTED.value, frozenset({Role.JUDGE, Role.HEAD_JUDGE}))
BOOK.permit(DeckCheckKind.DECK_PUBLISHED.value, frozenset({Role.HEAD_JUDGE}))


def list_hash(text: str) -> str:
    """SHA-256 of the list's UTF-8 bytes, hex (the hash ``deck register`` records)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _is_hash(h: str) -> bool:
    return len(h) == 64 and all(c in "0123456789abcdef" for c in h)


@BOOK.checks(DeckCorrected)
def _corrected(state: TournamentState, body: DeckCorrected, actor: str) -> None:
    o = refusing_match_state(state).officiating
    current = o.deck_seqs.get(body.number)
    if current is None:
        raise RuleError(RULE, f"player {body.number} has no registered deck",
                        hint="register it first (tourney deck register)")
    if body.replaces_seq != current:
        raise RuleError(RULE, f"player {body.number}'s current list is seq {current}, not "
                        f"seq {body.replaces_seq}", hint=f"cite --replaces {current}")
    if body.number in o.decks_published:
        raise RuleError(RULE, f"player {body.number}'s list is already published")
    pen = next((p for p in o.penalties if p.seq == body.penalty_seq), None)
    if pen is None or pen.number != body.number or pen.section not in FIX_SECTIONS:
        raise RuleError(RULE, f"seq {body.penalty_seq} is not a penalty to player "
                        f"{body.number} under 3.1.1.2–3.1.1.4",
                        hint="issue it first (tourney penalty issue … --section 3.1.1.3)")
    if not _is_hash(body.sha256):
        raise RuleError(RULE, "sha256 is not 64 lowercase hex digits")
    if body.list is not None and list_hash(body.list) != body.sha256:
        raise RuleError(RULE, "the list does not hash to sha256", finding="deck_list_mismatch")
    if body.sha256 == o.decks[body.number]:
        raise RuleError(RULE, "the corrected list is the registered one",
                        hint="a correction changes the list")


@BOOK.applies(DeckCorrected)
def _corrected_apply(state: TournamentState, ev: SignedEvent, body: DeckCorrected) -> None:
    o = state.fmt.officiating
    o.decks[body.number] = body.sha256
    o.deck_seqs[body.number] = ev.seq


@BOOK.checks(DeckPublished)
def _published(state: TournamentState, body: DeckPublished, actor: str) -> None:
    o = refusing_match_state(state).officiating
    want = o.decks.get(body.number)
    if want is None:
        raise RuleError(RULE, f"player {body.number} has no registered deck",
                        hint="only a registered list can be published")
    if body.number in o.decks_published:
        raise RuleError(RULE, f"player {body.number}'s list is already published at seq "
                        f"{o.decks_published[body.number]}")
    got = list_hash(body.list)
    if got != want:
        raise RuleError(RULE, f"player {body.number}'s list hashes to {got[:16]}…, the "
                        f"registration (seq {o.deck_seqs[body.number]}) to {want[:16]}…",
                        hint="publish the list exactly as registered (same bytes)",
                        finding="deck_list_mismatch")


@BOOK.applies(DeckPublished)
def _published_apply(state: TournamentState, ev: SignedEvent, body: DeckPublished) -> None:
    state.fmt.officiating.decks_published[body.number] = ev.seq
