"""Judge calls and the extensions computed from the record (issue 30 items 1, 2, 6), with a
fixed clock (``pinned_time``), through the aggregate and the real SQLite ledger; the audit
replays the same rules (CALL-1..6, EOM-EXT-1) on forged events."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from ledger.errors import RuleError
from ledger.formats.officiating.call_extension import propose
from ledger.formats.officiating.floor import TimeExtended
from ledger.storage.store import Ledger
from ledger.wire.calls import CallClaimed, CallOpened
from ledger.wire.clock import pinned_time
from tests.conftest import HJ, JUDGE, SCOREKEEPER
from tests.helpers.officiating import LOG, _append_forged, _codes, pair, setup
from usecases.calls import (
    claim_call,
    close_call,
    confirm_extension,
    open_call,
    queue_rows,
)
from usecases.floor_stats import floor_stats

T0 = "2026-06-01T10:00:00.000000Z"


def at(led: Ledger, time: str, fn: Any) -> Any:
    with pinned_time(time):
        return led.write(LOG, lambda t, now: fn(t, now))


def _size(loc: Any) -> int:
    return os.path.getsize(loc.text)


def _round_one(tmp_path: Path, fmt: str = "hotc-swiss-de", **params: Any) -> tuple[Any, Ledger]:
    loc, led = setup(tmp_path, fmt=fmt, players=8, **params)
    pair(led)
    return loc, led


def _call_cycle(led: Ledger, table: int, opened: str, claimed: str, closed: str) -> Any:
    ev = at(led, opened, lambda t, now: open_call(t, JUDGE, now, table=table))
    at(led, claimed, lambda t, now: claim_call(t, JUDGE, now, ev.seq))
    _ev, p = at(led, closed, lambda t, now: close_call(t, JUDGE, now, ev.seq, "ruled"))
    return ev.seq, p


def test_a_3_10_ruling_proposes_4_minutes_and_001_caps_at_5_in_all(tmp_path: Path) -> None:
    """Opened 10:00:00, claimed after 40 s, closed 3 min 10 s after the claim: the ruling
    (claim → close) is 190 s, rounded up to 4 minutes; a second call at that table proposes
    only the 1 minute left of the 001 cap (EOM-EXT-1: 5 minutes in all per match)."""
    _loc, led = _round_one(tmp_path, end_of_match="eom_001")
    call, p = _call_cycle(led, 1, T0, "2026-06-01T10:00:40.000000Z",
                          "2026-06-01T10:03:50.000000Z")
    assert (p.ruling_s, p.minutes, p.cap, p.already) == (190, 4, 5, 0)
    ev, _p = at(led, "2026-06-01T10:04:00.000000Z",
                lambda t, now: confirm_extension(t, JUDGE, now, call))
    assert (ev.body.minutes, ev.body.call, ev.body.proposed) == (4, call, 4)
    call2, p2 = _call_cycle(led, 1, "2026-06-01T10:10:00.000000Z",
                            "2026-06-01T10:10:05.000000Z", "2026-06-01T10:13:00.000000Z")
    assert (p2.ruling_s, p2.minutes, p2.already, p2.rule) == (175, 1, 4, "EOM-EXT-1")
    st = led.load(LOG).state
    assert propose(st, st.calls.calls[call2]).minutes == 1
    # the judge may not go above the cap, even by changing the proposal
    with pytest.raises(RuleError) as exc:
        at(led, "2026-06-01T10:14:00.000000Z",
           lambda t, now: confirm_extension(t, JUDGE, now, call2, minutes=3))
    assert exc.value.rule == "EOM-EXT-1"
    ev2, _ = at(led, "2026-06-01T10:14:00.000000Z",
                lambda t, now: confirm_extension(t, JUDGE, now, call2))
    assert led.load(LOG).state.fmt.officiating.extensions["1/1"] == 5
    stats = floor_stats(led.load(LOG).state)
    assert [(r.round, r.calls, r.open, r.median_wait_s, r.longest_wait_s)
            for r in stats.rounds] == [(1, 2, 0, 22, 40)]
    assert [(e.table, e.minutes, e.calls) for e in stats.extensions] == [(1, 5, [call, call2])]
    assert ev2.body.proposed == 1


def test_no_cap_in_002_and_a_short_ruling_proposes_nothing(tmp_path: Path) -> None:
    _loc, led = _round_one(tmp_path, fmt="bushiroad-swiss")
    _c, p = _call_cycle(led, 1, T0, "2026-06-01T10:00:40.000000Z",
                        "2026-06-01T10:09:41.000000Z")
    assert (p.minutes, p.cap) == (10, None)
    _c, p = _call_cycle(led, 2, T0.replace("10:00", "10:20"), "2026-06-01T10:20:10.000000Z",
                        "2026-06-01T10:21:10.000000Z")
    assert (p.ruling_s, p.minutes) == (60, 0)


def test_one_open_call_per_table_and_refusals_write_nothing(tmp_path: Path) -> None:
    loc, led = _round_one(tmp_path)
    first = at(led, T0, lambda t, now: open_call(t, JUDGE, now, table=2))
    size = _size(loc)
    cases = [
        (lambda t, now: open_call(t, JUDGE, now, table=2), "CALL-2"),     # one per table
        (lambda t, now: open_call(t, JUDGE, now, table=99), "CALL-1"),    # no such table
        (lambda t, now: close_call(t, JUDGE, now, first.seq, "x"), "CALL-4"),  # not claimed
        (lambda t, now: claim_call(t, JUDGE, now, 1), "CALL-3"),           # not a call
        (lambda t, now: open_call(t, SCOREKEEPER, now, table=3), "RULES-1.3"),
    ]
    for fn, rule in cases:
        with pytest.raises(RuleError) as exc:
            at(led, "2026-06-01T10:00:05.000000Z", fn)
        assert exc.value.rule == rule, exc.value
        assert _size(loc) == size
    at(led, "2026-06-01T10:00:06.000000Z", lambda t, now: claim_call(t, JUDGE, now, first.seq))
    with pytest.raises(RuleError) as exc:
        at(led, "2026-06-01T10:00:07.000000Z",
           lambda t, now: claim_call(t, HJ, now, first.seq))
    assert exc.value.rule == "CALL-3"
    rows = queue_rows(led.load(LOG).state, "2026-06-01T10:01:00.000000Z")
    assert [(r.call, r.table, r.claimed, r.waiting_s) for r in rows] == \
        [(first.seq, 2, True, 6)]
    at(led, "2026-06-01T10:02:00.000000Z",
       lambda t, now: close_call(t, JUDGE, now, first.seq, "fine"))
    # closed: the table may call again
    again = at(led, "2026-06-01T10:03:00.000000Z", lambda t, now: open_call(t, JUDGE, now,
                                                                           table=2))
    assert again.seq > first.seq


def test_the_queue_is_oldest_first_with_waiting_time(tmp_path: Path) -> None:
    _loc, led = _round_one(tmp_path)
    a = at(led, T0, lambda t, now: open_call(t, JUDGE, now, table=3))
    b = at(led, "2026-06-01T10:00:30.000000Z", lambda t, now: open_call(t, JUDGE, now,
                                                                       table=1))
    rows = queue_rows(led.load(LOG).state, "2026-06-01T10:02:00.000000Z")
    assert [(r.call, r.waiting_s) for r in rows] == [(a.seq, 120), (b.seq, 90)]


def test_the_audit_flags_an_extension_above_the_cap_and_a_wrong_proposal(
        tmp_path: Path) -> None:
    loc, led = _round_one(tmp_path, end_of_match="eom_001")
    call, _p = _call_cycle(led, 1, T0, "2026-06-01T10:00:40.000000Z",
                           "2026-06-01T10:03:50.000000Z")
    led.close()
    assert not {"extension_above_cap", "call_invalid"} & set(_codes(loc))
    over = _append_forged(loc, TimeExtended(round=1, table=1, minutes=7, reason="long",
                                            call=call, proposed=4), JUDGE)
    assert over in _codes(loc)["extension_above_cap"]


def test_the_audit_recomputes_the_proposal(tmp_path: Path) -> None:
    loc, led = _round_one(tmp_path, end_of_match="eom_001")
    call, _p = _call_cycle(led, 1, T0, "2026-06-01T10:00:40.000000Z",
                           "2026-06-01T10:03:50.000000Z")
    led.close()
    lied = _append_forged(loc, TimeExtended(round=1, table=1, minutes=2, reason="r",
                                            call=call, proposed=2), JUDGE)
    assert lied in _codes(loc)["extension_proposal_mismatch"]


def test_the_audit_flags_a_second_open_call_and_a_claim_of_a_claimed_call(
        tmp_path: Path) -> None:
    loc, led = _round_one(tmp_path)
    first = at(led, T0, lambda t, now: open_call(t, JUDGE, now, table=2))
    at(led, "2026-06-01T10:00:06.000000Z", lambda t, now: claim_call(t, JUDGE, now, first.seq))
    led.close()
    dup = _append_forged(loc, CallOpened(round=1, table=2), JUDGE)
    twice = _append_forged(loc, CallClaimed(call=first.seq), HJ)
    codes = _codes(loc)
    assert dup in codes["call_invalid"] and twice in codes["call_invalid"]


def test_a_close_cites_a_later_event_and_an_extension_its_own_table_s_call(
        tmp_path: Path) -> None:
    loc, led = _round_one(tmp_path)
    c = at(led, T0, lambda t, now: open_call(t, JUDGE, now, table=1))
    at(led, "2026-06-01T10:00:10.000000Z", lambda t, now: claim_call(t, JUDGE, now, c.seq))
    size = _size(loc)
    for cites in (c.seq, 10_000):                      # CALL-5: after the call, in the log
        with pytest.raises(RuleError) as exc:
            at(led, "2026-06-01T10:02:00.000000Z",
               lambda t, now, k=cites: close_call(t, JUDGE, now, c.seq, "ruled", k))
        assert exc.value.rule == "CALL-5"
    assert _size(loc) == size
    at(led, "2026-06-01T10:02:00.000000Z",
       lambda t, now: close_call(t, JUDGE, now, c.seq, "ruled"))
    size = _size(loc)
    with pytest.raises(RuleError) as exc:                # CALL-6: another table's call
        at(led, "2026-06-01T10:03:00.000000Z", lambda t, now: t.record(TimeExtended(
            round=1, table=2, minutes=2, reason="r", call=c.seq, proposed=2), JUDGE, now))
    assert exc.value.rule == "CALL-6" and _size(loc) == size
