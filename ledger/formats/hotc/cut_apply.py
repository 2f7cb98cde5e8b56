"""State transition of the HotC top-cut selection (``cut_made``).

May import: ``ledger.core.state``, ``ledger.wire.events``, ``ledger.formats.match.*``,
``ledger.formats.hotc.*``.
"""

from __future__ import annotations

from ledger.core.state import TournamentState
from ledger.formats.hotc.book import HOTC_BOOK
from ledger.formats.hotc.events import CutMade, NoChampionRuled
from ledger.formats.hotc.model import HotcState
from ledger.formats.match.apply import consume_draws
from ledger.formats.match.model import MatchState, Status
from ledger.formats.match.unbeaten import set_status
from ledger.wire.events import SignedEvent


@HOTC_BOOK.applies(CutMade)
def _cut(state: TournamentState, ev: SignedEvent, body: CutMade) -> None:
    h: MatchState = state.fmt
    consume_draws(state)
    h.cut = list(body.cut)
    h.cut_seq = ev.seq
    h.swiss_over = True
    for n in body.cut:
        if n in h.records:
            set_status(h, h.records[n], Status.CUT)
    for n in body.eliminated:
        if n in h.records:
            set_status(h, h.records[n], Status.ELIMINATED)


@HOTC_BOOK.applies(NoChampionRuled)
def _no_champion(state: TournamentState, ev: SignedEvent, body: NoChampionRuled) -> None:
    h: HotcState = state.fmt
    h.no_champion_seq = ev.seq
    h.final = True                    # the event is over, with no champion (AMB-H9)
