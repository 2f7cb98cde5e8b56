"""Ledger rules: who may sign what (RULES.md §1.3) and what each event requires.

Owns: ``PERMITTED`` (kind → roles), ``authorize`` and ``check`` — the one implementation
of every ledger-level rule, called by the command side before sealing and by the audit on
replay.  Raises ``RuleError`` whose ``finding`` is the audit's stable code.

May import: ``ledger.events``, ``ledger.state``, ``ledger.keys``, ``ledger.draw``,
``ledger.formats``, ``ledger.errors``.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable
from typing import Any

from ledger.canonical import MAX_SAFE_INT
from ledger.draw import ALGORITHM, draw_v1, seed_from_material
from ledger.errors import RuleError
from ledger.events import (
    Body,
    DrawMade,
    Kind,
    OfficialAdded,
    OfficialRevoked,
    PlayerRegistered,
    PlayerRenamed,
    PlayerWithdrawn,
    RegistrationClosed,
    Role,
    SeedRecorded,
    TournamentCreated,
)
from ledger.formats import check_format
from ledger.keys import key_id
from ledger.state import TournamentState

MAX_PLAYER_NUMBER = 2**31 - 1
CHECKPOINT = "checkpoint"  # not an event kind: the right to sign checkpoint notes

PERMITTED: dict[str, frozenset[Role]] = {
    Kind.TOURNAMENT_CREATED.value: frozenset({Role.ORGANIZER}),
    Kind.OFFICIAL_ADDED.value: frozenset({Role.ORGANIZER}),
    Kind.OFFICIAL_REVOKED.value: frozenset({Role.ORGANIZER}),
    Kind.PLAYER_REGISTERED.value: frozenset({Role.SCOREKEEPER, Role.HEAD_JUDGE}),
    Kind.REGISTRATION_CLOSED.value: frozenset({Role.HEAD_JUDGE}),
    Kind.PLAYER_WITHDRAWN.value: frozenset({Role.SCOREKEEPER, Role.HEAD_JUDGE}),
    Kind.PLAYER_RENAMED.value: frozenset({Role.SCOREKEEPER, Role.HEAD_JUDGE}),
    Kind.SEED_RECORDED.value: frozenset({Role.HEAD_JUDGE}),   # LEDGER-RAND-3
    Kind.DRAW_MADE.value: frozenset({Role.HEAD_JUDGE}),       # LEDGER-RAND-3
    CHECKPOINT: frozenset({Role.HEAD_JUDGE}),                 # DESIGN.md §5
}


def permit(kind: str, roles: frozenset[Role]) -> None:
    """Register the roles allowed to sign a kind added by a format module."""
    PERMITTED[kind] = roles


def authorize(state: TournamentState, actor: str, kind: str) -> None:
    """Refuse unless ``actor`` holds, right now, a role allowed to sign ``kind``."""
    off = state.officials.get(actor)
    if off is None:
        raise RuleError("RULES-1.3", f"key {actor} is not an official of this tournament",
                        hint="the organizer adds it with 'tourney official add'",
                        finding="unknown_key")
    if off.revoked_seq is not None:
        raise RuleError("RULES-1.3", f"key {actor} ({off.name}) was revoked at seq "
                        f"{off.revoked_seq}", hint="sign with a current official's key",
                        finding="key_revoked")
    allowed = PERMITTED.get(kind, frozenset())
    if not allowed.intersection(off.roles):
        need = " or ".join(sorted(r.value for r in allowed)) or "nobody"
        have = ", ".join(r.value for r in off.roles)
        raise RuleError("RULES-1.3", f"{kind} must be signed by {need}; key {actor} "
                        f"({off.name}) is {have}", hint="sign with a key that has that role",
                        finding="role_not_permitted")


Checker = Callable[[TournamentState, Any, str], None]
_CHECKS: dict[type[Body], Checker] = {}


def checks(body_type: type[Body]) -> Callable[[Checker], Checker]:
    def register(fn: Checker) -> Checker:
        _CHECKS[body_type] = fn
        return fn
    return register


def check(state: TournamentState, body: Body, actor: str) -> None:
    """Every rule for appending ``body`` signed by ``actor`` to ``state``."""
    if not isinstance(body, TournamentCreated):
        authorize(state, actor, body.KIND.value)
    fn = _CHECKS.get(type(body))
    if fn is not None:
        fn(state, body, actor)


def _check_key(kid: str, public_key: str) -> None:
    try:
        raw = base64.b64decode(public_key, validate=True)
    except (binascii.Error, ValueError):
        raw = b""
    if len(raw) != 32:
        raise RuleError("DESIGN-5", "public_key is not base64 of 32 raw bytes",
                        finding="bad_key")
    if key_id(raw) != kid:
        raise RuleError("DESIGN-4", f"key_id {kid} does not match the public key",
                        finding="bad_key")


@checks(TournamentCreated)
def _created(state: TournamentState, body: TournamentCreated, actor: str) -> None:
    if state.size != 0:
        raise RuleError("DESIGN-5", "tournament_created must be seq 1", finding="genesis")
    if not body.name.strip():
        raise RuleError("RULES-8", "tournament name is empty", hint="pass --name NAME")
    _check_key(body.head_judge.key_id, body.head_judge.public_key)
    if body.head_judge.key_id != actor:
        raise RuleError("DESIGN-5", "genesis must be signed by the head judge key it names",
                        finding="genesis")
    check_format(body.format)


@checks(OfficialAdded)
def _official_added(state: TournamentState, body: OfficialAdded, actor: str) -> None:
    _check_key(body.key_id, body.public_key)
    if body.role is Role.ORGANIZER:
        raise RuleError("BR-OFF-1", "a tournament has exactly one organizer",
                        hint="add officials as head-judge, judge or scorekeeper")
    if body.key_id in state.officials:
        raise RuleError("RULES-1.3", f"key {body.key_id} is already an official "
                        "(revoked keys are never re-added)", hint="generate a new key")
    if not body.name.strip():
        raise RuleError("RULES-1.3", "official name is empty", hint="pass --name NAME")


@checks(OfficialRevoked)
def _official_revoked(state: TournamentState, body: OfficialRevoked, actor: str) -> None:
    off = state.officials.get(body.key_id)
    if off is None:
        raise RuleError("RULES-1.3", f"key {body.key_id} is not an official",
                        hint="see 'tourney official list'")
    if off.revoked_seq is not None:
        raise RuleError("RULES-1.3", f"key {body.key_id} was already revoked at seq "
                        f"{off.revoked_seq}")
    if body.key_id == state.organizer:
        raise RuleError("BR-OFF-1", "the organizer key cannot be revoked",
                        hint="start a new tournament if that key is compromised")


@checks(PlayerRegistered)
def _player_registered(state: TournamentState, body: PlayerRegistered, actor: str) -> None:
    if state.registration_closed_seq is not None:
        raise RuleError("LEDGER-REG-2", "registration closed at seq "
                        f"{state.registration_closed_seq}", hint="no players can be added now")
    if not 1 <= body.number <= MAX_PLAYER_NUMBER:
        raise RuleError("LEDGER-REG-1", f"player number {body.number} is out of range",
                        hint="use a number from 1 upward")
    if body.number in state.players:
        holder = state.players[body.number].name
        raise RuleError("LEDGER-REG-1", f"player number {body.number} is already {holder}",
                        hint="choose another --number or omit it to take the next free one")
    if body.number in state.withdrawn:
        raise RuleError("LEDGER-REG-1", f"player number {body.number} was withdrawn at seq "
                        f"{state.withdrawn[body.number]}; numbers are not reused",
                        hint="omit --number to take the next free one")
    if not body.name.strip():
        raise RuleError("LEDGER-REG-1", "player name is empty", hint="pass a NAME")


@checks(PlayerWithdrawn)
def _player_withdrawn(state: TournamentState, body: PlayerWithdrawn, actor: str) -> None:
    if state.registration_closed_seq is not None:
        raise RuleError("BR-DROP-1", f"registration closed at seq "
                        f"{state.registration_closed_seq}: player {body.number} drops "
                        "instead of withdrawing", hint=f"tourney drop {body.number}")
    if body.number not in state.players:
        raise RuleError("LEDGER-REG-1", f"player {body.number} is not registered"
                        + (" (withdrawn at seq " f"{state.withdrawn[body.number]})"
                           if body.number in state.withdrawn else ""),
                        hint="see 'tourney player list'")


@checks(PlayerRenamed)
def _player_renamed(state: TournamentState, body: PlayerRenamed, actor: str) -> None:
    player = state.players.get(body.number)
    if player is None:
        raise RuleError("LEDGER-REG-1", f"player {body.number} is not registered",
                        hint="see 'tourney player list'")
    if not body.name.strip() or body.name != body.name.strip():
        raise RuleError("LEDGER-REG-1", "the new name is empty or has surrounding spaces",
                        hint="pass the name as it should be shown")
    if body.name == player.name:
        raise RuleError("LEDGER-REG-1", f"player {body.number} is already named "
                        f"{body.name!r}", hint="nothing to rename")


@checks(RegistrationClosed)
def _registration_closed(state: TournamentState, body: RegistrationClosed, actor: str) -> None:
    if state.registration_closed_seq is not None:
        raise RuleError("LEDGER-REG-2", "registration is already closed")
    if len(state.players) < 2:
        raise RuleError("LEDGER-REG-2", "a tournament needs at least 2 players",
                        hint="register players with 'tourney player add'")
    if body.players != len(state.players):
        raise RuleError("LEDGER-REG-2", f"registration_closed says {body.players} players "
                        f"but {len(state.players)} are registered")


@checks(SeedRecorded)
def _seed_recorded(state: TournamentState, body: SeedRecorded, actor: str) -> None:
    if not body.material:
        raise RuleError("LEDGER-RAND-1", "seed material is empty",
                        hint="enter exactly what the randomizer gave")
    if not body.reason.strip() or not body.source.strip():
        raise RuleError("LEDGER-RAND-1", "a seed needs a reason and a source",
                        hint="pass --reason and --source")
    if body.seed != seed_from_material(body.material).hex():
        raise RuleError("DESIGN-6", "seed is not SHA-256('tourney-seed/v1\\0' + material)",
                        finding="seed_mismatch")


@checks(DrawMade)
def _draw_made(state: TournamentState, body: DrawMade, actor: str) -> None:
    seed = state.seeds.get(body.seed_seq)
    if seed is None:
        raise RuleError("LEDGER-RAND-1", f"seq {body.seed_seq} is not a recorded seed",
                        hint="record one with 'tourney seed record'", finding="draw_seed_unknown")
    if body.seed != seed.seed:
        raise RuleError("LEDGER-RAND-1", f"draw seed differs from seed seq {body.seed_seq}",
                        finding="draw_mismatch")
    if not body.ctx:
        raise RuleError("LEDGER-RAND-1", "a draw needs a ctx", hint="pass --ctx")
    if body.ctx in state.draws:
        raise RuleError("DESIGN-6", f"ctx {body.ctx!r} was already drawn at seq "
                        f"{state.draws[body.ctx]}", hint="each draw has its own ctx",
                        finding="draw_ctx_reused")
    if body.algorithm != ALGORITHM:
        raise RuleError("LEDGER-RAND-2", f"unknown algorithm {body.algorithm!r}",
                        finding="draw_mismatch")
    if any(not 0 <= i <= MAX_SAFE_INT for i in body.items) or \
            body.items != sorted(set(body.items)):
        raise RuleError("LEDGER-RAND-1", "draw items must be distinct non-negative integers "
                        "pre-ordered ascending (by player number)", finding="draw_mismatch")
    expected = draw_v1(bytes.fromhex(seed.seed), body.ctx, body.items)
    if body.result != expected:
        raise RuleError("LEDGER-RAND-2", f"draw {body.ctx!r}: recorded result {body.result} "
                        f"but DRAW-v1 gives {expected}", finding="draw_mismatch")


# Format modules register their permissions and checks on import (ledger/hotc/__init__.py).
from ledger.hotc import checks as _hotc_checks  # noqa: E402,F401
