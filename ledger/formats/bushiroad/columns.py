"""The ranking core of the Bushiroad standings, over integer columns (BR-SWISS-TB, BR-DE-TB).

Owns: ``StandingRow`` and ``Ranking`` (re-exported by ``tiebreak``), ``Columns`` (one
entry per fighter in fighter-number order: wins, losses, draws, MW% in hundredths,
opponents, and who beat whom), ``dominance`` (the head-to-head split of BR-SWISS-TB-6 / AMB-B4)
and ``order_columns`` (BR-SWISS-TB-8, BR-DE-TB-1/2, AMB-B10: the ordered groups and the
rows with exact ``Fraction``s).

Both ways of reading a field meet here: ``tiebreak.rank`` (``History`` objects: tests, hand
cases TC-01…TC-06, any caller) and ``standings.ranking`` (the folded ``PlayerRecord``s of
a tournament, without building a ``History`` per fighter: 4,096 fighters stay in budget).

Exactness without ``Fraction`` in the loop: MW% is an integer number of hundredths; with
L = lcm(opponent counts) every OMW% is an integer over 100·L and every OOMW% an integer over
100·L² (``ledger.formats.match.percent.opponent_keys``, BR-SWISS-TB-4/5, AMB-B3, AMB-B6: the
one implementation, shared with the HotC standings), so comparing and grouping compares
integers.  ``Fraction``s are made once per row, for distinct values only.

May import: the standard library, ``ledger.formats.bushiroad.model``,
``ledger.formats.bushiroad.mw``, ``ledger.formats.match.percent``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ledger.formats.bushiroad.model import FighterId
from ledger.formats.bushiroad.mw import fraction_str, mw_str
from ledger.formats.match.percent import opponent_keys

Group = tuple[FighterId, ...]
#: beat(x, y): x won a match against y and never lost one to y (BR-SWISS-TB-6)
Beat = Callable[[FighterId, FighterId], bool]


@dataclass(frozen=True)
class StandingRow:
    """One fighter's line.  ``place`` is shared by the members of an unresolved tie."""

    fighter: FighterId
    place: int
    points: int
    wins: int
    losses: int
    draws: int
    mw: Fraction
    omw: Fraction
    oomw: Fraction

    def contract(self) -> dict[str, object]:
        """The Bushiroad fields of ``tourney standings --json`` (docs/DESIGN.md §11)."""
        return {"number": self.fighter, "rank": self.place, "points": self.points,
                "mw": mw_str(self.mw), "omw": fraction_str(self.omw),
                "oomw": fraction_str(self.oomw)}


@dataclass(frozen=True)
class Ranking:
    """Rows in standing order, and the groups the caller must still order (BR-SWISS-TB-7)."""

    rows: tuple[StandingRow, ...]
    unresolved: tuple[Group, ...]

    def order(self) -> tuple[FighterId, ...]:
        return tuple(r.fighter for r in self.rows)


@dataclass(frozen=True)
class Columns:
    """A field as columns; index i is the i-th fighter by number."""

    fighters: Sequence[FighterId]          # ascending
    wins: Sequence[int]
    losses: Sequence[int]
    draws: Sequence[int]
    mw: Sequence[int]                      # MW% in hundredths (BR-SWISS-TB-3 / BR-DE-TB-3)
    opponents: Sequence[Sequence[FighterId]]   # one per match, byes left out
    beat: Beat


def dominance(group: Group, beat: Beat, pairs_only: bool) -> tuple[Group, ...]:
    """Split a tied group by head-to-head (BR-SWISS-TB-6, AMB-B4; TC-02b).

    ``dominance``: while a remaining member beat every other remaining member, that member
    takes the next place; a last single member takes the place after.  ``pairs_only``: only
    a group of exactly two whose match had a winner is ordered.  Returns the ordered
    pieces: singletons, then at most one group still tied.
    """
    if len(group) < 2:
        return (group,) if group else ()
    if pairs_only:
        if len(group) == 2:
            a, b = group
            if beat(a, b):
                return (a,), (b,)
            if beat(b, a):
                return (b,), (a,)
        return (group,)
    remaining = list(group)
    pieces: list[Group] = []
    while len(remaining) >= 2:
        top = next((x for x in remaining
                    if all(beat(x, y) for y in remaining if y != x)), None)
        if top is None:
            break
        pieces.append((top,))
        remaining.remove(top)
    if remaining:
        pieces.append(tuple(remaining))
    return tuple(pieces)


#: one refinement step: the names of the keys compared together (higher first: ``wins``,
#: ``fewer_losses``, ``omw``, ``oomw``), or ``None`` for head-to-head
Step = tuple[str, ...] | None


def _split(groups: list[list[int]], keys: Sequence[Sequence[int]]) -> list[list[int]]:
    """Each group (column indices) sorted by the keys, higher first, and cut where they
    change.  The sort is stable (also with ``reverse``), so equals keep fighter order."""
    value: Callable[[int], Any] = (keys[0] if len(keys) == 1
                                   else list(zip(*keys, strict=True))).__getitem__
    out: list[list[int]] = []
    for g in groups:
        if len(g) < 2:
            out.append(g)
            continue
        g = sorted(g, key=value, reverse=True)
        start = 0
        prev = value(g[0])
        for j in range(1, len(g)):
            v = value(g[j])
            if v != prev:
                out.append(g[start:j])
                start, prev = j, v
        out.append(g[start:])
    return out


def order_columns(c: Columns, steps: Sequence[Step], *, omit: frozenset[FighterId],
                  points_per_win: int, pairs_only: bool) -> Ranking:
    """Order the field by ``steps`` (BR-SWISS-TB-8 / BR-DE-TB-1) and build the rows.

    Fighters in ``omit`` still count for their opponents but get no row.  Members of a
    group still tied share a place and are listed by fighter number.
    """
    fighters = c.fighters
    omw, oomw, scale = opponent_keys(fighters, c.mw, c.opponents)
    keys: dict[str, Sequence[int]] = {"wins": c.wins, "omw": omw, "oomw": oomw,
                                      "fewer_losses": [-n for n in c.losses]}
    groups: list[list[int]] = [[i for i, f in enumerate(fighters) if f not in omit]]
    for step in steps:
        if step is not None:
            groups = _split(groups, [keys[k] for k in step])
            continue
        pieces: list[list[int]] = []
        for g in groups:
            if len(g) < 2:
                pieces.append(g)
                continue
            pos = {fighters[i]: i for i in g}
            for piece in dominance(tuple(fighters[i] for i in g), c.beat, pairs_only):
                pieces.append([pos[f] for f in piece])
        groups = pieces
    memo: dict[tuple[int, int], Fraction] = {}

    def frac(n: int, d: int) -> Fraction:      # many fighters share a value
        x = memo.get((n, d))
        if x is None:
            x = memo[(n, d)] = Fraction(n, d)
        return x

    d1, d2 = 100 * scale, 100 * scale * scale
    rows: list[StandingRow] = []
    unresolved: list[Group] = []
    for g in groups:
        place = len(rows) + 1
        for i in g:
            w = c.wins[i]
            rows.append(StandingRow(fighters[i], place, w * points_per_win, w, c.losses[i],
                                    c.draws[i], frac(c.mw[i], 100), frac(omw[i], d1),
                                    frac(oomw[i], d2)))
        if len(g) > 1:
            unresolved.append(tuple(fighters[i] for i in g))
    return Ranking(tuple(rows), tuple(unresolved))
