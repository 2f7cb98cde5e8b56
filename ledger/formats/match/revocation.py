"""Standing revocation after a disqualification (BR-PEN-RANK-9(b)-(d), AMB-B24), shared by
every format's standings.

Owns: ``champion_of_record`` (a champion whose standing a disqualification revoked —
after the event too, BR-PEN-RANK-9(e) — is no champion: with ``pass_down`` the title goes
to the fighter now ranked first, with ``void`` it stays vacant; issue 21 item 21, ADR
0018), ``revoked_marks`` (who was revoked, how: shown on the standings, unranked) and
``revoke`` — given the ranking computed with every player in it (a disqualified player's
results stay in every opponent's record and tie-breakers), drop the players whose
standing was revoked; with ``pass_down`` the places below move up, with ``void`` the
revoked place stays empty (the ranks below keep their numbers).

In the match layer (moved from ``ledger.formats.officiating``), whose views read it: the
officiating rules import the match layer, never the other way round
(docs/adr/0039-layering-layers-and-rule-ids.md).

May import: ``ledger.formats.match.officiating_model``, ``ledger.standings_view``.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from typing import TypeVar

from ledger.formats.match.officiating_model import DqRecord, PrizePolicy
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


def champion_of_record(champion: int | None, dq: dict[int, DqRecord],
                       first: int | None) -> int | None:
    """The champion the standings, info, report and site name: ``champion`` (the one the
    bracket declared) unless their standing was revoked; then ``first`` (the number ranked
    1 once revoked players are out) with ``pass_down``, else None (``void``)."""
    d = dq.get(champion) if champion is not None else None
    if d is None or not d.standing_revoked:
        return champion
    return first if d.prize_policy is PrizePolicy.PASS_DOWN else None
