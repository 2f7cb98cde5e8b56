"""The one list of tournament formats (DESIGN.md §10 "Registry").

Importing this module plugs every format into the core (``ledger.plugin``).  The CLI, the
audit and simulate import it; the core never does.  Adding a format touches its folder and
one line here.

Owns: ``FORMATS`` (id → plug-in); re-exports ``make_format`` / ``parse_params``, so a
caller that builds a genesis has imported the formats.

May import: ``ledger.plugin``, ``ledger.formats.*``.
"""

from __future__ import annotations

from ledger.formats.bushiroad.plugins import DOUBLE_ELIM, ROUND_ROBIN, SINGLE_ELIM, SWISS
from ledger.formats.hotc.plugin import HOTC
from ledger.plugin import FormatPlugin, make_format, parse_params, register_format

FORMATS: dict[str, FormatPlugin] = {p.id: p for p in (
    HOTC,
    SWISS,
    DOUBLE_ELIM,
    SINGLE_ELIM,
    ROUND_ROBIN,
)}

for _plugin in FORMATS.values():
    register_format(_plugin)

__all__ = ["FORMATS", "make_format", "parse_params"]
