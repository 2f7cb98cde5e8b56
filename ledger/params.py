"""Registry of tournament formats and their genesis parameters (RULES.md §8).

Owns: the closed set of format ids ``init`` accepts and the validation of their
parameters.  Format rule modules (pairing, cut, standings) register here.

May import: ``ledger.events``, ``ledger.errors``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ledger.errors import RuleError, UsageError
from ledger.events import FormatSpec

Param = str | int | bool


@dataclass(frozen=True)
class FormatInfo:
    id: str
    title: str
    default_cut: int
    default_params: dict[str, Param]
    #: allowed values per parameter: a tuple of choices, or (min, max) for integers
    choices: dict[str, tuple[str, ...] | tuple[int, int]]


FORMATS: dict[str, FormatInfo] = {
    "hotc-swiss-de": FormatInfo(
        id="hotc-swiss-de",
        title="HotC Swiss double elimination with a random top cut (RULES.md §2)",
        default_cut=8,
        default_params={"match_minutes": 40, "rules": "HOTC_2013",
                        "pair_down_counts": "higher", "bye_priority": "no_repeat"},
        choices={"match_minutes": (1, 240), "rules": ("HOTC_2013",),
                 "pair_down_counts": ("higher", "both"),           # AMB-H1
                 "bye_priority": ("no_repeat", "least_wins")},      # AMB-H4
    ),
}


def parse_params(format_id: str, pairs: list[str]) -> dict[str, Param]:
    """``NAME=VALUE`` overrides of a format's parameters (validated by ``check_format``)."""
    info = FORMATS.get(format_id)
    out: dict[str, Param] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or info is None or name not in info.default_params:
            known = ", ".join(sorted(info.default_params)) if info else "none"
            raise UsageError(f"--param {pair!r} is not NAME=VALUE of a known parameter",
                             hint=f"parameters of {format_id}: {known}")
        out[name] = int(value) if value.isdigit() and isinstance(
            info.default_params[name], int) else value
    return out


def make_format(format_id: str, cut: int | None,
                params: dict[str, Param] | None = None) -> FormatSpec:
    info = FORMATS.get(format_id)
    if info is None:
        raise RuleError("RULES-8", f"unknown format {format_id!r}",
                        hint=f"known formats: {', '.join(sorted(FORMATS))}")
    spec = FormatSpec(id=format_id, cut=info.default_cut if cut is None else cut,
                      params={**info.default_params, **(params or {})})
    check_format(spec)
    return spec


def check_format(spec: FormatSpec) -> None:
    if spec.id not in FORMATS:
        raise RuleError("RULES-8", f"unknown format {spec.id!r}",
                        hint=f"known formats: {', '.join(sorted(FORMATS))}")
    info = FORMATS[spec.id]
    for name, value in spec.params.items():
        allowed = info.choices.get(name)
        if allowed is None:
            raise RuleError("RULES-8", f"{spec.id} has no parameter {name!r}",
                            hint=f"parameters: {', '.join(sorted(info.choices))}")
        ok = (isinstance(value, int) and not isinstance(value, bool)
              and allowed[0] <= value <= allowed[1]) if isinstance(allowed[0], int) \
            else value in allowed
        if not ok:
            raise RuleError("RULES-8", f"parameter {name}={value!r} is not allowed",
                            hint=f"allowed: {allowed}")
    if not 2 <= spec.cut <= 256 or spec.cut & (spec.cut - 1):
        raise RuleError("HOTC-SCOPE-2", f"cut size {spec.cut} is not a power of two in 2..256",
                        hint="use --cut 2, 4, 8, 16, …")
