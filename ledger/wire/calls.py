"""Wire bodies of judge calls (issue 30 items 1, 2 and 6; ADR 0052): a call
opened at a table (by a player from their card, signed by the station as the player's own
act, REPORT-15; or by an official), claimed by a judge, closed with its outcome.  The log's
time of each event is the call's clock: claim → close is the ruling an extension is
proposed from (``ledger.formats.officiating.call_extension``).

Owns: ``CallOpened`` (kind ``call_opened``), ``CallClaimed`` (``call_claimed``),
``CallClosed`` (``call_closed``).  Optional fields are UNSET, never on the wire when absent.

May import: ``msgspec``, ``ledger.wire.events``.
"""

from __future__ import annotations

import msgspec

from ledger.wire.events import Body, Kind, register_body


class CallOpened(Body, frozen=True, kw_only=True):
    """A judge is called to table ``table`` of round ``round``.  ``number`` and
    ``credential``: the player who called from their page (a station signs it, REPORT-15);
    absent when an official opened the call.  ``device_sig`` / ``device_use`` as for a
    player's drop (REPORT-19/20)."""

    KIND = Kind.CALL_OPENED
    round: int
    table: int
    note: str = ""
    number: int | msgspec.UnsetType = msgspec.UNSET
    credential: str | msgspec.UnsetType = msgspec.UNSET
    device_sig: str | msgspec.UnsetType = msgspec.UNSET
    device_use: int | msgspec.UnsetType = msgspec.UNSET


class CallClaimed(Body, frozen=True, kw_only=True):
    """The signing judge takes call ``call`` (the seq of its ``call_opened``)."""

    KIND = Kind.CALL_CLAIMED
    call: int


class CallClosed(Body, frozen=True, kw_only=True):
    """Call ``call`` is over: ``outcome`` in plain words, optionally citing the seq of the
    ruling, penalty or appeal it led to."""

    KIND = Kind.CALL_CLOSED
    call: int
    outcome: str
    cites: int | msgspec.UnsetType = msgspec.UNSET


for _body in (CallOpened, CallClaimed, CallClosed):
    register_body(_body)
