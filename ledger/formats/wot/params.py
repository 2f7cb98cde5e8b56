"""Event parameters of the Wheel of Time formats (RULES.md §8, AMB-W3/W6/W15).

Owns: ``PARAMS`` — per ``Revision``, plain data ``name -> (default, allowed)`` where
``allowed`` is a tuple of choices (``str`` or ``bool`` values) or an ``IntRange`` — and
``resolve_params`` / ``check_params``, the one validation of a parameter set (defaults
filled in, unknown names, values and cross-parameter conditions refused with a rule ID).

Defaults that the sources leave to the Judge (``wot_format``, ``wot_game_minutes``) are this
module's choices, announced at genesis like every other value (docs/DESIGN.md §10 "Rule revisions").

May import: the standard library, ``ledger.errors``, ``ledger.formats.wot.model``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple, cast

from ledger.errors import RuleError
from ledger.formats.wot.model import Revision

__all__ = ["PARAMS", "IntRange", "Param", "check_params", "resolve_params", "total_games"]

Param = str | int | bool


class IntRange(NamedTuple):
    """Inclusive integer range; ``high is None`` means no upper bound."""

    low: int
    high: int | None


Allowed = tuple[str, ...] | tuple[bool, ...] | IntRange

_COMMON: dict[str, tuple[Param, Allowed]] = {
    # WOTOLD-TIME-1 / WOT01-TIME-1: one Game duration in [60, 75], announced once.
    "wot_game_minutes": (60, IntRange(60, 75)),
    # WOTOLD-CYCLE-2: as many Cycles as time allows, >= 1, 2 recommended (AMB-W19).
    "wot_cycles": (2, IntRange(1, None)),
}

PARAMS: dict[Revision, dict[str, tuple[Param, Allowed]]] = {
    Revision.WOT_OLD: {
        "rules": ("WOT_OLD", ("WOT_OLD",)),
        # WOTOLD-TYPE-1; aiel_wars exists only in 004 (RULES.md §11, §8 wot_format).
        "wot_format": ("constructed", ("sealed", "constructed")),
        **_COMMON,
        # WOTOLD-TIME-3: the final Last Battle game-turn is called after 15 minutes.
        "wot_final_turn_call_minutes": (15, IntRange(15, 15)),
        # AMB-W3: the formulas govern (default) or a winner's value is clamped to >= 0.
        "wot_classic_tbp_sign": ("formula", ("formula", "clamp_to_sign")),
        # AMB-W15: a tbp_overridden value does not feed other players' averages (default).
        "wot_override_in_averages": (False, (False, True)),
    },
    Revision.WOT_2001: {
        "rules": ("WOT_2001", ("WOT_2001",)),
        # WOT01-TYPE-1, WOT01-DECK-4 (Aiel Wars, a constructed variant).
        "wot_format": ("constructed", ("sealed", "constructed", "aiel_wars")),
        **_COMMON,
        # WOT01-TIME-3, AMB-W6: fixed before the event in [5, 15], default 15.
        "wot_final_turn_call_minutes": (15, IntRange(5, 15)),
        # WOT01-DECK-1: Cycles starting characters, sealed only, announced at the start.
        "wot_cycles_starting_characters_allowed": (False, (False, True)),
        # AMB-W4 "Flag": the loser of a pre-Last Battle kill keeps their Pattern (default) or
        # gets 0.  Not named in RULES.md §8; this module's name for the flag.
        "wot_early_kill_loser_tbp": ("pattern", ("pattern", "zero")),
    },
}


def total_games(params: Mapping[str, object]) -> int:
    """Games in the event: two per Cycle (WOTOLD-CYCLE-1/2); it ends after a complete
    Cycle (AMB-W19).  ``params`` as resolved by ``resolve_params``."""
    cycles = params.get("wot_cycles", 2)
    if isinstance(cycles, bool) or not isinstance(cycles, int) or cycles < 1:
        raise RuleError("RULES-8", f"wot_cycles={cycles!r} is not an integer >= 1")
    return 2 * cycles


def _allowed_text(allowed: Allowed) -> str:
    if isinstance(allowed, IntRange):
        return f"an integer >= {allowed.low}" if allowed.high is None \
            else f"an integer in [{allowed.low}, {allowed.high}]"
    return " / ".join(str(v).lower() if isinstance(v, bool) else str(v) for v in allowed)


def _ok(value: object, allowed: Allowed) -> bool:
    if isinstance(allowed, IntRange):
        return (isinstance(value, int) and not isinstance(value, bool)
                and value >= allowed.low and (allowed.high is None or value <= allowed.high))
    if allowed and isinstance(allowed[0], bool):
        return isinstance(value, bool) and value in allowed
    return isinstance(value, str) and value in allowed


def resolve_params(revision: Revision, given: Mapping[str, object]) -> dict[str, Param]:
    """Every parameter of ``revision``: the defaults overridden by ``given``, validated.

    Raises ``RuleError`` (rule ``RULES-8``) for an unknown name, a value outside its allowed
    set, or the Cycles-starting-characters flag outside a sealed 2001 event (WOT01-DECK-1).
    """
    table = PARAMS[revision]
    out: dict[str, Param] = {name: default for name, (default, _) in table.items()}
    for name, value in given.items():
        if name not in table:
            raise RuleError("RULES-8", f"{revision.format_id} has no parameter {name!r}",
                            hint=f"parameters: {', '.join(sorted(table))}")
        allowed = table[name][1]
        if not _ok(value, allowed):
            raise RuleError("RULES-8", f"parameter {name}={value!r} is not allowed for "
                            f"{revision.format_id}", hint=f"allowed: {_allowed_text(allowed)}")
        out[name] = cast(Param, value)  # _ok checked the type
    if out.get("wot_cycles_starting_characters_allowed") is True \
            and out["wot_format"] != "sealed":
        raise RuleError("WOT01-DECK-1", "Cycles starting characters may be allowed only in a "
                        "sealed-deck event", hint="use --param wot_format=sealed or drop the flag")
    return out


def check_params(revision: Revision, params: Mapping[str, object]) -> None:
    """Validate a complete recorded parameter set (as genesis stores it, defaults included)."""
    resolved = resolve_params(revision, params)
    missing = sorted(set(resolved) - set(params))
    if missing:
        raise RuleError("RULES-8", f"{revision.format_id} parameters lack {', '.join(missing)}",
                        hint="genesis records every parameter, defaults included")
