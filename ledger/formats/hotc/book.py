"""The HotC rulebook: the permissions and checks of ``checks`` and the transitions of its
own kinds (``cut_apply``); the plug-in merges it with the match layer's.

May import: ``ledger.core.plugin``.
"""

from __future__ import annotations

from ledger.core.plugin import Rulebook

HOTC_BOOK = Rulebook()
