"""The format plug-in (docs/DESIGN.md §10): a format's identity and its declared facets.

Owns: ``FormatPlugin`` — what a format is (``id``, ``title``, ``player_name``, the body
kinds it adds to the wire; its parameters and state type are its rules') and its facets:
``rules`` (``ledger.core.rules_facet``: pure, all the core and the audit call),
``commands`` and the optional ``teams`` / ``slow_play`` / ``judge_powers`` /
``simulation`` (``ledger.core.command_facets``), ``entry`` (``ledger.core.entry_facet``),
``views`` and the optional ``round_docs`` (``ledger.core.views_facet``,
``ledger.core.command_facets``), and the optional ``time`` (``ledger.core.time_facet``:
the unit, cap and rule of a match's extensions, issue 30).  An optional facet is None
when the format has none: a caller probes it by presence, never by attribute name.
Adding a format is a folder that builds one of these and one line in
``ledger.formats.registry``.

May import: ``ledger.core.facet_base`` and the facet modules (``ledger.core.params`` and
``ledger.wire.events`` for type hints only).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ledger.core.command_facets import Commands
from ledger.core.entry_facet import Entry
from ledger.core.views_facet import Views

if TYPE_CHECKING:
    import msgspec

    from ledger.core.command_facets import JudgePowers, RoundDocs, Simulation, SlowPlay, Teams
    from ledger.core.params import ParamSpec
    from ledger.core.rules_facet import Rules
    from ledger.core.time_facet import Time
    from ledger.wire.events import Body, FormatSpec


class FormatPlugin:
    """One format: its identity and its facets (each facet is told the format's id and
    title, for its refusals)."""

    def __init__(self, *, id: str, title: str, player_name: str = "",  # noqa: A002
                 bodies: tuple[type[Body], ...] = (), rules: Rules,
                 commands: Commands | None = None, entry: Entry | None = None,
                 views: Views | None = None, teams: Teams | None = None,
                 slow_play: SlowPlay | None = None,
                 judge_powers: JudgePowers | None = None,
                 round_docs: RoundDocs | None = None,
                 simulation: Simulation | None = None,
                 time: Time | None = None) -> None:
        self.id = id
        self.title = title
        #: the name players use for the format on pages ("Bushiroad Swiss"; issue 32): no
        #: rule id, no RULES.md section (``title`` keeps them for the CLI)
        self.player_name = player_name
        self.bodies = bodies
        self.rules = rules
        self.commands = commands if commands is not None else Commands()
        self.entry = entry if entry is not None else Entry()
        self.views = views if views is not None else Views()
        for facet in (self.rules, self.commands, self.entry, self.views):
            facet.bind(id, title)
        self.teams = teams
        self.slow_play = slow_play
        self.judge_powers = judge_powers
        self.round_docs = round_docs
        self.simulation = simulation
        self.time = time
        if time is not None:
            time.bind(id, title)

    @property
    def params(self) -> ParamSpec:
        return self.rules.params

    @property
    def state_type(self) -> type[msgspec.Struct]:
        return self.rules.state_type

    def player_title(self, spec: FormatSpec) -> str:
        """The format as players name it on pages ("HotC Swiss, double elimination, top
        4"; issue 32): ``player_name``, what the views say of the event, its cut."""
        from ledger.core.player_words import format_title

        return format_title(self.player_name or self.id, cut=spec.cut,
                            extras=self.views.player_extras(spec))
