"""What the next event of a Bushiroad format must say, computed from the state: the one
implementation of every Bushiroad decision, used by the commands (to decide) and by the
checks (to verify).

Owns: the qualifying stage of each format (``swiss``, ``double_elim``, ``round_robin``;
``single_elim`` has none), R_total (BR-SWISS-ROUNDS-2/3, AMB-B28), round preconditions,
what its Swiss round says on the match layer's shared path (``BR_SWISS``: byes, AMB-B1),
the round-robin schedule, when the stage is over (fixed rounds, the announced stop rules
of BR-SWISS-ROUNDS-4, AMB-B9 for DE), the close summary, results from game scores
(BR-MATCH, BR-SWISS-5, BR-DE-6, BR-SE-2/3/4, Annex A), finalists (BR-FIN-5) and the
final standings of an event without a top cut.

May import: ``ledger.core.state``, ``ledger.errors``, ``ledger.formats.match.*``,
``ledger.formats.bushiroad.*``.
"""

from __future__ import annotations

from enum import Enum

import msgspec

from ledger.core.state import TournamentState
from ledger.errors import RuleError
from ledger.formats.bushiroad import annex_a
from ledger.formats.bushiroad.de import EndReason, end_check
from ledger.formats.bushiroad.events import FinalistsDecided, StandingsFinalized, Step
from ledger.formats.bushiroad.finalists import (
    DrawHandling,
    Exclusion,
    GroupMethod,
    OverflowChoice,
    PendingDraw,
    QualifierRecord,
    select_by_group,
    select_by_ranking,
)
from ledger.formats.bushiroad.params import flag, match_format, number, se_equal_games, text
from ledger.formats.bushiroad.results import Ending, Games, MatchResult, Stage, decide_match
from ledger.formats.bushiroad.round_robin import schedule
from ledger.formats.bushiroad.rounds import (
    RoundRange,
    StopRule,
    recommended_swiss_rounds,
    swiss_stop_at,
)
from ledger.formats.bushiroad.standings import (
    final_order,
    histories,
    ranking,
    tied_players,
    undefeated_until,
)
from ledger.formats.match.events import AnnexA, RoundClosed, RoundPaired, Table
from ledger.formats.match.model import (
    DecidedBy,
    LossReason,
    MatchState,
    Outcome,
    Phase,
    RoundState,
    Status,
)
from ledger.formats.match.plan import active_count, ctx, entrants, open_round
from ledger.formats.match.swiss_round import SwissRound

PAIRING_ALGORITHM = "match-pair/v1"     # the HotC objective over point groups (AMB-B7)


class FormatId(str, Enum):
    SWISS = "bushiroad-swiss"
    DOUBLE_ELIM = "bushiroad-de"
    SINGLE_ELIM = "single-elim"
    ROUND_ROBIN = "round-robin"


STAGE = {FormatId.SWISS: Stage.SWISS, FormatId.DOUBLE_ELIM: Stage.DOUBLE_ELIM,
         FormatId.ROUND_ROBIN: Stage.ROUND_ROBIN, FormatId.SINGLE_ELIM: Stage.SINGLE_ELIM}


_FORMAT_IDS = {f.value: f for f in FormatId}


def fmt_id(state: TournamentState) -> FormatId:
    if state.format is None:
        raise RuleError("RULES-8", "this ledger has no format")
    return _FORMAT_IDS.get(state.format.id) or FormatId(state.format.id)


def match_state(state: TournamentState) -> MatchState:
    """A Bushiroad event's match state (its plug-in's ``state_type``: never refused)."""
    h: MatchState = state.fmt
    return h


def cut_size(state: TournamentState) -> int:
    return state.format.cut if state.format else 0


def require_open_registration_closed(state: TournamentState) -> None:
    if state.registration_closed_seq is None:
        raise RuleError("LEDGER-REG-2", "registration is still open",
                        hint="close it with 'tourney registration close'")


# -- the qualifying stage -------------------------------------------------------------------
def rounds_for_field(state: TournamentState, players: int) -> int:
    """R_total of a Swiss with ``swiss_rounds = 0``: the recommended number for the field
    (BR-SWISS-ROUNDS-2 without a cut; with a cut the middle of the BR-SWISS-ROUNDS-3
    range, rounded up); no recommendation means the organizer must set it (AMB-B28)."""
    fixed = number(state, "swiss_rounds")
    if fixed:
        return fixed
    if text(state, "stop_rule") != "fixed":
        return 0
    rec = recommended_swiss_rounds(players, top_cut=cut_size(state) > 0)
    if isinstance(rec, RoundRange):
        return (rec.low + rec.high + 1) // 2
    raise RuleError("BR-SWISS-ROUNDS-1", f"there is no recommended number of Swiss rounds "
                    f"for {players} fighters" + (" (a round robin is recommended)" if rec else ""),
                    hint="start the event with --param swiss_rounds=N, or use --format "
                         "round-robin for 2–4 fighters (AMB-B28)")


def round_preconditions(state: TournamentState) -> int:
    """Refuse unless the next qualifying round may be paired now; returns its number."""
    require_open_registration_closed(state)
    h = match_state(state)
    f = fmt_id(state)
    if f is FormatId.SINGLE_ELIM:
        raise RuleError("BR-SE-1", "a single-elimination event is played as a bracket",
                        hint="seed it with 'tourney bracket'")
    if open_round(state) is not None:
        raise RuleError("BR-SWISS-1", f"round {h.rounds[-1].number} is still open",
                        hint="record its remaining results first ('tourney round show')")
    if h.swiss_over or h.final:
        raise RuleError("BR-SWISS-ROUNDS-4", "the qualifying rounds are over",
                        hint="select the top cut with 'tourney cut'" if cut_size(state)
                        else "finalize the standings with 'tourney cut'")
    if active_count(state) < 2:
        raise RuleError("BR-SWISS-1", "fewer than two active fighters",
                        hint="finalize the standings with 'tourney cut'")
    return len(h.rounds) + 1


def rounds_total_at_start(state: TournamentState) -> int:
    """R_total fixed when round 1 is paired (0 while a stop rule or DE decides the end)."""
    f = fmt_id(state)
    active = active_count(state)
    if f is FormatId.SWISS:
        return rounds_for_field(state, active)
    if f is FormatId.ROUND_ROBIN:
        return len(schedule(sorted(e.number for e in entrants(state))))
    return 0


def _bye_reason(state: TournamentState, n: int) -> str:
    return f"round {n} bye (AMB-B1)"


#: Bushiroad's Swiss round on the shared path (``ledger.formats.match.swiss_round``): the
#: bye drawn among the fighters on the lowest points who have not had one, the first
#: drawn (AMB-B1); the HotC objective over point groups (AMB-B7)
BR_SWISS = SwissRound(pairing_rule="BR-SWISS-1/2", mismatch_rule="BR-SWISS-2",
                      bye_reason=_bye_reason, algorithm=PAIRING_ALGORITHM)


def round_robin_round(state: TournamentState, n: int, order: list[int],
                      draws: list[int]) -> RoundPaired:
    """Round ``n`` of the circle schedule over the drawn order; a fighter who dropped is
    not paired and their scheduled opponent sits out (BR-SWISS-ROUNDS-1, BR-DROP-1)."""
    rounds = schedule(order)
    if n > len(rounds):
        raise RuleError("BR-SWISS-ROUNDS-1", f"the round robin has {len(rounds)} rounds")
    active = {e.number for e in entrants(state)}
    wins = {e.number: e.wins for e in entrants(state)}
    rr = rounds[n - 1]
    tables = [Table(table=i, players=[a, b], groups=[wins[a], wins[b]])
              for i, (a, b) in enumerate(
                  ((a, b) for a, b in rr.tables if a in active and b in active), start=1)]
    bye = rr.bye if rr.bye in active else None
    return RoundPaired(round=n, phase=Phase.SWISS, tables=tables, bye=bye, draws=draws,
                       algorithm="circle/v1")


def stage_over(state: TournamentState, rnd: RoundState) -> tuple[bool, int | None]:
    """(the qualifying stage ends with this closed round, champion if the stage decides one
    without a cut) — fixed rounds or the announced stop rule (BR-SWISS-ROUNDS-4), the
    round-robin schedule, or the DE end condition (BR-DE-2/5, AMB-B9)."""
    h = match_state(state)
    f = fmt_id(state)
    if f is FormatId.DOUBLE_ELIM:
        chk = end_check(histories(state), rnd.number, cut_size(state) or None)
        champ = chk.champion if chk.reason in (EndReason.ONE_UNDEFEATED,
                                               EndReason.ONE_REMAINING) else None
        return chk.ended, champ
    if sum(r.status is Status.ACTIVE for r in h.records.values()) < 2:
        return True, None
    if h.rounds_total:
        stop = swiss_stop_at(undefeated_until(state), rnd.number, StopRule.FIXED,
                             swiss_rounds=h.rounds_total)
    else:
        stop = swiss_stop_at(undefeated_until(state), rnd.number,
                             StopRule(text(state, "stop_rule")), cut_size=cut_size(state))
    return stop.stop, None


def close_summary(state: TournamentState, rnd: RoundState) -> RoundClosed:
    h = match_state(state)
    recs = h.records.values()
    x0 = [r for r in recs if r.status is Status.ACTIVE and r.losses == 0]
    one = [r for r in recs if r.status is Status.ACTIVE and r.losses == 1]
    losers = {n for t in rnd.tables if t.result for n in t.result.losers}
    gone = sorted(n for n in losers if h.records[n].status is Status.ELIMINATED
                  and h.records[n].second_loss_round == rnd.number)
    over, _ = stage_over(state, rnd)
    return RoundClosed(round=rnd.number, phase=rnd.phase, undefeated=len(x0),
                       one_loss=len(one), eliminated=gone, swiss_over=over)


# -- results ----------------------------------------------------------------------------------
def _stage(state: TournamentState, phase: Phase) -> Stage:
    return Stage.SINGLE_ELIM if phase is Phase.TOP_CUT else STAGE[fmt_id(state)]


def decide(state: TournamentState, phase: Phase, players: list[int], *, ending: Ending,
           games: Games, losers: list[int] | None = None,
           annex: AnnexA | None = None) -> MatchResult:
    """The result of one table from its game score and how it ended (the helper of
    ``results.decide_match`` with this tournament's parameters; Annex A re-run from the
    recorded values)."""
    a, b = players
    if annex is not None:
        _check_annex(state, players, annex, games)
    return decide_match(_stage(state, phase), match_format(state), a, b, games, ending,
                        se_equal_games=se_equal_games(state),
                        annex_a_announced=flag(state, "annex_a"), losers=losers or ())


def _annex_decision(state: TournamentState, players: list[int],
                    checkpoints: list[list[list[int]]]) -> annex_a.AnnexADecision:
    """Annex A over the recorded values: per checkpoint, each fighter's values in the
    title's criterion order (VG damage; WS level, clock; BF life)."""
    game = annex_a.Game(text(state, "game"))
    names = [c.value for c in annex_a.CRITERIA[game]]

    def values(v: list[int]) -> annex_a.Values:
        if len(v) != len(names):
            raise RuleError("BR-ANNEXA-0", f"{game.value} compares {', '.join(names)}",
                            hint=f"give {len(names)} value(s) per fighter, e.g. "
                                 f"--annex-a {','.join(['2'] * len(names))}/"
                                 f"{','.join(['3'] * len(names))}")
        kw = {n.split("_", 1)[1]: x for n, x in zip(names, v, strict=True)}
        return annex_a.Values(**kw)

    if any(len(cp) != 2 for cp in checkpoints):
        raise RuleError("BR-ANNEXA-0", "each Annex A checkpoint has the values of both "
                        "fighters", hint="A_VALUES/B_VALUES, checkpoints separated by ';'")
    return annex_a.decide_game(game, players[0], players[1],
                               [(values(x), values(y)) for x, y in checkpoints])


def make_annex(state: TournamentState, players: list[int],
               checkpoints: list[list[list[int]]]) -> AnnexA:
    """The ``annex_a`` record of a game Annex A decided (BR-ANNEXA-0)."""
    if not flag(state, "annex_a"):
        raise RuleError("BR-ANNEXA-0", "Annex A was not announced for this event",
                        hint="record the time-up result with --timeout --games A-B")
    decision = _annex_decision(state, players, checkpoints)
    if decision.loser is None:
        raise RuleError("BR-ANNEXA-0", "the values are equal at every checkpoint: the game "
                        "continues", hint="add the values at the next checkpoint")
    return AnnexA(game=text(state, "game"), checkpoints=checkpoints, loser=decision.loser)


def _check_annex(state: TournamentState, players: list[int], annex: AnnexA,
                 games: Games) -> None:
    if annex.game != text(state, "game"):
        raise RuleError("BR-ANNEXA-0", f"the Annex A record is for {annex.game}, the event "
                        f"plays {text(state, 'game')}", finding="result_mismatch")
    decision = _annex_decision(state, players, annex.checkpoints)
    if decision.loser != annex.loser:
        raise RuleError("BR-ANNEXA-0", f"Annex A values say {decision.loser} loses, the record "
                        f"says {annex.loser}", finding="result_mismatch")
    won = games.b if decision.loser == players[0] else games.a
    if won < 1:
        raise RuleError("BR-ANNEXA-0", "the Annex A game's winner has no game win counted",
                        hint="count the game Annex A decided")


def outcome_of(res: MatchResult) -> tuple[Outcome, list[LossReason]]:
    """The match layer's outcome and loss reasons of a Bushiroad result."""
    by = res.decided_by
    if res.draw:
        return Outcome.DRAW, []
    if res.winner is None:
        reason = {DecidedBy.DROP: LossReason.DROP_AFTER_PAIRING,
                  DecidedBy.PENALTY: LossReason.PENALTY}.get(by, LossReason.DOUBLE_LOSS)
        return Outcome.DOUBLE_LOSS, [reason] * len(res.losers)
    if by is DecidedBy.CONCESSION:
        return Outcome.CONCESSION, [LossReason.CONCESSION]
    if by is DecidedBy.PENALTY:           # a Loss of Match or a DQ, cited (issue 17)
        return Outcome.PENALTY, [LossReason.PENALTY]
    if by is DecidedBy.DROP:
        return Outcome.DROP, [LossReason.DROP_AFTER_PAIRING]
    if by is DecidedBy.TIMEOUT:
        return Outcome.TIMEOUT, [LossReason.TIMEOUT]
    if by is DecidedBy.ANNEX_A:
        return Outcome.WIN, [LossReason.ANNEX_A]
    return Outcome.WIN, [LossReason.PLAY]


# -- after the qualifying stage --------------------------------------------------------------
def require_stage_over(state: TournamentState) -> None:
    require_open_registration_closed(state)
    h = match_state(state)
    if fmt_id(state) is FormatId.SINGLE_ELIM:
        raise RuleError("BR-SE-1", "a single-elimination event has no qualifying standings",
                        hint="seed the bracket with 'tourney bracket'")
    if h.final:
        raise RuleError("BR-FIN-3", "the standings are final: the event is over")
    if h.cut is not None:
        raise RuleError("BR-FIN-3", "the finalists were already decided (BR-FIN-3/4)")
    if open_round(state) is not None:
        raise RuleError("BR-SWISS-ROUNDS-4", "a round is still open",
                        hint="record its remaining results first")
    if not h.swiss_over and active_count(state) >= 2:
        raise RuleError("BR-SWISS-ROUNDS-4", "the qualifying rounds are not over",
                        hint="pair the next round with 'tourney round pair'")
    if h.champion is not None:
        raise RuleError("BR-DE-5", f"the event is over: champion #{h.champion}")


def tiebreak_needed(state: TournamentState) -> list[int]:
    """The items of the final tie-break draw (fighters still tied after head-to-head,
    BR-SWISS-TB-7), empty when the standings have no tie."""
    return tied_players(state) if match_state(state).tiebreak is None else []


def step_ctx(state: TournamentState, step: int) -> str:
    return ctx(state, f"finalists/step{step}")


def make_finalists(state: TournamentState, draw_seq: int | None,
                   tiebreak: list[int] | None,
                   step_orders: dict[int, tuple[int, list[int]]] | None = None
                   ) -> FinalistsDecided | PendingDraw:
    """The finalists (BR-FIN-5 by ranking; BR-FIN-6/7 in steps by nation/clan — the
    registered ``clan`` — or by title — the registered ``deck``), dropped fighters skipped
    (BR-FIN-2).  ``step_orders`` maps an overflowing step to (draw seq, drawn order) under
    ``step_overflow_choice = random``; a step still waiting for its draw is returned as a
    ``PendingDraw`` for the command to record."""
    order = final_order(state, tiebreak)
    h = match_state(state)
    gone = {Status.DROPPED: Exclusion.DROPPED, Status.DISQUALIFIED: Exclusion.DISQUALIFIED}
    excluded = {r.number: gone[r.status] for r in h.records.values() if r.status in gone}
    method = text(state, "finalist_method")
    steps: list[Step] | msgspec.UnsetType = msgspec.UNSET
    warnings: list[str] | msgspec.UnsetType = msgspec.UNSET
    if method == "ranking":
        sel = select_by_ranking(order, cut_size(state), excluded)
    else:
        orders = {k: v[1] for k, v in (step_orders or {}).items()}
        records = [QualifierRecord(
            fighter=n, wins=h.records[n].wins, losses=h.records[n].losses,
            draws=h.records[n].draws,
            group=_group(state, n, method)) for n in order]
        sel = select_by_group(records, order, cut_size(state), excluded,
                              method=GroupMethod(method),
                              overflow=OverflowChoice(text(state, "step_overflow_choice")),
                              draw_orders=orders,
                              draw_handling=DrawHandling(text(state, "fin_draw_handling")),
                              count_excluded_full_wins=flag(state,
                                                            "fin_count_excluded_full_wins"))
        if sel.pending_draw is not None:
            return sel.pending_draw
        seqs = {k: v[0] for k, v in (step_orders or {}).items()}
        steps = [Step(step=t.step, full_win_users=t.full_win_users,
                      candidates=list(t.candidates), selected=list(t.selected),
                      chosen_by=t.chosen_by.value, draw_seq=seqs.get(t.step))
                 for t in sel.steps]
        warnings = list(sel.warnings)
    chosen = list(sel.finalists)
    seeds = [n for n in order if n in set(chosen)]      # seeds by ranking (BR-FIN-5)
    out = sorted(r.number for r in h.records.values()
                 if r.status is Status.ACTIVE and r.number not in chosen)
    skipped = sorted(n for n, _ in sel.skipped)
    return FinalistsDecided(method=method, spots=cut_size(state), finalists=seeds,
                            excluded=skipped, eliminated=out, tiebreak_draw_seq=draw_seq,
                            steps=steps, warnings=warnings)


def _group(state: TournamentState, number: int, method: str) -> str | None:
    p = state.players.get(number)
    if p is None:
        return None
    return p.clan if method == "nation_clan" else p.deck


def make_final_standings(state: TournamentState, draw_seq: int | None,
                         tiebreak: list[int] | None) -> StandingsFinalized:
    r = ranking(state, tiebreak)
    order = [row.fighter for row in r.rows]
    first = [row.fighter for row in r.rows if row.place == 1]
    champion = first[0] if len(first) == 1 else None
    return StandingsFinalized(order=order, champion=champion, tiebreak_draw_seq=draw_seq)
