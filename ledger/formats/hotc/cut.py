"""End of the Swiss phase, top-cut selection and the bracket (RULES.md §2.6–2.7).

Owns: ``undefeated`` and ``stop_rule`` (HOTC-STOP-1), ``eligible_pool`` (HOTC-CUT-2,
AMB-H8), ``cut_spots`` (HOTC-CUT-1, AMB-H6/H7/H9).  The bracket itself is the match
layer's (``ledger.formats.match.bracket``).  Pure functions shared by commands, projections
and the audit.

May import: ``ledger.formats.match.model``.
"""

from __future__ import annotations

from collections.abc import Iterable

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
