"""The tournament state folded from events: the one ``apply`` shared by all sides.

Owns: ``TournamentState`` (a msgspec Struct, so snapshots encode it directly) and
``apply_event`` — pure state transitions, one per kind.  Never validates, reads the
clock or draws randomness: the command side validates before sealing (``ledger.rules``),
the audit validates on replay with the same rule functions, and both fold with this.

May import: ``msgspec``, ``ledger.events``, ``ledger.merkle``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from ledger.events import (
    ZERO_HASH,
    Body,
    DrawMade,
    FormatSpec,
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
)
from ledger.hotc.model import HotcState
from ledger.merkle import frontier_append, leaf_hash


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
    hotc: HotcState = msgspec.field(default_factory=HotcState)
    # RFC 6962 frontier of the log (ledger.merkle.frontier_append): the roots of the
    # perfect subtrees, largest first, so a checkpoint is signed without re-reading the log
    merkle: list[bytes] = []
    withdrawn: dict[int, int] = {}  # player number -> seq of its player_withdrawn

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


def apply_event(state: TournamentState, ev: SignedEvent) -> None:
    """Fold one event into ``state`` (in place)."""
    for fn in _APPLIERS.get(type(ev.body), ()):
        fn(state, ev, ev.body)
    frontier_append(state.merkle, state.size, leaf_hash(ev.leaf))
    state.size = ev.seq
    state.head = ev.leaf_hash_hex
    state.last_time = ev.time


@applies(TournamentCreated)
def _created(state: TournamentState, ev: SignedEvent, body: TournamentCreated) -> None:
    state.log = ev.log
    state.name = body.name
    state.format = body.format
    state.organizer = body.head_judge.key_id
    state.created_time = ev.time
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


@applies(DrawMade)
def _draw_made(state: TournamentState, ev: SignedEvent, body: DrawMade) -> None:
    state.draws[body.ctx] = ev.seq
    state.used_seeds.add(body.seed_seq)
    state.draw_results[ev.seq] = body.result
    state.draw_items[ev.seq] = body.items


# Format modules register their state transitions on import (ledger/hotc/__init__.py).
from ledger.hotc import apply as _hotc_apply  # noqa: E402,F401
