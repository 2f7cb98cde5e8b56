"""What the next HotC event must say, computed from the state: the one implementation
of every HotC decision, used by the commands (to decide) and by the checks (to verify).

Owns: draw contexts, the pairing plan of a Swiss or top-cut round, the close summary
(stop rule), drop timing and the cut plan.

May import: ``ledger.state``, ``ledger.errors``, ``ledger.formats.hotc.*``.
"""

from __future__ import annotations

from ledger.errors import RuleError
from ledger.formats.hotc.cut import (
    cut_spots,
    eligible_pool,
    stop_rule,
    undefeated,
)
from ledger.formats.hotc.events import CutMade
from ledger.formats.match.events import RoundClosed
from ledger.formats.match.model import Phase, RoundState, Status
from ledger.formats.match.pairing import bye_candidates
from ledger.formats.match.plan import (
    close_top_cut,
    entrants,
    open_round,
    param,
)
from ledger.state import TournamentState

FORMAT_ID = "hotc-swiss-de"


def require_hotc(state: TournamentState) -> None:
    if state.format is None or state.format.id != FORMAT_ID:
        raise RuleError("RULES-8", "this command needs a hotc-swiss-de tournament")
    if state.registration_closed_seq is None:
        raise RuleError("LEDGER-REG-2", "registration is still open",
                        hint="close it with 'tourney registration close'")


def cut_size(state: TournamentState) -> int:
    return state.format.cut if state.format else 8


def swiss_preconditions(state: TournamentState) -> int:
    """Refuse unless a Swiss round may be paired now; returns its number."""
    require_hotc(state)
    h = state.fmt
    if open_round(state) is not None:
        raise RuleError("HOTC-PAIR-1", f"round {h.rounds[-1].number} is still open",
                        hint="record its remaining results first ('tourney round show')")
    if h.swiss_over or h.cut is not None:
        raise RuleError("HOTC-STOP-1", "the Swiss phase is over",
                        hint="select the top cut with 'tourney cut', then 'tourney bracket'")
    active = entrants(state)
    if not h.rounds and len(active) <= cut_size(state):
        raise RuleError("AMB-H6", f"{len(active)} entrants fit in the top {cut_size(state)}: "
                        "there is no Swiss phase", hint="go straight to 'tourney cut'")
    if len(active) < 2:
        raise RuleError("HOTC-PAIR-1", "fewer than two active players",
                        hint="select the top cut with 'tourney cut'")
    return len(h.rounds) + 1


def bye_items(state: TournamentState) -> list[int] | None:
    """Candidates of the bye draw, or None when the field is even (HOTC-BYE-1)."""
    active = entrants(state)
    if len(active) % 2 == 0:
        return None
    return bye_candidates(active, param(state, "bye_priority", "no_repeat"))


def close_summary(state: TournamentState, rnd: RoundState) -> RoundClosed:
    """round_closed of a round whose results are all in: the stop rule's verdict."""
    recs = state.fmt.records
    losers = {n for t in rnd.tables if t.result for n in t.result.losers}
    if rnd.phase is Phase.SWISS:
        x0 = undefeated(recs.values())
        one = [r.number for r in recs.values() if r.status is Status.ACTIVE and r.losses == 1]
        gone = sorted(n for n in losers if recs[n].status is Status.ELIMINATED
                      and recs[n].second_loss_round == rnd.number)
        return RoundClosed(round=rnd.number, phase=rnd.phase, undefeated=len(x0),
                           one_loss=len(one), eliminated=gone,
                           swiss_over=stop_rule(len(x0), cut_size(state)))
    return close_top_cut(state, rnd)


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
    active = [r for r in recs if r.status is Status.ACTIVE]
    if not h.rounds:
        if len(active) > size:
            raise RuleError("HOTC-STOP-1", "the Swiss phase has not started",
                            hint="pair round 1 with 'tourney round pair'")
        return sorted(r.number for r in active), [], 0   # AMB-H6(c)
    if not h.swiss_over:
        raise RuleError("HOTC-STOP-1", f"{len(undefeated(recs))} players are undefeated, not "
                        f"fewer than {size}: play another Swiss round")
    x0 = undefeated(recs)
    return x0, eligible_pool(recs), cut_spots(size, len(x0))


def make_cut(state: TournamentState, x0: list[int], pool: list[int], spots: int,
             drawn: list[int], draw_seq: int | None) -> CutMade:
    """The cut_made of HOTC-CUT-1..3: X-0 plus the drawn, everyone else active out."""
    cut = sorted(x0 + drawn)
    out = sorted(r.number for r in state.fmt.records.values()
                 if r.status is Status.ACTIVE and r.number not in cut)
    return CutMade(spots=spots, undefeated=x0, pool=pool, drawn=drawn, cut=cut,
                   eliminated=out, draw_seq=draw_seq)


