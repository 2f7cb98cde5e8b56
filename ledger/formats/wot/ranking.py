"""Totals, forfeiture and the final ranking of a Wheel of Time event (WOTOLD-RANK-1/2,
WOT01-RANK-1/2, WOTOLD-FORF-1, AMB-W10/W11/W12/W14).

Owns: ``totals`` (GP and TBP summed over the Games scored so far), ``next_entrants`` (what
``pairing.pair_game`` needs before the next Game: totals, the side each active player played
or was deemed to play in the previous Game, and bye counts) and ``final_ranking`` (GP desc,
then TBP desc; players still tied share a place, numbered 1, 2, 2, 4).  A player removed by a
Declaration of Forfeiture leaves the totals, the standings and future pairings and loses all
points; opponents keep the results of Games already played, and no earlier Game is re-scored
(averages computed are not recomputed, AMB-W10).

May import: the standard library, ``ledger.errors``, ``ledger.formats.wot.model``,
``ledger.formats.wot.pairing``, ``ledger.formats.wot.scoring``.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ledger.errors import RuleError
from ledger.formats.wot.model import Side
from ledger.formats.wot.pairing import Entrant, Pairing
from ledger.formats.wot.scoring import PlayerScore

__all__ = ["Place", "final_ranking", "next_entrants", "totals"]


@dataclass(frozen=True, slots=True)
class Place:
    place: int
    number: int
    gp: int
    tbp: Fraction


def totals(games: Iterable[Mapping[int, PlayerScore]], players: Iterable[int] = (),
           removed: Collection[int] = ()) -> dict[int, tuple[int, Fraction]]:
    """(GP, TBP) per player over the scored Games (WOTOLD-RANK-1), every listed ``players``
    included at (0, 0); players in ``removed`` are left out (WOTOLD-FORF-1, AMB-W10)."""
    out: dict[int, tuple[int, Fraction]] = {p: (0, Fraction(0)) for p in players
                                            if p not in removed}
    for game in games:
        for p, s in game.items():
            if p in removed:
                continue
            gp, tbp = out.get(p, (0, Fraction(0)))
            out[p] = (gp + s.gp, tbp + s.tbp)
    return dict(sorted(out.items()))


def final_ranking(scores: Mapping[int, tuple[int, Fraction]],
                  removed: Collection[int] = ()) -> tuple[Place, ...]:
    """Places by GP desc, then TBP desc; equal (GP, TBP) share a place, standard competition
    numbering 1, 2, 2, 4 (AMB-W12).  "Most positive" means highest (AMB-W11).  Within a shared
    place players are listed by number (display order only)."""
    rows = sorted(((gp, tbp, p) for p, (gp, tbp) in scores.items() if p not in removed),
                  key=lambda r: (-r[0], -r[1], r[2]))
    out: list[Place] = []
    for i, (gp, tbp, p) in enumerate(rows):
        place = out[-1].place if out and (out[-1].gp, out[-1].tbp) == (gp, tbp) else i + 1
        out.append(Place(place=place, number=p, gp=gp, tbp=tbp))
    return tuple(out)


def next_entrants(pairings: Sequence[Pairing], scores: Sequence[Mapping[int, PlayerScore]],
                  removed: Collection[int] = ()) -> list[Entrant]:
    """The active players before Game ``len(pairings) + 1``: every player seated or given the
    bye in the previous Game and not removed, with totals over ``scores`` (one mapping per
    scored Game), the side played — or ``bye_side`` for the bye (WOTOLD-PAIR-9) — and byes."""
    if not pairings:
        raise RuleError("WOTOLD-PAIR-1", "Game 1 is seated from the shuffled score sheets",
                        hint="use seating.seat_first_game")
    if len(scores) != len(pairings):
        raise RuleError("WOTOLD-ORDER-1", f"{len(pairings)} Games paired but {len(scores)} "
                        "scored", hint="record every result of the last Game before pairing")
    prev = pairings[-1]
    last: dict[int, Side] = dict(prev.sides)
    if prev.bye is not None and prev.bye_side is not None:
        last[prev.bye] = prev.bye_side
    byes: dict[int, int] = {}
    for pr in pairings:
        if pr.bye is not None:
            byes[pr.bye] = byes.get(pr.bye, 0) + 1
    tot = totals(scores, last, removed)
    return [Entrant(number=p, gp=tot[p][0], tbp=tot[p][1], last_side=side, byes=byes.get(p, 0))
            for p, side in sorted(last.items()) if p not in removed]
