"""The rules and transitions of the team kinds (issue 20), in the Bushiroad rulebook.

Owns: who may sign ``team_registered`` and ``seat_result_recorded`` (RULES.md §1.3: as a
player registration and a result), their checks (``teams.check_team``; a seat result is
checked as any Bushiroad result over the seat's two fighters, BR-TEAM-2) and their
transitions (the team roster; the seat results a team result is derived from).

May import: ``ledger.core.state``, ``ledger.errors``, ``ledger.wire.events``,
``ledger.formats.match.*``, ``ledger.formats.bushiroad.*``,
``ledger.formats.officiating.checks`` (a seat keeps its fighters' penalty effects),
``ledger.formats.officiating.corrections`` (which earlier round may be amended).
"""

from __future__ import annotations

from ledger.core.state import TournamentState
from ledger.errors import RuleError
from ledger.formats.bushiroad.book import BR_BOOK as BOOK
from ledger.formats.bushiroad.checks import SCORING, _decided
from ledger.formats.bushiroad.team_results import seats_at
from ledger.formats.bushiroad.teams import (
    SeatResultAmended,
    SeatResultCorrected,
    SeatResultRecorded,
    TeamKind,
    TeamRegistered,
    apply_team,
    check_team,
    seat_fighters,
    team_mode,
)
from ledger.formats.match.apply import find_round, find_table
from ledger.formats.match.model import MatchState, Phase, RoundState, TableState
from ledger.formats.match.plan import correctable_table, open_table
from ledger.formats.match.team_model import SeatResult, seat_key
from ledger.formats.officiating.checks import check_seat_effects
from ledger.formats.officiating.corrections import amendable
from ledger.wire.events import Role, SignedEvent

BOOK.permit(TeamKind.TEAM_REGISTERED.value, frozenset({Role.SCOREKEEPER, Role.HEAD_JUDGE}))
BOOK.permit(TeamKind.SEAT_RESULT_RECORDED.value, SCORING)
BOOK.permit(TeamKind.SEAT_RESULT_CORRECTED.value, frozenset({Role.JUDGE, Role.HEAD_JUDGE}))
BOOK.permit(TeamKind.SEAT_RESULT_AMENDED.value, frozenset({Role.HEAD_JUDGE}))  # as amend


@BOOK.checks(TeamRegistered)
def _team(state: TournamentState, body: TeamRegistered, actor: str) -> None:
    check_team(state, body)


@BOOK.applies(TeamRegistered)
def _team_applied(state: TournamentState, ev: SignedEvent, body: TeamRegistered) -> None:
    apply_team(state, ev, body)


def seat_table(state: TournamentState, round_no: int, table: int,
               seat: int) -> tuple[TableState, list[int]]:
    """The open team table a seat result may be entered for, and the seat's fighters."""
    if not team_mode(state):
        raise RuleError("BR-TEAM-2", "--seat is for team events (team_mode=tag|trio)",
                        hint="record the table's result without --seat")
    _rnd, tab = open_table(state, round_no, table)
    fighters = seat_fighters(state, tab.players, seat)
    done = next((r for r in seats_at(state, round_no, table) if r.seat == seat), None)
    if done is not None:
        raise RuleError("LEDGER-RES-1", f"seat {seat} of round {round_no} table {table} "
                        f"already has a result (seq {done.seq})",
                        hint=f"a judge corrects it: tourney result correct --round {round_no} "
                             f"--table {table} --seat {seat} … --reason TEXT")
    return tab, fighters


@BOOK.checks(SeatResultRecorded)
def _seat(state: TournamentState, body: SeatResultRecorded, actor: str) -> None:
    tab, fighters = seat_table(state, body.round, body.table, body.seat)
    rnd, _ = open_table(state, body.round, body.table)
    _decided(state, body, rnd, TableState(table=tab.table, players=fighters, groups=[]))
    check_seat_effects(state, body, fighters, list(tab.players))    # BR-TEAM-6


def corrected_seat(state: TournamentState, round_no: int, table: int,
                   seat: int) -> tuple[RoundState, TableState, list[int], int]:
    """A seat whose result a judge may correct: a seat of the open round, or of a table
    whose team result is still correctable (the newest round, LEDGER-RES-1 timing); its
    fighters and the seq of its current result."""
    if not team_mode(state):
        raise RuleError("BR-TEAM-2", "--seat is for team events (team_mode=tag|trio)",
                        hint="correct the table's result without --seat")
    found = find_table(state.fmt, round_no, table)
    if found is not None and found.result is not None:
        rnd, tab, _ = correctable_table(state, round_no, table)
    else:
        rnd, tab = open_table(state, round_no, table)
    fighters = seat_fighters(state, tab.players, seat)
    done = next((r for r in seats_at(state, round_no, table) if r.seat == seat), None)
    if done is None:
        raise RuleError("LEDGER-RES-1", f"seat {seat} of round {round_no} table {table} "
                        "has no result to correct", hint="record it with 'tourney result "
                                                         "record … --seat K'")
    return rnd, tab, fighters, done.seq


@BOOK.checks(SeatResultCorrected)
def _seat_corrected(state: TournamentState, body: SeatResultCorrected, actor: str) -> None:
    rnd, tab, fighters, current = corrected_seat(state, body.round, body.table, body.seat)
    if body.corrects_seq != current:
        raise RuleError("LEDGER-RES-1", f"seq {body.corrects_seq} is not the current result "
                        f"of seat {body.seat} (seq {current})",
                        hint="cite the seq shown by 'tourney round show'")
    if not body.reason.strip():
        raise RuleError("LEDGER-RES-1", "a correction needs a reason", hint="pass --reason")
    _decided(state, body, rnd, TableState(table=tab.table, players=fighters, groups=[]))
    check_seat_effects(state, body, fighters, list(tab.players))    # BR-TEAM-6


def amended_seat(state: TournamentState, round_no: int, table: int,
                 seat: int) -> tuple[RoundState, list[int], SeatResult]:
    """A seat of an earlier qualifying round the head judge may amend (the table is
    amendable, BR-PEN-3.10.2-AMEND-3): its round, fighters and current result."""
    if not team_mode(state):
        raise RuleError("BR-TEAM-2", "--seat is for team events (team_mode=tag|trio)",
                        hint="amend the table's result without --seat")
    row = amendable(state, round_no, table)          # a qualifying (Swiss) round
    rnd = find_round(state.fmt, round_no) or RoundState(
        number=round_no, phase=Phase.SWISS, paired_seq=0, tables=[])
    fighters = seat_fighters(state, list(row.players), seat)
    done = next((r for r in seats_at(state, round_no, table) if r.seat == seat), None)
    if done is None:
        raise RuleError("LEDGER-RES-1", f"seat {seat} of round {round_no} table {table} "
                        "has no result to amend", hint="see 'tourney round show N'")
    return rnd, fighters, done


@BOOK.checks(SeatResultAmended)
def _seat_amended(state: TournamentState, body: SeatResultAmended, actor: str) -> None:
    rnd, fighters, done = amended_seat(state, body.round, body.table, body.seat)
    if body.corrects_seq != done.seq:
        raise RuleError("LEDGER-RES-1", f"seq {body.corrects_seq} is not the current result "
                        f"of seat {body.seat} (seq {done.seq})", finding="result_mismatch")
    if not body.reason.strip():
        raise RuleError("LEDGER-RES-1", "an amendment needs a reason", hint="pass --reason")
    _decided(state, body, rnd, TableState(table=body.table, players=fighters, groups=[]))
    games = list(body.games) if isinstance(body.games, list) else None
    if (body.winner, sorted(body.losers), games) == (done.winner, sorted(done.losers),
                                                     done.games):
        raise RuleError("LEDGER-RES-1", "the amendment changes nothing",
                        hint="give the result the seat should have had")


def _put_seat(state: TournamentState, ev: SignedEvent,
              body: SeatResultRecorded | SeatResultCorrected | SeatResultAmended) -> None:
    h: MatchState = state.fmt
    if h.teams is None:
        return
    games = None if not isinstance(body.games, list) else list(body.games)
    by = body.decided_by
    rows = h.teams.seats.setdefault(seat_key(body.round, body.table), [])
    rows[:] = [r for r in rows if r.seat != body.seat]
    rows.append(SeatResult(seat=body.seat, seq=ev.seq, winner=body.winner,
                           losers=list(body.losers), games=games,
                           decided_by="" if not hasattr(by, "value") else str(by.value)))
    rows.sort(key=lambda r: r.seat)


@BOOK.applies(SeatResultRecorded)
def _seat_applied(state: TournamentState, ev: SignedEvent, body: SeatResultRecorded) -> None:
    _put_seat(state, ev, body)


@BOOK.applies(SeatResultCorrected)
def _seat_fixed(state: TournamentState, ev: SignedEvent, body: SeatResultCorrected) -> None:
    _put_seat(state, ev, body)


@BOOK.applies(SeatResultAmended)
def _seat_amended_applied(state: TournamentState, ev: SignedEvent,
                          body: SeatResultAmended) -> None:
    _put_seat(state, ev, body)
