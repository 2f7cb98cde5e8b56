"""The Wheel of Time's ``time`` facet (issue 30; ``ledger.core.time_facet``): one Game
duration for every table (WOTOLD-TIME-1, WOT01-TIME-1), so no table's time is extended;
its judge calls are recorded all the same.

Owns: ``WotTime``.

May import: ``ledger.core.time_facet``, ``ledger.formats.wot.model``.
"""

from __future__ import annotations

from ledger.core.time_facet import Time
from ledger.formats.wot.model import Revision


class WotTime(Time):
    fixed_words = "one Game duration for every table: no extension"

    def __init__(self, revision: Revision) -> None:
        self.fixed_rule = "WOT01-TIME-1" if revision is Revision.WOT_2001 else "WOTOLD-TIME-1"
