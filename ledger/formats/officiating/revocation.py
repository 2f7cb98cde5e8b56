"""Standing revocation after a disqualification (BR-PEN-RANK-9(b)-(d), AMB-B24), shared by
every format's standings.

Owns: ``revoked_marks`` (who was revoked, how: shown on the standings, unranked) and
``revoke`` — given the ranking computed with every player in it (a disqualified player's
results stay in every opponent's record and tie-breakers), drop the players whose
standing was revoked; with ``pass_down`` the places below move up, with ``void`` the
revoked place stays empty (the ranks below keep their numbers).

May import: ``ledger.formats.officiating.model``, ``ledger.standings_view``.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from typing import TypeVar

from ledger.formats.officiating.model import DqRecord, PrizePolicy
from ledger.standings_view import Revoked

T = TypeVar("T")


def revoke(rows: Sequence[tuple[int, int, T]],
           dq: dict[int, DqRecord]) -> list[tuple[int, T]]:
    """``rows`` = (number, rank, row) best first → (new rank, row) without revoked players."""
    gone = {n for n, d in dq.items() if d.standing_revoked}
    if not gone:
        return [(rank, row) for _n, rank, row in rows]
    # everyone strictly below a revoked pass-down place moves up one
    passed = sorted(r for m, r, _ in rows
                    if m in gone and dq[m].prize_policy is PrizePolicy.PASS_DOWN)
    out: list[tuple[int, T]] = []
    for n, rank, row in rows:
        if n not in gone:
            out.append((rank - bisect_left(passed, rank), row))
    return out


def revoked_marks(dq: dict[int, DqRecord]) -> dict[int, Revoked]:
    """The players whose standing was revoked, with the mark the standings show (defect 4:
    shown, unranked, with the revocation and the prize policy; never silently left out)."""
    return {n: Revoked(seq=d.seq, round=d.round, prize_policy=d.prize_policy.value)
            for n, d in dq.items() if d.standing_revoked}
