"""The Bushiroad Penalty Guide as data (RULES.md §4.3; 002 PG Sections 3 and 4).

Owns: ``Penalty`` (the ranks of PG §2, ordered), ``Infraction`` (one row of the table: PG
number, name, the default range per level column, the remedy, the level-≤2 downgrade to a
Warning of 3.3.3 / 3.5.1.2 / 3.5.4, AMB-B23), ``CATALOGUE`` (every infraction of PG §3 and
§4), ``infraction`` (lookup), ``group`` (the upgrade group, BR-PEN-RANK-6) and
``default_range`` (the column for a tournament level, BR-LEVEL-2: Level 3 uses "Level 2
and above").  Pure data and lookups: no state.

May import: ``ledger.errors``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ledger.errors import RuleError


class Penalty(str, Enum):
    """PG §2 ranks, lowest first (the declaration order is the rank order)."""

    CAUTION = "caution"
    WARNING = "warning"
    LOSS_OF_GAME = "loss_of_game"
    LOSS_OF_MATCH = "loss_of_match"
    DISQUALIFICATION = "disqualification"

    @property
    def rank(self) -> int:
        return _RANK[self]

    @property
    def short(self) -> str:
        return _SHORT[self]


_RANK = {p: i for i, p in enumerate(Penalty)}
_SHORT = {Penalty.CAUTION: "C", Penalty.WARNING: "W", Penalty.LOSS_OF_GAME: "LoG",
          Penalty.LOSS_OF_MATCH: "LoM", Penalty.DISQUALIFICATION: "DQ"}
_BY_SHORT = {v: k for k, v in _SHORT.items()}
#: what the command line accepts besides the wire values
ALIASES = {"c": Penalty.CAUTION, "w": Penalty.WARNING, "log": Penalty.LOSS_OF_GAME,
           "lom": Penalty.LOSS_OF_MATCH, "dq": Penalty.DISQUALIFICATION}

Range = tuple[Penalty, Penalty]


def _range(text: str) -> Range | None:
    """``"W ~ LoG"`` → (WARNING, LOSS_OF_GAME); ``"by analogy"`` → None."""
    if text == "by analogy":
        return None
    parts = [p.strip() for p in text.split("~")]
    lo, hi = _BY_SHORT[parts[0]], _BY_SHORT[parts[-1]]
    return lo, hi


@dataclass(frozen=True)
class Infraction:
    section: str            # PG number, e.g. "3.5.3.2"
    name: str
    level1: Range | None    # None: "by analogy" (3.22, 4.6): a justification is required
    level2: Range | None    # "Level 2 and above" (Level 3 uses it too)
    remedy: str
    #: "in tournaments level 2 and below" a Warning replaces the LoG when the game state
    #: can still be made legal (3.3.3, 3.5.1.2, 3.5.4; AMB-B23: Levels 1 and 2 only)
    warning_at_level_2_and_below: bool = False

    @property
    def rule_id(self) -> str:
        return f"BR-PEN-{self.section}"

    @property
    def group(self) -> str:
        return group(self.section)

    @property
    def by_analogy(self) -> bool:
        return self.level1 is None


def group(section: str) -> str:
    """The upgrade group: the first two levels of the PG number (BR-PEN-RANK-6)."""
    return ".".join(section.split(".")[:2])


# (section, name, Level 1, Level 2+, remedy[, downgrade]) — RULES.md §4.3, in PG order.
_ROWS: tuple[tuple[str, str, str, str, str] | tuple[str, str, str, str, str, bool], ...] = (
    ("3.1.1.1", "Illegal deck (deck registration not required)", "W ~ LoG", "LoG",
     "Fix the deck: remove excess same-name or illegal cards; add cards if the deck is short."),
    ("3.1.1.2", "Illegal deck registration", "W", "LoG ~ DQ",
     "The fighter corrects the sheet to match the actual deck, watched by a judge."),
    ("3.1.1.3", "Illegal deck (does not match a legal registration)", "W ~ LoG", "LoG ~ DQ",
     "Fix the deck to match the sheet, watched by a judge; lost cards are replaced by "
     "another legal card and the sheet amended."),
    ("3.1.1.4", "Illegal registration and illegal deck", "LoG", "LoG ~ DQ",
     "Make the sheet legal first, then the deck match the sheet, watched by a judge."),
    ("3.1.2", "Required aid items not brought", "C", "C ~ W",
     "Judges may issue proxies or lend substitutes the organizer prepared."),
    ("3.1.3.1", "Random marking", "C ~ W", "W", "Replace the marked cards or sleeves."),
    ("3.1.3.2", "Patterned marking", "W ~ LoG", "LoG",
     "Replace. If intentional, it is 4.3 instead."),
    ("3.2.1", "Conveying incorrect information, minor", "C", "C ~ W",
     "No penalty if the correct information was given before it affected the game."),
    ("3.2.2", "Conveying incorrect information, major", "C ~ W", "W ~ LoM",
     "If the game state became illegal or must be rewound, see 3.3."),
    ("3.3.1", "Illegal game state, minor", "C", "C ~ W",
     "Correct to a legal state neutrally; if no longer possible it becomes 3.3.2 or 3.3.3."),
    ("3.3.2", "Illegal game state, moderate", "C ~ W", "W",
     "The judge makes the state legal, giving no advantage to the offender."),
    ("3.3.3", "Illegal game state, major", "LoG", "LoG",
     "At Level 2 and below, if the state can still be made legal without advantage, play "
     "continues and the penalty is a Warning.", True),
    ("3.4", "Forgot to resolve an automatic ability", "C ~ W", "W",
     "Resolve it at the next check timing; a missed 'may' is declined with no penalty."),
    ("3.5.1.1", "Failure to reveal, card identifiable", "C ~ W", "W",
     "Reveal the card. If it is an illegal card, this is foul play (Section 4)."),
    ("3.5.1.2", "Failure to reveal, card not identifiable", "LoG", "LoG",
     "At Level 2 and below, if the state can be made legal without advantage, play "
     "continues and the penalty is a Warning.", True),
    ("3.5.2", "Failure to discard cards", "C ~ W", "W",
     "Discard now; if information was gained, at random or chosen by the opponent from the "
     "revealed hand."),
    ("3.5.3.1", "Looking at extra cards, before the match begins", "C ~ W", "C ~ W",
     "If an advantage was gained the judge may reveal as many random cards and reshuffle."),
    ("3.5.3.2", "Looking at extra cards, after the match begins", "C ~ W", "W",
     "The judge identifies the unrevealed cards and shuffles the hidden zone; known-position "
     "cards go back to their places."),
    ("3.5.4", "Drawing extra cards", "LoG", "LoG",
     "At Level 2 and below, if the state can be made legal without advantage, play "
     "continues and the penalty is a Warning; the extra card goes on top of the deck.", True),
    ("3.5.5", "Unable to tell which cards belong to which area", "C ~ LoG", "W ~ LoG",
     "Put it right as far as possible without advantage; judges may check zones."),
    ("3.6.1.1", "Altered sequence in a sequenced area, few cards", "C", "C ~ W",
     "Restore the order if possible; otherwise random, or the opponent chooses."),
    ("3.6.1.2", "Altered sequence, many cards", "C ~ W", "W",
     "Restore if possible; otherwise known-position cards back, the rest shuffled."),
    ("3.6.2", "Made cards distinguishable in a hidden, sequenced area", "C", "W",
     "Straighten the cards so they cannot be told apart."),
    ("3.7.1", "Overlooked an infraction from the opponent's cards", "C", "C ~ W",
     "Both fighters may be penalised if it was easy to spot."),
    ("3.7.2", "Overlooked an infraction from the fighter's own cards", "C ~ W", "W",
     "Both fighters may be penalised if it was easy to spot."),
    ("3.8.1", "Unsportsmanlike conduct, minor or moderate", "C ~ W", "W ~ LoM",
     "Repeats may be upgraded even when the acts differ."),
    ("3.8.2", "Unsportsmanlike conduct, major", "LoG", "LoG ~ DQ",
     "Applies to instructions given to the individual, not to general announcements."),
    ("3.8.3", "Unsportsmanlike conduct, severe", "DQ", "DQ", "–"),
    ("3.9.1", "Common tardiness", "C ~ W", "W ~ LoM",
     "No penalty if the round started early; a fighter with a bye must be seated too."),
    ("3.9.2", "Severe tardiness", "LoM", "LoM",
     "The fighter loses the match; without a score sheet handed in before the next "
     "pairing, the fighter is dropped (AMB-B18/B19)."),
    ("3.10.1", "Played the wrong match, found before the result was reported", "C ~ W", "W",
     "Both fighters are penalised; the fighter at the wrong table moves to the right one."),
    ("3.10.2", "Played the wrong match, found after the result was reported", "C ~ W", "W",
     "Both fighters are penalised; results amended (BR-PEN-3.10.2-AMEND)."),
    ("3.11", "Improper shuffle", "C ~ W", "C ~ W", "Order a proper shuffle."),
    ("3.12", "Arranging cards before shuffling", "C", "W", "–"),
    ("3.13", "Excessive handling of cards outside the hand", "C ~ W", "W", "–"),
    ("3.14", "Improper behaviour interfering with the tournament", "W", "W",
     "Serious or admitted cases are unsportsmanlike conduct (3.8)."),
    ("3.15", "Eating during a match without permission", "W", "W",
     "Permission comes from the organizer or head judge."),
    ("3.16", "Unnecessary electronic devices during a match", "C ~ W", "W ~ LoM",
     "The head judge may order devices switched off."),
    ("3.17", "Taking notes without permission", "W", "W",
     "Tracking life in BF is not an infraction."),
    ("3.18.1", "Reporting an improper result", "C ~ W", "W",
     "A slip handed in counts as agreed (LEDGER-RES-1)."),
    ("3.18.2", "Damaging a score sheet", "C ~ W", "W", "–"),
    ("3.18.3", "Losing a score sheet", "DQ", "DQ",
     "If the scores can be recovered, a new sheet is issued and the penalty becomes W ~ LoM."),
    ("3.19.1", "Slow play, minor", "C", "C ~ W", "–"),
    ("3.19.2", "Slow play, moderate", "C ~ W", "W ~ LoG", "–"),
    ("3.19.3", "Slow play, severe", "LoG ~ DQ", "LoG ~ DQ", "–"),
    ("3.20", "Excessive or noisy hand shuffling", "C ~ W", "W", "–"),
    ("3.21", "Touching or controlling cards in other matches", "W", "W ~ LoM", "–"),
    ("3.22", "Others (by analogy)", "by analogy", "by analogy",
     "Justification required (BR-PEN-GEN-2)."),
    ("4.1", "Cheating (forgery, collusion, misrepresentation)", "DQ", "DQ",
     "Applies when advantage is sought or gained."),
    ("4.2", "Moving cards improperly for advantage", "DQ", "DQ", "–"),
    ("4.3", "Intentionally marked cards", "DQ", "DQ", "–"),
    ("4.4", "Illegal changes to a deck", "DQ", "DQ",
     "Replacing a damaged card with an identical one is a remedy, not this infraction."),
    ("4.5", "Illegal outside assistance", "W ~ DQ", "LoM ~ DQ",
     "The adviser and the fighter who asked are penalised; the judge may rebalance a game."),
    ("4.6", "Others (foul play, by analogy)", "by analogy", "by analogy",
     "Justification required (BR-PEN-GEN-2)."),
)


def _build() -> dict[str, Infraction]:
    out: dict[str, Infraction] = {}
    for row in _ROWS:
        section, name, l1, l2, remedy = row[:5]
        down = bool(row[5]) if len(row) > 5 else False
        out[section] = Infraction(section=section, name=name, level1=_range(l1),
                                  level2=_range(l2), remedy=remedy,
                                  warning_at_level_2_and_below=down)
    return out


CATALOGUE: dict[str, Infraction] = _build()


def infraction(section: str) -> Infraction:
    found = CATALOGUE.get(section.removeprefix("BR-PEN-"))
    if found is None:
        raise RuleError("BR-PEN-GEN-2", f"{section!r} is not an infraction of the Penalty "
                        "Guide", hint="see 'tourney penalty guide'; unlisted infractions are "
                        "3.22 (others) or 4.6 (foul play), with a justification")
    return found


def default_range(inf: Infraction, level: int) -> Range | None:
    """The default column for ``level`` (BR-LEVEL-2)."""
    return inf.level1 if level <= 1 else inf.level2


def in_default(inf: Infraction, level: int, penalty: Penalty) -> bool:
    """Whether ``penalty`` is within the default for ``level`` (with the AMB-B23 downgrade)."""
    rng = default_range(inf, level)
    if rng is None:
        return False
    if inf.warning_at_level_2_and_below and level <= 2 and penalty is Penalty.WARNING:
        return True
    return rng[0].rank <= penalty.rank <= rng[1].rank


def range_text(rng: Range | None) -> str:
    if rng is None:
        return "by analogy"
    return rng[0].short if rng[0] is rng[1] else f"{rng[0].short} ~ {rng[1].short}"


def parse_penalty(text: str) -> Penalty:
    key = text.strip().lower().replace("-", "_")
    if key in ALIASES:
        return ALIASES[key]
    try:
        return Penalty(key)
    except ValueError:
        raise RuleError("BR-PEN-RANK", f"{text!r} is not a penalty",
                        hint="caution, warning, loss_of_game (log), loss_of_match (lom)"
                        ) from None
