"""Rules of every event of a Bushiroad format: who may sign it and what it must say.

Owns: the permissions (RULES.md §1.3) and one check per kind that recomputes the expected
body with ``plan`` and the match layer's plan (the code the commands use) and refuses any
difference, so the audit re-runs every pairing, bye, round-robin round, result, selection,
final order and bracket from the recorded seeds and the state at that seq.

May import: ``ledger.core.state``, ``ledger.wire.events``, ``ledger.errors``,
``ledger.core.decided``,
``ledger.formats.match.*``, ``ledger.formats.bushiroad.*``,
``ledger.formats.officiating.rules`` (the wrong-table double loss, AMB-B25).
"""

from __future__ import annotations

import msgspec

from ledger.core.state import TournamentState
from ledger.errors import RuleError
from ledger.formats.bushiroad.book import BR_BOOK as BOOK
from ledger.formats.bushiroad.events import BrKind, FinalistsDecided, StandingsFinalized
from ledger.formats.bushiroad.finalists import PendingDraw
from ledger.formats.bushiroad.plan import (
    BR_SWISS,
    FormatId,
    close_summary,
    decide,
    fmt_id,
    make_final_standings,
    make_finalists,
    match_state,
    outcome_of,
    require_stage_over,
    round_preconditions,
    round_robin_round,
    rounds_total_at_start,
    stage_over,
    step_ctx,
    tiebreak_needed,
)
from ledger.formats.bushiroad.results import Ending, Games
from ledger.formats.bushiroad.team_results import check_team_result
from ledger.formats.bushiroad.teams import team_mode
from ledger.formats.match.apply import find_round
from ledger.formats.match.bracket import bracket_size, bracket_slots, ranked_order
from ledger.formats.match.departure import (
    check_corrector,
    check_drop_losers,
    check_penalty_cited,
    check_penalty_losers,
)
from ledger.formats.match.events import (
    BracketSeeded,
    ChampionDeclared,
    MatchKind,
    MatchResult,
    PlayerDropped,
    ResultCorrected,
    ResultRecorded,
    RoundClosed,
    RoundPaired,
)
from ledger.formats.match.model import DecidedBy, Outcome, Phase, RoundState, Status, TableState
from ledger.formats.match.plan import (
    close_top_cut,
    correction_table,
    ctx,
    current_round_number,
    drop_timing,
    dropping_record,
    entrants,
    last_round,
    open_table,
    plan_top_cut,
    recorded_draw,
    round_complete,
    round_ctx,
)
from ledger.formats.match.swiss_round import check_pairing, expected_swiss_round
from ledger.formats.officiating.rules import check_no_show
from ledger.wire.events import Role

HJ = frozenset({Role.HEAD_JUDGE})
SCORING = frozenset({Role.SCOREKEEPER, Role.JUDGE, Role.HEAD_JUDGE})
for _kind in (MatchKind.ROUND_PAIRED, MatchKind.BRACKET_SEEDED, BrKind.FINALISTS_DECIDED,
              BrKind.STANDINGS_FINALIZED):
    BOOK.permit(_kind.value, HJ)                                 # LEDGER-RAND-3, BR-FIN
for _kind in (MatchKind.RESULT_RECORDED, MatchKind.ROUND_CLOSED, MatchKind.CHAMPION_DECLARED):
    BOOK.permit(_kind.value, SCORING)                            # LEDGER-RES-1
# a scorekeeper signs a correction only for the double loss of a drop (departure, BR-DROP-2)
BOOK.permit(MatchKind.RESULT_CORRECTED.value, SCORING)
BOOK.permit(MatchKind.PLAYER_DROPPED.value, frozenset({Role.SCOREKEEPER, Role.HEAD_JUDGE}))


def _mismatch(code: str, rule: str, what: str, expected: object,
              recorded: object) -> RuleError:
    return RuleError(rule, f"{what}: expected {expected!r}, recorded {recorded!r}",
                     finding=code)


@BOOK.checks(RoundPaired)
def _round_paired(state: TournamentState, body: RoundPaired, actor: str) -> None:
    if body.phase is Phase.TOP_CUT:
        expected = plan_top_cut(state)
    else:
        n = round_preconditions(state)
        if n == 1:
            rounds_total_at_start(state)       # refuses a field with no recommended R_total
        if fmt_id(state) is FormatId.ROUND_ROBIN:
            if n == 1:
                if len(body.draws) != 1:
                    raise _mismatch("pairing_mismatch", "BR-SWISS-ROUNDS-1", "draws", 1,
                                    len(body.draws))
                order = recorded_draw(state, body.draws[0],
                                      round_ctx(state, 1, "order", first="order"),
                                      [e.number for e in entrants(state)])
            else:
                order = list(match_state(state).order or [])
            expected = round_robin_round(state, n, order, list(body.draws))
        else:
            swiss = expected_swiss_round(state, BR_SWISS, n, body)
            if swiss is None:                  # pair_round planned it just now
                return                         # (ledger.core.decided; the audit plans again)
            expected = swiss
    check_pairing(BR_SWISS, expected, body)


_ENDINGS = {DecidedBy.PLAYED: (Ending.PLAYED,), DecidedBy.TIMEOUT: (Ending.TIMEOUT,),
            DecidedBy.ANNEX_A: (Ending.ANNEX_A,), DecidedBy.CONCESSION: (Ending.CONCESSION,),
            DecidedBy.DROP: (Ending.DROP,), DecidedBy.PENALTY: (Ending.PENALTY,),
            DecidedBy.DOUBLE_LOSS: (Ending.PLAYED, Ending.TIMEOUT, Ending.NO_SHOW)}


def _decided(state: TournamentState, body: MatchResult,
             rnd: RoundState, table: TableState) -> None:
    players, phase = table.players, rnd.phase
    if isinstance(body.games, msgspec.UnsetType) or isinstance(body.decided_by,
                                                                msgspec.UnsetType):
        raise RuleError("DESIGN-11", "a Bushiroad result carries games and decided_by",
                        finding="result_mismatch")
    if len(body.games) not in (2, 3):
        raise RuleError("DESIGN-11", "games is [wins_a, wins_b, draws]",
                        finding="result_mismatch")
    games = Games(*body.games)
    annex = None if isinstance(body.annex_a, msgspec.UnsetType) else body.annex_a
    named = list(body.losers) if body.decided_by in (DecidedBy.CONCESSION, DecidedBy.DROP,
                                                     DecidedBy.PENALTY) else None
    recorded = (body.winner, list(body.losers), body.outcome, list(body.loss_reasons),
                body.decided_by)
    last: RuleError | None = None
    for ending in _ENDINGS.get(body.decided_by, ()):
        try:
            res = decide(state, phase, players, ending=ending, games=games, losers=named,
                         annex=annex)
        except RuleError as exc:
            last = exc
            continue
        oc, reasons = outcome_of(res)
        if (res.winner, sorted(res.losers), oc, reasons, res.decided_by) == recorded:
            if ending is Ending.NO_SHOW:             # AMB-B25, only by the amendment
                check_no_show(state, rnd.number, table.table, players,
                              isinstance(body, ResultCorrected))
            break
    else:
        if last is not None:
            raise RuleError(last.rule, last.message, finding="result_mismatch")
        raise RuleError("BR-MATCH-1", f"result says winner {body.winner}, losers "
                        f"{list(body.losers)} ({body.decided_by.value}) but games "
                        f"{list(body.games)} do not give that", finding="result_mismatch")
    seat = hasattr(body, "seat")      # a team table's seat: its fighters' own penalties
    check_penalty_cited(match_state(state), rnd, table, body.outcome, list(body.losers),
                        None if isinstance(body.penalty_seq, msgspec.UnsetType)
                        else body.penalty_seq, seat)
    if body.decided_by is DecidedBy.DROP:
        check_drop_losers(match_state(state), rnd, table, list(body.losers))
    elif body.decided_by is DecidedBy.PENALTY and body.outcome is not Outcome.PENALTY:
        check_penalty_losers(match_state(state), rnd, table, list(body.losers), seat)


def _team_table(state: TournamentState, body: MatchResult) -> bool:
    """A team table's result other than a team's drop or disqualification (those are the
    match layer's own, BR-DROP-2/4) is derived from its seats (issue 20, BR-TEAM-7)."""
    return team_mode(state) and body.decided_by not in (DecidedBy.DROP, DecidedBy.PENALTY)


@BOOK.checks(ResultRecorded)
def _result(state: TournamentState, body: ResultRecorded, actor: str) -> None:
    rnd, table = open_table(state, body.round, body.table)
    if _team_table(state, body):
        check_team_result(state, body, rnd.phase, table.players)
        return
    _decided(state, body, rnd, table)


@BOOK.checks(ResultCorrected)
def _corrected(state: TournamentState, body: ResultCorrected, actor: str) -> None:
    rnd, table = correction_table(state, body.round, body.table, body.corrects_seq,
                                  body.reason)
    check_corrector(state, match_state(state), rnd, table, body.winner, list(body.losers),
                    body.outcome, actor)
    if _team_table(state, body):     # derived again from the (corrected) seats
        check_team_result(state, body, rnd.phase, table.players)
        return
    _decided(state, body, rnd, table)


@BOOK.checks(PlayerDropped)
def _dropped(state: TournamentState, body: PlayerDropped, actor: str) -> None:
    rec = dropping_record(state, body.number)
    if rec.status not in (Status.ACTIVE, Status.CUT) or rec.cut_finish is not None \
            or match_state(state).final:
        raise RuleError("BR-DROP-1", f"player {body.number} is {rec.status.value}, "
                        "not in the event", hint="only players still in the event drop")
    timing = drop_timing(state, body.number)
    if (body.timing, body.round) != (timing, current_round_number(state)):
        raise RuleError("BR-DROP-2", f"drop timing is {timing.value} in round "
                        f"{current_round_number(state)}", finding="drop_mismatch")


@BOOK.checks(RoundClosed)
def _closed(state: TournamentState, body: RoundClosed, actor: str) -> None:
    rnd = find_round(match_state(state), body.round)
    if rnd is None or not round_complete(rnd):
        raise RuleError("LEDGER-RES-1", f"round {body.round} still has tables without results")
    reclose = rnd.closed_seq is not None and (rnd.corrected_seq or 0) > rnd.closed_seq
    if rnd.closed_seq is not None and not reclose:
        raise RuleError("LEDGER-RES-1", f"round {body.round} is already closed")
    expected = (close_top_cut(state, rnd) if rnd.phase is Phase.TOP_CUT
                else close_summary(state, rnd))
    if expected != body:
        raise _mismatch("standings_mismatch", "BR-SWISS-ROUNDS-4", f"round {body.round} close",
                        expected, body)


@BOOK.checks(ChampionDeclared)
def _champion(state: TournamentState, body: ChampionDeclared, actor: str) -> None:
    rnd = last_round(state)
    h = match_state(state)
    if rnd is None or rnd.closed_seq is None or h.champion is not None:
        raise RuleError("BR-DE-5", "no round has produced a champion")
    if rnd.phase is Phase.TOP_CUT:
        left = [n for n in (h.entries or []) if n is not None]
        want = left[0] if len(left) == 1 else None
    else:
        over, want = stage_over(state, rnd)
        if not over or (state.format is not None and state.format.cut):
            want = None
    if want is None or (body.number, body.round) != (want, rnd.number):
        raise _mismatch("bracket_mismatch", "BR-DE-5", "champion", want, body.number)


def _tiebreak_order(state: TournamentState, draw_seq: int | None) -> list[int] | None:
    items = tiebreak_needed(state)
    if not items:
        if draw_seq is not None:
            raise _mismatch("standings_mismatch", "BR-SWISS-TB-7", "tie-break draw", None,
                            draw_seq)
        return None
    if draw_seq is None:
        raise _mismatch("standings_mismatch", "BR-SWISS-TB-7", "tie-break draw over",
                        items, None)
    return recorded_draw(state, draw_seq, ctx(state, "tiebreak"), items)


@BOOK.checks(FinalistsDecided)
def _finalists(state: TournamentState, body: FinalistsDecided, actor: str) -> None:
    require_stage_over(state)
    if not (state.format and state.format.cut):
        raise RuleError("BR-FIN-1", "this event has no top cut",
                        hint="its standings are finalized instead")
    tiebreak = _tiebreak_order(state, body.tiebreak_draw_seq)
    recorded = {st.step: st.draw_seq for st in
                ([] if isinstance(body.steps, msgspec.UnsetType) else body.steps)
                if st.draw_seq is not None}
    orders: dict[int, tuple[int, list[int]]] = {}
    while True:
        expected = make_finalists(state, body.tiebreak_draw_seq, tiebreak, orders)
        if not isinstance(expected, PendingDraw):
            break
        seq = recorded.get(expected.step)
        if seq is None:
            raise _mismatch("cut_mismatch", "BR-FIN-6", f"step {expected.step} draw",
                            "a draw", None)
        orders[expected.step] = (seq, recorded_draw(state, seq, step_ctx(state, expected.step),
                                                    list(expected.candidates)))
    if expected != body:
        raise _mismatch("cut_mismatch", "BR-FIN-5", "finalists", expected.finalists,
                        body.finalists)


@BOOK.checks(StandingsFinalized)
def _final(state: TournamentState, body: StandingsFinalized, actor: str) -> None:
    require_stage_over(state)
    if state.format and state.format.cut:
        raise RuleError("BR-FIN-1", "this event has a top cut",
                        hint="decide the finalists with 'tourney cut'")
    expected = make_final_standings(state, body.tiebreak_draw_seq,
                                    _tiebreak_order(state, body.tiebreak_draw_seq))
    if expected != body:
        raise _mismatch("standings_mismatch", "BR-SWISS-TB-8", "final standings",
                        expected.order, body.order)


@BOOK.checks(BracketSeeded)
def _seeded(state: TournamentState, body: BracketSeeded, actor: str) -> None:
    h = match_state(state)
    if h.slots is not None:
        raise RuleError("BR-SE-1", "the bracket is already seeded")
    if fmt_id(state) is FormatId.SINGLE_ELIM:
        if state.registration_closed_seq is None:
            raise RuleError("LEDGER-REG-2", "registration is still open")
        field = sorted(e.number for e in entrants(state))
        if body.draw_seq is None or not field:
            raise _mismatch("bracket_mismatch", "BR-SE-1", "bracket draw", "a draw",
                            body.draw_seq)
        order = recorded_draw(state, body.draw_seq, ctx(state, "bracket"), field)
        expected = bracket_slots(order, bracket_size(len(field),
                                                     1 << (len(field) - 1).bit_length()))
    else:
        if h.cut is None:
            raise RuleError("BR-FIN-5", "the finalists are not decided",
                            hint="run 'tourney cut'")
        if body.draw_seq is not None:
            raise _mismatch("bracket_mismatch", "BR-FIN-5", "bracket draw", None,
                            body.draw_seq)
        expected = ranked_order(h.cut, 1 << max(len(h.cut) - 1, 1).bit_length())
    if expected != body.slots:
        raise _mismatch("bracket_mismatch", "BR-SE-1", "bracket seeding", expected, body.slots)
