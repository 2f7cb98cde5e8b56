"""Failure to play the proper match (BR-PEN-3.10.2-AMEND-1/2, AMB-B25, TC-12): the pure
rule that turns what was actually played at the wrong tables into the results of the
assigned pairings.

Owns: ``Played`` (one table as actually played) and ``amend`` (assigned pairings + played
tables → per assigned table: the winner and the losers).  No state, no I/O.

May import: ``ledger.errors``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ledger.errors import RuleError


@dataclass(frozen=True)
class Played:
    table: int                 # the table number they sat at
    players: tuple[int, int]
    winner: int | None         # None: no winner (a draw / double loss as played)


@dataclass(frozen=True)
class Amended:
    table: int
    winner: int | None
    losers: list[int]
    stands: bool               # the pair played each other: the played result stands


def amend(assigned: dict[int, tuple[int, int]], played: list[Played]) -> list[Amended]:
    """For each assigned table T with players (p, q): if p and q played each other (at any
    table) the result stands; otherwise a player "showed" only if they sat at T, and one
    who showed beats one who did not; if neither showed both lose (AMB-B25)."""
    seat: dict[int, int] = {}
    for pl in played:
        for p in pl.players:
            if p in seat:
                raise RuleError("BR-PEN-3.10.2", f"player {p} is seated twice",
                                hint="each player played at one table")
            seat[p] = pl.table
    out: list[Amended] = []
    for table, (p, q) in sorted(assigned.items()):
        met = next((pl for pl in played if set(pl.players) == {p, q}), None)
        if met is not None:
            losers = [] if met.winner is None else [q if met.winner == p else p]
            out.append(Amended(table, met.winner, losers, True))
            continue
        showed = [x for x in (p, q) if seat.get(x) == table]
        if len(showed) == 1:
            w = showed[0]
            out.append(Amended(table, w, [q if w == p else p], False))
        else:
            out.append(Amended(table, None, sorted((p, q)), False))
    return out
