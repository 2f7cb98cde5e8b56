"""Genesis parameters of a format (RULES.md §8): declared once, validated the same way
at the command (``init --param``) and by the audit (genesis check).

Owns: ``ParamSpec`` — a format's parameters with defaults and allowed values (a tuple of
choices, or an inclusive ``(min, max)`` for integers), ``NAME=VALUE`` parsing and the
validation of a ``FormatSpec``.

May import: ``ledger.wire.events``, ``ledger.errors``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ledger.errors import RuleError, UsageError
from ledger.wire.events import FormatSpec

Param = str | int | bool
Allowed = tuple[str, ...] | tuple[int, int] | tuple[bool, bool]


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _refused(allowed: Allowed, value: object) -> str | None:
    """None when ``value`` is allowed, else the allowed values in words (the one check
    of a value, for ``init --param`` and the audit's genesis check alike)."""
    if isinstance(allowed[0], bool):
        ok = isinstance(value, bool)
    elif _is_int(allowed[0]):
        ok = _is_int(value) and allowed[0] <= value <= allowed[1]  # type: ignore[operator]
    else:
        ok = isinstance(value, str) and value in allowed
    if ok:
        return None
    return f"{allowed[0]}..{allowed[1]}" if _is_int(allowed[0]) else \
        ", ".join(str(a) for a in allowed)


@dataclass(frozen=True)
class ParamSpec:
    defaults: dict[str, Param]
    #: allowed values per parameter: choices, or (min, max) for integers, or (False, True)
    choices: dict[str, Allowed]
    default_cut: int = 0
    #: parameters recorded at genesis only when set (so older genesis bytes stay the same)
    optional: frozenset[str] = field(default_factory=frozenset)

    def names(self) -> list[str]:
        return sorted(self.choices)

    def parse(self, format_id: str, pairs: list[str]) -> dict[str, Param]:
        """``NAME=VALUE`` overrides, typed by the parameter's declared kind."""
        out: dict[str, Param] = {}
        for pair in pairs:
            name, sep, value = pair.partition("=")
            if not sep or name not in self.choices:
                raise UsageError(f"--param {pair!r} is not NAME=VALUE of a parameter of "
                                 f"{format_id}", hint=f"parameters: {', '.join(self.names())}")
            allowed = self.choices[name]
            if isinstance(allowed[0], bool):
                if value not in ("true", "false"):
                    raise UsageError(f"--param {name} takes true or false, not {value!r}")
                out[name] = value == "true"
            elif _is_int(allowed[0]):
                try:
                    out[name] = int(value)
                except ValueError:
                    raise UsageError(f"--param {name} takes a whole number, not {value!r}",
                                     hint=f"allowed: {allowed[0]}..{allowed[1]}") from None
            else:
                out[name] = value
            shown = _refused(allowed, out[name])
            if shown is not None:  # issue 17, defect 20: every bad value is usage (exit 2)
                raise UsageError(f"--param {name}={value} is not allowed",
                                 hint=f"allowed: {shown}")
        return out

    def check(self, spec: FormatSpec) -> None:
        """Every recorded parameter is one of this format's, with an allowed value."""
        for name, value in spec.params.items():
            allowed = self.choices.get(name)
            if allowed is None:
                raise RuleError("RULES-8", f"{spec.id} has no parameter {name!r}",
                                hint=f"parameters: {', '.join(self.names())}")
            shown = _refused(allowed, value)
            if shown is not None:
                raise RuleError("RULES-8", f"parameter {name}={value!r} is not allowed",
                                hint=f"allowed: {shown}")
        missing = sorted(set(self.defaults) - self.optional - set(spec.params))
        if missing:
            raise RuleError("DESIGN-10", f"genesis must record every parameter; missing "
                            f"{', '.join(missing)}", finding="genesis")
