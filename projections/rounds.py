"""Rounds read model: any round's tables and results, for display and reports.

Owns: ``load_round`` (a round's tables as played, with their current results),
``bye_lost`` (its bye lost to a Loss of Match, BR-SWISS-7) and ``override_of`` (the head
judge's ``pairing_overridden`` of a round: its seq and reason and the engine's tables it
replaced, AMB-B7).

The newest round's tables are in the folded state.  An earlier round's come from the
state as well: the officiating table history (``match.history``), which the same
transitions keep for every command and for the audit — so a round shows the tables in
force (the head judge's override, not the engine's pairing it replaced) with their
current results (corrections, wrong-table amendments and head-judge amendments made
after later rounds were paired included).  Only the marks the history does not keep for
old rounds (win groups, rematch, pair-down / pair-up) are read from the pairing event in
force, by its seq.

May import: ``msgspec``, ``ledger.*``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import msgspec

from ledger.core.state import TournamentState
from ledger.formats.match import history
from ledger.formats.match.apply import find_round
from ledger.formats.match.events import RoundPaired
from ledger.formats.match.model import MatchState, Phase, RoundState
from ledger.formats.officiating.events import PairingOverridden
from ledger.wire.events import open_leaf

if TYPE_CHECKING:
    from ledger.storage.reader import RawLeaf


@dataclass(frozen=True)
class Overridden:
    """A round whose engine pairing (``paired_seq``) the head judge replaced (``seq``)."""

    seq: int
    paired_seq: int
    reason: str
    engine_tables: list[list[int]]       # the engine's pairs, by table (not played)

    def json(self) -> dict[str, object]:
        return {"seq": self.seq, "paired_seq": self.paired_seq, "reason": self.reason,
                "engine_tables": [{"table": i, "players": list(p)}
                                  for i, p in enumerate(self.engine_tables, start=1)]}


def _body(led: RawLeaf, log: str, seq: int) -> object | None:
    leaf = led.raw_leaf(log, seq)
    return None if leaf is None else open_leaf(leaf).body


def load_round(led: RawLeaf, log: str, state: TournamentState,
               number: int) -> RoundState | None:
    """Round ``number`` with the tables played and their current results."""
    h = state.fmt
    rnd = find_round(h, number) if isinstance(h, MatchState) else None
    if rnd is None or rnd.tables or not isinstance(h, MatchState):
        return rnd
    o = h.officiating
    body = _body(led, log, o.overrides.get(rnd.paired_seq, rnd.paired_seq))
    marks = body.tables if isinstance(body, (RoundPaired, PairingOverridden)) else None
    return msgspec.structs.replace(rnd, tables=history.tables_of(o, number, marks))


def bye_lost(state: TournamentState, rnd: RoundState) -> bool:
    """The round's Swiss bye was turned into a loss by a Loss of Match (BR-SWISS-7)."""
    h = state.fmt
    rec = h.records.get(rnd.bye) if isinstance(h, MatchState) and rnd.bye else None
    return rec is not None and rnd.phase is Phase.SWISS and \
        rec.played[rnd.number - 1:rnd.number] == "N"


def override_of(led: RawLeaf, log: str, state: TournamentState,
                rnd: RoundState) -> Overridden | None:
    """The head judge's override of ``rnd`` (None: the engine's pairing was played)."""
    h = state.fmt
    seq = h.officiating.overrides.get(rnd.paired_seq) if isinstance(h, MatchState) else None
    if seq is None:
        return None
    over, engine = _body(led, log, seq), _body(led, log, rnd.paired_seq)
    if not isinstance(over, PairingOverridden) or not isinstance(engine, RoundPaired):
        return None
    return Overridden(seq=seq, paired_seq=rnd.paired_seq, reason=over.reason,
                      engine_tables=[list(t.players) for t in
                                     sorted(engine.tables, key=lambda t: t.table)])
