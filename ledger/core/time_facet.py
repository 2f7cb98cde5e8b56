"""The ``time`` facet of a format (issue 30 item 2; docs/DESIGN.md §10): what the
format's rules give a match that lost time at the table — a judge's ruling (BR-EXT-1) or
a deck check (BR-EXT-3) — so that the one proposal
(``ledger.formats.officiating.call_extension``) never names a format.

Owns: ``TimeUnit`` (what an extension is counted in: minutes, turns, or none — one
duration for every table) and ``Time`` (the facet: the unit, the cap per match and the
rule the proposal cites).  Optional on ``FormatPlugin``: a format without it is proposed
nothing.

May import: ``ledger.core.facet_base`` (``ledger.core.state_model`` for type hints only).
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING

from ledger.core.facet_base import Facet

if TYPE_CHECKING:
    from ledger.core.state_model import TournamentState


class TimeUnit(str, Enum):
    """What a judge's extension is counted in under the format's rules."""

    MINUTES = "minutes"     # extra minutes (001 EOM-EXT-1, 002 BR-EXT-1)
    TURNS = "turns"         # extra turns: the end of match counts turns (002 BR-XTURN-1)
    NONE = "none"           # one duration for every table: no extension (the Wheel of Time)


class Time(Facet):
    """The format's time at the table.  The default extends nothing; a format overrides
    ``unit`` and ``cap``, and names its rule."""

    #: the rule cited when the format gives no extension (``unit`` NONE)
    fixed_rule: str = "BR-EXT-1"
    #: why, in a few words, when the format gives no extension
    fixed_words: str = "the format gives no extension"

    def unit(self, state: TournamentState) -> TimeUnit:
        """What the judge's extension of a ruling is proposed in (a deck check's is
        always minutes: its preparation time, BR-EXT-3)."""
        return TimeUnit.NONE

    def cap(self, state: TournamentState) -> int | None:
        """Minutes of extensions per match in all (AMB-E6), None: no cap."""
        return None
