"""The bye of a HotC Swiss round under HOTC_2013_R2 (HOTC-BYE-2/3/5 as revised, AMB-H4).

Owns: ``bye_by_pairing`` — given the bye candidates in their recorded random order, the
first one whose removal lets the other players be paired with the fewest rematches, then
the fewest players with two or more pair-downs, achievable over all candidates.  The counts
come from the one pairing engine (``pair_swiss``, exact), so the command, the check and
the audit agree.  Pure: (players, order, flag) → number.

May import: ``ledger.formats.match.pairing``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ledger.formats.match.pairing import Entrant, pair_swiss, total_cost


def pairing_counts(field: Sequence[Entrant], bye: int, flag: str) -> tuple[int, int]:
    """(rematches, players with a second pair-down) of the best pairing without ``bye``."""
    others = [e for e in field if e.number != bye]
    pairs, _ = pair_swiss(others, [e.number for e in others], flag)
    rematches, doubles, _cross, _diff = total_cost(pairs, {e.number: e for e in others}, flag)
    return rematches, doubles


def counts_bound(field: Sequence[Entrant], candidates: Sequence[int],
                 flag: str) -> tuple[int, int]:
    """A lower bound on the counts over every candidate: the best pairing of the field plus
    a stand-in for the bye (number 0, in the candidates' win group — they all share one —
    and a rematch for every non-candidate).  Giving candidate c the bye is one such
    pairing (stand-in–c costs nothing), so no candidate does better; usually one of them
    reaches it."""
    cands = set(candidates)
    low = min(e.wins for e in field if e.number in cands)
    ext = [e if e.number in cands else e._replace(opponents=e.opponents | {0}) for e in field]
    stand_in = Entrant(number=0, wins=low,
                       opponents=frozenset(e.number for e in field if e.number not in cands))
    ext.append(stand_in)
    pairs, _ = pair_swiss(ext, [e.number for e in ext], flag)
    rematches, doubles, _c, _d = total_cost(pairs, {e.number: e for e in ext}, flag)
    return rematches, doubles


def bye_by_pairing(field: Sequence[Entrant], order: Sequence[int], flag: str) -> int:
    """HOTC-BYE-5 (R2): the first candidate in ``order`` with the best achievable counts.
    Candidates are evaluated in order until one reaches (0, 0) or the bound of
    ``counts_bound`` (computed only when the first candidate misses (0, 0)); only when no
    candidate reaches the bound are all of them evaluated."""
    if not order:
        raise ValueError("no bye candidate")
    best: tuple[int, int] | None = None
    bound: tuple[int, int] | None = None
    choice = order[0]
    for cand in order:
        counts = pairing_counts(field, cand, flag)
        if best is None or counts < best:
            best, choice = counts, cand
        if best == (0, 0):
            break           # nothing beats no rematch and no second pair-down
        if bound is None:
            bound = counts_bound(field, order, flag)
        if best == bound:
            break           # no candidate can do better
    return choice
