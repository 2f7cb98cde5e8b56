"""The ``Tournament`` aggregate on the ``eventsourcing`` library.

Owns: the aggregate (one per tournament; its version is the gap-free ``seq``), its two
event classes (``TournamentStarted`` for genesis, ``EventSealed`` for every later leaf),
its snapshot class, and the imperative command methods.  Commands decide (``rules.check``)
and seal (sign) once; event ``apply`` only folds the signed event into the state with
``ledger.core.state.apply_event`` — it never validates, reads a clock or draws randomness.

May import: ``eventsourcing``, ``ledger.wire.events``, ``ledger.core.state``, ``ledger.core.rules``,
``ledger.core.draw``, ``ledger.wire.keys``, ``ledger.core.format_socket``, ``ledger.wire.clock``,
``ledger.wire.text``,
``ledger.errors``, ``ledger.core.decided``, ``ledger.core.event_time``, ``ledger.wire.pages``,
``ledger.wire.reports``,
``ledger.core.citing``, ``msgspec``.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Unpack

import msgspec
from eventsourcing.domain import (
    BaseAggregate,
    CanInitAggregate,
    CanMutateAggregate,
    CanSnapshotAggregate,
)
from eventsourcing.utils import get_topic

from ledger.core.citing import acting_credential, acting_device_sig, cited_reports
from ledger.core.decided import decided_scope
from ledger.core.draw import ALGORITHM, draw_v1, seed_from_material
from ledger.core.event_time import event_time_scope
from ledger.core.format_socket import require_plugin
from ledger.core.rules import check, check_claimed_time
from ledger.core.state import TournamentState, apply_event
from ledger.errors import RuleError
from ledger.wire.clock import parse_time
from ledger.wire.events import (
    ZERO_HASH,
    Body,
    DrawMade,
    FormatSpec,
    KeyRef,
    LedgerPolicy,
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
from ledger.wire.keys import PublicKey, Signer
from ledger.wire.pages import NameStyle, PairingsPosted, PublicPagesSet
from ledger.wire.reports import (
    CredentialIssued,
    CredentialRevoked,
    DeviceKeyBound,
    ReportRejected,
    ResultReported,
)
from ledger.wire.text import check_leaf_size, checked_text

if TYPE_CHECKING:
    from ledger.core.entry_facet import ResultFields
    from ledger.core.format_plugin import FormatPlugin

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
               time: str, policy: LedgerPolicy | None = None) -> Tournament:
        body: Body = TournamentCreated(
            name=name, format=fmt, head_judge=KeyRef(
                key_id=signer.key_id, public_key=signer.public_key_b64,
                name=signer.name or name),
            policy=None if policy == LedgerPolicy() else policy)
        body = checked_text(body)
        check_claimed_time(TournamentState(), time)
        check(TournamentState(), body, signer.key_id)
        signed = seal(log=log, seq=1, prev=ZERO_HASH, time=time, body=body, signer=signer)
        check_leaf_size(len(signed.leaf))
        return cls._create(TournamentStarted, id=log, signed=signed,
                           timestamp=parse_time(time))

    def record(self, body: Body, signer: Signer, time: str, *,
               decided: bool = False) -> SignedEvent:
        """Decide (all rules), seal (sign) and trigger one event; returns it.
        ``decided``: ``body`` was just computed by the rule's own plan from this state, so
        its check need not plan it again (``ledger.core.decided``; the audit always does)."""
        body = checked_text(body)
        cited = cited_reports()
        if cited is not None and "reports" in type(body).__struct_fields__ \
                and isinstance(getattr(body, "reports", None), msgspec.UnsetType):
            body = msgspec.structs.replace(body, reports=cited)   # ADR 0027
        acting = acting_credential()
        if acting is not None and "credential" in type(body).__struct_fields__ \
                and isinstance(getattr(body, "credential", None), msgspec.UnsetType):
            body = msgspec.structs.replace(body, credential=acting)  # REPORT-15
            phone = acting_device_sig()
            if phone is not None and "device_sig" in type(body).__struct_fields__:
                body = msgspec.structs.replace(body, device_sig=phone[0],
                                               device_use=phone[1])  # REPORT-19/20
        check_claimed_time(self.state, time)
        with decided_scope(body if decided else None), event_time_scope(time):
            check(self.state, body, signer.key_id)
        signed = seal(log=self.id, seq=self.version + 1, prev=self.state.head, time=time,
                      body=body, signer=signer)
        check_leaf_size(len(signed.leaf), len(self.state.players))
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
                        invitation: str | None = None,
                        external_id: str | None = None) -> SignedEvent:
        num = self.next_player_number() if number is None else number
        return self.record(PlayerRegistered(number=num, name=name.strip(), nickname=nickname,
                                            deck=deck, clan=clan, invitation=invitation,
                                            external_id=external_id),
                           signer, time)

    def withdraw_player(self, number: int, reason: str, signer: Signer,
                        time: str) -> SignedEvent:
        return self.record(PlayerWithdrawn(number=number, reason=reason), signer, time)

    def rename_player(self, number: int, name: str, reason: str, signer: Signer,
                      time: str) -> SignedEvent:
        return self.record(PlayerRenamed(number=number, name=name, reason=reason), signer,
                           time)

    def set_public_pages(self, signer: Signer, time: str, *, names: NameStyle | None = None,
                         penalties: bool | None = None,
                         hold_pairings: bool | None = None,
                         language: str | None = None,
                         time_zone: str | None = None) -> SignedEvent:
        """Record the public pages' options (ADR 0023; the default language and the time
        zone, issue 31); an option not given keeps its value."""
        p = self.state.pages
        return self.record(PublicPagesSet(
            names=p.names if names is None else names,
            penalties=p.penalties if penalties is None else penalties,
            hold_pairings=p.hold if hold_pairings is None else hold_pairings,
            language=p.language if language is None else language,
            time_zone=p.time_zone if time_zone is None else time_zone), signer, time)

    def post_pairings(self, round_no: int, signer: Signer, time: str) -> SignedEvent:
        """Post a held round's pairings to public pages (head judge, PAGES-2..4)."""
        return self.record(PairingsPosted(round=round_no), signer, time)

    def issue_credential(self, token_sha256: str, signer: Signer, time: str, *,
                         number: int | None = None,
                         official: str | None = None) -> SignedEvent:
        """Record a credential (its token's hash, never the token) for a player or an
        official (head judge or organizer, REPORT-1/2)."""
        return self.record(CredentialIssued(credential=token_sha256[:16],
                                            token_sha256=token_sha256, number=number,
                                            official=official), signer, time)

    def revoke_credential(self, credential: str, reason: str, signer: Signer,
                          time: str) -> SignedEvent:
        return self.record(CredentialRevoked(credential=credential, reason=reason), signer,
                           time)

    def reject_report(self, round_no: int, table: int, number: int, report: int,
                      reason: str, signer: Signer, time: str) -> SignedEvent:
        """Set aside a player's current report (REPORT-14)."""
        return self.record(ReportRejected(round=round_no, table=table, number=number,
                                          report=report, reason=reason), signer, time)

    def report_result(self, round_no: int, table: int, number: int, credential: str,
                      given: dict[str, str], signer: Signer, time: str,
                      device_sig: str | None = None,
                      device_use: int | None = None) -> SignedEvent:
        """A player's report of their table, signed by a station (REPORT-4..8), with the
        player's phone signature of the statement naming the card's act number
        ``device_use`` when their card has a phone key (REPORT-17/19)."""
        unset = msgspec.UNSET
        return self.record(ResultReported(
            round=round_no, table=table, number=number, credential=credential,
            given=dict(given), device_sig=unset if device_sig is None else device_sig,
            device_use=unset if device_sig is None else (device_use or 0)), signer, time)

    def bind_device_key(self, credential: str, number: int, public_key: str, signer: Signer,
                        time: str, device_sig: str | None = None,
                        device_use: int | None = None) -> SignedEvent:
        """Player ``number``'s phone key bound to their credential (REPORT-16); replacing
        a bound key needs that key's signature of ``bind_statement`` (REPORT-18/19)."""
        unset = msgspec.UNSET
        return self.record(DeviceKeyBound(
            credential=credential, number=number, public_key=public_key,
            device_sig=unset if device_sig is None else device_sig,
            device_use=unset if device_sig is None else (device_use or 0)), signer, time)

    def close_registration(self, signer: Signer, time: str) -> SignedEvent:
        if self.state.format is not None:
            self.plugin.commands.check_registration_close(self.state)
        return self.record(RegistrationClosed(players=len(self.state.players)), signer, time)

    def record_seed(self, *, material: str, source: str, reason: str, signer: Signer,
                    time: str, serial: str | None = None, source_time: str | None = None,
                    ctx: str | None = None, evidence: str | None = None) -> SignedEvent:
        material = unicodedata.normalize("NFC", material)
        return self.record(SeedRecorded(
            provenance="entered", material=material, source=source, reason=reason,
            seed=seed_from_material(material).hex(), serial=serial, source_time=source_time,
            ctx=ctx, evidence=evidence), signer, time)

    def latest_seed_seq(self) -> int:
        if not self.state.seeds:
            raise RuleError("LEDGER-RAND-1", "no seed has been recorded",
                            hint="the head judge records one with 'tourney seed record'")
        return max(self.state.seeds)

    def seed_for_ctx(self, ctx: str) -> int:
        """The seed an ad-hoc draw of ``ctx`` uses when none is named: the latest seed
        recorded for ``ctx`` (or a parent of it), else the latest fresh unbound seed."""
        st = self.state
        bound = [s.seq for s in st.seeds.values() if s.ctx is not None
                 and (ctx == s.ctx or ctx.startswith(s.ctx + "/"))]
        fresh = [s.seq for s in st.seeds.values()
                 if s.ctx is None and s.seq not in st.used_seeds]
        if bound or fresh:
            return max(bound or fresh)
        raise RuleError("LEDGER-RAND-1", f"no fresh seed for {ctx} (a seed serves exactly "
                        "one draw context)",
                        hint=f"record one: tourney seed record --ctx {ctx} …")

    def make_draw(self, *, ctx: str, items: list[int] | None, signer: Signer, time: str,
                  seed_seq: int | None = None, reason: str = "",
                  universe: str | None = None) -> SignedEvent:
        """One recorded DRAW-v1 draw.  ``items=None`` draws over the active roster."""
        from ledger.core.roster import roster

        sseq = self.seed_for_ctx(ctx) if seed_seq is None else seed_seq
        seed = self.state.seeds.get(sseq)
        if seed is None:
            raise RuleError("LEDGER-RAND-1", f"seq {sseq} is not a recorded seed",
                            hint="see 'tourney log' for seed_recorded events")
        pre = sorted(roster(self.state) if items is None else items)
        if len(set(pre)) != len(pre):
            raise RuleError("LEDGER-RAND-1", "draw items must be distinct",
                            hint="list each item once")
        result = draw_v1(bytes.fromhex(seed.seed), ctx, pre)
        return self.record(DrawMade(ctx=ctx, algorithm=ALGORITHM, seed=seed.seed,
                                    seed_seq=sseq, items=pre, result=result, reason=reason,
                                    universe=universe), signer, time, decided=True)

    # -- format verbs: decided by the tournament's format plug-in (docs/DESIGN.md §10) -------
    @property
    def plugin(self) -> FormatPlugin:
        """The plug-in of this tournament's format (refused if it is not registered)."""
        return require_plugin(self.state.format.id if self.state.format else "")

    def pair_round(self, signer: Signer, time: str, *, material: str | None = None,
                   source: str | None = None) -> list[SignedEvent]:
        return self.plugin.commands.pair_round(self, signer, time, material=material,
                                               source=source)

    def record_result(self, signer: Signer, time: str,
                      **kw: Unpack[ResultFields]) -> list[SignedEvent]:
        return self.plugin.commands.record_result(self, signer, time, kw)

    def correct_result(self, signer: Signer, time: str,
                       **kw: Unpack[ResultFields]) -> list[SignedEvent]:
        return self.plugin.commands.correct_result(self, signer, time, kw)

    def drop_player(self, signer: Signer, time: str, number: int,
                    reason: str = "") -> list[SignedEvent]:
        return self.plugin.commands.drop_player(self, signer, time, number, reason)

    def select_cut(self, signer: Signer, time: str, *, material: str | None = None,
                   source: str | None = None,
                   no_champion: str | None = None) -> list[SignedEvent]:
        return self.plugin.commands.select_cut(self, signer, time, material=material,
                                               source=source, no_champion=no_champion)

    def seed_bracket(self, signer: Signer, time: str, *, material: str | None = None,
                     source: str | None = None) -> list[SignedEvent]:
        return self.plugin.commands.seed_bracket(self, signer, time, material=material,
                                                 source=source)
