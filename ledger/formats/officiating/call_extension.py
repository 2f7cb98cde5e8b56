"""The extension a match earns from the record (issue 30 item 2; ADR 0052 and the
``clock`` ADR): the one implementation the desk's proposal, ``tourney call close``,
``tourney round extend --call/--deck-check`` and the audit (through the check of a
``time_extended`` citing a call or a deck check) all use.

Two sources, one rule of arithmetic:

- a judge call: the interval is the ruling, the log's time of ``call_claimed`` →
  ``call_closed`` (the wait for a judge, open → claim, is not ruling time).  Over one
  minute of ruling (BR-EXT-1, 002 FR §1.2.3) the match is proposed that time rounded up to
  whole minutes — or, where the format's end of match counts turns, one extra turn
  (BR-XTURN-1; the judge confirms or changes it);
- a deck check: the log's time of ``deck_check_started`` → ``deck_check_ended`` is the
  table's extra preparation time (BR-EXT-3, 002 FR §2.2: "the time taken for the deck
  check"), rounded up to whole minutes, always in minutes.

Minutes are capped by the format (``plugin.time.cap``: 001 at 5 minutes in all per match,
EOM-EXT-1 / AMB-E6; any event at its ``judge_extension_cap_minutes``, AMB-B27), less what
the match already had.  A format whose time facet gives no extension (one duration for
every table) is proposed nothing, citing its own rule: its calls are recorded, its time is
not extended.  This module names no format: the unit, cap and rule are the plug-in's.

Owns: ``Proposal``, ``propose`` (a call), ``propose_check`` (a deck check) and ``MINUTE_S``.

May import: ``msgspec``, ``ledger.core.*``, ``ledger.errors``,
``ledger.formats.match.*``, ``ledger.formats.officiating.*``, ``ledger.wire.clock``.
"""

from __future__ import annotations

import math

import msgspec

from ledger.core.call_rules import ruling_seconds
from ledger.core.calls_state import Call
from ledger.core.format_socket import plugin_for
from ledger.core.state import TournamentState
from ledger.core.time_facet import TimeUnit
from ledger.formats.match.model import MatchState
from ledger.formats.match.officiating_model import DeckCheckRecord
from ledger.formats.officiating.corrections import key
from ledger.wire.clock import parse_time

MINUTE_S = 60


class Proposal(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """What the record gives one closed call (``call``) or ended deck check
    (``deck_check``, its start's seq): ``minutes`` proposed (0: none) or ``turns`` (where
    the format counts turns), the seconds the record measured (``ruling_s``: the ruling, or
    the check), the cap per match (None: no cap) and what the match already had, the
    rule.  Fields at their defaults are left out of documents (older outputs unchanged)."""

    call: int = 0
    round: int
    table: int
    ruling_s: int
    minutes: int
    cap: int | None
    already: int
    rule: str
    words: str
    turns: int = 0
    deck_check: int = 0

    @property
    def unit(self) -> TimeUnit:
        return TimeUnit.TURNS if self.turns else TimeUnit.MINUTES

    @property
    def amount(self) -> str:
        """The proposal in words: "3 minute(s)", "1 turn(s)" or "nothing"."""
        if self.turns:
            return f"{self.turns} turn(s)"
        return f"{self.minutes} minute(s)" if self.minutes else "nothing"


def propose(state: TournamentState, call: Call) -> Proposal:
    """The extension the format's rule gives closed call ``call`` (nothing while the call
    is open, for a ruling of one minute or less, or in a format without extensions)."""
    return _propose(state, call.round, call.table, ruling_seconds(call) or 0,
                    cites={"call": call.seq}, check=False)


def propose_check(state: TournamentState, seq: int, rec: DeckCheckRecord) -> Proposal:
    """The extra preparation time deck check ``seq`` (its ``deck_check_started``) gives its
    table (BR-EXT-3): nothing while the check is open."""
    secs = 0
    if rec.ended_seq:
        secs = max(0, math.ceil((parse_time(rec.ended)
                                 - parse_time(rec.started)).total_seconds()))
    return _propose(state, rec.round, rec.table, secs, cites={"deck_check": seq},
                    check=True)


def _propose(state: TournamentState, round_no: int, table: int, secs: int, *,
             cites: dict[str, int], check: bool) -> Proposal:
    def made(minutes: int, cap: int | None, already: int, rule: str, words: str,
             turns: int = 0) -> Proposal:
        return Proposal(round=round_no, table=table, ruling_s=secs, minutes=minutes,
                        cap=cap, already=already, rule=rule, words=words, turns=turns,
                        **cites)

    plugin = plugin_for(state.format.id if state.format else None)
    facet = plugin.time if plugin is not None else None
    fmt = state.fmt
    unit = facet.unit(state) if facet is not None else TimeUnit.NONE
    if facet is None or unit is TimeUnit.NONE or not isinstance(fmt, MatchState):
        return made(0, None, 0, facet.fixed_rule if facet else "BR-EXT-1",
                    facet.fixed_words if facet else "the format gives no extension")
    cap = facet.cap(state)
    already = fmt.officiating.extensions.get(key(round_no, table), 0)
    rule, took = ("BR-EXT-3", f"the deck check took {_mmss(secs)}") if check else \
        ("BR-EXT-1", f"the ruling took {_mmss(secs)}")
    if check and secs == 0:
        return made(0, cap, already, rule, "the deck check has not ended")
    if not check and secs <= MINUTE_S:
        return made(0, cap, already, rule, "the ruling took one minute or less")
    if not check and unit is TimeUnit.TURNS:
        return made(0, cap, already, "BR-XTURN-1",
                    f"{took}; the end of match counts turns: one extra turn", turns=1)
    want = -(-secs // MINUTE_S)
    if cap is None:
        return made(want, None, already, rule, took)
    give = max(0, min(want, cap - already))
    return made(give, cap, already, "EOM-EXT-1" if give < want else rule,
                f"{took}; the cap is {cap} minute(s) per match and it had {already}")


def _mmss(seconds: int) -> str:
    return f"{seconds // 60} min {seconds % 60:02d} s"
