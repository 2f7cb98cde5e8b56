"""Judge calls and the extensions they earn (issue 30 items 1, 2, 6): one implementation
for ``tourney call open|claim|close``, ``tourney round extend --call``, the API and the
console (``cli.api_book``), the staff page and a player's own call from their page.

Owns: ``open_call`` (an official at a table), ``own_call`` / ``own_call_refusal`` (a player
from their card, signed by the station as their own act, REPORT-15; the server throttles
repeated taps), ``claim_call``, ``close_call`` (returns the event and the ``Proposal`` the
record gives), ``confirm_extension`` (the judge confirms or changes the proposal: a
``time_extended`` citing the call and the minutes or turns proposed),
``confirm_check_extension`` / ``check_of`` (the same for an ended deck check's
preparation time, BR-EXT-3) and ``queue_rows`` (open calls,
oldest first, with their waiting seconds at ``now``).  Each command is ``(tournament,
signer, time, …)``; the rules are ``ledger.core.call_rules`` and
``ledger.formats.officiating`` (CALL-1..6, BR-EXT-1, EOM-EXT-1), checked when recorded.

May import: ``ledger.core.*``, ``ledger.errors``, ``ledger.wire.*``,
``ledger.formats.officiating.*``, ``ledger.formats.match.officiating_model``, ``msgspec``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from ledger.core.call_rules import open_queue, waiting_seconds
from ledger.core.calls_state import Call
from ledger.core.citing import acting_scope
from ledger.core.reports import current_round, seat_of
from ledger.errors import RuleError, UsageError
from ledger.formats.match.officiating_model import DeckCheckRecord
from ledger.formats.officiating.call_extension import Proposal, propose, propose_check
from ledger.formats.officiating.floor import TimeExtended
from ledger.wire.calls import CallClaimed, CallClosed, CallOpened

if TYPE_CHECKING:
    from ledger.core.aggregate import Tournament
    from ledger.core.state import TournamentState
    from ledger.wire.events import SignedEvent
    from ledger.wire.keys import Signer


class QueueRow(msgspec.Struct, frozen=True, kw_only=True):
    call: int
    round: int
    table: int
    opened_time: str
    waiting_s: int
    claimed: bool
    judge: str | None
    number: int | None
    note: str


def call_of(state: TournamentState, seq: int) -> Call:
    call = state.calls.calls.get(seq)
    if call is None:
        raise UsageError(f"seq {seq} is not a judge call", hint="see 'tourney call list'")
    return call


def open_call(t: Tournament, signer: Signer, time: str, *, table: int,
              round_no: int | None = None, note: str = "") -> SignedEvent:
    n = current_round(t.state) if round_no is None else round_no
    if n is None:
        raise UsageError("no round is paired yet", hint="pass --round N")
    return t.record(CallOpened(round=n, table=table, note=note.strip()), signer, time)


def own_call_refusal(state: TournamentState, number: int) -> tuple[int, int] | str:
    """(round, table) where player ``number`` may call a judge now, or why not."""
    n = current_round(state)
    where = seat_of(state, n, number) if n is not None else None
    if n is None or where is None:
        return "you are not seated at a table of the round in progress"
    if where[2] is not None:
        return f"your match of round {n} (table {where[0]}) has its result"
    held = state.calls.open_at.get(f"{n}/{where[0]}")
    if held is not None:
        return f"a judge is already called to table {where[0]}: a judge is coming"
    return n, where[0]


def own_call(t: Tournament, signer: Signer, time: str, number: int, credential: str,
             device_sig: str | None = None, device_use: int | None = None,
             note: str = "") -> SignedEvent:
    """Player ``number`` calls a judge to their table with ``credential`` (REPORT-15)."""
    at = own_call_refusal(t.state, number)
    if isinstance(at, str):
        raise RuleError("CALL-2" if "already" in at else "CALL-1", at,
                        hint="or raise your hand and call a judge")
    with acting_scope(credential, device_sig, device_use):
        ev: SignedEvent = t.record(CallOpened(round=at[0], table=at[1], note=note.strip(),
                                              number=number), signer, time)
    return ev


def claim_call(t: Tournament, signer: Signer, time: str, call: int) -> SignedEvent:
    return t.record(CallClaimed(call=call), signer, time)


def close_call(t: Tournament, signer: Signer, time: str, call: int, outcome: str,
               cites: int | None = None) -> tuple[SignedEvent, Proposal]:
    body = CallClosed(call=call, outcome=outcome.strip()) if cites is None else \
        CallClosed(call=call, outcome=outcome.strip(), cites=cites)
    ev = t.record(body, signer, time)
    return ev, propose(t.state, t.state.calls.calls[call])


def confirm_extension(t: Tournament, signer: Signer, time: str, call: int, *,
                      minutes: int | None = None, turns: int | None = None,
                      reason: str | None = None) -> tuple[SignedEvent, Proposal]:
    """The judge confirms the extension the record proposes for closed call ``call``
    (``minutes`` and ``turns`` None) or gives another (the proposal stays on the wire for
    the audit)."""
    c = call_of(t.state, call)
    p = propose(t.state, c)
    return _confirm(t, signer, time, p, minutes, turns, reason or "",
                    f"judge call {call}: {p.words}"), p


def confirm_check_extension(t: Tournament, signer: Signer, time: str, check: int, *,
                            minutes: int | None = None, turns: int | None = None,
                            reason: str | None = None) -> tuple[SignedEvent, Proposal]:
    """The judge confirms (or changes) the extra preparation time ended deck check
    ``check`` (its start's seq) gives its table (BR-EXT-3)."""
    p = propose_check(t.state, check, check_of(t.state, check))
    return _confirm(t, signer, time, p, minutes, turns, reason or "",
                    f"deck check {check}: {p.words}"), p


def check_of(state: TournamentState, seq: int) -> DeckCheckRecord:
    o = getattr(state.fmt, "officiating", None)
    rec: DeckCheckRecord | None = o.deck_checks.get(seq) if o is not None else None
    if rec is None:
        raise UsageError(f"seq {seq} is not a deck check's start",
                         hint="see 'tourney deck checks'")
    return rec


def _confirm(t: Tournament, signer: Signer, time: str, p: Proposal, minutes: int | None,
             turns: int | None, reason: str, why: str) -> SignedEvent:
    give = p.minutes if minutes is None else minutes
    extra = p.turns if turns is None else turns
    cited: dict[str, int] = {"call": p.call} if p.call else {"deck_check": p.deck_check}
    if p.turns:
        cited["proposed_turns"] = p.turns
    return t.record(TimeExtended(round=p.round, table=p.table, minutes=give, turns=extra,
                                 reason=reason.strip() or why, ruling_seq=None,
                                 proposed=p.minutes, **cited), signer, time)


def queue_rows(state: TournamentState, now: str) -> list[QueueRow]:
    """Open calls, oldest first, each with its wait so far (to the claim, or to ``now``)."""
    return [QueueRow(call=c.seq, round=c.round, table=c.table, opened_time=c.opened_time,
                     waiting_s=max(0, waiting_seconds(c, now) or 0),
                     claimed=c.claimed_seq is not None, judge=c.judge, number=c.number,
                     note=c.note) for c in open_queue(state)]
