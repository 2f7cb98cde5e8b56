"""Corrections real events need (issue 9 §7), each a new event citing what it changes:
an earlier round's result (``result_amended``), the head judge's own pairing beside the
engine's (``pairing_overridden``), an undone drop (``player_undropped``) and a late
registration (``player_added_late``) — their checks and transitions, plus the table
history every correction reads (the match layer keeps only the newest round's tables).
The late-entry rule itself (``check_late_window``, ``late_record``) is shared with a team
event's ``team_added_late`` (issue 20, ADR 0026).

May import: ``ledger.core.state``, ``ledger.wire.events``, ``ledger.errors``,
``ledger.formats.match.*``, ``ledger.formats.officiating.*``.
"""

from __future__ import annotations

import msgspec

from ledger.core.state import Player, TournamentState
from ledger.errors import RuleError
from ledger.formats.match import history
from ledger.formats.match.apply import effect, find_round, set_tables
from ledger.formats.match.events import ResultCorrected, ResultRecorded, RoundPaired, Table
from ledger.formats.match.history import Row
from ledger.formats.match.model import (
    LossReason,
    MatchState,
    Outcome,
    Phase,
    PlayerRecord,
    ResultState,
    RoundState,
    Status,
    TableState,
)
from ledger.formats.match.plan import current_round_number, open_round
from ledger.formats.match.unbeaten import put_record, set_status
from ledger.formats.officiating.book_table import OFFICIATING_BOOK as BOOK
from ledger.formats.officiating.elimination import no_retroactive_elimination, second_loss
from ledger.formats.officiating.events import (
    CorrectionKind,
    LevelAmended,
    PairingOverridden,
    PlayerAddedLate,
    PlayerUndropped,
    ResultAmended,
)
from ledger.formats.officiating.rules import dq_forced_loss, level, refusing_match_state
from ledger.wire.events import Role, SignedEvent

HJ = frozenset({Role.HEAD_JUDGE})
for _kind in CorrectionKind:
    BOOK.permit(_kind.value, HJ)       # RULES.md §1.3: corrections are the head judge's
BOOK.permit(CorrectionKind.LEVEL_AMENDED.value, frozenset({Role.ORGANIZER}))  # BR-LEVEL-2


def key(round_no: int, table: int) -> str:
    return f"{round_no}/{table}"


# -- the table history ---------------------------------------------------------------------
@BOOK.applies(RoundPaired)
def _history_paired(state: TournamentState, ev: SignedEvent, body: RoundPaired) -> None:
    history.put_round(state.fmt.officiating, body.round, body.phase is Phase.SWISS,
                      [list(t.players) for t in sorted(body.tables, key=lambda t: t.table)])
    history.put_layout(state.fmt.officiating, body.round, body.tables)


def _set_row(state: TournamentState, seq: int, round_no: int, table: int,
             body: ResultRecorded | ResultCorrected | ResultAmended) -> None:
    # the str enums code as their values (``history._code``): no ``.value`` per result
    history.put_result(
        state.fmt.officiating, round_no, table, seq=seq, winner=body.winner,
        losers=body.losers, loss_reasons=body.loss_reasons, outcome=body.outcome,
        games=None if isinstance(body.games, msgspec.UnsetType) else body.games)


@BOOK.applies(ResultRecorded)
def _history_result(state: TournamentState, ev: SignedEvent, body: ResultRecorded) -> None:
    _set_row(state, ev.seq, body.round, body.table, body)


@BOOK.applies(ResultCorrected)
def _history_corrected(state: TournamentState, ev: SignedEvent,
                       body: ResultCorrected) -> None:
    _set_row(state, ev.seq, body.round, body.table, body)


# -- result_amended ------------------------------------------------------------------------
def structural(players: list[int], winner: int | None, losers: list[int],
               outcome: Outcome, reasons: list[LossReason]) -> None:
    """A result that can stand at this table: who won and lost, and the outcome's shape."""
    bad = (winner is not None and winner not in players) or \
        any(p not in players for p in losers) or winner in losers or \
        len(set(losers)) != len(losers) or len(reasons) != len(losers)
    one = outcome in (Outcome.WIN, Outcome.CONCESSION, Outcome.DROP, Outcome.SLOW_PLAY,
                      Outcome.PENALTY)
    if outcome is Outcome.DRAW:
        bad = bad or winner is not None or bool(losers)
    elif one:
        bad = bad or winner is None or len(losers) != 1
    elif outcome in (Outcome.TIE, Outcome.DOUBLE_LOSS):
        bad = bad or winner is not None or len(losers) != 2
    elif outcome is Outcome.TIMEOUT:
        bad = bad or not ((winner is None and len(losers) == 2) or
                          (winner is not None and len(losers) == 1))
    if bad:
        raise RuleError("LEDGER-RES-1", f"{outcome.value} with winner {winner} and losers "
                        f"{losers} is not a result of {players[0]} v {players[1]}",
                        finding="result_mismatch")


def amendable(state: TournamentState, round_no: int, table: int) -> Row:
    h = refusing_match_state(state)
    last = current_round_number(state)
    if round_no >= last:
        raise RuleError("LEDGER-RES-1", f"round {round_no} is the newest round",
                        hint="a judge corrects it with 'tourney result correct'")
    row = history.get(h.officiating, round_no, table)
    if row is None or row.seq is None:
        raise RuleError("LEDGER-RES-1", f"round {round_no} table {table} has no result",
                        hint="see 'tourney round show N'")
    if not row.swiss or h.cut is not None:
        raise RuleError("BR-PEN-3.10.2-AMEND-3", "only qualifying rounds before the cut "
                        "can be amended", hint="the bracket has moved on")
    return row


@BOOK.checks(ResultAmended)
def _amended(state: TournamentState, body: ResultAmended, actor: str) -> None:
    h = refusing_match_state(state)
    row = amendable(state, body.round, body.table)
    if body.corrects_seq != row.seq:
        raise RuleError("LEDGER-RES-1", f"seq {body.corrects_seq} is not the current result "
                        f"of round {body.round} table {body.table} (seq {row.seq})",
                        finding="result_mismatch")
    if not body.reason.strip():
        raise RuleError("LEDGER-RES-1", "an amendment needs a reason", hint="pass --reason")
    structural(row.players, body.winner, list(body.losers), body.outcome,
               list(body.loss_reasons))
    for p in row.players:
        dq = dq_forced_loss(h.officiating, p, body.round)
        if dq is not None and p not in body.losers:
            raise RuleError("BR-PEN-RANK-9", f"player {p} was disqualified (seq {dq}) "
                            f"during round {body.round}: that match is a loss, and no "
                            "amendment turns it", hint=f"keep {p} a loser of that match",
                            finding="penalty_not_applied")
    games = None if isinstance(body.games, msgspec.UnsetType) else list(body.games)
    if (body.winner, sorted(body.losers)) == (row.winner, sorted(row.losers)) and \
            body.outcome.value == row.outcome and games == row.games:
        raise RuleError("LEDGER-RES-1", "the amendment changes nothing",
                        hint="give the result the round should have had")
    no_retroactive_elimination(state, body, row)


def _state_of(row: Row, seq: int) -> ResultState:
    return ResultState(seq=seq, winner=row.winner, losers=list(row.losers),
                       loss_reasons=[LossReason(r) for r in row.loss_reasons],
                       outcome=Outcome(row.outcome), games=row.games)


@BOOK.applies(ResultAmended)
def _apply_amended(state: TournamentState, ev: SignedEvent, body: ResultAmended) -> None:
    h: MatchState = state.fmt
    row = history.get(h.officiating, body.round, body.table)
    if row is None or row.seq is None:
        return
    rnd = RoundState(number=body.round, phase=Phase.SWISS, paired_seq=0, tables=[])
    tab = TableState(table=body.table, players=list(row.players), groups=[0, 0])
    effect(state, rnd, tab, _state_of(row, row.seq), -1)
    _set_row(state, ev.seq, body.round, body.table, body)
    new = history.get(h.officiating, body.round, body.table)
    if new is not None:
        effect(state, rnd, tab, _state_of(new, ev.seq), +1)
    for p in row.players:
        rec = h.records.get(p)
        if rec is not None:
            rec.second_loss_round = second_loss(rec)


# -- pairing_overridden ----------------------------------------------------------------------
def manual_tables(state: TournamentState, pairs: list[list[int]]) -> list[Table]:
    """Tables for the head judge's pairs: win groups, pair-down and pair-up as the engine
    would record them for these players (wins before this round)."""
    h = refusing_match_state(state)
    rnd = open_round(state)
    bye = rnd.bye if rnd is not None else None
    out = []
    for i, (a, b) in enumerate(pairs, start=1):
        wa = h.records[a].wins - (1 if a == bye else 0) if a in h.records else 0
        wb = h.records[b].wins - (1 if b == bye else 0) if b in h.records else 0
        down = a if wa > wb else b if wb > wa else None
        up = (b if down == a else a) if down is not None else None
        out.append(Table(table=i, players=[a, b], groups=[wa, wb], rematch=b in (
            h.records[a].opponents[:-1] if a in h.records else []),
            pair_down=down, pair_up=up))
    return out


@BOOK.checks(PairingOverridden)
def _override(state: TournamentState, body: PairingOverridden, actor: str) -> None:
    rnd = open_round(state)
    if rnd is None or rnd.number != body.round or rnd.paired_seq != body.paired_seq:
        raise RuleError("LEDGER-RES-1", f"round {body.round} (seq {body.paired_seq}) is not "
                        "the open round", hint="override the round just paired")
    if rnd.phase is not Phase.SWISS:
        raise RuleError("BR-SE-1", "a bracket round follows the bracket: no override")
    if any(t.result is not None for t in rnd.tables):
        raise RuleError("LEDGER-RES-1", f"round {body.round} already has results",
                        hint="an override comes before any result")
    if not body.reason.strip():
        raise RuleError("AMB-B7", "an override needs a reason", hint="pass --reason")
    before = sorted([p for t in rnd.tables for p in t.players] +
                    ([rnd.bye] if rnd.bye is not None else []))
    after = [p for t in body.tables for p in t.players]
    if any(len(set(t.players)) != 2 for t in body.tables) or \
            sorted(after + ([body.bye] if body.bye is not None else [])) != before:
        raise RuleError("AMB-B7", "the override must pair exactly the players of the "
                        f"engine's round ({len(before)} players, each once)",
                        finding="pairing_mismatch")
    if body.bye != rnd.bye:
        raise RuleError("AMB-B1", "the bye stays the drawn one", hint="pair the others",
                        finding="pairing_mismatch")
    expected = manual_tables(state, [list(t.players) for t in body.tables])
    if expected != body.tables:
        raise RuleError("HOTC-PAIR-7", f"override tables: expected {expected!r}",
                        finding="pairing_mismatch")
    if [t.players for t in expected] == [t.players for t in rnd.tables]:
        raise RuleError("AMB-B7", "the override is the engine's own pairing")


def _pair_counts(state: TournamentState, tables: list[TableState] | list[Table],
                 sign: int) -> None:
    h: MatchState = state.fmt
    both = state.format is not None and state.format.params.get("pair_down_counts") == "both"
    for t in tables:
        a, b = t.players
        if a in h.records and b in h.records:
            if sign > 0:
                h.records[a].opponents.append(b)
                h.records[b].opponents.append(a)
            else:
                h.records[a].opponents.pop()
                h.records[b].opponents.pop()
        if t.pair_down in h.records:
            h.records[t.pair_down].pair_downs += sign
        if t.pair_up in h.records:
            h.records[t.pair_up].pair_ups += sign
            if both:
                h.records[t.pair_up].pair_downs += sign


@BOOK.applies(PairingOverridden)
def _apply_override(state: TournamentState, ev: SignedEvent, body: PairingOverridden) -> None:
    h: MatchState = state.fmt
    rnd = find_round(h, body.round)
    if rnd is None:
        return
    _pair_counts(state, rnd.tables, -1)
    set_tables(rnd, [TableState(table=t.table, players=list(t.players),
                                groups=list(t.groups), rematch=t.rematch,
                                pair_down=t.pair_down, pair_up=t.pair_up)
                     for t in body.tables])
    _pair_counts(state, body.tables, +1)
    history.put_round(h.officiating, body.round, True,
                      [list(t.players) for t in sorted(body.tables, key=lambda t: t.table)])
    history.put_layout(h.officiating, body.round, body.tables)
    h.officiating.overrides[body.paired_seq] = ev.seq


# -- player_undropped ------------------------------------------------------------------------
def drop_forfeit(state: TournamentState, number: int) -> tuple[RoundState, TableState] | None:
    """The open round's table whose current result is ``number``'s forfeit by a drop after
    the pairing (BR-DROP-2: the only loser, ``drop_after_pairing``, the opponent the
    winner), or None.  An undrop may take it back (ADR 0018)."""
    h = refusing_match_state(state)
    rnd = open_round(state)
    if rnd is None:
        return None
    for tab in rnd.tables:
        res = tab.result
        if number in tab.players and res is not None and res.losers == [number] and \
                res.winner is not None and res.outcome is Outcome.DROP and \
                res.loss_reasons == [LossReason.DROP_AFTER_PAIRING]:
            rec = h.records.get(res.winner)
            if rec is not None and rec.status is not Status.DROPPED:
                return rnd, tab
    return None


@BOOK.checks(PlayerUndropped)
def _undropped(state: TournamentState, body: PlayerUndropped, actor: str) -> None:
    h = refusing_match_state(state)
    rec = h.records.get(body.number)
    if rec is None or rec.status is not Status.DROPPED:
        raise RuleError("BR-DROP-1", f"player {body.number} has not dropped")
    if rec.dropped_round != current_round_number(state) or body.round != rec.dropped_round:
        raise RuleError("BR-DROP-1", f"player {body.number} dropped in round "
                        f"{rec.dropped_round}; a later round was paired since",
                        hint="a drop can be undone only before the next pairing")
    if h.cut is not None and (rec.number not in h.cut):
        raise RuleError("HOTC-DROP-1", "the cut was made since the drop")
    if not body.reason.strip():
        raise RuleError("BR-DROP-1", "undoing a drop needs a reason", hint="pass --reason")
    if not isinstance(body.forfeit_seq, msgspec.UnsetType):
        at = drop_forfeit(state, body.number)
        cur = at[1].result.seq if at is not None and at[1].result is not None else None
        if cur != body.forfeit_seq:
            raise RuleError("BR-DROP-2", f"seq {body.forfeit_seq} is not player "
                            f"{body.number}'s standing forfeit by a drop after the pairing"
                            + (f" (that is seq {cur})" if cur is not None else ""),
                            finding="result_mismatch")


@BOOK.applies(PlayerUndropped)
def _apply_undropped(state: TournamentState, ev: SignedEvent, body: PlayerUndropped) -> None:
    h: MatchState = state.fmt
    rec = h.records.get(body.number)
    if rec is None:
        return
    cut = h.cut is not None and rec.number in h.cut
    set_status(h, rec, Status.CUT if cut else Status.ELIMINATED
               if h.eliminate_at and rec.losses >= h.eliminate_at else Status.ACTIVE)
    rec.dropped_round = rec.dropped_after_rounds = rec.dropped_losses = None
    if not isinstance(body.forfeit_seq, msgspec.UnsetType):
        at = drop_forfeit(state, body.number)
        res = at[1].result if at is not None else None
        if at is not None and res is not None:
            rnd, tab = at
            effect(state, rnd, tab, res, -1)     # the match is back to be played
            tab.result = None
            rnd.results -= 1                     # the round's count of tables with a result
            history.clear_result(h.officiating, rnd.number, tab.table)


# -- player_added_late -----------------------------------------------------------------------
def check_late_window(state: TournamentState, *, rounds: int, byes: int, losses: int) -> None:
    """The late-entry rule (issue 9; a fighter's ``player_added_late`` and a team's
    ``team_added_late``, issue 20): after registration closed, between qualifying rounds,
    entering with the byes and losses the organizer announced for the rounds already
    played — they fit in those rounds — and, in double elimination, not eliminated."""
    h = refusing_match_state(state)
    if state.registration_closed_seq is None:
        raise RuleError("LEDGER-REG-2", "registration is open", hint="use 'tourney player add'")
    if open_round(state) is not None or h.swiss_over or h.cut is not None or h.slots:
        raise RuleError("LEDGER-REG-2", "a late entry joins between qualifying rounds",
                        hint="add the player after this round's results are in")
    if rounds != h.swiss_rounds or byes < 0 or losses < 0 or byes + losses > rounds:
        raise RuleError("LEDGER-REG-2", f"{h.swiss_rounds} rounds were played: byes + "
                        "losses must fit in them", finding="rule_violation")
    if h.eliminate_at and losses >= h.eliminate_at:
        raise RuleError("BR-DE-1", "the player would enter eliminated")


def late_record(number: int, *, rounds: int, byes: int, losses: int) -> PlayerRecord:
    """A late entrant's record: the announced byes (wins) and losses (``late_entry``) for
    the rounds already played, the rest not played."""
    played = ("B" * byes + "N" * losses).ljust(rounds, "-")
    rec = PlayerRecord(number=number, wins=byes, byes=byes, losses=losses, played=played,
                       loss_reasons=[LossReason.LATE_ENTRY] * losses)
    rec.second_loss_round = second_loss(rec)
    return rec


@BOOK.checks(PlayerAddedLate)
def _late(state: TournamentState, body: PlayerAddedLate, actor: str) -> None:
    if state.registration_closed_seq is None:
        raise RuleError("LEDGER-REG-2", "registration is open", hint="use 'tourney player add'")
    if body.number in state.players or not 1 <= body.number <= 2**31 - 1:
        raise RuleError("LEDGER-REG-1", f"player number {body.number} is taken or invalid")
    if not body.name.strip() or not body.reason.strip():
        raise RuleError("LEDGER-REG-1", "a late entry needs a name and a reason")
    check_late_window(state, rounds=body.rounds, byes=body.byes, losses=body.losses)


@BOOK.applies(PlayerAddedLate)
def _apply_late(state: TournamentState, ev: SignedEvent, body: PlayerAddedLate) -> None:
    state.players[body.number] = Player(number=body.number, name=body.name,
                                        registered_seq=ev.seq)
    put_record(state.fmt, late_record(body.number, rounds=body.rounds, byes=body.byes,
                                      losses=body.losses))


# -- level_amended -----------------------------------------------------------------------------
@BOOK.checks(LevelAmended)
def _level(state: TournamentState, body: LevelAmended, actor: str) -> None:
    if not 1 <= body.level <= 3:
        raise RuleError("BR-LEVEL-1", f"level {body.level} is not 1, 2 or 3")
    if body.level == level(state):
        raise RuleError("BR-LEVEL-2", f"the level is already {body.level}")
    if not body.reason.strip():
        raise RuleError("BR-LEVEL-2", "a level change needs a reason", hint="pass --reason")


@BOOK.applies(LevelAmended)
def _apply_level(state: TournamentState, ev: SignedEvent, body: LevelAmended) -> None:
    state.fmt.officiating.level = body.level
