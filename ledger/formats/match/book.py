"""The match layer's rulebook: the state transitions of its kinds (``apply``).

May import: ``ledger.plugin``.
"""

from __future__ import annotations

from ledger.plugin import Rulebook

MATCH_BOOK = Rulebook()
