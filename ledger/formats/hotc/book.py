"""The HotC rulebook: the dispatch tables its ``apply`` and ``checks`` modules fill.

May import: ``ledger.plugin``.
"""

from __future__ import annotations

from ledger.plugin import Rulebook

BOOK = Rulebook()
