"""The format socket (docs/DESIGN.md §10): where the core finds a tournament's format.

Owns: the registry of ``FormatPlugin`` objects (``ledger.core.format_plugin``: a format's
identity and its facets, the ``rules`` facet being what the core itself calls):
``register_format``, ``register_lazy``, ``plugin_for``, ``require_plugin``,
``known_formats``, ``registered_formats``, ``load_all_formats``, ``parse_params``,
``make_format``.  A format is imported the first time it is asked for (``register_lazy``).

It sits below the state fold, the rules and the aggregate, which find a format here;
the plug-in and its facets name the state by its data module
(``ledger.core.state_model``) and the aggregate by an alias, so the core's import graph
has no circle (issue 17): state model → facets → plug-in → socket → state → rules →
aggregate.

May import: ``ledger.wire.events``, ``ledger.errors``, ``ledger.core.params``,
``ledger.core.format_plugin``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from ledger.core.params import Param
from ledger.errors import RuleError
from ledger.wire.events import ON_UNKNOWN_KIND, FormatSpec, register_body

if TYPE_CHECKING:
    from ledger.core.format_plugin import FormatPlugin


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
    found = getattr(importlib.import_module(module), attr)
    from ledger.core.format_plugin import FormatPlugin

    if not isinstance(found, FormatPlugin) or found.id != format_id:
        raise ValueError(f"{target} is not the plug-in of format {format_id}")
    plugin: FormatPlugin = found
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


def registered_formats() -> list[FormatPlugin]:
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
                      params=plugin.rules.genesis_params(dict(params or {})))
    plugin.rules.check_spec(spec)
    return spec
