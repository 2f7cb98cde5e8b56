"""The ``time`` facet of the formats the shared officiating layer officiates (issue 30
item 2; ``ledger.core.time_facet``): extensions in minutes capped by the event's
parameters (001: 5 minutes in all per match, EOM-EXT-1 / AMB-E6; any event at its
``judge_extension_cap_minutes``, AMB-B27), or in turns where the format's end of match
counts turns (002: the tournament sets extra turns, BR-XTURN-1, and 001's end of match is
not in force).

Owns: ``OfficiatedTime``.

May import: ``ledger.core.*``, ``ledger.formats.officiating.params``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ledger.core.time_facet import Time, TimeUnit
from ledger.formats.officiating.params import end_of_match, extension_cap, extra_turns

if TYPE_CHECKING:
    from ledger.core.state_model import TournamentState


class OfficiatedTime(Time):
    """Minutes, capped by the event (``params.extension_cap``); turns when
    ``counts_turns`` (the format's end of match plays extra turns, 002 FR §4.7) and the
    event sets extra turns without 001's end of match."""

    def __init__(self, *, counts_turns: bool = False) -> None:
        self.counts_turns = counts_turns

    def unit(self, state: TournamentState) -> TimeUnit:
        if self.counts_turns and extra_turns(state) > 0 and end_of_match(state) != "eom_001":
            return TimeUnit.TURNS
        return TimeUnit.MINUTES

    def cap(self, state: TournamentState) -> int | None:
        return extension_cap(state)
