"""The ``Tournament`` aggregate on the ``eventsourcing`` library.

Owns: the aggregate (one per tournament; its version is the gap-free ``seq``), its two
event classes (``TournamentStarted`` for genesis, ``EventSealed`` for every later leaf),
its snapshot class, and the imperative command methods.  Commands decide (``rules.check``)
and seal (sign) once; event ``apply`` only folds the signed event into the state with
``ledger.state.apply_event`` — it never validates, reads a clock or draws randomness.

May import: ``eventsourcing``, ``ledger.events``, ``ledger.state``, ``ledger.rules``,
``ledger.draw``, ``ledger.keys``, ``ledger.formats``, ``ledger.clock``, ``ledger.errors``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from eventsourcing.domain import (
    BaseAggregate,
    CanInitAggregate,
    CanMutateAggregate,
    CanSnapshotAggregate,
)
from eventsourcing.utils import get_topic

from ledger.clock import parse_time
from ledger.draw import ALGORITHM, draw_v1, seed_from_material
from ledger.errors import RuleError
from ledger.events import (
    ZERO_HASH,
    Body,
    DrawMade,
    FormatSpec,
    KeyRef,
    OfficialAdded,
    OfficialRevoked,
    PlayerRegistered,
    PlayerRenamed,
    PlayerWithdrawn,
    RegistrationClosed,
    Role,
    SeedRecorded,
    SignedEvent,
    TournamentCreated,
    seal,
)
from ledger.hotc import commands as hotc
from ledger.keys import PublicKey, Signer
from ledger.rules import check
from ledger.state import TournamentState, apply_event


@dataclass(frozen=True)
class TournamentStarted(CanInitAggregate[str]):
    """Genesis (seq 1, kind ``tournament_created``)."""

    originator_id: str
    originator_version: int
    timestamp: datetime
    originator_topic: str
    signed: SignedEvent

    def apply(self, aggregate: Any) -> None:
        apply_event(aggregate.state, self.signed)


@dataclass(frozen=True)
class EventSealed(CanMutateAggregate[str]):
    """Any later signed leaf; ``signed.kind`` says which fact it records."""

    originator_id: str
    originator_version: int
    timestamp: datetime
    signed: SignedEvent

    def apply(self, aggregate: Any) -> None:
        apply_event(aggregate.state, self.signed)


@dataclass(frozen=True)
class TournamentSnapshot(CanSnapshotAggregate[str]):
    """A cache of the folded state at a version (never trusted by the audit)."""

    originator_id: str
    originator_version: int
    timestamp: datetime
    topic: str
    state: TournamentState

    @classmethod
    def take(cls, aggregate: Any) -> TournamentSnapshot:
        return cls(originator_id=aggregate.id, originator_version=aggregate.version,
                   timestamp=aggregate.modified_on, topic=get_topic(type(aggregate)),
                   state=aggregate.state)

    def mutate(self, _: Any) -> Tournament:
        agg = Tournament.__new__(Tournament)
        agg.__base_init__(self.originator_id, self.originator_version, self.timestamp)
        agg.state = self.state
        return agg


class Tournament(BaseAggregate[str]):
    """One tournament: commands are imperative methods, facts are signed events."""

    Snapshot = TournamentSnapshot

    def __init__(self) -> None:
        self.state = TournamentState()

    # -- the one primitive every command ends in ---------------------------------------
    @classmethod
    def create(cls, *, log: str, name: str, fmt: FormatSpec, signer: Signer,
               time: str) -> Tournament:
        body = TournamentCreated(name=name, format=fmt, head_judge=KeyRef(
            key_id=signer.key_id, public_key=signer.public_key_b64, name=signer.name or name))
        check(TournamentState(), body, signer.key_id)
        signed = seal(log=log, seq=1, prev=ZERO_HASH, time=time, body=body, signer=signer)
        return cls._create(TournamentStarted, id=log, signed=signed,
                           timestamp=parse_time(time))

    def record(self, body: Body, signer: Signer, time: str) -> SignedEvent:
        """Decide (all rules), seal (sign) and trigger one event; returns it."""
        check(self.state, body, signer.key_id)
        signed = seal(log=self.id, seq=self.version + 1, prev=self.state.head, time=time,
                      body=body, signer=signer)
        self.trigger_event(EventSealed, signed=signed, timestamp=parse_time(time))
        return signed

    # -- commands ----------------------------------------------------------------------
    def add_official(self, key: PublicKey, role: Role, name: str, signer: Signer,
                     time: str) -> SignedEvent:
        return self.record(OfficialAdded(key_id=key.key_id, public_key=key.b64, role=role,
                                         name=name), signer, time)

    def revoke_official(self, kid: str, reason: str, signer: Signer, time: str) -> SignedEvent:
        return self.record(OfficialRevoked(key_id=kid, reason=reason), signer, time)

    def next_player_number(self) -> int:
        return max([*self.state.players, *self.state.withdrawn], default=0) + 1

    def register_player(self, name: str, signer: Signer, time: str, *,
                        number: int | None = None, nickname: str | None = None,
                        deck: str | None = None, clan: str | None = None,
                        external_id: str | None = None) -> SignedEvent:
        num = self.next_player_number() if number is None else number
        return self.record(PlayerRegistered(number=num, name=name.strip(), nickname=nickname,
                                            deck=deck, clan=clan, external_id=external_id),
                           signer, time)

    def withdraw_player(self, number: int, reason: str, signer: Signer,
                        time: str) -> SignedEvent:
        return self.record(PlayerWithdrawn(number=number, reason=reason), signer, time)

    def rename_player(self, number: int, name: str, reason: str, signer: Signer,
                      time: str) -> SignedEvent:
        return self.record(PlayerRenamed(number=number, name=name, reason=reason), signer,
                           time)

    def close_registration(self, signer: Signer, time: str) -> SignedEvent:
        return self.record(RegistrationClosed(players=len(self.state.players)), signer, time)

    def record_seed(self, *, material: str, source: str, reason: str, signer: Signer,
                    time: str, serial: str | None = None, source_time: str | None = None,
                    ctx: str | None = None, evidence: str | None = None) -> SignedEvent:
        return self.record(SeedRecorded(
            provenance="entered", material=material, source=source, reason=reason,
            seed=seed_from_material(material).hex(), serial=serial, source_time=source_time,
            ctx=ctx, evidence=evidence), signer, time)

    def latest_seed_seq(self) -> int:
        if not self.state.seeds:
            raise RuleError("LEDGER-RAND-1", "no seed has been recorded",
                            hint="the head judge records one with 'tourney seed record'")
        return max(self.state.seeds)

    def make_draw(self, *, ctx: str, items: list[int], signer: Signer, time: str,
                  seed_seq: int | None = None, reason: str = "") -> SignedEvent:
        sseq = self.latest_seed_seq() if seed_seq is None else seed_seq
        seed = self.state.seeds.get(sseq)
        if seed is None:
            raise RuleError("LEDGER-RAND-1", f"seq {sseq} is not a recorded seed",
                            hint="see 'tourney log' for seed_recorded events")
        pre = sorted(items)
        if len(set(pre)) != len(pre):
            raise RuleError("LEDGER-RAND-1", "draw items must be distinct",
                            hint="list each item once")
        result = draw_v1(bytes.fromhex(seed.seed), ctx, pre)
        return self.record(DrawMade(ctx=ctx, algorithm=ALGORITHM, seed=seed.seed,
                                    seed_seq=sseq, items=pre, result=result, reason=reason),
                           signer, time)

    # -- HotC format commands (decided in ledger/hotc/commands.py) ---------------------
    def pair_round(self, signer: Signer, time: str, *, material: str | None = None,
                   source: str | None = None) -> list[SignedEvent]:
        return hotc.pair_round(self, signer, time, material=material, source=source)

    def record_result(self, signer: Signer, time: str, **kw: Any) -> list[SignedEvent]:
        return hotc.record_result(self, signer, time, **kw)

    def correct_result(self, signer: Signer, time: str, **kw: Any) -> list[SignedEvent]:
        return hotc.correct_result(self, signer, time, **kw)

    def drop_player(self, signer: Signer, time: str, number: int,
                    reason: str = "") -> list[SignedEvent]:
        return hotc.drop_player(self, signer, time, number, reason)

    def select_cut(self, signer: Signer, time: str, *, material: str | None = None,
                   source: str | None = None) -> list[SignedEvent]:
        return hotc.select_cut(self, signer, time, material=material, source=source)

    def seed_bracket(self, signer: Signer, time: str, *, material: str | None = None,
                     source: str | None = None) -> list[SignedEvent]:
        return hotc.seed_bracket(self, signer, time, material=material, source=source)
