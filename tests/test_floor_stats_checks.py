"""The head judge's numbers for deck checks and extensions (issue 30 item 6, task floor2):
``usecases.floor_stats`` — what ``tourney floor stats``, the API read ``floor/stats`` and
the console's floor panel all show — counts each round's deck checks (drawn by the
recorded DRAW-v1 draw or chosen on suspicion, still open, median and longest start → end)
and lists every extension with what it cites, proposed vs given, and what was given by
hand.  The real aggregate and SQLite ledger with a fixed clock; the numbers are computed
by hand in each docstring."""

from __future__ import annotations

from pathlib import Path

from ledger.formats.officiating.deck_commands import (
    draw_deck_checks,
    end_deck_check,
    start_deck_check,
)
from ledger.formats.officiating.deck_floor import DeckCheckOutcome, deck_ctx
from ledger.formats.officiating.deck_rules import drawn_tables
from ledger.formats.officiating.floor_commands import extend
from ledger.storage.store import Ledger
from tests.conftest import HJ, JUDGE
from tests.helpers.officiating import LOG, _codes, at_time, pair, setup, write_at
from usecases.calls import (
    claim_call,
    close_call,
    confirm_check_extension,
    confirm_extension,
    open_call,
)
from usecases.floor_stats import CiteKind, Given, RoundChecks, floor_stats

_t, at = at_time, write_at


def _check(led: Ledger, table: int, start: str, end: str | None,
           draw: int | None = None) -> int:
    ev = at(led, start, lambda t, now: start_deck_check(t, JUDGE, now, round_no=1,
                                                        table=table, draw_seq=draw))
    if end is not None:
        at(led, end, lambda t, now: end_deck_check(t, JUDGE, now, start_seq=ev.seq,
                                                   outcome=DeckCheckOutcome.MATCHES))
    return int(ev.seq)


def test_deck_checks_per_round_and_extensions_proposed_vs_given(tmp_path: Path) -> None:
    """002 (no cap), 4 tables, 2 drawn.  Checks: drawn A 10:00:00 → 10:03:00 (180 s),
    drawn B 10:01:00 → 10:02:30 (90 s), C on suspicion 10:05:00 → 10:10:05 (305 s), D on
    suspicion started 10:11:00 and still open: 4 checks, 2 drawn, 2 on suspicion, 1 open,
    median of 90/180/305 = 180 s, longest 305 s.  Extensions: A as proposed (3 min), C
    changed from the proposed 6 (305 s rounded up) to 4, a call at B's table ruled
    10:20:30 → 10:22:31 (121 s: 3 min) given 3, and 1 minute by hand at A's table."""
    loc, led = setup(tmp_path, fmt="bushiroad-swiss", players=8)
    pair(led)
    at(led, _t("09:59:00"), lambda t, now: t.record_seed(
        material="dice 2 6 1 after the pairing", source="dice", reason="deck checks",
        signer=HJ, time=now, ctx=deck_ctx(LOG, 1)))
    draw = at(led, _t("09:59:30"), lambda t, now: draw_deck_checks(t, HJ, now, round_no=1,
                                                                  count=2))
    d1, d2 = drawn_tables(led.load(LOG).state, draw.seq, 1)
    o1, o2 = sorted({1, 2, 3, 4} - {d1, d2})
    a = _check(led, d1, _t("10:00:00"), _t("10:03:00"), draw.seq)
    b = _check(led, d2, _t("10:01:00"), _t("10:02:30"), draw.seq)
    c = _check(led, o1, _t("10:05:00"), _t("10:10:05"))
    _d = _check(led, o2, _t("10:11:00"), None)
    ea, _p = at(led, _t("10:12:00"), lambda t, now: confirm_check_extension(t, JUDGE, now, a))
    ec, pc = at(led, _t("10:12:10"), lambda t, now: confirm_check_extension(
        t, JUDGE, now, c, minutes=4, reason="judge gave 4"))
    assert pc.minutes == 6
    call = at(led, _t("10:20:00"), lambda t, now: open_call(t, JUDGE, now, table=d2))
    at(led, _t("10:20:30"), lambda t, now: claim_call(t, JUDGE, now, call.seq))
    at(led, _t("10:22:31"), lambda t, now: close_call(t, JUDGE, now, call.seq, "ruled"))
    ecall, _p = at(led, _t("10:23:00"), lambda t, now: confirm_extension(
        t, JUDGE, now, call.seq))
    at(led, _t("10:24:00"), lambda t, now: extend(
        t, JUDGE, now, round_no=1, table=d1, minutes=1, turns=0, reason="shuffling"))

    fs = floor_stats(led.load(LOG).state)
    assert fs.checks == [RoundChecks(round=1, checks=4, drawn=2, suspicion=2, open=1,
                                     median_s=180, longest_s=305)]
    by_table = {e.table: e for e in fs.extensions}
    assert (by_table[d1].minutes, by_table[d1].by_hand, by_table[d1].given) == (4, 1, [
        Given(seq=ea.seq, cites=CiteKind.DECK_CHECK, cited=a, proposed=3, minutes=3)])
    assert (by_table[o1].minutes, by_table[o1].given) == (4, [
        Given(seq=ec.seq, cites=CiteKind.DECK_CHECK, cited=c, proposed=6, minutes=4)])
    assert (by_table[d2].minutes, by_table[d2].calls, by_table[d2].given) == (3, [call.seq], [
        Given(seq=ecall.seq, cites=CiteKind.CALL, cited=call.seq, proposed=3, minutes=3)])
    assert b not in {g.cited for e in fs.extensions for g in e.given}   # not extended
    led.close()
    assert not {"extension_proposal_mismatch", "call_invalid"} & set(_codes(loc))


def test_no_deck_check_no_rows(tmp_path: Path) -> None:
    _loc, led = setup(tmp_path, fmt="bushiroad-swiss", players=8)
    pair(led)
    fs = floor_stats(led.load(LOG).state)
    assert (fs.checks, fs.extensions) == ([], [])
