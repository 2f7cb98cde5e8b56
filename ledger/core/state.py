"""The tournament state folded from events: the one ``apply`` shared by all sides.

Owns: ``TournamentState`` (a msgspec Struct, so snapshots encode it directly) and
``apply_event`` — pure state transitions, one per kind.  Never validates, reads the
clock or draws randomness: the command side validates before sealing (``ledger.core.rules``),
the audit validates on replay with the same rule functions, and both fold with this.

May import: ``msgspec``, ``ledger.wire.events``, ``ledger.wire.tree_hash``,
``ledger.core.format_socket`` (the
format socket), ``ledger.wire.clock`` (``later_time`` only: never reads a clock),
``ledger.core.pages_state`` and ``ledger.wire.pages`` (the public pages, ADR 0023),
``ledger.core.reports_state`` and ``ledger.wire.reports`` (players' reports, ADR 0027).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from ledger.core.format_socket import Format, plugin_for
from ledger.core.pages_state import (
    PagesState,
    note_options,
    note_paired,
    note_posted,
    note_unpaired,
)
from ledger.core.reports_state import (
    Report,
    ReportsState,
    note_bound,
    note_device_use,
    note_issued,
    note_rejected,
    note_reported,
    note_revoked,
)
from ledger.wire.clock import later_time
from ledger.wire.events import (
    DEFAULT_POLICY,
    ZERO_HASH,
    Body,
    DrawMade,
    FormatSpec,
    LedgerPolicy,
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
from ledger.wire.pages import PairingsPosted, PublicPagesSet
from ledger.wire.reports import (
    CredentialIssued,
    CredentialRevoked,
    DeviceKeyBound,
    ReportRejected,
    ResultReported,
)
from ledger.wire.tree_hash import frontier_append, leaf_hash


class Official(msgspec.Struct, kw_only=True, array_like=True, gc=False):
    key_id: str
    public_key: str
    name: str
    roles: list[Role]
    added_seq: int
    revoked_seq: int | None = None


class Player(msgspec.Struct, kw_only=True, array_like=True, gc=False):
    number: int
    name: str
    registered_seq: int
    nickname: str | None = None
    deck: str | None = None
    clan: str | None = None
    external_id: str | None = None


class Seed(msgspec.Struct, kw_only=True, array_like=True, gc=False):
    seq: int
    seed: str
    reason: str
    ctx: str | None = None


class Commitment(msgspec.Struct, kw_only=True, array_like=True, gc=False):
    """A ``seed_committed`` awaiting (or opened by) its reveal."""

    seq: int
    commitment: str
    chain: str
    round: int
    time: str
    ctx: str | None = None
    revealed_seq: int | None = None


class TournamentState(msgspec.Struct, kw_only=True, array_like=True, gc=False):
    """Everything a command needs to decide; rebuilt by folding the log."""

    log: str = ""
    name: str = ""
    format: FormatSpec | None = None
    organizer: str = ""
    created_time: str = ""
    officials: dict[str, Official] = {}
    players: dict[int, Player] = {}
    registration_closed_seq: int | None = None
    seeds: dict[int, Seed] = {}
    draws: dict[str, int] = {}  # ctx -> seq of its draw_made
    used_seeds: set[int] = set()  # seqs of seeds some draw_made has used
    size: int = 0
    head: str = ZERO_HASH  # hex sha256 of the last leaf
    last_time: str = ""
    # draws not yet consumed by the event that uses them (round_paired, cut_made,
    # bracket_seeded): seq -> result / pre-ordered items; cleared when consumed
    draw_results: dict[int, list[int]] = {}
    draw_items: dict[int, list[int]] = {}
    #: the format's own state (its plug-in's ``state_type``), folded by its ``evolve``
    fmt: Any = None
    # verifiable randomness (ledger.randomness.rules): last RANDOM.ORG serial per
    # hashedApiKey, open and opened commitments, and the last draw (seq, seed seq) so the
    # draws of one decision may share an unbound seed only back to back
    random_org_serials: dict[str, int] = {}
    commitments: dict[int, Commitment] = {}
    last_draw: list[int] = []
    policy: LedgerPolicy | None = None  # genesis policy (None = DEFAULT_POLICY)

    @property
    def ledger_policy(self) -> LedgerPolicy:
        return self.policy if self.policy is not None else DEFAULT_POLICY
    # RFC 6962 frontier of the log (ledger.wire.tree_hash.frontier_append): the roots of the
    # perfect subtrees, largest first, so a checkpoint is signed without re-reading the log
    merkle: list[bytes] = []
    withdrawn: dict[int, int] = {}  # player number -> seq of its player_withdrawn
    # issue 21 (ledger.randomness.binding): the latest claimed time of the events so far
    # (seeds must be published after it) and the drand beacons already used as seeds
    latest_time: str = ""
    beacons_used: dict[str, int] = {}  # "<chain>:<round>" -> seq of its seed_recorded
    #: issue 18 (ADR 0023): the public pages' options and which rounds wait for posting
    pages: PagesState = msgspec.field(default_factory=PagesState)
    #: issue 19 (ADR 0027): players' credentials and their current reports
    reports: ReportsState = msgspec.field(default_factory=ReportsState)

    def active_roles(self, key_id: str) -> list[Role]:
        off = self.officials.get(key_id)
        if off is None or off.revoked_seq is not None:
            return []
        return off.roles


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
            plugin.evolve(state, ev)
            _note_pairing(state, plugin, ev)
    frontier_append(state.merkle, state.size,
                    leaf_hash(ev.leaf) if merkle_leaf is None else merkle_leaf)
    state.size = ev.seq
    state.head = ev.leaf_hash_hex if head is None else head
    state.last_time = ev.time
    state.latest_time = later_time(state.latest_time, ev.time)


def _note_pairing(state: TournamentState, plugin: Format, ev: SignedEvent) -> None:
    """What the format says this event does to a round's pairing (ADR 0023)."""
    paired = plugin.paired_round(state, ev.body)
    if paired is not None:
        note_paired(state.pages, paired, ev.seq)
        return
    unpaired = plugin.unpaired_round(state, ev.body)
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
    state.fmt = plugin.new_state() if plugin is not None else None
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
    note_options(state.pages, ev.seq, body.names, body.penalties, body.hold_pairings)


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
