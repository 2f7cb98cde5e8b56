"""What every facet of a format knows of the format it belongs to (docs/DESIGN.md §10).

Owns: ``Facet`` — the format's id and title, set when the format's ``FormatPlugin`` is
built, and ``no_verb``, the refusal of something the format does not run (RULES-8); the
aliases ``Desk`` (the aggregate a verb decides on, ``ledger.core.aggregate.Tournament``)
and ``Session`` (``tourney simulate``'s writer session and ledger, ``ledger.storage``):
both sit above the facets (the aggregate calls them), so the facets name them by these
aliases and each format's facets narrow them to the real types.

May import: ``ledger.errors``.
"""

from __future__ import annotations

from typing import Any

from ledger.errors import RuleError

#: the aggregate (``ledger.core.aggregate.Tournament``), which sits above the facets
Desk = Any
#: a writer session (``ledger.storage.write_session.WriteSession``) or its ledger
Session = Any


class Facet:
    """A facet of one format (its rules, commands, entry, views, or an optional one)."""

    format_id: str = ""
    format_title: str = ""

    def bind(self, format_id: str, title: str) -> None:
        """Name the format this facet belongs to (``FormatPlugin`` does, once)."""
        self.format_id = format_id
        self.format_title = title

    def no_verb(self, verb: str) -> RuleError:
        return RuleError("RULES-8", f"format {self.format_id} has no '{verb}'",
                         hint=f"{self.format_title}: see 'tourney info' for what it runs")
