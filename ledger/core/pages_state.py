"""The public pages' part of the folded state (issue 18, ADR 0023): the options in force and
which rounds' pairings wait for posting.

Owns: ``PagesState`` (one sub-struct of ``TournamentState``, snapshotted with it) and its
pure transitions — ``note_options`` (``public_pages_set``), ``note_paired`` (an event the
format says pairs or re-pairs a round: ``FormatPlugin.paired_round``), ``note_unpaired``
(one that takes a round's pairing back: ``FormatPlugin.unpaired_round``) and
``note_posted`` (``pairings_posted``).  Never validates (``ledger.core.rules`` does:
PAGES-1..4) and never reads a clock.

May import: ``msgspec``, ``ledger.wire.pages``.
"""

from __future__ import annotations

import msgspec

from ledger.wire.pages import DEFAULT_LANGUAGE, DEFAULT_TIME_ZONE, NameStyle


class PagesState(msgspec.Struct, kw_only=True, array_like=True, gc=False):
    """The defaults are those of a ledger that never recorded ``public_pages_set``: full
    names, no penalties, every round posted when paired (so older ledgers' pages are
    unchanged)."""

    names: NameStyle = NameStyle.FULL
    penalties: bool = False
    hold: bool = False
    set_seq: int | None = None         # seq of the public_pages_set in force (None: never)
    paired: dict[int, int] = {}        # round -> seq of its pairing in force
    held: dict[int, int] = {}          # round -> seq of that pairing, held (not posted)
    posted: dict[int, int] = {}        # round -> seq of the pairings_posted of that pairing
    notes: dict[int, str] = {}         # seq of an announcement in force -> its text
    language: str = DEFAULT_LANGUAGE   # the pages' default language (issue 31, PAGES-7)
    time_zone: str = DEFAULT_TIME_ZONE  # the event's time zone (issue 31, PAGES-8)


def note_options(pages: PagesState, seq: int, names: NameStyle, penalties: bool,
                 hold: bool, language: str = DEFAULT_LANGUAGE,
                 time_zone: str = DEFAULT_TIME_ZONE) -> None:
    """``public_pages_set`` at ``seq``: in force from here on; rounds already paired keep
    their state (switching hold on hides nothing already public, off posts nothing)."""
    pages.names, pages.penalties, pages.hold, pages.set_seq = names, penalties, hold, seq
    pages.language, pages.time_zone = language, time_zone


def note_paired(pages: PagesState, round_no: int, seq: int) -> None:
    """Round ``round_no`` is paired (or re-paired) at ``seq``: held while hold is on, else
    public at once; an earlier posting was of the pairing this one replaces."""
    pages.paired[round_no] = seq
    pages.posted.pop(round_no, None)
    if pages.hold:
        pages.held[round_no] = seq
    else:
        pages.held.pop(round_no, None)


def note_unpaired(pages: PagesState, round_no: int) -> None:
    """Round ``round_no``'s pairing is taken back (a void): no pairing to show or post."""
    pages.paired.pop(round_no, None)
    pages.held.pop(round_no, None)
    pages.posted.pop(round_no, None)


def note_posted(pages: PagesState, round_no: int, seq: int) -> None:
    """``pairings_posted`` of round ``round_no`` at ``seq``: public from here on."""
    pages.held.pop(round_no, None)
    pages.posted[round_no] = seq
