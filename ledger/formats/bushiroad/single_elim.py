"""Bushiroad single elimination: seeding by ranking and advancing through the bracket.

Owns: ``standard_seed_order`` and ``seeded_slots`` (a bracket seeded from a ranking — the
qualifying standings, or a DRAW-v1 order recorded as its own event — with the top seeds
facing the empty slots), ``round_matches`` (the matches and walkovers of one round) and
``advance`` (the next round's entries from the results; BR-SE-1, AMB-B13).

AMB-B13: when both fighters of a match lose (time-up without Annex A under
``br_se_equal_games_at_time = both_lose``), nobody advances from that match and the
next-round opponent advances without playing.  If a branch has no fighter left, the
organiser decides, with a reason: ``round_matches`` reports such pairs in ``empty`` and
``champion`` returns ``None`` when the final has nobody.

Slots pair (1, 2), (3, 4), …; winners of adjacent matches meet next round.

May import: the standard library, ``ledger.errors``, ``ledger.formats.bushiroad.model``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ledger.errors import RuleError
from ledger.formats.bushiroad.model import FighterId

Entry = FighterId | None


def _refuse(message: str, hint: str) -> RuleError:
    return RuleError("BR-SE-1", message, hint=hint, finding="invalid_bracket")


def bracket_size(fighters: int) -> int:
    """The smallest power of two holding every fighter (1 for a single fighter)."""
    size = 1
    while size < fighters:
        size *= 2
    return size


def standard_seed_order(size: int) -> tuple[int, ...]:
    """Seed numbers by slot so that seeds 1 and 2 can meet only in the final:
    2 → (1, 2); 4 → (1, 4, 2, 3); 8 → (1, 8, 4, 5, 2, 7, 3, 6)."""
    if size < 1 or size & (size - 1):
        raise _refuse(f"a bracket has a power-of-two size, not {size}", "use 2, 4, 8, …")
    order = [1]
    while len(order) < size:
        n = 2 * len(order)
        order = [x for s in order for x in (s, n + 1 - s)]
    return tuple(order)


def seeded_slots(ranking: Sequence[FighterId], size: int | None = None) -> tuple[Entry, ...]:
    """Slots of a bracket seeded by ``ranking`` (best first): seed k sits at the slot of k in
    ``standard_seed_order``; seeds beyond the field are empty, so the top seeds advance
    without playing in round 1 (byes)."""
    if len(set(ranking)) != len(ranking):
        raise _refuse("the seeding lists a fighter twice", "pass each finalist once")
    size = bracket_size(len(ranking)) if size is None else size
    if size < len(ranking):
        raise _refuse(f"{len(ranking)} fighters do not fit a bracket of {size}",
                      "use a larger bracket")
    return tuple(ranking[s - 1] if s <= len(ranking) else None
                 for s in standard_seed_order(size))


@dataclass(frozen=True)
class SERound:
    """One round: matches to play, fighters advancing unplayed, pairs with nobody left."""

    matches: tuple[tuple[FighterId, FighterId], ...]
    walkovers: tuple[FighterId, ...]
    empty: tuple[int, ...]           # 0-based pair indices with no fighter (AMB-B13)


def round_matches(entries: Sequence[Entry]) -> SERound:
    """The matches of a round from its entries (pairs of adjacent slots)."""
    if len(entries) < 2 or len(entries) % 2:
        raise _refuse(f"a bracket round has an even number (≥ 2) of slots, not "
                      f"{len(entries)}", "pass the round's slots")
    matches: list[tuple[FighterId, FighterId]] = []
    walkovers: list[FighterId] = []
    empty: list[int] = []
    for i in range(0, len(entries), 2):
        a, b = entries[i], entries[i + 1]
        if a is not None and b is not None:
            matches.append((a, b))
        elif a is not None or b is not None:
            walkovers.append(a if a is not None else b)  # type: ignore[arg-type]
        else:
            empty.append(i // 2)
    return SERound(tuple(matches), tuple(walkovers), tuple(empty))


def advance(entries: Sequence[Entry],
            winners: Mapping[tuple[FighterId, FighterId], FighterId | None]) -> tuple[Entry, ...]:
    """The next round's entries: each match's winner (``None`` after a double loss,
    AMB-B13), a walkover's fighter, or ``None`` for an empty pair.  Every match of the
    round needs a result; a winner must be one of its two fighters."""
    rnd = round_matches(entries)
    missing = [m for m in rnd.matches if m not in winners]
    if missing:
        raise _refuse(f"match(es) {[list(m) for m in missing]} have no result yet",
                      "record every match of the round first")
    out: list[Entry] = []
    for i in range(0, len(entries), 2):
        a, b = entries[i], entries[i + 1]
        if a is not None and b is not None:
            w = winners[(a, b)]
            if w is not None and w not in (a, b):
                raise _refuse(f"fighter {w} did not play {a} v {b}", "name one of the two")
            out.append(w)
        else:
            out.append(a if a is not None else b)
    return tuple(out)


def champion(entries: Sequence[Entry]) -> FighterId | None:
    """The champion once one slot is left (BR-SE-1); ``None`` if nobody is left (the
    organiser decides, AMB-B13)."""
    if len(entries) != 1:
        raise _refuse(f"the bracket still has {len(entries)} slots", "play the next round")
    return entries[0]
