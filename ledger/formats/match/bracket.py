"""Single-elimination brackets (HOTC-TOP-1, AMB-H9/H10, BR-SE-1): slots, byes, rounds.

Owns: ``bracket_size``, ``empty_slots``, ``bracket_slots`` (a seeded or drawn order onto
slots 1..N, empty slots at even positions from the bottom), ``ranked_order`` (standard
seeding 1 v N, 2 v N−1 … so the top seeds meet last) and ``bracket_tables`` (pairs of
adjacent slots; a player facing an empty slot advances).  Pure functions shared by every
format with a bracket.

May import: the standard library only.
"""

from __future__ import annotations

from collections.abc import Sequence


def bracket_size(players: int, cut_size: int) -> int:
    """AMB-H9: the cut size, or the smallest power of two holding everyone if more than
    half the slots would be empty."""
    size = cut_size
    while size > 1 and players <= size // 2:
        size //= 2
    return max(size, 2)


def empty_slots(players: int, size: int) -> list[int]:
    """1-based empty slots: even slots from the bottom (N, N−2, …), AMB-H9."""
    empties = size - players
    return [size - 2 * k for k in range(empties)]


def ranked_order(seeds: Sequence[int], size: int) -> list[int | None]:
    """Standard seeding of ``seeds`` (best first) onto ``size`` slots: seed 1 meets the
    lowest seed, and seeds 1 and 2 can meet only in the final.  Missing seeds are empty
    slots (their opponents advance)."""
    order = [1]
    while len(order) < size:
        n = 2 * len(order)
        order = [x for s in order for x in (s, n + 1 - s)]
    return [seeds[s - 1] if s <= len(seeds) else None for s in order]


def bracket_slots(drawn_order: Sequence[int], cut_size: int) -> list[int | None]:
    """Place the drawn permutation of the cut players onto slots 1..N (HOTC-TOP-1)."""
    size = bracket_size(len(drawn_order), cut_size)
    holes = set(empty_slots(len(drawn_order), size))
    it = iter(drawn_order)
    return [None if s in holes else next(it) for s in range(1, size + 1)]


def bracket_tables(entries: Sequence[int | None]) -> tuple[list[list[int]], list[int]]:
    """Matches of one bracket round from its entries: slots (1,2), (3,4), …; a player
    facing an empty slot advances without playing.  Returns (matches, advances)."""
    matches: list[list[int]] = []
    advances: list[int] = []
    for i in range(0, len(entries), 2):
        a, b = entries[i], entries[i + 1]
        if a is not None and b is not None:
            matches.append([a, b])
        elif a is not None or b is not None:
            advances.append(a if a is not None else b)  # type: ignore[arg-type]
    return matches, advances
