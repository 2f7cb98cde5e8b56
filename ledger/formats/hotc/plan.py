"""What the next HotC event must say, computed from the state: the one implementation
of every HotC decision, used by the commands (to decide) and by the checks (to verify).

Owns: draw contexts, what HotC's Swiss round says on the match layer's shared path
(``HOTC_SWISS``: bye candidates, the bye from the draw), the close summary (stop rule),
drop timing and the cut plan.

May import: ``ledger.core.state``, ``ledger.errors``, ``ledger.formats.hotc.*``,
``ledger.formats.match.*``.
"""

from __future__ import annotations

from ledger.core.state import TournamentState
from ledger.errors import RuleError
from ledger.formats.hotc.bye import bye_by_pairing
from ledger.formats.hotc.cut import (
    cut_spots,
    eligible_pool,
    slow_play_penalty_losers,
    stop_rule,
    undefeated,
)
from ledger.formats.hotc.events import CutMade, NoChampionRuled
from ledger.formats.hotc.revision import revised
from ledger.formats.match.events import ChampionDeclared, DropTiming, RoundClosed
from ledger.formats.match.model import Phase, RoundState, Status
from ledger.formats.match.pairing import Entrant
from ledger.formats.match.plan import (
    active_count,
    close_top_cut,
    drop_timing,
    entrants,
    open_round,
    param,
)
from ledger.formats.match.swiss_round import SwissRound

# enum members read as module constants: a member read through its enum class is a
# metaclass lookup on every use, and these are read for every event the audit
# folds (issue 28)
_PHASE_SWISS = Phase.SWISS
_STATUS_ACTIVE = Status.ACTIVE
_STATUS_ELIMINATED = Status.ELIMINATED


FORMAT_ID = "hotc-swiss-de"


def require_hotc(state: TournamentState) -> None:
    if state.format is None or state.format.id != FORMAT_ID:
        raise RuleError("RULES-8", "this command needs a hotc-swiss-de tournament")
    if state.registration_closed_seq is None:
        raise RuleError("LEDGER-REG-2", "registration is still open",
                        hint="close it with 'tourney registration close'")


def cut_size(state: TournamentState) -> int:
    return state.format.cut if state.format else 8


def no_swiss_phase(state: TournamentState) -> bool:
    """AMB-H6: before round 1, are there too few entrants for a Swiss phase?  HOTC_2013:
    entrants <= N_cut; HOTC_2013_R2: entrants < N_cut (N_cut entrants play round 1)."""
    active = sum(r.status is _STATUS_ACTIVE for r in state.fmt.records.values())
    return active < cut_size(state) if revised(state) else active <= cut_size(state)


def stop_count_holds(state: TournamentState) -> bool:
    """HOTC-STOP-1 as revised (R2): after round 1, the X-0 count taken now — when the next
    Swiss round would be paired — is below N_cut (a drop or a correction since the round
    closed counts).  The count is the one kept as records change
    (``MatchState.unbeaten``, ``ledger.formats.match.unbeaten``), not a recount of the
    field at every drop check (issue 22 item 3)."""
    return stop_rule(state.fmt.unbeaten, cut_size(state))


def swiss_over(state: TournamentState) -> bool:
    """Is the Swiss phase over (no further Swiss round may be paired)?  The one answer for
    the commands, the checks, simulate and the audit, under the recorded revision."""
    h = state.fmt
    if h.cut is not None:
        return True
    if not any(r.phase is _PHASE_SWISS for r in h.rounds):
        return no_swiss_phase(state)
    if revised(state):
        return open_round(state) is None and stop_count_holds(state)
    return bool(h.swiss_over)


def swiss_preconditions(state: TournamentState) -> int:
    """Refuse unless a Swiss round may be paired now; returns its number."""
    require_hotc(state)
    h = state.fmt
    if open_round(state) is not None:
        raise RuleError("HOTC-PAIR-1", f"round {h.rounds[-1].number} is still open",
                        hint="record its remaining results first ('tourney round show')")
    if h.cut is not None or h.swiss_over and not revised(state):
        raise RuleError("HOTC-STOP-1", "the Swiss phase is over",
                        hint="select the top cut with 'tourney cut', then 'tourney bracket'")
    active = active_count(state)
    if not h.rounds and no_swiss_phase(state):
        rel = "fewer than" if revised(state) else "no more than"
        raise RuleError("AMB-H6", f"{active} entrants, {rel} the top {cut_size(state)}: "
                        "there is no Swiss phase", hint="go straight to 'tourney cut'")
    if h.rounds and revised(state) and stop_count_holds(state):
        x0 = h.unbeaten
        raise RuleError("HOTC-STOP-1", f"{x0} active players are undefeated, fewer than "
                        f"{cut_size(state)}: the Swiss phase is over",
                        hint="select the top cut with 'tourney cut'", finding="swiss_after_stop")
    if active < 2:
        raise RuleError("HOTC-PAIR-1", "fewer than two active players",
                        hint="select the top cut with 'tourney cut'")
    return len(h.rounds) + 1


def hotc_drop_timing(state: TournamentState, number: int) -> DropTiming:
    """BR-DROP-1/2 timing; under R2 a drop once the stop count holds is in the cut window
    (HOTC-DROP-1), even when the round_closed before it said another round was due."""
    timing = drop_timing(state, number)
    if timing is DropTiming.BEFORE_PAIRING and revised(state) and state.fmt.rounds \
            and state.fmt.cut is None and swiss_over(state):
        return DropTiming.CUT_WINDOW
    return timing


def choose_bye(state: TournamentState, order: list[int],
               active: list[Entrant] | None = None) -> int:
    """HOTC-BYE-5 as revised (R2) on the recorded order of the candidates (``active`` =
    ``entrants(state)`` if the caller already built them)."""
    return bye_by_pairing(entrants(state) if active is None else active, order,
                          param(state, "pair_down_counts", "higher"))


def bye_from_draw(state: TournamentState, drawn: list[int], active: list[Entrant]) -> int:
    """The bye given the bye draw's result: HOTC_2013 takes the first drawn candidate;
    R2 applies HOTC-BYE-5 as revised to the drawn order."""
    return choose_bye(state, drawn, active) if revised(state) else drawn[0]


def _bye_reason(state: TournamentState, n: int) -> str:
    what = "bye candidates in order" if revised(state) else "bye"
    return f"round {n} {what} (HOTC-BYE-5)"


#: HotC's Swiss round on the shared path (``ledger.formats.match.swiss_round``): the bye
#: candidates ordered by ``bye_priority`` (HOTC-BYE-1), the bye by HOTC-BYE-5 (as revised
#: in R2), the engine's own algorithm ("hotc-pair/v1", HOTC-PAIR-5)
HOTC_SWISS = SwissRound(pairing_rule="HOTC-PAIR-1", mismatch_rule="HOTC-PAIR-7",
                        bye_reason=_bye_reason, bye_from_draw=bye_from_draw,
                        bye_priority_param="bye_priority")


def tiny_cut(state: TournamentState) -> bool:
    """R2 (AMB-H9, HOTC-TOP-3): a cut of one player (champion with no match) or of none
    (no champion, by the head judge's ruling) has no bracket."""
    return revised(state) and state.fmt.cut is not None and len(state.fmt.cut) <= 1


def close_summary(state: TournamentState, rnd: RoundState) -> RoundClosed:
    """round_closed of a round whose results are all in: the stop rule's verdict."""
    recs = state.fmt.records
    losers = {n for t in rnd.tables if t.result for n in t.result.losers}
    if rnd.phase is _PHASE_SWISS:
        x0 = undefeated(recs.values())
        one = [r.number for r in recs.values() if r.status is _STATUS_ACTIVE and r.losses == 1]
        gone = sorted(n for n in losers if recs[n].status is _STATUS_ELIMINATED
                      and recs[n].second_loss_round == rnd.number)
        return RoundClosed(round=rnd.number, phase=rnd.phase, undefeated=len(x0),
                           one_loss=len(one), eliminated=gone,
                           swiss_over=stop_rule(len(x0), cut_size(state)))
    return close_top_cut(state, rnd)


def tiny_cut_ending(state: TournamentState, cut_seq: int,
                    reason: str) -> ChampionDeclared | NoChampionRuled:
    """What ends an R2 event whose cut has one player (the champion, no match) or none
    (the head judge's ruling, with the reason) — AMB-H9, HOTC-TOP-3."""
    cut = state.fmt.cut or []
    if cut:
        return ChampionDeclared(number=cut[0], round=len(state.fmt.rounds))
    return NoChampionRuled(cut_seq=cut_seq, reason=reason.strip())


def bracket_preconditions(state: TournamentState) -> None:
    """Refuse to seed a bracket the cut cannot fill (HOTC-TOP-1, AMB-H9)."""
    h = state.fmt
    if h.cut is None:
        raise RuleError("HOTC-TOP-1", "the top cut is not selected", hint="run 'tourney cut'")
    if h.slots is not None:
        raise RuleError("HOTC-TOP-1", "the bracket is already seeded")
    if tiny_cut(state):
        what = (f"#{h.cut[0]} is the champion with no match" if h.cut
                else "the event ended with no champion")
        raise RuleError("HOTC-TOP-3", f"the top cut has {len(h.cut)} player(s): {what}",
                        hint="there is no bracket to seed")
    if not h.cut:
        raise RuleError("AMB-H9", "the top cut is empty: HOTC_2013 has no bracket and no "
                        "rule to end the event", hint="the event needs a head judge's "
                        "decision outside the ledger (HOTC_2013_R2 records one)")


def cut_plan(state: TournamentState) -> tuple[list[int], list[int], int]:
    """(X-0 players admitted, eligible pool pre-ordered, random spots) — HOTC-CUT-1/2."""
    require_hotc(state)
    h = state.fmt
    if h.cut is not None:
        raise RuleError("HOTC-CUT-1", "the top cut was already selected")
    if open_round(state) is not None:
        raise RuleError("HOTC-STOP-1", "a round is still open", hint="record its results")
    size = cut_size(state)
    recs = h.records.values()
    active = [r for r in recs if r.status is _STATUS_ACTIVE]
    if not h.rounds:
        if not no_swiss_phase(state):
            raise RuleError("HOTC-STOP-1", f"{len(active)} entrants for a top {size}: the "
                            "Swiss phase has not started",
                            hint="pair round 1 with 'tourney round pair'")
        return sorted(r.number for r in active), [], 0   # AMB-H6(c)
    if not swiss_over(state):
        raise RuleError("HOTC-STOP-1", f"{len(undefeated(recs))} players are undefeated, not "
                        f"fewer than {size}: play another Swiss round")
    x0 = undefeated(recs)
    return x0, eligible_pool(recs, slow_play_penalty_losers(h)), cut_spots(size, len(x0))


def make_cut(state: TournamentState, x0: list[int], pool: list[int], spots: int,
             drawn: list[int], draw_seq: int | None) -> CutMade:
    """The cut_made of HOTC-CUT-1..3: X-0 plus the drawn, everyone else active out."""
    cut = sorted(x0 + drawn)
    out = sorted(r.number for r in state.fmt.records.values()
                 if r.status is _STATUS_ACTIVE and r.number not in cut)
    return CutMade(spots=spots, undefeated=x0, pool=pool, drawn=drawn, cut=cut,
                   eliminated=out, draw_seq=draw_seq)


