"""The table history every correction reads, packed small (the match layer keeps only the
newest round's tables; a command loads this with the state, so it is flat integers).

Owns: ``Row`` (one table and its current result, a view), ``get`` / ``round_rows`` /
``rows`` / ``result_of`` (read) and ``put_round`` / ``put_result`` (write); ``put_layout`` /
``tables_of`` keep the win groups, rematch and pair-down marks of the newest two rounds
(``[g0, g1, rematch, pair_down, pair_up]`` per table, 0 for none) so that a voided pairing
can give the previous round back its ``TableState`` list (ADR 0012).  Per round one ``list[int]``:
``[swiss, then per table a, b, seq, winner, loser1, loser2, reason1, reason2, outcome,
games_a, games_b, games_drawn]`` with 0 for "none" (player numbers and seqs are ≥ 1) and
-1 for no game score; outcomes and loss reasons are coded by the explicit lists below
(append-only; a value not listed is coded 100 + its enum position).

In the match layer (moved from ``ledger.formats.officiating``), whose views read it: the
officiating rules import the match layer, never the other way round
(docs/adr/0039-layering-layers-and-rule-ids.md).

May import: ``ledger.formats.match.model``, ``ledger.formats.match.officiating_model``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from ledger.formats.match.model import LossReason, Outcome, ResultState, TableState
from ledger.formats.match.officiating_model import OfficiatingState

STRIDE = 12
_OUTCOMES = ["win", "concession", "timeout", "slow_play", "tie", "drop", "draw",
             "double_loss", "penalty"]
_REASONS = ["play", "concession", "timeout_double", "timeout_slow_play",
            "timeout_turn_player", "tie", "drop_after_pairing", "double_loss", "annex_a",
            "timeout", "late_entry", "penalty"]


_OUTCOME_CODES: dict[str, int] = {n: i for i, n in enumerate(_OUTCOMES, start=1)}
_REASON_CODES: dict[str, int] = {n: i for i, n in enumerate(_REASONS, start=1)}
# the members too, so that a result's enums code without reading ``.value`` (a str enum
# hashes as its value on this Python, then these add no key)
_OUTCOME_CODES.update({m: _OUTCOME_CODES[m.value] for m in Outcome if m.value in _OUTCOME_CODES})
_REASON_CODES.update({m: _REASON_CODES[m.value] for m in LossReason
                      if m.value in _REASON_CODES})


def _code(codes: dict[str, int], enum: type[Outcome] | type[LossReason], value: str) -> int:
    code = codes.get(value)
    if code is not None:
        return code
    return 100 + [m.value for m in enum].index(value)


def _name(names: list[str], enum: type[Outcome] | type[LossReason], code: int) -> str:
    return names[code - 1] if code < 100 else [m.value for m in enum][code - 100]


@dataclass
class Row:
    players: list[int]
    swiss: bool
    seq: int | None = None
    winner: int | None = None
    losers: list[int] = field(default_factory=list)
    loss_reasons: list[str] = field(default_factory=list)
    outcome: str = ""
    games: list[int] | None = None


def put_round(o: OfficiatingState, round_no: int, swiss: bool,
              tables: list[list[int]]) -> None:
    flat = [1 if swiss else 0]
    for a, b in tables:
        flat += [a, b, 0, 0, 0, 0, 0, 0, 0, -1, -1, -1]
    o.history[round_no] = flat


def put_result(o: OfficiatingState, round_no: int, table: int, *, seq: int,
               winner: int | None, losers: Sequence[int], loss_reasons: Sequence[str],
               outcome: str, games: Sequence[int] | None) -> None:
    """Table ``table``'s result (the sequences are read, never kept)."""
    flat = o.history.get(round_no)
    i = 1 + (table - 1) * STRIDE
    if flat is None or table < 1 or i + STRIDE > len(flat):
        return
    ls = [*losers, 0, 0][:2]
    rs = ([_code(_REASON_CODES, LossReason, r) for r in loss_reasons] + [0, 0])[:2]
    g = [*games, 0, 0, 0][:3] if games is not None else [-1, -1, -1]
    flat[i + 2:i + STRIDE] = [seq, winner or 0, *ls, *rs,
                              _code(_OUTCOME_CODES, Outcome, outcome), *g]


def clear_result(o: OfficiatingState, round_no: int, table: int) -> None:
    """The table has no result again (an undone drop's forfeit taken back, ADR 0018)."""
    flat = o.history.get(round_no)
    i = 1 + (table - 1) * STRIDE
    if flat is not None and table >= 1 and i + STRIDE <= len(flat):
        flat[i + 2:i + STRIDE] = [0] * (STRIDE - 2)


def _row(flat: list[int], table: int) -> Row:
    i = 1 + (table - 1) * STRIDE
    a, b, seq, w, l1, l2, r1, r2, oc, ga, gb, gd = flat[i:i + STRIDE]
    if not seq:
        return Row(players=[a, b], swiss=bool(flat[0]))
    losers = [x for x in (l1, l2) if x]
    reasons = [_name(_REASONS, LossReason, r) for r in (r1, r2) if r]
    return Row(players=[a, b], swiss=bool(flat[0]), seq=seq, winner=w or None,
               losers=losers, loss_reasons=reasons, outcome=_name(_OUTCOMES, Outcome, oc),
               games=None if ga < 0 else [ga, gb, gd] if gd else [ga, gb])


def get(o: OfficiatingState, round_no: int, table: int) -> Row | None:
    flat = o.history.get(round_no)
    if flat is None or table < 1 or 1 + table * STRIDE > len(flat):
        return None
    return _row(flat, table)


def round_rows(o: OfficiatingState, round_no: int) -> dict[int, Row]:
    flat = o.history.get(round_no, [0])
    return {t: _row(flat, t) for t in range(1, (len(flat) - 1) // STRIDE + 1)}


def rows(o: OfficiatingState) -> Iterator[tuple[int, int, Row]]:
    for r in sorted(o.history):
        for t, row in round_rows(o, r).items():
            yield r, t, row


LAYOUT = 5
KEEP = 2           # rounds whose layout is kept: the open one and the one before it


class Laid(Protocol):
    """What ``put_layout`` reads of a table (``Table`` and ``TableState`` both have it)."""

    @property
    def table(self) -> int: ...
    @property
    def groups(self) -> list[int]: ...
    @property
    def rematch(self) -> bool: ...
    @property
    def pair_down(self) -> int | None: ...
    @property
    def pair_up(self) -> int | None: ...


def put_layout(o: OfficiatingState, round_no: int, tables: Sequence[Laid]) -> None:
    flat: list[int] = []
    for t in sorted(tables, key=lambda x: x.table):
        g = (list(t.groups) + [0, 0])[:2]
        flat += [*g, 1 if t.rematch else 0, t.pair_down or 0, t.pair_up or 0]
    o.layout[round_no] = flat
    for old in sorted(o.layout)[:-KEEP]:
        del o.layout[old]


def result_of(row: Row) -> ResultState | None:
    """The row's current result as the match layer's ``ResultState`` (None: no result)."""
    if row.seq is None:
        return None
    games = None if row.games is None else (list(row.games) + [0])[:3]
    return ResultState(seq=row.seq, winner=row.winner, losers=list(row.losers),
                       loss_reasons=[LossReason(r) for r in row.loss_reasons],
                       outcome=Outcome(row.outcome), games=games)


def tables_of(o: OfficiatingState, round_no: int,
              marks: Sequence[Laid] | None = None) -> list[TableState]:
    """The tables of ``round_no`` as played (an override's, not the engine's) with their
    current results (history); win groups and marks from ``marks`` (the tables of the
    pairing in force) when given, else from the kept layout (the newest two rounds)."""
    by_table = {m.table: m for m in marks} if marks is not None else None
    lay = o.layout.get(round_no, [])
    out = []
    for t, row in round_rows(o, round_no).items():
        m = by_table.get(t) if by_table is not None else None
        if m is not None:
            g0, g1 = (list(m.groups) + [0, 0])[:2]
            rematch, down, up = int(m.rematch), m.pair_down or 0, m.pair_up or 0
        else:
            i = (t - 1) * LAYOUT
            g0, g1, rematch, down, up = lay[i:i + LAYOUT] if by_table is None and \
                i + LAYOUT <= len(lay) else (0, 0, 0, 0, 0)
        out.append(TableState(table=t, players=list(row.players), groups=[g0, g1],
                              rematch=bool(rematch), pair_down=down or None,
                              pair_up=up or None, result=result_of(row)))
    return out
