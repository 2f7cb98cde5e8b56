"""Rules of every HotC event: who may sign it and what it must say.

Owns: the permissions of the HotC kinds (RULES.md §1.3) and one check per kind, which
recomputes the expected body with ``ledger.hotc.plan`` (the same code the commands use)
and refuses any difference — so the audit re-runs every pairing, bye, cut and bracket
draw from the recorded seeds and the state at that seq.

May import: ``ledger.rules``, ``ledger.state``, ``ledger.events``, ``ledger.errors``,
``ledger.hotc.*``.
"""

from __future__ import annotations

from ledger.errors import RuleError
from ledger.events import Role
from ledger.hotc.apply import find_round
from ledger.hotc.cut import bracket_slots
from ledger.hotc.events import (
    BracketSeeded,
    ChampionDeclared,
    CutMade,
    HotcKind,
    PlayerDropped,
    ResultCorrected,
    ResultRecorded,
    RoundClosed,
    RoundPaired,
)
from ledger.hotc.model import Outcome, Phase, Status
from ledger.hotc.plan import (
    bye_items,
    close_summary,
    correctable_table,
    ctx,
    current_round_number,
    cut_plan,
    drop_timing,
    last_round,
    make_cut,
    open_table,
    pairing_items,
    plan_swiss,
    plan_top_cut,
    round_complete,
    swiss_preconditions,
)
from ledger.hotc.results import decide_result
from ledger.rules import checks, permit
from ledger.state import TournamentState

HJ = frozenset({Role.HEAD_JUDGE})
SCORING = frozenset({Role.SCOREKEEPER, Role.JUDGE, Role.HEAD_JUDGE})
permit(HotcKind.ROUND_PAIRED.value, HJ)               # LEDGER-RAND-3
permit(HotcKind.CUT_MADE.value, HJ)                   # LEDGER-RAND-3
permit(HotcKind.BRACKET_SEEDED.value, HJ)             # LEDGER-RAND-3
permit(HotcKind.RESULT_RECORDED.value, SCORING)       # LEDGER-RES-1
permit(HotcKind.RESULT_CORRECTED.value, frozenset({Role.JUDGE, Role.HEAD_JUDGE}))
permit(HotcKind.PLAYER_DROPPED.value, frozenset({Role.SCOREKEEPER, Role.HEAD_JUDGE}))  # FR §4.5
permit(HotcKind.ROUND_CLOSED.value, SCORING)
permit(HotcKind.CHAMPION_DECLARED.value, SCORING)


_MISMATCH_RULE = {"pairing_mismatch": "HOTC-PAIR-7", "bracket_mismatch": "HOTC-TOP-1",
                  "standings_mismatch": "HOTC-STOP-1"}


def _mismatch(code: str, what: str, expected: object, recorded: object,
              rule: str | None = None) -> RuleError:
    return RuleError(rule or _MISMATCH_RULE.get(code, "HOTC-CUT-2"),
                     f"{what}: expected {expected!r}, recorded {recorded!r}", finding=code)


def _draw(state: TournamentState, seq: int, want_ctx: str, items: list[int]) -> list[int]:
    if state.draws.get(want_ctx) != seq:
        raise RuleError("LEDGER-RAND-1", f"draw seq {seq} is not the draw of {want_ctx!r}",
                        finding="draw_mismatch")
    if state.draw_items.get(seq) != items:
        raise RuleError("LEDGER-RAND-1", f"draw {want_ctx!r} was not over {items}",
                        finding="draw_mismatch")
    return state.draw_results[seq]


@checks(RoundPaired)
def _round_paired(state: TournamentState, body: RoundPaired, actor: str) -> None:
    if body.phase is Phase.TOP_CUT:
        expected = plan_top_cut(state)
    else:
        n = swiss_preconditions(state)
        items = bye_items(state)
        want = 1 if items is None else 2
        if body.round != n or len(body.draws) != want:
            raise _mismatch("pairing_mismatch", "round/draws", (n, want),
                            (body.round, len(body.draws)))
        bye = None
        if items is not None:
            bye = _draw(state, body.draws[0], ctx(state, f"R{n}/bye"), items)[0]
        order = _draw(state, body.draws[-1], ctx(state, f"R{n}/pairing"),
                      pairing_items(state, bye))
        expected = plan_swiss(state, n, bye, order, list(body.draws))
    if expected != body:
        raise _mismatch("pairing_mismatch", f"round {body.round} pairing",
                        [t.players for t in expected.tables] + [expected.bye],
                        [t.players for t in body.tables] + [body.bye])


def _decided(state: TournamentState, body: ResultRecorded | ResultCorrected,
             players: list[int], phase: Phase) -> None:
    loser = body.losers[0] if body.losers else None
    got = decide_result(phase, players, body.outcome, winner=body.winner, loser=loser,
                        turn_player=body.turn_player, slow_play=list(body.slow_play))
    if (got.winner, got.losers, got.loss_reasons) != (body.winner, body.losers,
                                                      body.loss_reasons):
        raise RuleError("HOTC-TIME-2", f"result says winner {body.winner}, losers "
                        f"{body.losers} ({[r.value for r in body.loss_reasons]}) but "
                        f"{body.outcome.value} gives {got.winner}, {got.losers}",
                        finding="result_mismatch")
    dropper = state.hotc.records.get(loser) if loser is not None else None
    if body.outcome is Outcome.DROP and (dropper is None or dropper.status is not Status.DROPPED):
        raise RuleError("BR-DROP-2", f"player {loser} has not dropped",
                        hint="use 'tourney drop NUMBER'")


@checks(ResultRecorded)
def _result(state: TournamentState, body: ResultRecorded, actor: str) -> None:
    rnd, table = open_table(state, body.round, body.table)
    _decided(state, body, table.players, rnd.phase)


@checks(ResultCorrected)
def _corrected(state: TournamentState, body: ResultCorrected, actor: str) -> None:
    rnd, table, current = correctable_table(state, body.round, body.table)
    if current != body.corrects_seq:
        raise RuleError("LEDGER-RES-1", f"seq {body.corrects_seq} is not the current result "
                        f"of round {body.round} table {body.table} (seq {current})",
                        hint="cite the seq shown by 'tourney round show'")
    if not body.reason.strip():
        raise RuleError("LEDGER-RES-1", "a correction needs a reason", hint="pass --reason")
    _decided(state, body, table.players, rnd.phase)


@checks(PlayerDropped)
def _dropped(state: TournamentState, body: PlayerDropped, actor: str) -> None:
    rec = state.hotc.records.get(body.number)
    if rec is None and body.number in state.players:
        raise RuleError("BR-DROP-1", f"registration is still open: player {body.number} "
                        "is registered and withdraws instead of dropping",
                        hint=f"tourney player withdraw {body.number}")
    if rec is None:
        raise RuleError("BR-DROP-1", f"player {body.number} is not registered",
                        hint="see 'tourney player list'")
    if rec.status not in (Status.ACTIVE, Status.CUT) or rec.cut_finish is not None:
        raise RuleError("BR-DROP-1", f"player {body.number} is {rec.status.value}, "
                        "not in the event", hint="only players still in the event drop")
    timing = drop_timing(state, body.number)
    if (body.timing, body.round) != (timing, current_round_number(state)):
        raise RuleError("BR-DROP-2", f"drop timing is {timing.value} in round "
                        f"{current_round_number(state)}", finding="drop_mismatch")


@checks(RoundClosed)
def _closed(state: TournamentState, body: RoundClosed, actor: str) -> None:
    rnd = find_round(state.hotc, body.round)
    if rnd is None or not round_complete(rnd):
        raise RuleError("LEDGER-RES-1", f"round {body.round} still has tables without results")
    reclose = rnd.closed_seq is not None and (rnd.corrected_seq or 0) > rnd.closed_seq
    if rnd.closed_seq is not None and not reclose:
        raise RuleError("LEDGER-RES-1", f"round {body.round} is already closed")
    expected = close_summary(state, rnd)
    if expected != body:
        raise _mismatch("standings_mismatch", f"round {body.round} close", expected, body)


@checks(CutMade)
def _cut(state: TournamentState, body: CutMade, actor: str) -> None:
    x0, pool, spots = cut_plan(state)
    drawn: list[int] = []
    if spots and pool:
        if body.draw_seq is None:
            raise _mismatch("cut_mismatch", "cut draw", "a draw", None)
        drawn = _draw(state, body.draw_seq, ctx(state, "cut"), pool)[:spots]
    elif body.draw_seq is not None:
        raise _mismatch("cut_mismatch", "cut draw", None, body.draw_seq)
    expected = make_cut(state, x0, pool, spots, drawn, body.draw_seq)
    if expected != body:
        raise _mismatch("cut_mismatch", "top cut", expected.cut, body.cut)


@checks(BracketSeeded)
def _seeded(state: TournamentState, body: BracketSeeded, actor: str) -> None:
    h = state.hotc
    if h.cut is None:
        raise RuleError("HOTC-TOP-1", "the top cut is not selected", hint="run 'tourney cut'")
    if h.slots is not None:
        raise RuleError("HOTC-TOP-1", "the bracket is already seeded")
    order = _draw(state, body.draw_seq, ctx(state, "bracket"), sorted(h.cut))
    expected = bracket_slots(order, state.format.cut if state.format else 8)
    if expected != body.slots:
        raise _mismatch("bracket_mismatch", "bracket seeding", expected, body.slots)


@checks(ChampionDeclared)
def _champion(state: TournamentState, body: ChampionDeclared, actor: str) -> None:
    rnd = last_round(state)
    left = [n for n in (state.hotc.entries or []) if n is not None]
    if rnd is None or rnd.phase is not Phase.TOP_CUT or rnd.closed_seq is None \
            or len(left) != 1 or state.hotc.champion is not None:
        raise RuleError("HOTC-TOP-3", "the bracket has not produced a champion yet")
    if (body.number, body.round) != (left[0], rnd.number):
        raise _mismatch("bracket_mismatch", "champion", left[0], body.number, "HOTC-TOP-3")

