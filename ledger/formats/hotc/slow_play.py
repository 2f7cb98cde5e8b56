"""Slow-play calls and their rulings as signed events (HOTC-SLOW-1/2, HOTC-TIME-2/3;
HOTC_2013_R2 only).

Owns: the checks and transitions of ``slow_play_called`` / ``slow_play_ruled``, the
commands ``call_slow_play`` / ``rule_slow_play``, and ``upheld_calls`` / ``result_calls``
— which calls a result at a table must name (``slow_play``) and cite
(``slow_play_call``), the one rule shared by the result command and the audit.  The
officiating rulings of the match layer are a separate, general mechanism; these kinds
carry HotC's own names so the two never clash (ADR 0010).

May import: ``ledger.core.state``, ``ledger.wire.events``, ``ledger.errors``, ``ledger.wire.keys``,
``ledger.formats.match.*``, ``ledger.formats.hotc.*``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from ledger.core.state import TournamentState
from ledger.errors import RuleError
from ledger.formats.hotc.book import HOTC_BOOK as BOOK
from ledger.formats.hotc.events import HotcKind, SlowPlayCalled, SlowPlayRuled
from ledger.formats.hotc.model import HotcState, SlowPlayCall
from ledger.formats.hotc.revision import HOTC_2013_R2, revised
from ledger.formats.match.apply import find_table
from ledger.formats.match.model import Outcome
from ledger.formats.match.plan import open_round, param
from ledger.wire.events import Role, SignedEvent
from ledger.wire.keys import Signer

if TYPE_CHECKING:
    from ledger.core.aggregate import Tournament

JUDGES = frozenset({Role.JUDGE, Role.HEAD_JUDGE})
BOOK.permit(HotcKind.SLOW_PLAY_CALLED.value, JUDGES)   # the judge records the player's call
BOOK.permit(HotcKind.SLOW_PLAY_RULED.value, JUDGES)    # HOTC-SLOW-2: the judge who watched


def _need_r2(state: TournamentState) -> None:
    if not revised(state):
        raise RuleError("HOTC-SLOW-2", "this event runs HOTC_2013, which records an upheld "
                        "call only on the result", hint="pass --slow-play NUMBER with the "
                        f"result; recorded calls need rules={HOTC_2013_R2}",
                        finding="slow_play_mismatch")


def _match_in_progress(state: TournamentState, round_no: int, table: int) -> list[int]:
    rnd = open_round(state)
    tab = find_table(state.fmt, round_no, table)
    if rnd is None or rnd.number != round_no or tab is None:
        raise RuleError("HOTC-SLOW-1", f"round {round_no} table {table} is not a match in "
                        "progress", hint="a call is made during the match ('tourney round "
                        "show')", finding="slow_play_mismatch")
    if tab.result is not None:
        raise RuleError("HOTC-SLOW-1", f"round {round_no} table {table} already has a result: "
                        "a call cannot be made after the fact", finding="slow_play_mismatch")
    return list(tab.players)


def upheld_calls(state: TournamentState, round_no: int, table: int) -> dict[int, int]:
    """Player → seq of the upheld call against them at that table of that round."""
    h: HotcState = state.fmt
    if not h.calls:      # no call recorded in the event: the common case, per result
        return {}
    return {c.called: c.seq for c in sorted(h.calls.values(), key=lambda c: c.seq)
            if c.round == round_no and c.table == table and c.upheld}


def result_calls(state: TournamentState, round_no: int, table: int, outcome: Outcome,
                 given: list[int] | None) -> tuple[list[int], int | None]:
    """R2: the ``slow_play`` a result must name — every upheld call at the table — and the
    call a slow-play timeout cites; ``given`` (the --slow-play the scorer passed) must agree."""
    upheld = upheld_calls(state, round_no, table)
    named = sorted(upheld)
    for p in given or []:
        if p not in upheld:
            raise RuleError("HOTC-SLOW-2", f"no upheld slow-play call against #{p} at round "
                            f"{round_no} table {table}",
                            hint="record the call with 'tourney slowplay call' and the "
                                 "judge's ruling with 'tourney slowplay rule'")
    if outcome is Outcome.SLOW_PLAY and len(named) == 1:
        return named, upheld[named[0]]
    return named, None               # decide_result refuses what these calls do not allow


@BOOK.checks(SlowPlayCalled)
def _called(state: TournamentState, body: SlowPlayCalled, actor: str) -> None:
    _need_r2(state)
    players = _match_in_progress(state, body.round, body.table)
    if sorted((body.caller, body.called)) != sorted(players):
        raise RuleError("HOTC-SLOW-1", f"the caller and the called player must be the two "
                        f"players of the match ({players[0]} v {players[1]})",
                        finding="slow_play_mismatch")
    h: HotcState = state.fmt
    pending = [c.seq for c in h.calls.values() if c.round == body.round
               and c.table == body.table and c.upheld is None]
    if pending:
        raise RuleError("HOTC-SLOW-2", f"the call at seq {pending[0]} on this match is not "
                        "ruled yet", hint="record the ruling with 'tourney slowplay rule'",
                        finding="slow_play_mismatch")
    if body.called in upheld_calls(state, body.round, body.table):
        raise RuleError("HOTC-SLOW-2", f"#{body.called} is already under the slow-play "
                        "condition in this match", finding="slow_play_mismatch")


@BOOK.checks(SlowPlayRuled)
def _ruled(state: TournamentState, body: SlowPlayRuled, actor: str) -> None:
    _need_r2(state)
    h: HotcState = state.fmt
    call = h.calls.get(body.call_seq)
    if call is None:
        raise RuleError("HOTC-SLOW-2", f"seq {body.call_seq} is not a slow-play call",
                        hint="cite the seq of its slow_play_called ('tourney log')",
                        finding="slow_play_mismatch")
    if call.upheld is not None:
        raise RuleError("HOTC-SLOW-2", f"the call at seq {body.call_seq} was ruled at seq "
                        f"{call.ruled_seq}", finding="slow_play_mismatch")
    _match_in_progress(state, call.round, call.table)
    limit = int(param(state, "match_minutes", "40"))
    if body.upheld and body.minutes_added != 0:
        raise RuleError("HOTC-SLOW-2", "an upheld call adds no time: the called player is "
                        "under the slow-play timeout condition", hint="omit --minutes-added",
                        finding="slow_play_mismatch")
    if not 0 <= body.minutes_added <= limit:
        raise RuleError("HOTC-SLOW-2", f"minutes added must be 0..{limit}, not "
                        f"{body.minutes_added}", finding="slow_play_mismatch")


@BOOK.applies(SlowPlayCalled)
def _apply_called(state: TournamentState, ev: SignedEvent, body: SlowPlayCalled) -> None:
    h: HotcState = state.fmt
    h.calls[ev.seq] = SlowPlayCall(seq=ev.seq, round=body.round, table=body.table,
                                   caller=body.caller, called=body.called)


@BOOK.applies(SlowPlayRuled)
def _apply_ruled(state: TournamentState, ev: SignedEvent, body: SlowPlayRuled) -> None:
    h: HotcState = state.fmt
    call = h.calls.get(body.call_seq)
    if call is not None:
        call.upheld = body.upheld
        call.ruled_seq = ev.seq
        call.minutes_added = body.minutes_added


def call_slow_play(t: Tournament, signer: Signer, time: str, *, round_no: int, table: int,
                   caller: int, called: int) -> SignedEvent:
    return t.record(SlowPlayCalled(round=round_no, table=table, caller=caller, called=called),
                    signer, time)


def rule_slow_play(t: Tournament, signer: Signer, time: str, *, call_seq: int, upheld: bool,
                   minutes_added: int = 0) -> SignedEvent:
    return t.record(SlowPlayRuled(call_seq=call_seq, upheld=upheld,
                                  minutes_added=minutes_added), signer, time)


def cited(body: object) -> int | None:
    """The call a result cites (``slow_play_call``), or None when it cites none."""
    value = getattr(body, "slow_play_call", msgspec.UNSET)
    return None if value is msgspec.UNSET else int(value)
