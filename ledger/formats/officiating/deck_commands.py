"""Commands of deck checks on the floor (issue 30 item 3): draw the tables of a round
verifiably, start a check, end it with its outcome and the penalty it led to.

Owns: ``draw_deck_checks``, ``start_deck_check``, ``end_deck_check``, ``check_minutes``,
and for decklists (issue 30 item 4) ``correct_deck`` and ``publish_deck``.

May import: ``ledger.core.aggregate`` (type hints), ``ledger.errors``, ``ledger.wire.*``,
``ledger.formats.officiating.*``.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ledger.errors import RuleError
from ledger.formats.officiating.deck_floor import (
    DeckCheckEnded,
    DeckCheckOutcome,
    DeckCheckStarted,
    DeckCorrected,
    DeckPublished,
    deck_ctx,
)
from ledger.formats.officiating.deck_rules import draw_reason, round_tables
from ledger.formats.officiating.decklist_rules import list_hash
from ledger.wire.clock import parse_time
from ledger.wire.events import SignedEvent
from ledger.wire.keys import Signer

if TYPE_CHECKING:
    from ledger.core.aggregate import Tournament


def draw_deck_checks(t: Tournament, signer: Signer, time: str, *, round_no: int, count: int,
                     seed_seq: int | None = None) -> SignedEvent:
    """One DRAW-v1 draw over the tables of round ``round_no``: the first ``count`` of its
    result are the tables to check, in that order (the rest, in order, are spares)."""
    tables = round_tables(t.state, round_no)
    if not 1 <= count <= len(tables):
        raise RuleError("BR-DECK-3", f"--count {count}: round {round_no} has "
                        f"{len(tables)} table(s)", hint=f"a count from 1 to {len(tables)}")
    ctx = deck_ctx(t.state.log, round_no)
    pending = sorted(c.seq for c in t.state.commitments.values()
                     if c.ctx == ctx and c.revealed_seq is None)
    if seed_seq is None and pending and not any(
            s.ctx == ctx for s in t.state.seeds.values()):
        # commit-reveal (ADR 0053 §1): say what the draw waits for, not that the
        # pairing's own seed is too early (DECK-DRAW-1 would refuse it as such)
        raise RuleError("BR-DECK-3", f"the commitment for {ctx} (seq {pending[-1]}) is not "
                        "revealed yet: no seed to draw from",
                        hint="after its drand round: tourney seed reveal --secret FILE …, "
                        "then draw", finding="deck_draw_seed_early")
    return t.make_draw(ctx=ctx, items=tables, signer=signer, time=time, seed_seq=seed_seq,
                       universe="tables", reason=draw_reason(round_no, count))


def start_deck_check(t: Tournament, signer: Signer, time: str, *, round_no: int, table: int,
                     draw_seq: int | None = None) -> SignedEvent:
    return t.record(DeckCheckStarted(round=round_no, table=table, draw_seq=draw_seq),
                    signer, time)


def end_deck_check(t: Tournament, signer: Signer, time: str, *, start_seq: int,
                   outcome: DeckCheckOutcome, penalty_seq: int | None = None,
                   note: str = "") -> SignedEvent:
    return t.record(DeckCheckEnded(start_seq=start_seq, outcome=outcome,
                                   penalty_seq=penalty_seq, note=note), signer, time)


def check_minutes(started: str, ended: str) -> int:
    """Whole minutes of a check, rounded up (the extra preparation time, BR-EXT-3)."""
    secs = parse_time(ended).timestamp() - parse_time(started).timestamp()
    return max(0, math.ceil(secs / 60))


def correct_deck(t: Tournament, signer: Signer, time: str, *, number: int, replaces_seq: int,
                 penalty_seq: int, text: str | None = None,
                 sha256: str | None = None) -> SignedEvent:
    """A fixed list (BR-DECK-1: a new event citing the old one and the penalty)."""
    if text is None and sha256 is None:
        raise RuleError("BR-DECK-1", "give the corrected list or its sha256")
    h = list_hash(text) if text is not None else str(sha256)
    return t.record(DeckCorrected(number=number, replaces_seq=replaces_seq,
                                  penalty_seq=penalty_seq, sha256=h, list=text), signer, time)


def publish_deck(t: Tournament, signer: Signer, time: str, *, number: int,
                 text: str) -> SignedEvent:
    """Publish a player's list: refused unless it hashes to their current registration."""
    return t.record(DeckPublished(number=number, list=text), signer, time)
