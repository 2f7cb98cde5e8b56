"""The rules of the public pages' own kinds (PAGES-1, PAGES-6..8; ADR 0023, 0053, 0057,
0064): what an announcement and a pages-options event must be.  Registered by
``ledger.core.rules`` as the core checks of ``announcement_made`` and
``public_pages_set``, so the command side and the audit run the one implementation.

Owns: ``check_announcement``, ``check_pages_set``, ``ANNOUNCEMENT_CHARS``.

May import: ``ledger.core.state``, ``ledger.errors``, ``ledger.wire.pages``.
"""

from __future__ import annotations

from ledger.core.state import TournamentState
from ledger.errors import RuleError
from ledger.wire.pages import AnnouncementMade, PublicPagesSet, is_zone_name

#: an announcement is one line a hall reads from afar
ANNOUNCEMENT_CHARS = 160


def check_announcement(state: TournamentState, body: AnnouncementMade, actor: str) -> None:
    """PAGES-6: one line of at most 160 characters, or the withdrawal of an announcement in
    force (issue 30 item 5)."""
    if body.withdraws is not None and body.withdraws not in state.pages.notes:
        raise RuleError("PAGES-6", f"seq {body.withdraws} is not an announcement on show",
                        hint="see the announcements: tourney announce --list")
    if body.withdraws is None and not body.text.strip():
        raise RuleError("PAGES-6", "an announcement needs its text",
                        hint='e.g. tourney announce "Round 3 starts at 14:30"')
    if len(body.text) > ANNOUNCEMENT_CHARS or "\n" in body.text or body.text != body.text.strip():
        raise RuleError("PAGES-6", f"an announcement is one line of at most "
                        f"{ANNOUNCEMENT_CHARS} characters, without outer spaces",
                        hint="shorten it; a hall reads it from across the room")


def check_pages_set(state: TournamentState, body: PublicPagesSet, actor: str) -> None:
    """PAGES-1: an options event changes something (any time after genesis, ADR 0023).
    PAGES-7: its ``language`` is a lowercase ISO 639 code of two or three letters (which
    languages have a catalogue is the software's, not the ledger's: the command refuses a
    language without one, and pages show English for a code they do not know).
    PAGES-8: its ``time_zone`` has the form of an IANA name (``is_zone_name``; which
    zones exist is the software's tz database: the command refuses an unknown one, and
    pages show UTC for a name their database lacks)."""
    p = state.pages
    if not (2 <= len(body.language) <= 3 and body.language.isascii()
            and body.language.isalpha() and body.language.islower()):
        raise RuleError("PAGES-7", f"{body.language!r} is not a language code",
                        hint="a lowercase ISO 639 code such as ja or en")
    if not is_zone_name(body.time_zone):
        raise RuleError("PAGES-8", f"{body.time_zone!r} is not a time zone name",
                        hint="an IANA name such as Asia/Tokyo, Europe/Paris or UTC")
    if (body.names, body.penalties, body.hold_pairings, body.language, body.time_zone) == \
            (p.names, p.penalties, p.hold, p.language, p.time_zone):
        raise RuleError("PAGES-1", "the public pages options are already names="
                        f"{p.names.value}, penalties={'on' if p.penalties else 'off'}, "
                        f"hold pairings={'on' if p.hold else 'off'}, language={p.language}, "
                        f"time zone={p.time_zone}",
                        hint="nothing to record; see 'tourney pages show'")
