"""The audit's floor checks of issue 30 (THREATS.md style: a rogue writer forges the event,
re-signs it with the fixture keys, and the audit flags it with a stable code):

- DECK-DRAW-2: a deck-check draw announces its count K with 1 ≤ K ≤ the round's tables
  (``deck_draw_count``), and a check citing the draw is at one of its first K tables
  (``deck_check_not_drawn``); the command side refuses both and writes nothing;
- CALL-5: what a closed judge call cites is a ruling, penalty or appeal
  (``call_cites_not_ruling``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ledger.core.draw import draw_v1, seed_from_material
from ledger.errors import RuleError
from ledger.formats.match.plan import open_round
from ledger.formats.officiating.catalogue import Penalty
from ledger.formats.officiating.deck_commands import draw_deck_checks, start_deck_check
from ledger.formats.officiating.deck_floor import DeckCheckStarted, deck_ctx
from ledger.formats.officiating.deck_rules import announced_count, draw_reason
from ledger.formats.officiating.floor_commands import make_ruling
from ledger.wire.calls import CallClosed
from ledger.wire.events import DrawMade
from tests.conftest import HJ, JUDGE
from tests.helpers.officiating import LOG, _append_forged, _codes, _rows, pair, penalize, setup
from usecases.calls import claim_call, close_call, open_call

CTX = deck_ctx(LOG, 1)


def _seed(led: object, material: str) -> int:
    return led.write(LOG, lambda t, now: t.record_seed(  # type: ignore[attr-defined, no-any-return]
        material=material, source="dice", reason="deck checks", signer=HJ, time=now,
        ctx=CTX)).seq


def _forged_draw(loc: object, seed_seq: int, reason: str) -> int:
    seed = seed_from_material("after")
    return _append_forged(loc, DrawMade(
        ctx=CTX, algorithm="DRAW-v1", seed=seed.hex(), seed_seq=seed_seq, items=[1, 2, 3, 4],
        result=draw_v1(seed, CTX, [1, 2, 3, 4]), universe="tables", reason=reason), HJ)


def test_the_announced_count_reads_back_only_from_the_draw_s_own_words() -> None:
    assert announced_count(draw_reason(3, 2), 3) == 2
    assert announced_count(draw_reason(3, 2), 4) is None          # another round's words
    assert announced_count("deck checks of round 3: the first two tables", 3) is None
    assert announced_count("", 3) is None


@pytest.mark.parametrize("reason", [draw_reason(1, 5), draw_reason(1, 0), "", "spot checks"])
def test_a_draw_announcing_no_count_or_more_than_the_tables_is_flagged(
        tmp_path: Path, reason: str) -> None:
    loc, led = setup(tmp_path, players=8)                        # 4 tables
    pair(led)
    seed_seq = _seed(led, "after")
    led.close()
    seq = _forged_draw(loc, seed_seq, reason)
    assert _codes(loc).get("deck_draw_count") == [seq]


def test_an_honest_draw_of_all_the_tables_passes_the_audit(tmp_path: Path) -> None:
    loc, led = setup(tmp_path, players=8)
    pair(led)
    _seed(led, "after")
    ev = led.write(LOG, lambda t, now: draw_deck_checks(t, HJ, now, round_no=1, count=4))
    assert ev.body.reason == draw_reason(1, 4)
    led.close()
    codes = _codes(loc)
    assert "deck_draw_count" not in codes and "rule_violation" not in codes


def test_a_check_claimed_drawn_at_a_spare_table_is_refused_and_flagged(
        tmp_path: Path) -> None:
    loc, led = setup(tmp_path, players=8)
    pair(led)
    _seed(led, "after")
    draw = led.write(LOG, lambda t, now: draw_deck_checks(t, HJ, now, round_no=1, count=1))
    first, spare = draw.body.result[0], draw.body.result[1]
    before = _rows(loc)
    with pytest.raises(RuleError, match=f"table {spare} is not among the 1 table") as err:
        led.write(LOG, lambda t, now: start_deck_check(t, JUDGE, now, round_no=1,
                                                       table=spare, draw_seq=draw.seq))
    assert (err.value.rule, err.value.finding) == ("DECK-DRAW-2", "deck_check_not_drawn")
    assert _rows(loc) == before                                   # nothing written
    led.write(LOG, lambda t, now: start_deck_check(t, JUDGE, now, round_no=1, table=spare))
    ok = led.write(LOG, lambda t, now: start_deck_check(t, JUDGE, now, round_no=1,
                                                        table=first, draw_seq=draw.seq))
    led.close()
    assert "deck_check_not_drawn" not in _codes(loc)
    third = draw.body.result[2]
    forged = _append_forged(loc, DeckCheckStarted(round=1, table=third, draw_seq=draw.seq),
                            JUDGE)
    assert forged > ok.seq and _codes(loc).get("deck_check_not_drawn") == [forged]


def _claimed_call(led: object) -> tuple[int, int]:
    c = led.write(LOG, lambda t, now: open_call(t, JUDGE, now, table=1))  # type: ignore[attr-defined]
    led.write(LOG, lambda t, now: claim_call(t, JUDGE, now, c.seq))  # type: ignore[attr-defined]
    return c.seq, c.body.table


def test_a_closed_call_cites_a_ruling_penalty_or_appeal_only(tmp_path: Path) -> None:
    loc, led = setup(tmp_path, players=8)
    pair(led)
    call, table = _claimed_call(led)
    claim = _rows(loc)[-1][0]                                     # the claim: no ruling
    before = _rows(loc)
    with pytest.raises(RuleError, match=f"seq {claim} is not a ruling, penalty or appeal") \
            as err:
        led.write(LOG, lambda t, now: close_call(t, JUDGE, now, call, "ruled", claim))
    assert (err.value.rule, err.value.finding) == ("CALL-5", "call_cites_not_ruling")
    assert _rows(loc) == before
    rnd = open_round(led.load(LOG).state)
    assert rnd is not None
    player = next(t for t in rnd.tables if t.table == table).players[0]
    ruling = led.write(LOG, lambda t, now: make_ruling(t, JUDGE, now, round_no=1, table=table,
                                                       question="q", ruling="r"))
    led.write(LOG, lambda t, now: close_call(t, JUDGE, now, call, "ruled", ruling.seq))
    second, _t = _claimed_call(led)
    pen = penalize(led, player, "3.1.1.3", Penalty.WARNING)[-1].seq
    led.write(LOG, lambda t, now: close_call(t, JUDGE, now, second, "warned", pen))
    third, _t = _claimed_call(led)
    led.close()
    assert "call_cites_not_ruling" not in _codes(loc)
    # cites the call's own claim (third + 1): after the call, but no ruling
    forged = _append_forged(loc, CallClosed(call=third, outcome="x", cites=third + 1), JUDGE)
    assert _codes(loc).get("call_cites_not_ruling") == [forged]
