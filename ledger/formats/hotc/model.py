"""The HotC format's state: the shared match state plus what only HotC records.

Owns: ``HotcState`` (``MatchState`` + the R2 slow-play calls and the no-champion ruling)
and ``SlowPlayCall``.  Pure data, folded by ``ledger.formats.hotc.cut_apply`` and
``ledger.formats.hotc.slow_play``.

May import: ``msgspec``, ``ledger.formats.match.model``.
"""

from __future__ import annotations

import msgspec

from ledger.formats.match.model import MatchState


class SlowPlayCall(msgspec.Struct, kw_only=True, array_like=True, gc=False):
    """A slow-play call (HOTC-SLOW-1) and, once ruled, the ruling (HOTC-SLOW-2)."""

    seq: int
    round: int
    table: int
    caller: int
    called: int
    upheld: bool | None = None        # None until ruled
    ruled_seq: int | None = None
    minutes_added: int = 0


class HotcState(MatchState, kw_only=True, array_like=True, gc=False):
    #: slow-play calls by the seq of their ``slow_play_called`` (R2)
    calls: dict[int, SlowPlayCall] = {}
    #: the seq of the head judge's no-champion ruling (R2, a cut of zero)
    no_champion_seq: int | None = None
