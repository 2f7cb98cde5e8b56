"""End of the Swiss phase, top-cut selection and the bracket (RULES.md §2.6–2.7).

Owns: ``undefeated`` and ``stop_rule`` (HOTC-STOP-1), ``eligible_pool`` (HOTC-CUT-2,
AMB-H8), ``cut_spots`` (HOTC-CUT-1, AMB-H6/H7/H9), ``bracket_slots`` (HOTC-TOP-1,
AMB-H9/H10) and ``bracket_tables`` (pairs of adjacent slots; empty slot = advance).
Pure functions shared by commands, projections and the audit.

May import: ``ledger.formats.match.model``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ledger.formats.match.model import TIME_LOSSES, PlayerRecord, Status


def active(records: Iterable[PlayerRecord]) -> list[PlayerRecord]:
    return [r for r in records if r.status is Status.ACTIVE]


def undefeated(records: Iterable[PlayerRecord]) -> list[int]:
    """Active players with no losses (X-0), by number."""
    return sorted(r.number for r in active(records) if r.losses == 0)


def stop_rule(undefeated_count: int, cut_size: int) -> bool:
    """HOTC-STOP-1: the Swiss phase ends when strictly fewer X-0 players than cut spots."""
    return undefeated_count < cut_size


def eligible_pool(records: Iterable[PlayerRecord]) -> list[int]:
    """HOTC-CUT-2: not eliminated, not dropped, no loss due to slow play or time; the
    X-0 players are admitted already, so the pool is the rest (pre-ordered by number)."""
    return sorted(r.number for r in active(records)
                  if 0 < r.losses < 2 and not TIME_LOSSES.intersection(r.loss_reasons))


def cut_spots(cut_size: int, undefeated_count: int) -> int:
    """R = N_cut − X-0 (AMB-H6: R = N_cut when none is left undefeated)."""
    return max(cut_size - undefeated_count, 0)


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
