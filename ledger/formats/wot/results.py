"""Recorded results of a Wheel of Time Game and their validation (RULES.md §6.3, §7.3).

Owns: the outcome codes (``ClassicOutcome`` O1..O9 of WOTOLD-SCORE-3, ``Outcome2001`` Q1..Q6
of WOT01-SCORE-9; O9/Q6 are projection-only bye codes), the rule-level result record
``WotResult`` (the fields of docs/DESIGN.md §11 ``result_recorded``: ``outcome``, ``sides``,
``winner``, ``support`` / ``pattern`` + ``neutral``, ``conceded_by``, ``last_battle``) and
``validate_result``, which refuses a result whose fields do not fit its code.

Recorded amounts (support/opposition S, Pattern P, Neutral Pattern N) are counts: integers
>= 0.  A classic O1 winner must have reached 5+ (WOTOLD-SCORE-3 row O1).  A field the outcome
does not use is refused, so one result has one reading.

May import: the standard library, ``ledger.errors``, ``ledger.formats.wot.model``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum

from ledger.errors import RuleError
from ledger.formats.wot.model import Revision, Side, rule_id

__all__ = ["BYE_CODE", "RESULT_CODES", "ClassicOutcome", "Outcome2001", "WotResult",
           "concession_code", "last_battle_of", "result_error", "validate_result"]


class ClassicOutcome(str, Enum):
    """WOTOLD-SCORE-3; O9 (bye) is a projection code only (WOTOLD-SCORE-5)."""

    O1 = "O1"  # win in the LB by reaching 5+ support/opposition
    O2 = "O2"  # win by killing the opponent's Ta'veren/Forsaken during the LB
    O3 = "O3"  # opponent concedes / is declared forfeit during the LB
    O4 = "O4"  # win by a kill before the LB
    O5 = "O5"  # opponent concedes / is declared forfeit before the LB
    O6 = "O6"  # both killed in the same LB game-turn
    O7 = "O7"  # both killed in the same game-turn before the LB
    O8 = "O8"  # tie: final LB game-turn completed, nobody won
    O9 = "O9"  # bye


class Outcome2001(str, Enum):
    """WOT01-SCORE-9; Q6 (bye) is a projection code only (WOT01-SCORE-10)."""

    Q1 = "Q1"  # decided in the LB (support/opposition or a kill during the LB)
    Q2 = "Q2"  # tie
    Q3 = "Q3"  # both lose, outside the pre-LB kill case
    Q4 = "Q4"  # starting character / Ta'veren killed before the LB (winner None: both, AMB-W4)
    Q5 = "Q5"  # opponent concedes or is declared forfeit (any time)
    Q6 = "Q6"  # bye


RESULT_CODES: dict[Revision, frozenset[str]] = {
    Revision.WOT_OLD: frozenset(c.value for c in ClassicOutcome if c is not ClassicOutcome.O9),
    Revision.WOT_2001: frozenset(c.value for c in Outcome2001 if c is not Outcome2001.Q6),
}
BYE_CODE: dict[Revision, str] = {Revision.WOT_OLD: "O9", Revision.WOT_2001: "Q6"}

# Field requirements per code.  winner: "one" (exactly one winner), "none" (no winner) or
# "any" (Q4: a winner, or None for the double early kill of AMB-W4).  last_battle: required
# value, or None when either is possible.  support/pattern: "both" / "winner" / "none".
_O = ClassicOutcome
_Q = Outcome2001
_CLASSIC_SHAPE: dict[str, tuple[str, bool | None, str, bool]] = {
    # code: (winner, last_battle, support, concession)
    _O.O1: ("one", True, "both", False),
    _O.O2: ("one", True, "winner", False),
    _O.O3: ("one", True, "winner", True),
    _O.O4: ("one", False, "none", False),
    _O.O5: ("one", False, "none", True),
    _O.O6: ("none", True, "both", False),
    _O.O7: ("none", False, "none", False),
    _O.O8: ("none", True, "none", False),
}
_2001_SHAPE: dict[str, tuple[str, bool | None, bool, bool]] = {
    # code: (winner, last_battle, neutral needed, concession)
    _Q.Q1: ("one", True, False, False),
    _Q.Q2: ("none", True, False, False),
    _Q.Q3: ("none", None, False, False),
    _Q.Q4: ("any", False, True, False),
    _Q.Q5: ("one", None, True, True),
}


@dataclass(frozen=True, slots=True)
class WotResult:
    """One table's recorded result (docs/DESIGN.md §11 ``result_recorded`` WoT fields).

    ``sides`` maps both players to their side (equal to the pairing's); ``support`` (classic)
    and ``pattern`` (2001) map player numbers to amounts; ``neutral`` is N (2001, Q4/Q5)."""

    table: int
    outcome: str
    sides: Mapping[int, Side]
    last_battle: bool
    winner: int | None = None
    support: Mapping[int, int] = field(default_factory=dict)
    pattern: Mapping[int, int] = field(default_factory=dict)
    neutral: int | None = None
    conceded_by: int | None = None


def result_error(revision: Revision, topic: str, message: str,
                 hint: str | None = None) -> RuleError:
    """A refusal of recorded result data (finding ``wot_result_invalid``)."""
    return RuleError(rule_id(revision, topic), message, hint=hint, finding="wot_result_invalid")


def _count(bad: Callable[[str], RuleError], what: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise bad(f"{what} is {value!r}, not a count >= 0")


def validate_result(revision: Revision, res: WotResult) -> None:
    """Refuse a result whose fields do not fit its outcome code (WOTOLD-SCORE-3/5,
    WOT01-SCORE-9/10).  Pure; raises ``RuleError`` naming the rule and the table."""
    model = "SCORE-5" if revision is Revision.WOT_OLD else "SCORE-10"

    def bad(message: str, hint: str | None = None, topic: str = model) -> RuleError:
        return result_error(revision, topic, f"table {res.table}: {message}", hint)

    code = res.outcome
    if code not in RESULT_CODES[revision]:
        codes = ", ".join(sorted(RESULT_CODES[revision]))
        raise bad(f"outcome {code!r} is not a {revision.format_id} result code",
                  hint=f"use one of {codes}; a bye is recorded only on the pairing")
    players = sorted(res.sides)
    if len(players) != 2 or {res.sides[p] for p in players} != {Side.HERO, Side.VILLAIN}:
        raise bad(f"sides must name one hero and one villain, got {dict(res.sides)!r}")
    if revision is Revision.WOT_OLD:
        winner_rule, lb, amounts, concession = _CLASSIC_SHAPE[code]
        neutral_needed = False
    else:
        winner_rule, lb, neutral_needed, concession = _2001_SHAPE[code]
        amounts = "both"
    if res.winner is not None and res.winner not in res.sides:
        raise bad(f"winner {res.winner} is not at the table")
    if winner_rule == "one" and res.winner is None:
        raise bad(f"outcome {code} needs a winner")
    if winner_rule == "none" and res.winner is not None:
        raise bad(f"outcome {code} has no winner, got winner {res.winner}")
    if lb is not None and res.last_battle is not lb:
        raise bad(f"outcome {code} happens {'during' if lb else 'before'} the Last Battle, "
                  f"but last_battle is {str(res.last_battle).lower()}")
    if concession:
        loser = next(p for p in players if p != res.winner)
        if res.conceded_by != loser:
            raise bad(f"outcome {code} needs conceded_by = the loser {loser}, "
                      f"got {res.conceded_by!r}")
    elif res.conceded_by is not None:
        raise bad(f"outcome {code} is not a concession, but conceded_by is set",
                  hint="use O3/O5 (classic) or Q5 (2001)")
    if revision is Revision.WOT_OLD:
        if res.pattern or res.neutral is not None:
            raise bad("pattern/neutral belong to wot-2001 results; classic results record "
                      "support")
        need = set(players) if amounts == "both" else \
            {res.winner} if amounts == "winner" and res.winner is not None else set()
        if set(res.support) != need:
            raise bad(f"outcome {code} records support for exactly {sorted(need)}, "
                      f"got {sorted(res.support)}")
        for p, s in res.support.items():
            _count(bad, f"support/opposition of player {p}", s)
        if code == _O.O1 and res.winner is not None and res.support[res.winner] < 5:
            raise bad(f"an O1 winner reaches 5+ support/opposition, got "
                      f"{res.support[res.winner]}", topic="SCORE-3",
                      hint="a Last Battle win by a kill is O2; a tie is O8")
        return
    if res.support:
        raise bad("support belongs to classic results; wot-2001 results record pattern")
    if set(res.pattern) != set(players):
        raise bad(f"outcome {code} records the pattern of both players {players}, "
                  f"got {sorted(res.pattern)}")
    for p, s in res.pattern.items():
        _count(bad, f"pattern of player {p}", s)
    if neutral_needed:
        if res.neutral is None:
            raise bad(f"outcome {code} needs the neutral pattern N")
        _count(bad, "neutral pattern N", res.neutral)
    elif res.neutral is not None:
        raise bad(f"outcome {code} does not use the neutral pattern N",
                  hint="record neutral only for Q4 and Q5")


def last_battle_of(revision: Revision, code: str) -> bool | None:
    """Whether outcome ``code`` happens in the Last Battle (None: either is possible, Q3/Q5;
    also None for an unknown code, which ``validate_result`` refuses)."""
    shape = _CLASSIC_SHAPE if revision is Revision.WOT_OLD else _2001_SHAPE
    row = shape.get(code)
    return None if row is None else row[1]


def concession_code(revision: Revision, last_battle: bool) -> str:
    """The code of a concession or forfeit (O3 / O5 classic, Q5 in 2001; AMB-W10)."""
    if revision is Revision.WOT_2001:
        return _Q.Q5.value
    return _O.O3.value if last_battle else _O.O5.value
