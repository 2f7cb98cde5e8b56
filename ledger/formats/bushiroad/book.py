"""The Bushiroad rulebook: permissions, checks and the transitions of its own kinds; the
plug-ins merge it (first) with the match layer's.

May import: ``ledger.core.plugin``.
"""

from __future__ import annotations

from ledger.core.plugin import Rulebook

BR_BOOK = Rulebook()
