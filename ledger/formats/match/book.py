"""The match layer's rulebook: the state transitions of its kinds (``apply``).

May import: ``ledger.core.plugin``.
"""

from __future__ import annotations

from ledger.core.plugin import Rulebook

MATCH_BOOK = Rulebook()
