"""The one list of tournament formats (docs/DESIGN.md §10 "Registry").

Importing this module plugs every format into the core (``ledger.core.format_socket``), each by the
place it lives: a format's modules are imported the first time a ledger (or a command)
asks for it, so a command on a HotC event never reads the Bushiroad or Wheel of Time
code.  The CLI, the audit and simulate import this module; the core never does.  Adding
a format touches its folder and one line here.

Owns: ``FORMAT_IDS`` (every format id, in this order); ``folder`` (a format's folder);
``FORMATS`` (id → plug-in, which
imports them all); re-exports ``make_format`` / ``parse_params``, so a caller that builds a
genesis has plugged the formats in.  It also names ``ledger.randomness.rules``, which plugs
the seed, commitment and draw-hygiene rules into ``ledger.core.rules`` when the first check
needs them (``ledger.core.rule_plugins``: the core names no layer above it;
docs/adr/0039-layering-layers-and-rule-ids.md).

May import: ``ledger.core.format_socket`` (and ``ledger.formats.*`` by name, through it),
``ledger.core.rule_plugins`` (and ``ledger.randomness.rules`` by name, through it).
"""

from __future__ import annotations

from typing import Any

from ledger.core.format_socket import make_format, parse_params, register_lazy, registered_formats
from ledger.core.rule_plugins import register_rules

_WHERE: dict[str, str] = {
    "hotc-swiss-de": "ledger.formats.hotc.plugin:HOTC",
    "bushiroad-swiss": "ledger.formats.bushiroad.plugins:SWISS",
    "bushiroad-de": "ledger.formats.bushiroad.plugins:DOUBLE_ELIM",
    "single-elim": "ledger.formats.bushiroad.plugins:SINGLE_ELIM",
    "round-robin": "ledger.formats.bushiroad.plugins:ROUND_ROBIN",
    "wot-2001": "ledger.formats.wot.plugins:WOT_2001",
    "wot-classic": "ledger.formats.wot.plugins:WOT_CLASSIC",
}
FORMAT_IDS: tuple[str, ...] = tuple(_WHERE)

for _format_id, _target in _WHERE.items():
    register_lazy(_format_id, _target)
#: the rules of core kinds that live above the core, imported by the first check needing them
register_rules("ledger.randomness.rules")
register_rules("ledger.formats.officiating.deck_rules")   # what a …/deck-checks draw is


def folder(format_id: str) -> str | None:
    """The folder under ``ledger/formats`` a format's plug-in lives in ("hotc",
    "bushiroad", "wot"), without importing it (the read side finds the format's own
    catalogue there: ``server.format_words``); None for an unknown id."""
    where = _WHERE.get(format_id)
    return where.split(":")[0].split(".")[2] if where else None


def __getattr__(name: str) -> Any:
    """``FORMATS``: every plug-in by id (imports every format)."""
    if name == "FORMATS":
        return {p.id: p for p in registered_formats()}
    raise AttributeError(name)


__all__ = ["FORMAT_IDS", "make_format", "parse_params"]
