"""The format contract's surface (issue 28): ``python -m bench.plugin_surface``.

Owns: printing the members of ``FormatPlugin`` (methods and attributes, its own and its
bases', class and instance), each facet's (``rules``, ``commands``, ``entry``, ``views``
and the optional ones) when the tree has facets, and counts of ``type: ignore``, ``Any``
and ``**kw: Any`` in the application packages (ledger/, cli/, server/, audit/,
projections/, usecases/) of the tree it is run on: ``PYTHONPATH=/work/main python -m
bench.plugin_surface`` measures another checkout (this file is read from the current one,
the counted tree is the one ``ledger`` is imported from).

May import: the standard library, ``ledger.*``.
"""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path
from typing import Any

import ledger

PACKAGES = ("ledger", "cli", "server", "audit", "projections", "usecases")
_DUNDER = re.compile(r"^__.*__$")


def _members(cls: type, instance: object | None = None) -> tuple[list[str], list[str]]:
    """(methods, attributes) a class declares for its users: public names of the class
    and its bases (not ``object``), annotated class attributes, and what an instance
    sets on itself."""
    names: set[str] = set()
    for klass in cls.__mro__:
        if klass is object:
            continue
        names |= {n for n in vars(klass) if not n.startswith("_")}
        names |= {n for n in getattr(klass, "__annotations__", {}) if not n.startswith("_")}
    if instance is not None:
        names |= {n for n in vars(instance) if not n.startswith("_")}
    methods, attrs = [], []
    for n in sorted(names):
        raw = inspect.getattr_static(cls, n, None)
        is_method = inspect.isfunction(raw) or isinstance(raw, (staticmethod, classmethod))
        (methods if is_method else attrs).append(n)
    return methods, attrs


def _line(name: str, cls: type, instance: object | None = None) -> str:
    methods, attrs = _members(cls, instance)
    return (f"{name:<14} {len(methods) + len(attrs):>3} members "
            f"({len(methods)} methods, {len(attrs)} attributes)\n"
            f"{'':<15}methods: {', '.join(methods) or '-'}\n"
            f"{'':<15}attributes: {', '.join(attrs) or '-'}")


def _counts(root: Path) -> dict[str, int]:
    out = {"type: ignore": 0, "Any": 0, "**kw: Any": 0, "files": 0}
    for pkg in PACKAGES:           # a package the tree does not have counts nothing
        for path in sorted((root / pkg).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            out["files"] += 1
            out["type: ignore"] += text.count("type: ignore")
            out["Any"] += len(re.findall(r"\bAny\b", text))
            out["**kw: Any"] += len(re.findall(r"\*\*\w+: Any\b", text))
    return out


def _plugin_class() -> tuple[type, object | None]:
    try:
        mod = importlib.import_module("ledger.core.format_plugin")
    except ModuleNotFoundError:
        mod = importlib.import_module("ledger.core.plugin")
    import ledger.formats.registry  # noqa: F401  (plugs the formats in)
    from ledger.core.format_socket import plugin_for

    cls: type = mod.FormatPlugin
    return cls, plugin_for("hotc-swiss-de")


def main() -> None:
    root = Path(ledger.__file__).resolve().parents[1]
    print(f"tree: {root}")
    cls, hotc = _plugin_class()
    facets_here = "rules" in vars(hotc) if hotc is not None else False
    print(_line("FormatPlugin", cls, hotc if facets_here else None))
    if facets_here:
        core: dict[str, Any] = {
            "rules": importlib.import_module("ledger.core.rules_facet").Rules,
            "commands": importlib.import_module("ledger.core.command_facets").Commands,
            "entry": importlib.import_module("ledger.core.entry_facet").Entry,
            "views": importlib.import_module("ledger.core.views_facet").Views,
        }
        optional = importlib.import_module("ledger.core.command_facets")
        for name, facet in core.items():
            print(_line(name, facet))
        for name in ("Teams", "SlowPlay", "JudgePowers", "RoundDocs", "Simulation"):
            print(_line(name, getattr(optional, name)))
    for what, n in _counts(root).items():
        print(f"{what:<14} {n:>5}  (in {', '.join(p for p in PACKAGES if (root / p).is_dir())})"
              if what != "files"
              else f"{what:<14} {n:>5}")


if __name__ == "__main__":
    main()
