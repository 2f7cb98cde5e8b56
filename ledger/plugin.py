"""The format plug-in contract (DESIGN.md §10): what the core asks of a tournament format.

Owns: ``Rulebook`` (a format's dispatch tables: state transitions, checks, permissions),
``FormatPlugin`` (the base every format subclasses: id, parameters, state type, the pure
``evolve`` / ``check`` pair, and the command verbs it supports) and the socket
``register_format`` / ``plugin_for`` / ``registered_formats``.

The core never imports a format: ``ledger.formats.registry`` (imported by the CLI, the
audit and simulate) registers each format here.  A ledger whose genesis names a format
that is not registered folds only its core facts, and its genesis fails ``rules.check``.

May import: ``msgspec``, ``ledger.events``, ``ledger.errors``, ``ledger.params``
(``ledger.state`` / ``ledger.aggregate`` for type hints only).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, ClassVar, Literal

import msgspec

from ledger.errors import RuleError
from ledger.events import ON_UNKNOWN_KIND, Body, FormatSpec, Role, SignedEvent, register_body
from ledger.params import Param, ParamSpec

if TYPE_CHECKING:
    from ledger.aggregate import Tournament
    from ledger.keys import Signer
    from ledger.standings_view import StandingsView
    from ledger.state import TournamentState

Applier = Callable[["TournamentState", SignedEvent, Any], None]
#: (winner, losers, loss reasons, outcome, games or None): a result as decided, in the
#: order the format records it (``FormatPlugin.decided_result``)
DecidedResult = tuple[Any, list[int], list[Any], Any, "list[int] | None"]
Checker = Callable[["TournamentState", Any, str], None]


class Rulebook:
    """One format's (or one shared layer's) dispatch tables, filled by decorators at import.

    A format may be built from several books (``merged``): e.g. the shared match layer's
    book plus the format's own.  Transitions of one body type run in registration order.
    """

    def __init__(self) -> None:
        self.appliers: dict[type[Body], list[Applier]] = {}
        self.checkers: dict[type[Body], Checker] = {}
        self.permissions: dict[str, frozenset[Role]] = {}

    def applies(self, body_type: type[Body]) -> Callable[[Applier], Applier]:
        def register(fn: Applier) -> Applier:
            self.appliers.setdefault(body_type, []).append(fn)
            return fn
        return register

    def checks(self, body_type: type[Body]) -> Callable[[Checker], Checker]:
        def register(fn: Checker) -> Checker:
            self.checkers[body_type] = fn
            return fn
        return register

    def permit(self, kind: str, roles: frozenset[Role]) -> None:
        self.permissions[kind] = roles

    @staticmethod
    def merged(*books: Rulebook) -> Rulebook:
        out = Rulebook()
        for book in books:
            for t, fns in book.appliers.items():
                out.appliers.setdefault(t, []).extend(fns)
            out.checkers.update(book.checkers)
            out.permissions.update(book.permissions)
        return out


PhaseName = Literal["registration", "swiss", "cut_window", "cut_made", "top_cut", "finished"]


class RoundProgress(msgspec.Struct, frozen=True, kw_only=True):
    """The current round (a Game in Wheel of Time) as ``tourney info`` shows it."""

    number: int
    phase: str
    open: bool
    tables: int
    missing_results: list[int]


class Progress(msgspec.Struct, frozen=True, kw_only=True):
    """Where an event stands (``FormatPlugin.progress``): what ``tourney info`` prints."""

    phase: PhaseName
    champion: int | None = None
    round: RoundProgress | None = None


def _no_verb(plugin: FormatPlugin, verb: str) -> RuleError:
    return RuleError("RULES-8", f"format {plugin.id} has no '{verb}'",
                     hint=f"{plugin.title}: see 'tourney info' for what it runs")


class FormatPlugin:
    """Base class of a format.  Subclasses set the class attributes and override the verbs
    they support; every verb decides events and records them on the aggregate, whose
    ``record`` runs ``rules.check`` (this plug-in's ``check`` included) before signing."""

    id: ClassVar[str]
    title: ClassVar[str]
    params: ClassVar[ParamSpec]
    state_type: ClassVar[type[msgspec.Struct]]
    bodies: ClassVar[tuple[type[Body], ...]] = ()
    book: ClassVar[Rulebook]
    #: results carry game scores (BO1/BO3 ``games``, DESIGN.md §11) that decide a match at
    #: time-up; a format without them decides a timed-out match by its own rule
    game_scores: ClassVar[bool] = False

    # -- what the core calls -----------------------------------------------------------
    def new_state(self) -> Any:
        return self.state_type()

    def decode_state(self, raw: bytes) -> Any:
        return msgspec.msgpack.decode(raw, type=self.state_type)

    def genesis_params(self, given: dict[str, Param]) -> dict[str, Param]:
        """Every parameter value the genesis records: the defaults under the rule revision
        ``given`` names (or the newest), overridden by ``given``."""
        return {**self.params.defaults, **given}

    def check_spec(self, spec: FormatSpec) -> None:
        """Genesis: every parameter known and allowed (RULES.md §8); formats add more."""
        self.params.check(spec)

    def evolve(self, state: TournamentState, ev: SignedEvent) -> None:
        for fn in self.book.appliers.get(type(ev.body), ()):
            fn(state, ev, ev.body)

    def check(self, state: TournamentState, body: Body, actor: str) -> None:
        fn = self.book.checkers.get(type(body))
        if fn is not None:
            fn(state, body, actor)

    def roles_for(self, kind: str) -> frozenset[Role] | None:
        return self.book.permissions.get(kind)

    def has_left(self, state: TournamentState, number: int) -> bool:
        """Whether a registered player has withdrawn from the event (dropped, disqualified,
        declared forfeit): such a player is outside the active roster that player draws
        are made over (THREATS T25).  Formats with match records override this."""
        return False

    # -- command verbs (DESIGN.md §8); a format overrides those it runs ----------------
    def pair_round(self, t: Tournament, signer: Signer, time: str, *,
                   material: str | None = None, source: str | None = None) -> list[SignedEvent]:
        raise _no_verb(self, "round pair")

    def record_result(self, t: Tournament, signer: Signer, time: str,
                      **kw: Any) -> list[SignedEvent]:
        raise _no_verb(self, "result record")

    def correct_result(self, t: Tournament, signer: Signer, time: str,
                       **kw: Any) -> list[SignedEvent]:
        raise _no_verb(self, "result correct")

    def progress(self, state: TournamentState) -> Progress:
        """Where the event stands; a format that says nothing more is in its only phase
        once registration closes."""
        return Progress(phase="registration" if state.registration_closed_seq is None
                        else "swiss")

    def describe_result(self, state: TournamentState, result: Any) -> str:
        """How one table's result reads in words, numbers only (``round show``, ``log``,
        slips, pages): the format's own vocabulary (issue 17).  ``result`` is the
        format's table result state, or None for a table without one ("-")."""
        from ledger.formats.match.words import result_words

        return result_words(result)

    def decided_result(self, t: Tournament, **kw: Any) -> DecidedResult:
        """What a result entry (``record_result``'s keywords, ``round_no`` and ``table``
        included) decides for its table, recording nothing: how a station tells an
        identical re-entry (nothing to write) from a conflicting one."""
        raise _no_verb(self, "result entry")

    def drop_player(self, t: Tournament, signer: Signer, time: str, number: int,
                    reason: str = "") -> list[SignedEvent]:
        raise _no_verb(self, "drop")

    def select_cut(self, t: Tournament, signer: Signer, time: str, *,
                   material: str | None = None, source: str | None = None) -> list[SignedEvent]:
        raise _no_verb(self, "cut")

    def seed_bracket(self, t: Tournament, signer: Signer, time: str, *,
                     material: str | None = None,
                     source: str | None = None) -> list[SignedEvent]:
        raise _no_verb(self, "bracket")

    def standings(self, state: TournamentState) -> StandingsView | None:
        """The standings as this format declares them: columns as data, rows best first
        (``ledger.standings_view``; issue 17, ADR 0021), rendered generically by every
        output.  None: the format keeps no standings."""
        return None


_PLUGINS: dict[str, FormatPlugin] = {}
_LAZY: dict[str, str] = {}  # format id -> "module:ATTRIBUTE" not imported yet


def register_format(plugin: FormatPlugin) -> None:
    """Plug a format in: its body kinds into the wire table, itself into the socket."""
    old = _PLUGINS.get(plugin.id)
    if old is not None and old is not plugin:
        raise ValueError(f"format {plugin.id} is registered twice")
    for body in plugin.bodies:
        register_body(body)
    _PLUGINS[plugin.id] = plugin
    _LAZY.pop(plugin.id, None)


def register_lazy(format_id: str, target: str) -> None:
    """Name where a format lives (``"package.module:ATTRIBUTE"``) without importing it: it
    is imported the first time the socket is asked for it (or for a kind nobody knows),
    so a command reads only the format its ledger runs."""
    if format_id not in _PLUGINS:
        _LAZY[format_id] = target


def _load(format_id: str) -> FormatPlugin | None:
    target = _LAZY.get(format_id)
    if target is None:
        return None
    module, _, attr = target.partition(":")
    plugin = getattr(importlib.import_module(module), attr)
    if not isinstance(plugin, FormatPlugin) or plugin.id != format_id:
        raise ValueError(f"{target} is not the plug-in of format {format_id}")
    register_format(plugin)
    return plugin


def load_all_formats() -> bool:
    """Import every format not imported yet; whether any was."""
    pending = list(_LAZY)
    for format_id in pending:
        _load(format_id)
    return bool(pending)


ON_UNKNOWN_KIND.append(load_all_formats)


def plugin_for(format_id: str | None) -> FormatPlugin | None:
    key = format_id or ""
    plugin = _PLUGINS.get(key)
    return plugin if plugin is not None or key not in _LAZY else _load(key)


def known_formats() -> list[str]:
    """The ids of every format plugged in, imported yet or not."""
    return sorted({*_PLUGINS, *_LAZY})


def require_plugin(format_id: str) -> FormatPlugin:
    plugin = plugin_for(format_id)
    if plugin is None:
        raise RuleError("RULES-8", f"unknown format {format_id!r}",
                        hint=f"known formats: {', '.join(known_formats()) or 'none'}")
    return plugin


def registered_formats() -> Iterable[FormatPlugin]:
    load_all_formats()
    return [_PLUGINS[k] for k in sorted(_PLUGINS)]


def parse_params(format_id: str, pairs: list[str]) -> dict[str, Param]:
    """``init --param NAME=VALUE`` overrides of a registered format's parameters."""
    return require_plugin(format_id).params.parse(format_id, pairs)


def make_format(format_id: str, cut: int | None,
                params: dict[str, Param] | None = None) -> FormatSpec:
    """The genesis ``format`` of a registered format: every parameter recorded, defaults
    included (DESIGN.md §10 rule revisions), then validated as the audit will."""
    plugin = require_plugin(format_id)
    spec = FormatSpec(id=format_id, cut=plugin.params.default_cut if cut is None else cut,
                      params=plugin.genesis_params(dict(params or {})))
    plugin.check_spec(spec)
    return spec
