"""State transitions of the match layer's kinds (run by each plug-in's ``evolve``).

Owns: how each match fact changes the ``MatchState`` in ``TournamentState.fmt``: records,
rounds, byes, pair-downs, draws, head-to-head wins, eliminations, drops, the bracket and the
champion.  Applies only: never validates (the audit folds invalid events too, after
reporting them), never reads a clock, never draws.

May import: ``msgspec``, ``ledger.core.state``, ``ledger.wire.events``, ``ledger.formats.match.*``.
"""

from __future__ import annotations

import msgspec

from ledger.core.state import TournamentState
from ledger.formats.match.book import MATCH_BOOK as BOOK
from ledger.formats.match.events import (
    BracketSeeded,
    ChampionDeclared,
    PlayerDropped,
    ResultCorrected,
    ResultRecorded,
    RoundClosed,
    RoundPaired,
)
from ledger.formats.match.model import (
    MatchState,
    Phase,
    PlayerRecord,
    ResultState,
    RoundState,
    Status,
    TableState,
)
from ledger.formats.match.unbeaten import is_unbeaten, put_record, retally, set_status
from ledger.wire.events import RegistrationClosed, SignedEvent

# enum members read as module constants: a member read through its enum class is a
# metaclass lookup on every use, and these are read for every event the audit
# folds (issue 28)
_PHASE_SWISS = Phase.SWISS
_PHASE_TOP_CUT = Phase.TOP_CUT
_STATUS_ACTIVE = Status.ACTIVE
_STATUS_CHAMPION = Status.CHAMPION
_STATUS_CUT = Status.CUT
_STATUS_DROPPED = Status.DROPPED
_STATUS_ELIMINATED = Status.ELIMINATED


def find_round(h: MatchState, number: int) -> RoundState | None:
    if 1 <= number <= len(h.rounds) and h.rounds[number - 1].number == number:
        return h.rounds[number - 1]
    return next((r for r in h.rounds if r.number == number), None)


def find_table(h: MatchState, number: int, table: int) -> TableState | None:
    rnd = find_round(h, number)
    return None if rnd is None else table_of(rnd, table)


def table_of(rnd: RoundState, table: int) -> TableState | None:
    """Table ``table`` of ``rnd`` (None: no such table)."""
    return rnd.tables[table - 1] if 1 <= table <= len(rnd.tables) else None


def set_tables(rnd: RoundState, tables: list[TableState]) -> None:
    """Give ``rnd`` its tables (a pairing, an override, or the tables a void restores) and
    count those that already hold a result (``RoundState.results``)."""
    rnd.tables = tables
    rnd.results = sum(t.result is not None for t in tables)


def _pair_down_flag(state: TournamentState) -> str:
    fmt = state.format
    return str(fmt.params.get("pair_down_counts", "higher")) if fmt else "higher"


@BOOK.applies(RegistrationClosed)
def _open_records(state: TournamentState, ev: SignedEvent, body: RegistrationClosed) -> None:
    h: MatchState = state.fmt
    for number in state.players:
        if number not in h.records:
            put_record(h, PlayerRecord(number=number))


@BOOK.applies(RoundPaired)
def _paired(state: TournamentState, ev: SignedEvent, body: RoundPaired) -> None:
    h = state.fmt
    rec = h.records
    for old in h.rounds:   # only the newest round keeps its tables (see MatchState)
        set_tables(old, [])
    consume_draws(state)
    tables = [TableState(table=t.table, players=list(t.players), groups=list(t.groups),
                         rematch=t.rematch, pair_down=t.pair_down, pair_up=t.pair_up)
              for t in body.tables]
    entries = list(h.entries or []) if body.phase is _PHASE_TOP_CUT else []
    h.rounds.append(RoundState(number=body.round, phase=body.phase, paired_seq=ev.seq,
                               tables=tables, bye=body.bye, advances=list(body.advances),
                               entries=entries))
    both = _pair_down_flag(state) == "both"
    for t in body.tables:
        a, b = t.players
        if a in rec and b in rec and body.phase is _PHASE_SWISS:  # Rule A is Swiss-only
            rec[a].opponents.append(b)
            rec[b].opponents.append(a)
        if t.pair_down in rec:
            rec[t.pair_down].pair_downs += 1
        if t.pair_up in rec:
            rec[t.pair_up].pair_ups += 1
            if both:
                rec[t.pair_up].pair_downs += 1
    if body.bye is not None and body.bye in rec:
        rec[body.bye].wins += 1
        rec[body.bye].byes += 1
        if body.phase is _PHASE_SWISS:
            _mark(rec[body.bye], body.round, "B")
    if body.phase is _PHASE_SWISS:
        h.swiss_rounds = max(h.swiss_rounds, body.round)


def _mark(r: PlayerRecord, number: int, what: str) -> None:
    """Set the qualifying-round character of round ``number`` (see ``PlayerRecord.played``)."""
    s = r.played
    if len(s) < number:     # the usual case: the newest round, appended (padded)
        r.played = s.ljust(number - 1, "-") + what
    else:
        r.played = s[:number - 1] + what + s[number:]


def _played_char(res: ResultState, player: int) -> str:
    if res.winner == player:
        return "W"
    if res.winner is None and not res.losers:
        return "D"
    return "X" if len(res.losers) == 2 else "L"


def consume_draws(state: TournamentState) -> None:
    state.draw_results.clear()
    state.draw_items.clear()


def _effect(state: TournamentState, rnd: RoundState, table: TableState, res: ResultState,
            sign: int) -> None:
    h: MatchState = state.fmt
    rec = h.records
    top = rnd.phase is _PHASE_TOP_CUT
    won = rec.get(res.winner) if res.winner is not None else None
    if won is not None:
        won.wins += sign
        if top:
            won.top_wins += sign
        elif len(res.losers) == 1:        # head-to-head (BR-SWISS-TB-6)
            beaten = won.beaten
            if sign > 0:
                beaten.append(res.losers[0])
            elif res.losers[0] in beaten:
                beaten.remove(res.losers[0])
    if res.winner is None and not res.losers:     # a match draw (BR-SWISS-5)
        for p in table.players:
            if p in rec:
                rec[p].draws += sign
    if not top:
        for p in table.players:
            r = rec.get(p)
            if r is not None:
                _mark(r, rnd.number, _played_char(res, p) if sign > 0 else "-")
    for loser, reason in zip(res.losers, res.loss_reasons, strict=False):
        r = rec.get(loser)
        if r is None:
            continue
        before = is_unbeaten(r)
        if top:
            r.top_losses += sign
        if sign > 0:
            r.losses += 1
            r.loss_reasons.append(reason)
        else:
            r.losses -= 1
            if reason in r.loss_reasons:
                r.loss_reasons.remove(reason)
        if rnd.phase is _PHASE_SWISS:
            r.second_loss_round = rnd.number if r.losses >= 2 else None
            if h.eliminate_at and r.status in (_STATUS_ACTIVE, _STATUS_ELIMINATED):
                r.status = _STATUS_ELIMINATED if r.losses >= h.eliminate_at else _STATUS_ACTIVE
        elif r.status is _STATUS_CUT:
            r.cut_finish = rnd.number if sign > 0 else None
        retally(h, r, before)


def _record(state: TournamentState, ev: SignedEvent,
            body: ResultRecorded | ResultCorrected) -> None:
    rnd = find_round(state.fmt, body.round)
    table = None if rnd is None else table_of(rnd, body.table)
    if rnd is None or table is None:
        return
    if table.result is not None:
        _effect(state, rnd, table, table.result, -1)
    else:
        rnd.results += 1
    games = None if isinstance(body.games, msgspec.UnsetType) else list(body.games)
    table.result = ResultState(seq=ev.seq, winner=body.winner, losers=list(body.losers),
                               loss_reasons=list(body.loss_reasons), outcome=body.outcome,
                               games=games)
    _effect(state, rnd, table, table.result, +1)
    if isinstance(body, ResultCorrected):
        rnd.corrected_seq = ev.seq


#: the record effect of one result (sign +1 adds it, -1 takes it back); public for the
#: officiating layer's corrections of earlier rounds
effect = _effect

BOOK.applies(ResultRecorded)(_record)
BOOK.applies(ResultCorrected)(_record)


@BOOK.applies(PlayerDropped)
def _dropped(state: TournamentState, ev: SignedEvent, body: PlayerDropped) -> None:
    r = state.fmt.records.get(body.number)
    if r is None:
        return
    if r.status is _STATUS_CUT and r.cut_finish is None:
        rnd = state.fmt.rounds[-1] if state.fmt.rounds else None
        still_open = rnd is not None and rnd.closed_seq is None
        r.cut_finish = (rnd.number if still_open and rnd is not None
                        else len(state.fmt.rounds) + 1)
    set_status(state.fmt, r, _STATUS_DROPPED)
    r.dropped_round = body.round
    # Swiss rounds this player completed: closed ones, plus the open one if their own
    # result is already in or they hold its bye (BR-DE-TB-4 "dropped after d rounds").
    done = 0
    for x in state.fmt.rounds:
        if x.phase is not _PHASE_SWISS:
            continue
        if x.closed_seq is not None or x.bye == body.number or any(
                body.number in t.players and t.result is not None for t in x.tables):
            done += 1
    r.dropped_after_rounds = done
    r.dropped_losses = r.losses


def next_entries(entries: list[int | None], rnd: RoundState) -> list[int | None]:
    """Winners of a closed bracket round, in bracket order (empty stays empty)."""
    winners: dict[frozenset[int], int | None] = {
        frozenset(t.players): (t.result.winner if t.result else None) for t in rnd.tables}
    out: list[int | None] = []
    for i in range(0, len(entries), 2):
        a, b = entries[i], entries[i + 1]
        if a is not None and b is not None:
            out.append(winners.get(frozenset((a, b))))
        else:
            out.append(a if a is not None else b)
    return out


@BOOK.applies(RoundClosed)
def _closed(state: TournamentState, ev: SignedEvent, body: RoundClosed) -> None:
    h = state.fmt
    rnd = find_round(h, body.round)
    if rnd is None:
        return
    rnd.closed_seq = ev.seq
    if rnd.phase is _PHASE_SWISS:
        h.swiss_over = body.swiss_over
    else:
        h.entries = next_entries(rnd.entries, rnd)


@BOOK.applies(BracketSeeded)
def _seeded(state: TournamentState, ev: SignedEvent, body: BracketSeeded) -> None:
    consume_draws(state)
    h: MatchState = state.fmt
    h.slots = list(body.slots)
    h.entries = list(body.slots)
    if h.cut is None:                 # a bracket from the start (single elimination)
        h.cut = sorted(n for n in body.slots if n is not None)
        h.cut_seq = ev.seq
        h.swiss_over = True
        for n in h.cut:
            if n in h.records:
                set_status(h, h.records[n], _STATUS_CUT)


@BOOK.applies(ChampionDeclared)
def _champion(state: TournamentState, ev: SignedEvent, body: ChampionDeclared) -> None:
    state.fmt.champion = body.number
    r = state.fmt.records.get(body.number)
    if r is not None:
        set_status(state.fmt, r, _STATUS_CHAMPION)

