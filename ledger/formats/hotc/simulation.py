"""``tourney simulate`` for HotC: its ``simulation`` facet (RULES.md §2).

Owns: ``HotcSimulation`` — the match layer's simulated event with HotC's policy: drops
before the stop rule is asked (HOTC-STOP-1, R2), the stop rule itself, an event the old
rules cannot go on with, a cut window's drops of one-loss players and the head judge's
no-champion reason (AMB-H9), a timed-out top-cut match decided by the turn player
(HOTC-TOP-2).

May import: ``ledger.core.*``, ``ledger.formats.match.*``, ``ledger.formats.hotc.*``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ledger.formats.match.model import MatchState, Outcome, Phase
from ledger.formats.match.plan import open_round
from ledger.formats.match.sim import MatchSimulation

if TYPE_CHECKING:
    from ledger.core.command_facets import SimRun
    from ledger.core.state_model import TournamentState


class HotcSimulation(MatchSimulation):
    drops_before_stop_rule = True

    def __init__(self) -> None:
        super().__init__("HotC")

    def no_bracket_left(self, h: MatchState) -> bool:
        return False

    def swiss_over(self, state: TournamentState, h: MatchState) -> bool:
        from ledger.formats.hotc import plan

        return plan.swiss_over(state)                 # HOTC-STOP-1, AMB-H6

    def stuck(self, state: TournamentState, h: MatchState, over: bool) -> bool:
        from ledger.formats.hotc import plan
        from ledger.formats.match.model import Status

        if not over and h.cut is None and open_round(state) is None and sum(
                r.status is Status.ACTIVE for r in h.records.values()) < 2:
            return True    # HOTC_2013 only (R2 stops first): the old rules cannot go on
        # R2: ended at the cut; HOTC_2013: no rule finishes a cut of 0/1
        return h.cut is not None and h.slots is None and (
            plan.tiny_cut(state) or len(h.cut) <= 1)

    def cut_window(self, run: SimRun) -> str | None:
        from ledger.formats.hotc import plan, revision

        self._drops(run, "cut-window", one_loss_only=True)
        state = run.session.state
        x0, pool, spots = plan.cut_plan(state)
        if not revision.revised(state) or x0 or (spots and pool):
            return None
        return "simulated: no undefeated player and no eligible one-loss player (AMB-H9)"

    def cut_ends_event(self, state: TournamentState) -> bool:
        return len(state.format_state(MatchState).cut or []) <= 1

    def timeout(self, kw: dict[str, Any], phase: Phase, side: int, *, seat: bool) -> bool:
        kw["outcome"] = Outcome.TIMEOUT
        if phase is Phase.TOP_CUT:
            kw["turn_player"] = side
        return True
