"""Rounds read model: any round's tables and results, for display and reports.

Owns: ``load_round`` — the newest round comes from the folded state; an earlier round
(the state keeps only the newest round's tables, to stay small) is read back from its
stretch of the log: its ``round_paired`` up to the next round's, the last point at which
its results could still be corrected.

May import: ``msgspec``, ``ledger.*``.
"""

from __future__ import annotations

import msgspec

from ledger.events import open_leaf
from ledger.formats.match.apply import find_round
from ledger.formats.match.events import ResultCorrected, ResultRecorded, RoundPaired
from ledger.formats.match.model import ResultState, RoundState, TableState
from ledger.state import TournamentState
from ledger.store import Ledger


def load_round(led: Ledger, log: str, state: TournamentState,
               number: int) -> RoundState | None:
    """Round ``number`` with its tables and results.  The state keeps the tables of the
    newest round only; an earlier round's are read back from its stretch of the log
    (its ``round_paired`` up to the next round's, the last chance to correct it)."""
    rnd = find_round(state.fmt, number)
    if rnd is None or rnd.tables:
        return rnd
    nxt = find_round(state.fmt, number + 1)
    end = nxt.paired_seq if nxt is not None else state.size + 1
    tables: dict[int, TableState] = {}
    for _ver, leaf in led.raw_leaves(log, after=rnd.paired_seq - 1):
        ev = open_leaf(leaf)
        if ev.seq >= end:
            break
        b = ev.body
        if isinstance(b, RoundPaired) and b.round == number:
            tables = {t.table: TableState(table=t.table, players=list(t.players),
                                          groups=list(t.groups), rematch=t.rematch,
                                          pair_down=t.pair_down, pair_up=t.pair_up)
                      for t in b.tables}
        elif isinstance(b, (ResultRecorded, ResultCorrected)) and b.round == number \
                and b.table in tables:
            tables[b.table].result = ResultState(
                seq=ev.seq, winner=b.winner, losers=list(b.losers),
                loss_reasons=list(b.loss_reasons), outcome=b.outcome)
    return msgspec.structs.replace(rnd, tables=[tables[k] for k in sorted(tables)])
