"""The extension a judge call's ruling earns (issue 30 item 2; ADR 0052): the
one implementation the desk's proposal, ``tourney call close`` and the audit (through the
check of a ``time_extended`` citing a call) all use.

The interval is the ruling: the log's time of ``call_claimed`` → ``call_closed`` (the wait
for a judge, open → claim, is not ruling time).  Over one minute of ruling (BR-EXT-1,
002 FR §1.2.3) the match is proposed that time rounded up to whole minutes, capped by the
format: 001 (``end_of_match=eom_001``) at 5 minutes in all per match (EOM-EXT-1, AMB-E6),
any event at its ``judge_extension_cap_minutes`` (AMB-B27), less what the match already
had; 002 gives time or turns as the judge decides, so the judge may change the proposal
(extra turns where the format counts turns, BR-XTURN-1).  A format that plays no timed
matches of its own (the Wheel of Time: one Game duration for every table, WOTOLD-TIME-1 /
WOT01-TIME-1) gets no extension: its calls are recorded, its time is not extended.

Owns: ``Proposal``, ``propose`` and ``MINUTE_S``.

May import: ``msgspec``, ``ledger.core.*``, ``ledger.errors``,
``ledger.formats.match.*``, ``ledger.formats.officiating.*``.
"""

from __future__ import annotations

import msgspec

from ledger.core.call_rules import ruling_seconds
from ledger.core.calls_state import Call
from ledger.core.state import TournamentState
from ledger.formats.match.model import MatchState
from ledger.formats.officiating.corrections import key
from ledger.formats.officiating.params import extension_cap

MINUTE_S = 60


class Proposal(msgspec.Struct, frozen=True, kw_only=True):
    """What the record gives one closed call: ``minutes`` proposed (0: none), the ruling's
    seconds, the cap per match (None: no cap) and what the match already had, the rule."""

    call: int
    round: int
    table: int
    ruling_s: int
    minutes: int
    cap: int | None
    already: int
    rule: str
    words: str


def propose(state: TournamentState, call: Call) -> Proposal:
    """The extension the format's rule gives closed call ``call`` (0 minutes while the call
    is open, for a ruling of one minute or less, or in a format without extensions)."""
    ruling = ruling_seconds(call) or 0

    def made(minutes: int, cap: int | None, already: int, rule: str, words: str) -> Proposal:
        return Proposal(call=call.seq, round=call.round, table=call.table, ruling_s=ruling,
                        minutes=minutes, cap=cap, already=already, rule=rule, words=words)

    fmt = state.fmt
    if not isinstance(fmt, MatchState):
        rule = "WOT01-TIME-1" if state.format and state.format.id == "wot-2001" \
            else "WOTOLD-TIME-1"
        return made(0, None, 0, rule, "one Game duration for every table: no extension")
    cap = extension_cap(state)
    already = fmt.officiating.extensions.get(key(call.round, call.table), 0)
    if ruling <= MINUTE_S:
        return made(0, cap, already, "BR-EXT-1", "the ruling took one minute or less")
    want = -(-ruling // MINUTE_S)
    if cap is None:
        return made(want, None, already, "BR-EXT-1", f"the ruling took {_mmss(ruling)}")
    give = max(0, min(want, cap - already))
    return made(give, cap, already, "EOM-EXT-1" if give < want else "BR-EXT-1",
                f"the ruling took {_mmss(ruling)}; the cap is {cap} minute(s) per match "
                f"and it had {already}")


def _mmss(seconds: int) -> str:
    return f"{seconds // 60} min {seconds % 60:02d} s"
