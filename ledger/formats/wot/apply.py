"""State transitions of a Wheel of Time event: Games paired, results recorded and
corrected, the Judge's TBP overrides and Declarations of Forfeiture.

Applies only: never validates, never reads a clock, never draws.

May import: ``msgspec``, ``ledger.core.state``, ``ledger.wire.events``, ``ledger.formats.match.*``,
``ledger.formats.wot.*``.
"""

from __future__ import annotations

import msgspec

from ledger.core.state import TournamentState
from ledger.formats.match.apply import consume_draws
from ledger.formats.match.events import ResultCorrected, ResultRecorded, RoundPaired
from ledger.formats.wot import plan
from ledger.formats.wot.book import WOT_BOOK
from ledger.formats.wot.events import ForfeitureDeclared, TbpOverridden
from ledger.formats.wot.state import GameState, OverrideState, TableState
from ledger.wire.events import SignedEvent


@WOT_BOOK.applies(RoundPaired)
def _paired(state: TournamentState, ev: SignedEvent, body: RoundPaired) -> None:
    w = plan.ws(state)
    tables = [TableState(table=t.table, hero=t.players[0], villain=t.players[-1],
                         rematch=t.rematch) for t in body.tables]
    bye_side = None if isinstance(body.bye_side, msgspec.UnsetType) else body.bye_side
    w.games.append(GameState(
        number=body.round, paired_seq=ev.seq, tables=tables, bye=body.bye, bye_side=bye_side,
        method="ranked" if isinstance(body.method, msgspec.UnsetType) else body.method,
        deck_repeats=[] if isinstance(body.deck_repeats, msgspec.UnsetType)
        else list(body.deck_repeats)))
    consume_draws(state)


def _set(state: TournamentState, ev: SignedEvent, body: ResultRecorded | ResultCorrected) -> None:
    game = plan.find_game(state, body.round)
    table = None if game is None else plan.find_table(game, body.table)
    if table is None:          # refused by the check; a replay of a bad log folds on
        return
    table.result = plan.result_state(ev.seq, plan.body_result(body.table, body))
    if isinstance(body, ResultCorrected) and game is not None:
        game.corrected_seq = ev.seq


@WOT_BOOK.applies(ResultRecorded)
def _recorded(state: TournamentState, ev: SignedEvent, body: ResultRecorded) -> None:
    _set(state, ev, body)


@WOT_BOOK.applies(ResultCorrected)
def _corrected(state: TournamentState, ev: SignedEvent, body: ResultCorrected) -> None:
    _set(state, ev, body)


@WOT_BOOK.applies(TbpOverridden)
def _override(state: TournamentState, ev: SignedEvent, body: TbpOverridden) -> None:
    game = plan.find_game(state, body.round)
    if game is None:
        return
    game.overrides.append(OverrideState(seq=ev.seq, table=body.table, number=body.number,
                                        old=body.old, new=body.new, method=body.method,
                                        reason=body.reason))


@WOT_BOOK.applies(ForfeitureDeclared)
def _forfeit(state: TournamentState, ev: SignedEvent, body: ForfeitureDeclared) -> None:
    w = plan.ws(state)
    if body.number not in w.removed:
        w.removed.append(body.number)
        w.removed.sort()
