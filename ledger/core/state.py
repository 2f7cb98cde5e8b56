"""The tournament state folded from events: the one ``apply`` shared by all sides.

Owns: ``apply_event`` — pure state transitions, one per kind (the data, ``TournamentState``
and its parts, live in ``ledger.core.state_model`` and are re-exported here).  Never
validates, reads the clock or draws randomness: the command side validates before
sealing (``ledger.core.rules``), the audit validates on replay with the same rule
functions, and both fold with this.

May import: ``msgspec``, ``ledger.wire.events``, ``ledger.wire.tree_hash``,
``ledger.core.format_socket`` (the
format socket), ``ledger.core.state_model``,
``ledger.wire.clock`` (``later_time`` only: never reads a clock),
``ledger.core.pages_state`` and ``ledger.wire.pages`` (the public pages, ADR 0023),
``ledger.core.reports_state`` and ``ledger.wire.reports`` (players' reports, ADR 0027),
``ledger.core.calls_state`` and ``ledger.wire.calls`` (judge calls, issue 30).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ledger.core.calls_state import Call, note_claimed, note_closed, note_opened
from ledger.core.format_socket import plugin_for
from ledger.core.pages_state import (
    note_options,
    note_paired,
    note_posted,
    note_unpaired,
)
from ledger.core.reports_state import (
    Report,
    note_bound,
    note_device_use,
    note_issued,
    note_rejected,
    note_reported,
    note_revoked,
)
from ledger.core.state_model import Commitment, Official, Player, Seed, TournamentState
from ledger.wire.calls import CallClaimed, CallClosed, CallOpened
from ledger.wire.clock import later_time
from ledger.wire.events import (
    Body,
    DrawMade,
    OfficialAdded,
    OfficialRevoked,
    PlayerRegistered,
    PlayerRenamed,
    PlayerWithdrawn,
    RegistrationClosed,
    Role,
    SeedCommitted,
    SeedRecorded,
    SignedEvent,
    TournamentCreated,
)
from ledger.wire.pages import AnnouncementMade, PairingsPosted, PublicPagesSet
from ledger.wire.reports import (
    CredentialIssued,
    CredentialRevoked,
    DeviceKeyBound,
    ReportRejected,
    ResultReported,
)
from ledger.wire.tree_hash import frontier_append, leaf_hash

if TYPE_CHECKING:
    from ledger.core.rules_facet import Rules

Applier = Callable[[TournamentState, SignedEvent, Any], None]
_APPLIERS: dict[type[Body], list[Applier]] = {}


def applies(body_type: type[Body]) -> Callable[[Applier], Applier]:
    """Register a state transition for a body type (format modules may add more)."""
    def register(fn: Applier) -> Applier:
        _APPLIERS.setdefault(body_type, []).append(fn)
        return fn
    return register


def apply_event(state: TournamentState, ev: SignedEvent, head: str | None = None,
                merkle_leaf: bytes | None = None) -> None:
    """Fold one event into ``state`` (in place): the core's transition, then the format
    plug-in's (which sees core facts too, e.g. registration closing).  ``head`` and
    ``merkle_leaf``: the leaf's hex SHA-256 and Merkle leaf hash when the caller already
    has them (the audit hashes every leaf)."""
    for fn in _APPLIERS.get(type(ev.body), ()):
        fn(state, ev, ev.body)
    if isinstance(getattr(ev.body, "device_sig", None), str):   # REPORT-19
        note_device_use(state.reports, getattr(ev.body, "credential", ""))
    if state.fmt is not None:
        plugin = plugin_for(state.format.id if state.format else None)
        if plugin is not None:
            plugin.rules.evolve(state, ev)
            _note_pairing(state, plugin.rules, ev)
    frontier_append(state.merkle, state.size,
                    leaf_hash(ev.leaf) if merkle_leaf is None else merkle_leaf)
    state.size = ev.seq
    state.head = ev.leaf_hash_hex if head is None else head
    state.last_time = ev.time
    state.latest_time = later_time(state.latest_time, ev.time)


def _note_pairing(state: TournamentState, rules: Rules, ev: SignedEvent) -> None:
    """What the format says this event does to a round's pairing (ADR 0023)."""
    paired = rules.paired_round(state, ev.body)
    if paired is not None:
        note_paired(state.pages, paired, ev.seq)
        return
    unpaired = rules.unpaired_round(state, ev.body)
    if unpaired is not None:
        note_unpaired(state.pages, unpaired)


@applies(TournamentCreated)
def _created(state: TournamentState, ev: SignedEvent, body: TournamentCreated) -> None:
    state.log = ev.log
    state.name = body.name
    state.format = body.format
    state.organizer = body.head_judge.key_id
    state.created_time = ev.time
    state.policy = body.policy
    plugin = plugin_for(body.format.id)
    state.fmt = plugin.rules.new_state() if plugin is not None else None
    state.officials[body.head_judge.key_id] = Official(
        key_id=body.head_judge.key_id, public_key=body.head_judge.public_key,
        name=body.head_judge.name, roles=[Role.ORGANIZER, Role.HEAD_JUDGE], added_seq=ev.seq)


@applies(OfficialAdded)
def _official_added(state: TournamentState, ev: SignedEvent, body: OfficialAdded) -> None:
    state.officials[body.key_id] = Official(
        key_id=body.key_id, public_key=body.public_key, name=body.name,
        roles=[body.role], added_seq=ev.seq)


@applies(OfficialRevoked)
def _official_revoked(state: TournamentState, ev: SignedEvent, body: OfficialRevoked) -> None:
    off = state.officials.get(body.key_id)
    if off is not None:
        off.revoked_seq = ev.seq


@applies(PlayerRegistered)
def _player_registered(state: TournamentState, ev: SignedEvent, body: PlayerRegistered) -> None:
    state.players[body.number] = Player(
        number=body.number, name=body.name, registered_seq=ev.seq,
        nickname=body.nickname, deck=body.deck, clan=body.clan,
        external_id=body.external_id)


@applies(PlayerWithdrawn)
def _player_withdrawn(state: TournamentState, ev: SignedEvent, body: PlayerWithdrawn) -> None:
    state.players.pop(body.number, None)
    state.withdrawn[body.number] = ev.seq


@applies(PlayerRenamed)
def _player_renamed(state: TournamentState, ev: SignedEvent, body: PlayerRenamed) -> None:
    player = state.players.get(body.number)
    if player is not None:
        player.name = body.name


@applies(RegistrationClosed)
def _registration_closed(state: TournamentState, ev: SignedEvent,
                         body: RegistrationClosed) -> None:
    state.registration_closed_seq = ev.seq


@applies(SeedRecorded)
def _seed_recorded(state: TournamentState, ev: SignedEvent, body: SeedRecorded) -> None:
    state.seeds[ev.seq] = Seed(seq=ev.seq, seed=body.seed, reason=body.reason, ctx=body.ctx)
    if body.hashed_api_key is not None and body.serial is not None \
            and body.serial.isdigit():
        state.random_org_serials[body.hashed_api_key] = int(body.serial)
    if body.provenance == "drand" and body.chain is not None and body.round is not None:
        state.beacons_used.setdefault(f"{body.chain}:{body.round}", ev.seq)
    if body.commit_seq is not None:
        com = state.commitments.get(body.commit_seq)
        if com is not None and com.revealed_seq is None:
            com.revealed_seq = ev.seq


@applies(SeedCommitted)
def _seed_committed(state: TournamentState, ev: SignedEvent, body: SeedCommitted) -> None:
    state.commitments[ev.seq] = Commitment(seq=ev.seq, commitment=body.commitment,
                                           chain=body.chain, round=body.round,
                                           # judged by the latest claimed time up to it
                                           # (issue 21 item 2), never its own alone
                                           time=later_time(state.latest_time, ev.time),
                                           ctx=body.ctx)


@applies(DrawMade)
def _draw_made(state: TournamentState, ev: SignedEvent, body: DrawMade) -> None:
    state.draws[body.ctx] = ev.seq
    state.used_seeds.add(body.seed_seq)
    state.draw_results[ev.seq] = body.result
    state.draw_items[ev.seq] = body.items
    state.last_draw = [ev.seq, body.seed_seq]


@applies(PublicPagesSet)
def _pages_set(state: TournamentState, ev: SignedEvent, body: PublicPagesSet) -> None:
    note_options(state.pages, ev.seq, body.names, body.penalties, body.hold_pairings,
                 body.language, body.time_zone)


@applies(AnnouncementMade)
def _announced(state: TournamentState, ev: SignedEvent, body: AnnouncementMade) -> None:
    if body.withdraws is not None:
        state.pages.notes.pop(body.withdraws, None)
    if body.text:
        state.pages.notes[ev.seq] = body.text


@applies(PairingsPosted)
def _pairings_posted(state: TournamentState, ev: SignedEvent, body: PairingsPosted) -> None:
    note_posted(state.pages, body.round, ev.seq)


@applies(CredentialIssued)
def _credential_issued(state: TournamentState, ev: SignedEvent, body: CredentialIssued) -> None:
    note_issued(state.reports, ev.seq, body.credential, body.token_sha256, body.number,
                body.official)


@applies(CredentialRevoked)
def _credential_revoked(state: TournamentState, ev: SignedEvent,
                        body: CredentialRevoked) -> None:
    note_revoked(state.reports, ev.seq, body.credential)


@applies(DeviceKeyBound)
def _device_bound(state: TournamentState, ev: SignedEvent, body: DeviceKeyBound) -> None:
    note_bound(state.reports, body.credential, body.public_key)


@applies(ReportRejected)
def _report_rejected(state: TournamentState, ev: SignedEvent, body: ReportRejected) -> None:
    note_rejected(state.reports, body.round, body.table, body.number, body.report,
                  body.reason)


@applies(ResultReported)
def _result_reported(state: TournamentState, ev: SignedEvent, body: ResultReported) -> None:
    note_reported(state.reports, Report(seq=ev.seq, round=body.round, table=body.table,
                                        number=body.number, credential=body.credential,
                                        given=dict(body.given)))


@applies(CallOpened)
def _call_opened(state: TournamentState, ev: SignedEvent, body: CallOpened) -> None:
    number = body.number if isinstance(body.number, int) else None
    note_opened(state.calls, Call(seq=ev.seq, round=body.round, table=body.table,
                                  opened_time=ev.time, opened_by=ev.actor, number=number,
                                  note=body.note))


@applies(CallClaimed)
def _call_claimed(state: TournamentState, ev: SignedEvent, body: CallClaimed) -> None:
    note_claimed(state.calls, body.call, ev.seq, ev.time, ev.actor)


@applies(CallClosed)
def _call_closed(state: TournamentState, ev: SignedEvent, body: CallClosed) -> None:
    note_closed(state.calls, body.call, ev.seq, ev.time, body.outcome,
                body.cites if isinstance(body.cites, int) else None)


__all__ = ["Applier", "Commitment", "Official", "Player", "Seed", "TournamentState",
           "apply_event", "applies"]
