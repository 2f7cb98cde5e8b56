"""TC-06b / AMB-B24 in the DE standings history (``bushiroad/standings``): a fighter who
dropped and is disqualified later keeps the drop as the end of their DE rounds under both
values of ``de_dq_as_drop``; a disqualification without a drop counts as a drop only
under ``de_dq_as_drop = true``.  Through the real aggregate and store, audited clean."""

from __future__ import annotations

from pathlib import Path

import pytest

from audit.verify import verify_ledger
from ledger.formats.bushiroad.model import Withdrawal
from ledger.formats.bushiroad.mw import de_effective_rounds
from ledger.formats.bushiroad.standing_rows import br_standings
from ledger.formats.bushiroad.standings import histories
from ledger.formats.match.model import Outcome
from ledger.formats.match.plan import open_round
from ledger.formats.officiating.commands import disqualify
from tests.conftest import HJ, SCOREKEEPER
from tests.helpers.officiating import LOG, finish_round, pair, setup


@pytest.mark.parametrize("as_drop", [True, False])
def test_a_drop_then_a_dq_keeps_the_drop_as_the_end(tmp_path: Path, as_drop: bool) -> None:
    """K wins R1 and R2, drops before R3 (d = 2, L = 0: rd = 4), and is disqualified
    after the event: E = min(rd, R_total) whatever de_dq_as_drop says (the later DQ
    neither hides the drop nor moves it)."""
    loc, led = setup(tmp_path, "bushiroad-de", players=16, de_dq_as_drop=as_drop)
    k: int | None = None
    for _ in range(2):
        pair(led)
        rnd = open_round(led.load(LOG).state)
        assert rnd is not None
        for tab in rnd.tables:
            w = tab.players[0] if k is None or k not in tab.players else k
            led.write(LOG, lambda t, now, tab=tab, w=w, rnd=rnd: t.record_result(
                SCOREKEEPER, now, round_no=rnd.number, table=tab.table,
                outcome=Outcome.WIN, winner=w))
        if k is None:
            k = rnd.tables[0].players[0]
    assert k is not None
    led.write(LOG, lambda t, now: t.drop_player(SCOREKEEPER, now, k))
    while not led.load(LOG).state.fmt.swiss_over:
        pair(led)
        finish_round(led)
    led.write(LOG, lambda t, now: disqualify(t, HJ, now, number=k, section="4.1",
                                             reason="falsified slip found later",
                                             standing_revoked=False))
    st = led.load(LOG).state
    h = next(x for x in histories(st) if x.fighter == k)
    assert (h.drop, h.dq is not None) == (Withdrawal(after_round=2), True)
    # E = min(r2, rd, R_total): the drop's rd = 2 + (2 - 0) = 4, whatever R_total is
    assert de_effective_rounds(h, total_rounds=99, dq_as_drop=as_drop) == 4
    assert next(r for r in br_standings(st) if r.number == k).mw is not None
    assert verify_ledger(loc, LOG, None).ok
