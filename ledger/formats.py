"""Registry of tournament formats and their genesis parameters (RULES.md §8).

Owns: the closed set of format ids ``init`` accepts and the validation of their
parameters.  Format rule modules (pairing, cut, standings) register here.

May import: ``ledger.events``, ``ledger.errors``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ledger.errors import RuleError
from ledger.events import FormatSpec


@dataclass(frozen=True)
class FormatInfo:
    id: str
    title: str
    default_cut: int
    default_params: dict[str, str | int | bool]


FORMATS: dict[str, FormatInfo] = {
    "hotc-swiss-de": FormatInfo(
        id="hotc-swiss-de",
        title="HotC Swiss double elimination with a random top cut (RULES.md §2)",
        default_cut=8,
        default_params={"match_minutes": 40, "rules": "HOTC_2013",
                        "pair_down_counts": "higher", "bye_priority": "no_repeat"},
    ),
}


def make_format(format_id: str, cut: int | None) -> FormatSpec:
    info = FORMATS.get(format_id)
    if info is None:
        raise RuleError("RULES-8", f"unknown format {format_id!r}",
                        hint=f"known formats: {', '.join(sorted(FORMATS))}")
    spec = FormatSpec(id=format_id, cut=info.default_cut if cut is None else cut,
                      params=dict(info.default_params))
    check_format(spec)
    return spec


def check_format(spec: FormatSpec) -> None:
    if spec.id not in FORMATS:
        raise RuleError("RULES-8", f"unknown format {spec.id!r}",
                        hint=f"known formats: {', '.join(sorted(FORMATS))}")
    if not 2 <= spec.cut <= 256 or spec.cut & (spec.cut - 1):
        raise RuleError("HOTC-SCOPE-2", f"cut size {spec.cut} is not a power of two in 2..256",
                        hint="use --cut 2, 4, 8, 16, …")
