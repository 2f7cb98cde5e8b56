"""Deck checks drawn verifiably (issue 30 item 3): the head judge draws the tables of the
open round under ``<log>/R<n>/deck-checks`` from a seed recorded after the pairing; the
audit re-derives the draw and flags a tampered one; a check records its start, end,
outcome and the penalty it led to.  A published list must hash to its registration
(issue 30 item 4): refused at the command, flagged by the audit when forged."""

from __future__ import annotations

from pathlib import Path

import pytest

from ledger.core.draw import draw_v1, seed_from_material
from ledger.errors import RuleError
from ledger.formats.match.plan import open_round
from ledger.formats.officiating.catalogue import Penalty
from ledger.formats.officiating.deck_commands import (
    check_minutes,
    draw_deck_checks,
    end_deck_check,
    publish_deck,
    start_deck_check,
)
from ledger.formats.officiating.deck_floor import DeckCheckOutcome, DeckPublished, deck_ctx
from ledger.formats.officiating.deck_rules import draw_reason
from ledger.formats.officiating.decklist_rules import list_hash
from ledger.formats.officiating.floor_commands import register_deck
from ledger.wire.events import DrawMade
from tests.conftest import HJ, JUDGE, SCOREKEEPER
from tests.helpers.officiating import LOG, _append_forged, _codes, pair, penalize, setup

CTX = deck_ctx(LOG, 1)


def _seed(led: object, material: str, ctx: str | None = CTX) -> int:
    return led.write(LOG, lambda t, now: t.record_seed(  # type: ignore[attr-defined, no-any-return]
        material=material, source="dice", reason="deck checks", signer=HJ, time=now,
        ctx=ctx)).seq


def test_draw_rederives_and_checks_record_start_end_penalty(tmp_path: Path) -> None:
    loc, led = setup(tmp_path, players=8)
    early = _seed(led, "known before the pairing", ctx=None)
    pair(led)
    size = led.load(LOG).state.size
    with pytest.raises(RuleError, match="before round 1's pairing") as err:
        led.write(LOG, lambda t, now: draw_deck_checks(t, HJ, now, round_no=1, count=2,
                                                       seed_seq=early))
    assert err.value.finding == "deck_draw_seed_early"
    with pytest.raises(RuleError, match="not the round paired and open"):
        led.write(LOG, lambda t, now: draw_deck_checks(t, HJ, now, round_no=2, count=2))
    with pytest.raises(RuleError, match="--count 5: round 1 has 4"):
        led.write(LOG, lambda t, now: draw_deck_checks(t, HJ, now, round_no=1, count=5))
    with pytest.raises(RuleError):                 # the draw is the head judge's
        led.write(LOG, lambda t, now: draw_deck_checks(t, JUDGE, now, round_no=1, count=2))
    assert led.load(LOG).state.size == size        # refusals wrote nothing

    seed_seq = _seed(led, "dice 3 5 1 6 2 4 after the pairing")
    ev = led.write(LOG, lambda t, now: draw_deck_checks(t, HJ, now, round_no=1, count=2))
    body = ev.body
    assert isinstance(body, DrawMade)
    assert (body.ctx, body.seed_seq, body.universe, body.items) == (CTX, seed_seq, "tables",
                                                                    [1, 2, 3, 4])
    assert body.result == draw_v1(seed_from_material("dice 3 5 1 6 2 4 after the pairing"),
                                  CTX, [1, 2, 3, 4])
    first = body.result[0]

    start = led.write(LOG, lambda t, now: start_deck_check(t, JUDGE, now, round_no=1,
                                                           table=first, draw_seq=ev.seq))
    with pytest.raises(RuleError, match="already being checked"):
        led.write(LOG, lambda t, now: start_deck_check(t, JUDGE, now, round_no=1,
                                                       table=first))
    with pytest.raises(RuleError, match="not round 1's deck-check draw"):
        led.write(LOG, lambda t, now: start_deck_check(t, JUDGE, now, round_no=1,
                                                       table=body.result[1], draw_seq=start.seq))
    with pytest.raises(RuleError):                 # a scorekeeper does not check decks
        led.write(LOG, lambda t, now: start_deck_check(t, SCOREKEEPER, now, round_no=1,
                                                       table=body.result[1]))
    rnd = open_round(led.load(LOG).state)
    assert rnd is not None
    tab = next(t for t in rnd.tables if t.table == first)
    other = next(t for t in rnd.tables if t.table != first)
    pen_here = penalize(led, tab.players[0], "3.1.1.3", Penalty.WARNING)[-1].seq
    pen_else = penalize(led, other.players[0], "3.1.1.3", Penalty.WARNING)[-1].seq
    with pytest.raises(RuleError, match="not at round 1 table"):
        led.write(LOG, lambda t, now: end_deck_check(
            t, JUDGE, now, start_seq=start.seq, outcome=DeckCheckOutcome.MISMATCH,
            penalty_seq=pen_else))
    with pytest.raises(RuleError, match="cites no penalty"):
        led.write(LOG, lambda t, now: end_deck_check(
            t, JUDGE, now, start_seq=start.seq, outcome=DeckCheckOutcome.MATCHES,
            penalty_seq=pen_here))
    end = led.write(LOG, lambda t, now: end_deck_check(
        t, JUDGE, now, start_seq=start.seq, outcome=DeckCheckOutcome.MISMATCH,
        penalty_seq=pen_here, note="one card short"))
    with pytest.raises(RuleError, match="already ended"):
        led.write(LOG, lambda t, now: end_deck_check(
            t, JUDGE, now, start_seq=start.seq, outcome=DeckCheckOutcome.MATCHES))
    rec = led.load(LOG).state.fmt.officiating.deck_checks[start.seq]
    assert (rec.round, rec.table, rec.started, rec.ended_seq, rec.ended) == (
        1, first, start.time, end.seq, end.time)
    assert check_minutes(rec.started, rec.ended) >= 0
    assert set(_codes(loc)) <= {"no_checkpoint"}   # the audit re-derives it all

    # a deck-check draw for a round that is not the open one is flagged
    fresh = _seed(led, "fresh", ctx=None)
    r2 = deck_ctx(LOG, 2)
    seed = seed_from_material("fresh")
    forged = _append_forged(loc, DrawMade(
        ctx=r2, algorithm="DRAW-v1", seed=seed.hex(), seed_seq=fresh, items=[1, 2, 3, 4],
        result=draw_v1(seed, r2, [1, 2, 3, 4]), universe="tables"), HJ)
    assert forged in _codes(loc)["deck_draw_not_round"]


def test_tampered_and_wrong_deck_draws_are_flagged(tmp_path: Path) -> None:
    loc, led = setup(tmp_path, players=8)
    pair(led)
    seed_seq = _seed(led, "after")
    seed = seed_from_material("after").hex()
    honest = draw_v1(bytes.fromhex(seed), CTX, [1, 2, 3, 4])
    tampered = [honest[1], honest[0], *honest[2:]]
    seq = _append_forged(loc, DrawMade(ctx=CTX, algorithm="DRAW-v1", seed=seed,
                                       seed_seq=seed_seq, items=[1, 2, 3, 4],
                                       result=tampered, universe="tables",
                                       reason=draw_reason(1, 2)), HJ)
    assert _codes(loc).get("draw_mismatch") == [seq]


def test_deck_draw_over_other_items_is_flagged(tmp_path: Path) -> None:
    loc, led = setup(tmp_path, players=8)
    pair(led)
    seed_seq = _seed(led, "after")
    seed = seed_from_material("after").hex()
    seq = _append_forged(loc, DrawMade(ctx=CTX, algorithm="DRAW-v1", seed=seed,
                                       seed_seq=seed_seq, items=[1, 2, 3],
                                       result=draw_v1(bytes.fromhex(seed), CTX, [1, 2, 3]),
                                       universe="tables"), HJ)
    assert _codes(loc).get("deck_draw_items") == [seq]


def test_deck_draw_before_the_pairing_is_flagged(tmp_path: Path) -> None:
    loc, led = setup(tmp_path, players=8)
    early = _seed(led, "early", ctx=None)
    pair(led)
    seed = seed_from_material("early").hex()
    seq = _append_forged(loc, DrawMade(ctx=CTX, algorithm="DRAW-v1", seed=seed,
                                       seed_seq=early, items=[1, 2, 3, 4],
                                       result=draw_v1(bytes.fromhex(seed), CTX, [1, 2, 3, 4]),
                                       universe="tables"), HJ)
    assert _codes(loc).get("deck_draw_seed_early") == [seq]


def test_a_published_list_that_is_not_the_registered_one_is_flagged(tmp_path: Path) -> None:
    loc, led = setup(tmp_path, players=6)
    registered = "4 Alpha\n4 Beta\n"
    led.write(LOG, lambda t, now: register_deck(t, SCOREKEEPER, now, number=2,
                                                 text=None, sha256=list_hash(registered)))
    size = led.load(LOG).state.size
    with pytest.raises(RuleError, match="hashes to") as err:
        led.write(LOG, lambda t, now: publish_deck(t, HJ, now, number=2,
                                                   text=registered + "1 Gamma\n"))
    assert err.value.finding == "deck_list_mismatch"
    assert led.load(LOG).state.size == size
    led.write(LOG, lambda t, now: publish_deck(t, HJ, now, number=2, text=registered))
    assert set(_codes(loc)) <= {"no_checkpoint"}
    (tmp_path / "b").mkdir()
    loc2, l2 = setup(tmp_path / "b", players=6)
    l2.write(LOG, lambda t, now: register_deck(t, SCOREKEEPER, now, number=1,
                                               sha256=list_hash(registered)))
    seq = _append_forged(loc2, DeckPublished(number=1, list=registered.upper()), HJ)
    assert _codes(loc2).get("deck_list_mismatch") == [seq]
