"""Rules of every HotC event: who may sign it and what it must say.

Owns: the permissions of the HotC kinds (RULES.md §1.3) and one check per kind, which
recomputes the expected body with ``ledger.formats.hotc.plan`` (the same code the commands use)
and refuses any difference — so the audit re-runs every pairing, bye, cut and bracket
draw from the recorded seeds and the state at that seq.

May import: ``ledger.formats.hotc.book``, ``ledger.core.state``, ``ledger.wire.events``,
``ledger.errors``,
``ledger.core.decided``, ``ledger.formats.hotc.*``.
"""

from __future__ import annotations

import msgspec

from ledger.core.state import TournamentState
from ledger.errors import RuleError
from ledger.formats.hotc.book import HOTC_BOOK as BOOK
from ledger.formats.hotc.events import CutMade, HotcKind, NoChampionRuled
from ledger.formats.hotc.plan import (
    HOTC_SWISS,
    close_summary,
    cut_plan,
    hotc_drop_timing,
    make_cut,
    swiss_preconditions,
    tiny_cut,
)
from ledger.formats.hotc.results import decide_result
from ledger.formats.hotc.revision import revised
from ledger.formats.hotc.slow_play import cited, result_calls
from ledger.formats.match.apply import find_round
from ledger.formats.match.bracket import bracket_slots
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
    PlayerDropped,
    ResultCorrected,
    ResultRecorded,
    RoundClosed,
    RoundPaired,
)
from ledger.formats.match.model import Outcome, Phase, RoundState, Status, TableState
from ledger.formats.match.plan import (
    correction_table,
    ctx,
    current_round_number,
    dropping_record,
    last_round,
    open_table,
    plan_top_cut,
    recorded_draw,
    round_complete,
)
from ledger.formats.match.swiss_round import check_pairing, expected_swiss_round
from ledger.wire.events import PlayerRegistered, Role

# enum members read as module constants: a member read through its enum class is a
# metaclass lookup on every use, and these are read for every event the audit
# folds (issue 28)
_OUTCOME_DOUBLE_LOSS = Outcome.DOUBLE_LOSS
_OUTCOME_DROP = Outcome.DROP
_PHASE_TOP_CUT = Phase.TOP_CUT
_STATUS_ACTIVE = Status.ACTIVE
_STATUS_CUT = Status.CUT


HJ = frozenset({Role.HEAD_JUDGE})
SCORING = frozenset({Role.SCOREKEEPER, Role.JUDGE, Role.HEAD_JUDGE})
BOOK.permit(MatchKind.ROUND_PAIRED.value, HJ)               # LEDGER-RAND-3
BOOK.permit(HotcKind.CUT_MADE.value, HJ)                   # LEDGER-RAND-3
BOOK.permit(HotcKind.NO_CHAMPION_RULED.value, HJ)          # §1.3 (R2): HotC head judge
BOOK.permit(MatchKind.BRACKET_SEEDED.value, HJ)             # LEDGER-RAND-3
BOOK.permit(MatchKind.RESULT_RECORDED.value, SCORING)       # LEDGER-RES-1
# a scorekeeper signs a correction only for the double loss of a drop (departure, BR-DROP-2)
BOOK.permit(MatchKind.RESULT_CORRECTED.value, SCORING)
BOOK.permit(MatchKind.PLAYER_DROPPED.value,  # FR §4.5
            frozenset({Role.SCOREKEEPER, Role.HEAD_JUDGE}))
BOOK.permit(MatchKind.ROUND_CLOSED.value, SCORING)
BOOK.permit(MatchKind.CHAMPION_DECLARED.value, SCORING)


_MISMATCH_RULE = {"pairing_mismatch": "HOTC-PAIR-7", "bracket_mismatch": "HOTC-TOP-1",
                  "standings_mismatch": "HOTC-STOP-1"}


def _mismatch(code: str, what: str, expected: object, recorded: object,
              rule: str | None = None) -> RuleError:
    return RuleError(rule or _MISMATCH_RULE.get(code, "HOTC-CUT-2"),
                     f"{what}: expected {expected!r}, recorded {recorded!r}", finding=code)


@BOOK.checks(PlayerRegistered)
def _registered(state: TournamentState, body: PlayerRegistered, actor: str) -> None:
    """HOTC-ENTRY-1 (R2): with ``invitation_required`` set at genesis, a player is registered
    only with an invitation reference, which the event records."""
    required = state.format is not None and state.format.params.get("invitation_required")
    if required is True and not (body.invitation or "").strip():
        raise RuleError("HOTC-ENTRY-1", f"player {body.number} ({body.name}) has no "
                        "invitation: only invited players may play in this event",
                        hint="pass the invitation reference with --invitation REF",
                        finding="invitation_missing")


@BOOK.checks(RoundPaired)
def _round_paired(state: TournamentState, body: RoundPaired, actor: str) -> None:
    if body.phase is _PHASE_TOP_CUT:
        expected: RoundPaired | None = plan_top_cut(state)
    else:
        expected = expected_swiss_round(state, HOTC_SWISS, swiss_preconditions(state), body)
    if expected is not None:
        check_pairing(HOTC_SWISS, expected, body)


def _decided(state: TournamentState, body: ResultRecorded | ResultCorrected,
             rnd: RoundState, table: TableState) -> None:
    players, phase = table.players, rnd.phase
    loser = body.losers[0] if body.losers else None
    both = list(body.losers) if body.outcome in (_OUTCOME_DROP, _OUTCOME_DOUBLE_LOSS) and \
        len(body.losers) > 1 else None
    got = decide_result(phase, players, body.outcome, winner=body.winner, loser=loser,
                        turn_player=body.turn_player, slow_play=body.slow_play,
                        losers=both)
    if (got.winner, got.losers, got.loss_reasons) != (body.winner, body.losers,
                                                      body.loss_reasons):
        raise RuleError("HOTC-TIME-2", f"result says winner {body.winner}, losers "
                        f"{body.losers} ({[r.value for r in body.loss_reasons]}) but "
                        f"{body.outcome.value} gives {got.winner}, {got.losers}",
                        finding="result_mismatch")
    _calls_cited(state, body)
    check_penalty_cited(state.fmt, rnd, table, body.outcome, body.losers,
                        None if isinstance(body.penalty_seq, msgspec.UnsetType)
                        else body.penalty_seq)
    if body.outcome is _OUTCOME_DROP:
        check_drop_losers(state.fmt, rnd, table, list(body.losers))
    elif body.outcome is _OUTCOME_DOUBLE_LOSS:
        check_penalty_losers(state.fmt, rnd, table, list(body.losers))


def _calls_cited(state: TournamentState, body: ResultRecorded | ResultCorrected) -> None:
    """R2 (HOTC-SLOW-2): the result names every upheld call at its table, and a slow-play
    timeout cites its call; HOTC_2013 results cite none."""
    if not revised(state):
        if cited(body) is not None:
            raise RuleError("HOTC-SLOW-2", "HOTC_2013 results cite no slow-play call",
                            finding="result_mismatch")
        return
    if not state.fmt.calls and not body.slow_play and cited(body) is None:
        return      # no call recorded in the event and none named or cited: they agree
    named, call = result_calls(state, body.round, body.table, body.outcome,
                               list(body.slow_play))
    if (list(body.slow_play), cited(body)) != (named, call):
        raise RuleError("HOTC-SLOW-2", f"result names slow-play calls against "
                        f"{list(body.slow_play)} citing {cited(body)}; the recorded upheld "
                        f"calls give {named} citing {call}", finding="result_mismatch")


@BOOK.checks(ResultRecorded)
def _result(state: TournamentState, body: ResultRecorded, actor: str) -> None:
    rnd, table = open_table(state, body.round, body.table)
    _decided(state, body, rnd, table)


@BOOK.checks(ResultCorrected)
def _corrected(state: TournamentState, body: ResultCorrected, actor: str) -> None:
    rnd, table = correction_table(state, body.round, body.table, body.corrects_seq,
                                  body.reason)
    check_corrector(state, state.fmt, rnd, table, body.winner, list(body.losers),
                    body.outcome, actor)
    _decided(state, body, rnd, table)


@BOOK.checks(PlayerDropped)
def _dropped(state: TournamentState, body: PlayerDropped, actor: str) -> None:
    rec = dropping_record(state, body.number)
    if rec.status not in (_STATUS_ACTIVE, _STATUS_CUT) or rec.cut_finish is not None:
        raise RuleError("BR-DROP-1", f"player {body.number} is {rec.status.value}, "
                        "not in the event", hint="only players still in the event drop")
    timing = hotc_drop_timing(state, body.number)
    if (body.timing, body.round) != (timing, current_round_number(state)):
        raise RuleError("BR-DROP-2", f"drop timing is {timing.value} in round "
                        f"{current_round_number(state)}", finding="drop_mismatch")


@BOOK.checks(RoundClosed)
def _closed(state: TournamentState, body: RoundClosed, actor: str) -> None:
    rnd = find_round(state.fmt, body.round)
    if rnd is None or not round_complete(rnd):
        raise RuleError("LEDGER-RES-1", f"round {body.round} still has tables without results")
    reclose = rnd.closed_seq is not None and (rnd.corrected_seq or 0) > rnd.closed_seq
    if rnd.closed_seq is not None and not reclose:
        raise RuleError("LEDGER-RES-1", f"round {body.round} is already closed")
    expected = close_summary(state, rnd)
    if expected != body:
        raise _mismatch("standings_mismatch", f"round {body.round} close", expected, body)


@BOOK.checks(CutMade)
def _cut(state: TournamentState, body: CutMade, actor: str) -> None:
    x0, pool, spots = cut_plan(state)
    drawn: list[int] = []
    if spots and pool:
        if body.draw_seq is None:
            raise _mismatch("cut_mismatch", "cut draw", "a draw", None)
        drawn = recorded_draw(state, body.draw_seq, ctx(state, "cut"), pool)[:spots]
    elif body.draw_seq is not None:
        raise _mismatch("cut_mismatch", "cut draw", None, body.draw_seq)
    expected = make_cut(state, x0, pool, spots, drawn, body.draw_seq)
    if expected != body:
        raise _mismatch("cut_mismatch", "top cut", expected.cut, body.cut)


@BOOK.checks(NoChampionRuled)
def _no_champion(state: TournamentState, body: NoChampionRuled, actor: str) -> None:
    """AMB-H9 (R2): only after a cut with no player, once, citing that cut, with a reason."""
    h = state.fmt
    if not revised(state) or h.cut is None or h.cut or h.no_champion_seq is not None:
        raise RuleError("AMB-H9", "a no-champion ruling ends only an event whose top cut "
                        "has no player (HOTC_2013_R2), once", finding="cut_mismatch")
    if body.cut_seq != h.cut_seq:
        raise _mismatch("cut_mismatch", "ruling cites the cut", h.cut_seq, body.cut_seq)
    if not body.reason.strip():
        raise RuleError("AMB-H9", "the ruling needs a reason", hint="pass --no-champion REASON")


@BOOK.checks(BracketSeeded)
def _seeded(state: TournamentState, body: BracketSeeded, actor: str) -> None:
    h = state.fmt
    if h.cut is None:
        raise RuleError("HOTC-TOP-1", "the top cut is not selected", hint="run 'tourney cut'")
    if h.slots is not None:
        raise RuleError("HOTC-TOP-1", "the bracket is already seeded")
    if tiny_cut(state):
        raise RuleError("HOTC-TOP-3", f"a top cut of {len(h.cut)} has no bracket (AMB-H9)",
                        finding="bracket_mismatch")
    if body.draw_seq is None:
        raise _mismatch("bracket_mismatch", "bracket draw", "a draw (HOTC-TOP-1)", None)
    order = recorded_draw(state, body.draw_seq, ctx(state, "bracket"), sorted(h.cut))
    expected = bracket_slots(order, state.format.cut if state.format else 8)
    if expected != body.slots:
        raise _mismatch("bracket_mismatch", "bracket seeding", expected, body.slots)


@BOOK.checks(ChampionDeclared)
def _champion(state: TournamentState, body: ChampionDeclared, actor: str) -> None:
    if tiny_cut(state):             # R2: a cut of one is the champion, with no match
        h = state.fmt
        if h.champion is not None or not h.cut or h.no_champion_seq is not None:
            raise RuleError("HOTC-TOP-3", "the event is already over or has no champion",
                            finding="bracket_mismatch")
        expected = ChampionDeclared(number=h.cut[0], round=len(h.rounds))
        if expected != body:
            raise _mismatch("bracket_mismatch", "champion of a cut of one",
                            (expected.number, expected.round), (body.number, body.round))
        return
    rnd = last_round(state)
    left = [n for n in (state.fmt.entries or []) if n is not None]
    if rnd is None or rnd.phase is not _PHASE_TOP_CUT or rnd.closed_seq is None \
            or len(left) != 1 or state.fmt.champion is not None:
        raise RuleError("HOTC-TOP-3", "the bracket has not produced a champion yet")
    if (body.number, body.round) != (left[0], rnd.number):
        raise _mismatch("bracket_mismatch", "champion", left[0], body.number, "HOTC-TOP-3")

