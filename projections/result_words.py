"""A table's result in words, as its format says it (issue 17: the format owns its
result vocabulary; pages and the CLI only ask).

Owns: ``describe`` — the one entry point every page, table and log line uses.

May import: ``ledger.core.format_socket``, ``ledger.core.views_facet``, ``ledger.core.state``.
"""

from __future__ import annotations

from typing import Any

from ledger.core.format_socket import plugin_for
from ledger.core.state import TournamentState


def describe(state: TournamentState, result: Any) -> str:
    """One short phrase for ``result`` (a table's result state, or None: "-")."""
    plugin = plugin_for(state.format.id if state.format else None)
    if plugin is None:
        return "-" if result is None else "recorded"
    return plugin.views.describe_result(state, result)
