"""The format socket (docs/DESIGN.md §10): where the core finds a tournament's format.

Owns: ``Format`` — the Protocol of what the core itself asks of a format (its id and
parameters, its state, ``evolve`` / ``check`` / ``roles_for`` / ``has_left`` / ``paired_round`` /
``unpaired_round``, what players' reports are read with — ``result_vocabulary`` /
``round_phase`` / ``table_at`` / ``result_kwargs`` / ``progress`` / ``decided_result`` — and the
verbs the aggregate forwards) — and the registry: ``register_format``,
``register_lazy``, ``plugin_for``, ``require_plugin``, ``known_formats``,
``registered_formats``, ``load_all_formats``, ``parse_params``, ``make_format``.

It sits below the state, the rules and the aggregate, which find a format here; the
plug-in base class every format subclasses (``ledger.core.plugin.FormatPlugin``, with the
verbs of the CLI and the pages) sits above them and satisfies ``Format``.  So the core's
import graph has no circle (issue 17): events → socket → state → roster → rules →
aggregate → plugin.

May import: ``ledger.wire.events``, ``ledger.errors``, ``ledger.core.params``.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from typing import Any, Protocol

from ledger.core.params import Param, ParamSpec
from ledger.errors import RuleError
from ledger.wire.events import ON_UNKNOWN_KIND, Body, FormatSpec, Role, SignedEvent, register_body


class Format(Protocol):
    """What the core asks of a format (the state, the rules, the roster, the aggregate);
    ``ledger.core.plugin.FormatPlugin`` is the base that implements it."""

    @property
    def id(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def params(self) -> ParamSpec: ...
    @property
    def bodies(self) -> tuple[type[Body], ...]: ...
    @property
    def state_type(self) -> type[Any]: ...

    def new_state(self) -> Any: ...
    def decode_state(self, raw: bytes) -> Any: ...
    def genesis_params(self, given: dict[str, Param]) -> dict[str, Param]: ...
    def check_spec(self, spec: FormatSpec) -> None: ...
    def evolve(self, state: Any, ev: SignedEvent) -> None: ...
    def check(self, state: Any, body: Body, actor: str) -> None: ...
    def roles_for(self, kind: str) -> frozenset[Role] | None: ...
    @property
    def derived_kinds(self) -> frozenset[str]: ...
    def has_left(self, state: Any, number: int) -> bool: ...
    def paired_round(self, state: Any, body: Body) -> int | None: ...
    def unpaired_round(self, state: Any, body: Body) -> int | None: ...
    def check_registration_close(self, state: Any) -> None: ...
    # what players' reports are checked with (issue 19, ADR 0027; ledger.core.report_rules)
    def result_vocabulary(self) -> Any: ...
    def round_phase(self, state: Any, round_no: int) -> str | None: ...
    def table_at(self, state: Any, round_no: int, table: int) -> tuple[list[int], Any] | None: ...
    def seat_at(self, state: Any, round_no: int, table: int,
                seat: int) -> tuple[list[int], Any] | None: ...
    def result_kwargs(self, state: Any, entry: Any, given: Any, *, round_no: int,
                      table: int) -> dict[str, Any]: ...
    def progress(self, state: Any) -> Any: ...
    def decided_result(self, t: Any, **kw: Any) -> Any: ...
    def pair_round(self, t: Any, signer: Any, time: str, *, material: str | None = None,
                   source: str | None = None) -> list[SignedEvent]: ...
    def record_result(self, t: Any, signer: Any, time: str,
                      **kw: Any) -> list[SignedEvent]: ...
    def correct_result(self, t: Any, signer: Any, time: str,
                       **kw: Any) -> list[SignedEvent]: ...
    def drop_player(self, t: Any, signer: Any, time: str, number: int,
                    reason: str = "") -> list[SignedEvent]: ...
    def select_cut(self, t: Any, signer: Any, time: str, *, material: str | None = None,
                   source: str | None = None) -> list[SignedEvent]: ...
    def seed_bracket(self, t: Any, signer: Any, time: str, *, material: str | None = None,
                     source: str | None = None) -> list[SignedEvent]: ...


_PLUGINS: dict[str, Format] = {}
_LAZY: dict[str, str] = {}  # format id -> "module:ATTRIBUTE" not imported yet


def register_format(plugin: Format) -> None:
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


def _load(format_id: str) -> Format | None:
    target = _LAZY.get(format_id)
    if target is None:
        return None
    module, _, attr = target.partition(":")
    found = getattr(importlib.import_module(module), attr)
    if getattr(found, "id", None) != format_id or not callable(getattr(found, "evolve", None)):
        raise ValueError(f"{target} is not the plug-in of format {format_id}")
    plugin: Format = found
    register_format(plugin)
    return plugin


def load_all_formats() -> bool:
    """Import every format not imported yet; whether any was."""
    pending = list(_LAZY)
    for format_id in pending:
        _load(format_id)
    return bool(pending)


ON_UNKNOWN_KIND.append(load_all_formats)


def plugin_for(format_id: str | None) -> Format | None:
    key = format_id or ""
    plugin = _PLUGINS.get(key)
    return plugin if plugin is not None or key not in _LAZY else _load(key)


def known_formats() -> list[str]:
    """The ids of every format plugged in, imported yet or not."""
    return sorted({*_PLUGINS, *_LAZY})


def require_plugin(format_id: str) -> Format:
    plugin = plugin_for(format_id)
    if plugin is None:
        raise RuleError("RULES-8", f"unknown format {format_id!r}",
                        hint=f"known formats: {', '.join(known_formats()) or 'none'}")
    return plugin


def registered_formats() -> Iterable[Format]:
    load_all_formats()
    return [_PLUGINS[k] for k in sorted(_PLUGINS)]


def parse_params(format_id: str, pairs: list[str]) -> dict[str, Param]:
    """``init --param NAME=VALUE`` overrides of a registered format's parameters."""
    return require_plugin(format_id).params.parse(format_id, pairs)


def make_format(format_id: str, cut: int | None,
                params: dict[str, Param] | None = None) -> FormatSpec:
    """The genesis ``format`` of a registered format: every parameter recorded, defaults
    included (docs/DESIGN.md §10 rule revisions), then validated as the audit will."""
    plugin = require_plugin(format_id)
    spec = FormatSpec(id=format_id, cut=plugin.params.default_cut if cut is None else cut,
                      params=plugin.genesis_params(dict(params or {})))
    plugin.check_spec(spec)
    return spec
