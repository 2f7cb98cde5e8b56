"""The Wheel of Time formats' rulebook (filled by ``checks`` and ``apply`` at import).

May import: ``ledger.core.plugin``.
"""

from __future__ import annotations

from ledger.core.plugin import Rulebook

WOT_BOOK = Rulebook()
