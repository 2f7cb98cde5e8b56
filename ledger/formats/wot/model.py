"""Shared vocabulary of the Wheel of Time formats (RULES.md §6, §7; docs/DESIGN.md §10, §11).

Owns: ``Revision`` (WOT_OLD = ``wot-classic``, WOT_2001 = ``wot-2001``; it selects every
revision-dependent rule), ``Side`` (hero / villain), the score key of WOTOLD-PAIR-10 and the
exact TBP string form of docs/DESIGN.md §11 (``"num/den"`` or an integer string).

May import: the standard library only.
"""

from __future__ import annotations

import re
from enum import Enum
from fractions import Fraction

__all__ = ["Revision", "Side", "format_tbp", "parse_tbp", "rule_id"]


class Revision(str, Enum):
    """The rules revision an event records at genesis (WOTOLD-MISC-1, RULES.md §8 ``rule_set``)."""

    WOT_OLD = "WOT_OLD"
    WOT_2001 = "WOT_2001"

    @property
    def format_id(self) -> str:
        """The normative format id of docs/DESIGN.md §10."""
        return "wot-classic" if self is Revision.WOT_OLD else "wot-2001"

    @property
    def prefix(self) -> str:
        """Rule-ID prefix of RULES.md §0.2: ``WOTOLD`` or ``WOT01``."""
        return "WOTOLD" if self is Revision.WOT_OLD else "WOT01"

    @classmethod
    def from_format_id(cls, format_id: str) -> Revision:
        for rev in cls:
            if rev.format_id == format_id:
                return rev
        raise ValueError(f"not a Wheel of Time format id: {format_id!r}")


class Side(str, Enum):
    """The deck a player uses in a Game (WOTOLD-CYCLE-1); wire values of docs/DESIGN.md §11."""

    HERO = "hero"
    VILLAIN = "villain"

    @property
    def other(self) -> Side:
        return Side.VILLAIN if self is Side.HERO else Side.HERO


def rule_id(revision: Revision, topic: str) -> str:
    """``rule_id(WOT_2001, "SCORE-9")`` → ``"WOT01-SCORE-9"``."""
    return f"{revision.prefix}-{topic}"


_TBP_RE = re.compile(r"-?(0|[1-9][0-9]*)(/[1-9][0-9]*)?")


def format_tbp(value: Fraction) -> str:
    """Exact TBP text of docs/DESIGN.md §11: ``"-11/3"``, ``"4"``, ``"0"`` (lowest terms)."""
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value.numerator}/{value.denominator}"


def parse_tbp(text: str) -> Fraction:
    """Inverse of ``format_tbp``; refuses anything but the canonical form (no floats, no
    ``+``, no spaces, lowest terms, denominator > 1) so one value has one spelling."""
    if not _TBP_RE.fullmatch(text):
        raise ValueError(f"TBP {text!r} is not an integer or num/den string")
    value = Fraction(text)
    if format_tbp(value) != text:
        raise ValueError(f"TBP {text!r} is not in canonical form (expected {format_tbp(value)!r})")
    return value
