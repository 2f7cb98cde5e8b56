"""Event bodies of the public pages (issue 18, ADR 0023): the organizer's options for what
public pages show, and the head judge's posting of a held round's pairings.

Owns: ``NameStyle`` (how public pages name a player: the closed set of the wire values),
``PublicPagesSet`` (kind ``public_pages_set``), ``PairingsPosted`` (kind
``pairings_posted``) and ``AnnouncementMade`` (kind ``announcement_made``) — core kinds
every format has, their wire tags in ``Kind`` — and ``is_zone_name`` (the form of a time
zone name, PAGES-8).  The bodies are registered in ``BODY_TYPES`` when this module is
imported, which the package ``ledger.wire`` does first (so any process that decodes
leaves knows them).

May import: ``msgspec``, ``ledger.wire.events``, the standard library.
"""

from __future__ import annotations

import re
from enum import Enum

from ledger.wire.events import Body, Kind, register_body


class NameStyle(str, Enum):
    """How a public page names player 17, Ann Marie Lee "Annie" (wire values, stable)."""

    FULL = "full"          # "#17 Ann Marie Lee "Annie"" (the name and nickname)
    INITIAL = "initial"    # "#17 Ann L." (first word, first letter of the last word)
    NUMBER = "number"      # "#17"


#: the event's default page language when none was ever set (issue 31; ADR 0057)
DEFAULT_LANGUAGE = "en"
#: the event's time zone when none was ever set (issue 31 item 1; ADR 0064)
DEFAULT_TIME_ZONE = "UTC"
#: the form of an IANA time zone name ("UTC", "Asia/Tokyo", "America/Argentina/Buenos_Aires",
#: "Etc/GMT-9"): ASCII parts of letters, digits, ``_``, ``+`` and ``-``, the first a letter
_ZONE_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+){0,3}")


def is_zone_name(name: str) -> bool:
    """PAGES-8: ``name`` has the form of an IANA time zone name (at most 64 characters).
    Whether the zone exists is the software's tz database, not the ledger's."""
    return len(name) <= 64 and _ZONE_NAME.fullmatch(name) is not None


class PublicPagesSet(Body, frozen=True, kw_only=True, omit_defaults=True):
    """The organizer's (or head judge's) options for public pages, in force from this seq
    on (ADR 0023).  Never recorded: names ``full``, no penalties, pairings posted when
    paired, pages in English.  ``names``, ``penalties`` and ``hold_pairings`` are always on
    the wire (they have no default); ``language`` (the pages' default language, a
    lowercase ISO 639 code, PAGES-7) is on the wire only when it is not English, so every
    ``public_pages_set`` recorded before it existed keeps its bytes (ADR 0057).
    ``time_zone`` (the event's IANA time zone, the pages' clock times; PAGES-8) likewise
    is on the wire only when it is not UTC (ADR 0064)."""

    KIND = Kind.PUBLIC_PAGES_SET
    names: NameStyle
    penalties: bool       # a player's penalties show on public pages
    hold_pairings: bool   # a round paired from now on waits for ``pairings_posted``
    language: str = DEFAULT_LANGUAGE   # the pages' language when a phone asks for none
    time_zone: str = DEFAULT_TIME_ZONE  # the zone the pages show times in (IANA name)


class PairingsPosted(Body, frozen=True, kw_only=True):
    """The head judge posts round ``round``'s held pairings (a Game in Wheel of Time) after
    checking them: public pages show them from this seq on (PAGES-2..4)."""

    KIND = Kind.PAIRINGS_POSTED
    round: int


class AnnouncementMade(Body, frozen=True, kw_only=True, omit_defaults=True):
    """The head judge's announcement to the hall (issue 30 item 5): shown on ``/screen``
    from this seq on until a later announcement withdraws it (``withdraws``: its seq; the
    text then says why, or is empty)."""

    KIND = Kind.ANNOUNCEMENT_MADE
    text: str = ""
    withdraws: int | None = None


PAGES_BODIES: tuple[type[Body], ...] = (PublicPagesSet, PairingsPosted, AnnouncementMade)
for _body in PAGES_BODIES:
    register_body(_body)
