"""State transitions the Bushiroad formats add: R_total and the round-robin order when
round 1 is paired, the finalists, the final standings and their tie-break order.

Applies only: never validates, never reads a clock, never draws.  Runs before the match
layer's transitions of the same event (``BR_BOOK`` is merged first), so it still sees the
draws the event consumes.

May import: ``ledger.core.state``, ``ledger.wire.events``, ``ledger.errors``,
``ledger.formats.match.*``, ``ledger.formats.bushiroad.*``.
"""

from __future__ import annotations

from ledger.core.state import TournamentState
from ledger.errors import RuleError
from ledger.formats.bushiroad.book import BR_BOOK
from ledger.formats.bushiroad.events import FinalistsDecided, StandingsFinalized
from ledger.formats.bushiroad.plan import rounds_total_at_start
from ledger.formats.match.apply import consume_draws
from ledger.formats.match.events import RoundPaired
from ledger.formats.match.model import MatchState, Phase, Status
from ledger.formats.match.unbeaten import set_status
from ledger.wire.events import SignedEvent


@BR_BOOK.applies(RoundPaired)
def _first_round(state: TournamentState, ev: SignedEvent, body: RoundPaired) -> None:
    h: MatchState = state.fmt
    if body.round != 1 or body.phase is not Phase.SWISS:
        return
    try:
        h.rounds_total = rounds_total_at_start(state)
    except RuleError:          # refused by the check; a replay of a bad log folds on
        h.rounds_total = 0
    if body.algorithm == "circle/v1" and body.draws:
        h.order = list(state.draw_results.get(body.draws[0], []))


def _tiebreak(state: TournamentState, seq: int | None) -> None:
    h: MatchState = state.fmt
    if seq is not None:
        h.tiebreak = list(state.draw_results.get(seq, []))
    consume_draws(state)


@BR_BOOK.applies(FinalistsDecided)
def _finalists(state: TournamentState, ev: SignedEvent, body: FinalistsDecided) -> None:
    h: MatchState = state.fmt
    _tiebreak(state, body.tiebreak_draw_seq)
    h.cut = list(body.finalists)
    h.cut_seq = ev.seq
    h.swiss_over = True
    h.final = not body.finalists         # nobody left to select: the event ends here
    for n in body.finalists:
        if n in h.records:
            set_status(h, h.records[n], Status.CUT)
    for n in body.eliminated:
        if n in h.records:
            set_status(h, h.records[n], Status.ELIMINATED)


@BR_BOOK.applies(StandingsFinalized)
def _final(state: TournamentState, ev: SignedEvent, body: StandingsFinalized) -> None:
    h: MatchState = state.fmt
    _tiebreak(state, body.tiebreak_draw_seq)
    h.final = True
    h.swiss_over = True
    if body.champion is not None:
        h.champion = body.champion
        if body.champion in h.records:
            set_status(h, h.records[body.champion], Status.CHAMPION)
