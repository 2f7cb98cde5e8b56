"""What public pages may show (issue 18, ADR 0023): the read API the live server and the
printed pages call, pure functions of the folded ``TournamentState``.

Owns: ``public_name`` (a player's name on a public page, per the organizer's
``NameStyle``), ``public_label`` (``#17`` and that name: what a page prints),
``public_short_name`` (the name without the nickname, for a standings name column),
``penalties_public``, ``round_posted``, ``held_rounds``, ``latest_held`` and
``pages_options`` (``PagesOptions``, for display).  Staff output (the CLI's text) keeps full
names and never calls these.  Text is returned as recorded: markup, bidi controls and long
names pass through unchanged — escaping is the template's job.

May import: ``msgspec``, ``ledger.core.state``, ``ledger.core.pages_state``,
``ledger.wire.pages``.
"""

from __future__ import annotations

from typing import Any

import msgspec

from ledger.core.state import TournamentState
from ledger.wire.pages import NameStyle

__all__ = ["NameStyle", "PagesOptions", "held_rounds", "latest_held", "pages_options",
           "penalties_public", "public_label", "public_name", "public_short_name",
           "round_posted"]


def _initial(name: str) -> str:
    """"First L.": the first word and the first letter of the last word, with a full stop
    ("Ann Marie Lee" → "Ann L."); a one-word name stays whole.  The letter is the last
    word's first letter or digit (skipping a leading quote or bracket), else its first
    character."""
    words = name.split()
    if len(words) < 2:
        return name.strip()
    last = words[-1]
    letter = next((c for c in last if c.isalnum()), last[0])
    return f"{words[0]} {letter}."


def public_short_name(state: TournamentState, number: int) -> str:
    """Player ``number``'s name as a public page's name column shows it: the name with
    ``full`` (no nickname), "First L." with ``initial``, "" with ``number``; "" for a
    number that is no registered player."""
    p = state.players.get(number)
    style = state.pages.names
    if p is None or style is NameStyle.NUMBER:
        return ""
    return p.name if style is NameStyle.FULL else _initial(p.name)


def public_name(state: TournamentState, number: int) -> str:
    """Player ``number``'s name as a public page shows it beside the number, per the
    organizer's style: ``full`` — ``Ann Marie Lee "Annie"`` (the name, and the nickname
    only here, as staff pages show it); ``initial`` — ``Ann L.``; ``number`` — ``""``
    (the page shows the number alone).  ``""`` for a number that is no registered player.
    The whole label is ``public_label``."""
    p = state.players.get(number)
    style = state.pages.names
    if p is None or style is NameStyle.NUMBER:
        return ""
    if style is NameStyle.INITIAL:
        return _initial(p.name)
    return f'{p.name} "{p.nickname}"' if p.nickname else p.name


def public_label(state: TournamentState, number: int) -> str:
    """The label a public page shows for player ``number``: ``#17 Ann Marie Lee "Annie"``,
    ``#17 Ann L.`` or ``#17`` (``#`` + the number, then ``public_name`` when there is one)."""
    name = public_name(state, number)
    return f"#{number} {name}" if name else f"#{number}"


def penalties_public(state: TournamentState) -> bool:
    """Whether a player's penalties show on public pages (off unless the organizer turned
    them on)."""
    return state.pages.penalties


def round_posted(state: TournamentState, n: int) -> bool:
    """Whether round ``n``'s pairings (a Game in Wheel of Time) may show on public pages:
    it is paired, and its pairing was not made while hold pairings was on, or was posted
    since (``pairings_posted``).  False for a round not paired (or voided)."""
    p = state.pages
    return n in p.paired and n not in p.held


def held_rounds(state: TournamentState) -> list[int]:
    """The rounds whose pairings wait for the head judge's ``tourney round post``, in
    order."""
    return sorted(state.pages.held)


def latest_held(state: TournamentState) -> int | None:
    """The latest held round (what ``tourney round post`` posts by default), or None."""
    return max(state.pages.held, default=None)


class PagesOptions(msgspec.Struct, frozen=True, kw_only=True):
    """The public pages' options in force, for display (``tourney pages show``, ``info``,
    the server's footer).  ``set_seq``: the ``public_pages_set`` in force (None: never
    recorded, the defaults)."""

    names: NameStyle
    penalties: bool
    hold_pairings: bool
    set_seq: int | None
    held: list[int]
    language: str = "en"
    time_zone: str = "UTC"

    def json(self) -> dict[str, Any]:
        return {"names": self.names.value, "penalties": self.penalties,
                "hold_pairings": self.hold_pairings, "language": self.language,
                "time_zone": self.time_zone, "set_seq": self.set_seq, "held": list(self.held)}

    def text(self) -> str:
        """One line: ``names full · penalties hidden · pairings posted when paired`` (and
        `` · pages in ja`` when the event's default language is not English)."""
        pen = "penalties shown" if self.penalties else "penalties hidden"
        hold = "pairings held until posted" if self.hold_pairings \
            else "pairings posted when paired"
        lang = "" if self.language == "en" else f" · pages in {self.language}"
        tz = "" if self.time_zone == "UTC" else f" · times in {self.time_zone}"
        return f"names {self.names.value} · {pen} · {hold}{lang}{tz}"


def pages_options(state: TournamentState) -> PagesOptions:
    """The public pages' options in force and the held rounds."""
    p = state.pages
    return PagesOptions(names=p.names, penalties=p.penalties, hold_pairings=p.hold,
                        set_seq=p.set_seq, held=held_rounds(state), language=p.language,
                        time_zone=p.time_zone)
