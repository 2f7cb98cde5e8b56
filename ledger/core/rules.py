"""Ledger rules: who may sign what (RULES.md §1.3) and what each event requires.

Owns: ``authorize`` and ``check`` — the one implementation of every ledger-level rule,
called by the command side before sealing and by the audit on replay, each event through
the ``Route`` of its body type (``ledger.core.routes``, issue 28).  Raises
``RuleError`` whose ``finding`` is the audit's stable code.  The roles table itself
(``PERMITTED``, re-exported here, and the station's exceptions) is ``ledger.core.signing``,
which the write guard and the PostgreSQL admission function apply too.

May import: ``ledger.wire.events``, ``ledger.core.state``, ``ledger.wire.keys``,
``ledger.core.draw``,
``ledger.core.format_socket``, ``ledger.wire.clock``, ``ledger.errors``, ``ledger.core.decided``,
``ledger.wire.pages``, ``ledger.wire.reports``, ``ledger.core.report_rules``,
``ledger.core.device_rules``, ``ledger.core.signing``, ``ledger.core.rule_plugins``,
``ledger.core.routes``, ``ledger.core.call_rules``, ``ledger.core.pages_rules``,
``ledger.wire.calls``.  Never
``ledger.randomness``: the seed, commitment and draw-hygiene rules (DESIGN-6) live above the
core and plug in (``checks``, ``ledger.core.rule_plugins``;
docs/adr/0039-layering-layers-and-rule-ids.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ledger.core.call_rules import check_claimed, check_closed, check_opened
from ledger.core.decided import is_decided
from ledger.core.device_rules import check_bound
from ledger.core.draw import ALGORITHM, draw_v1
from ledger.core.format_socket import require_plugin
from ledger.core.pages_rules import check_announcement, check_pages_set
from ledger.core.report_rules import (
    check_citation,
    check_issued,
    check_own_act,
    check_rejected,
    check_reported,
    check_revoked,
    check_station_result,
)
from ledger.core.routes import Route, route
from ledger.core.rule_plugins import plugged_draw_checks, stand_in
from ledger.core.signing import CHECKPOINT as CHECKPOINT  # re-exported
from ledger.core.signing import PERMITTED as PERMITTED  # re-exported
from ledger.core.signing import (
    cites_reports,
    own_act,
    plugin_of,
    roles_for_kind,
    station_signs,
)
from ledger.core.state import TournamentState
from ledger.errors import RuleError
from ledger.wire.calls import CallClaimed, CallClosed, CallOpened
from ledger.wire.canonical import MAX_SAFE_INT
from ledger.wire.clock import parse_time
from ledger.wire.events import (
    Body,
    DrawMade,
    LedgerPolicy,
    OfficialAdded,
    OfficialRevoked,
    PlayerRegistered,
    PlayerRenamed,
    PlayerWithdrawn,
    RegistrationClosed,
    ReportPublished,
    Role,
    SeedCommitted,
    SeedRecorded,
    TournamentCreated,
)
from ledger.wire.keys import b64_exact, key_id
from ledger.wire.pages import AnnouncementMade, PairingsPosted, PublicPagesSet
from ledger.wire.reports import (
    CredentialIssued,
    CredentialRevoked,
    DeviceKeyBound,
    ReportRejected,
    ResultReported,
)

MAX_PLAYER_NUMBER = 2**31 - 1
_STATION = Role.STATION   # read per event: a module constant, not a lookup on the enum


def authorize(state: TournamentState, actor: str, kind: str) -> None:
    """Refuse unless ``actor`` holds, right now, a role allowed to sign ``kind``."""
    authorize_roles(state, actor, kind, roles_for_kind(plugin_of(state), kind))


def authorize_roles(state: TournamentState, actor: str, kind: str,
                    allowed: frozenset[Role]) -> None:
    """``authorize`` with the roles that may sign ``kind`` already looked up."""
    off = state.officials.get(actor)
    if off is None:
        raise RuleError("RULES-1.3", f"key {actor} is not an official of this tournament",
                        hint="the organizer adds it with 'tourney official add'",
                        finding="unknown_key")
    if off.revoked_seq is not None:
        raise RuleError("RULES-1.3", f"key {actor} ({off.name}) was revoked at seq "
                        f"{off.revoked_seq}", hint="sign with a current official's key",
                        finding="key_revoked")
    if not allowed.intersection(off.roles):
        need = " or ".join(sorted(r.value for r in allowed)) or "nobody"
        have = ", ".join(r.value for r in off.roles)
        raise RuleError("RULES-1.3", f"{kind} must be signed by {need}; key {actor} "
                        f"({off.name}) is {have}", hint="sign with a key that has that role",
                        finding="role_not_permitted")


Checker = Callable[[TournamentState, Any, str], None]
_CHECKS: dict[type[Body], Checker] = {}


_CHECKS.update({CredentialIssued: check_issued, CredentialRevoked: check_revoked,
                ResultReported: check_reported, ReportRejected: check_rejected,
                DeviceKeyBound: check_bound, CallOpened: check_opened,
                CallClaimed: check_claimed, CallClosed: check_closed,
                AnnouncementMade: check_announcement, PublicPagesSet: check_pages_set})


def checks(body_type: type[Body]) -> Callable[[Checker], Checker]:
    def register(fn: Checker) -> Checker:
        _CHECKS[body_type] = fn
        return fn
    return register


#: Core kinds whose rules live above the core (``ledger.core.rule_plugins``): until
#: ``ledger.randomness.rules`` registers the real checks, a stand-in loads it on first use, and
#: refuses (``RulesNotLoaded``) when nothing named it: never passed unchecked.
ABOVE_CORE: frozenset[type[Body]] = frozenset({SeedRecorded, SeedCommitted})
for _kind in ABOVE_CORE:
    _CHECKS[_kind] = stand_in(_CHECKS, _kind)


def check(state: TournamentState, body: Body, actor: str) -> None:
    """Every rule for appending ``body`` signed by ``actor`` to ``state``: the core's
    own, then the format plug-in's (``ledger.core.format_socket``), which may also add rules to core
    kinds (e.g. an invitation at registration)."""
    check_routed(state, body, actor, route(state, body))


def check_routed(state: TournamentState, body: Body, actor: str, how: Route) -> None:
    """``check`` with ``body``'s ``Route`` already looked up (``how.plugin`` is the state's
    format): the one implementation of the order the rules run in."""
    cites = how.reports and cites_reports(body)
    own = how.credential and own_act(body)
    if own:
        check_own_act(state, body, actor)          # REPORT-15
    # a station signs beyond the role table only what is checked instead (ADR 0027):
    # a result citing reports (REPORT-11/12), a player's own act (REPORT-15), or a kind
    # the format derives whole from the state (REPORT-9)
    station = _STATION in state.active_roles(actor) and \
        station_signs(how.plugin, body)
    if station and cites:
        check_citation(state, body, actor)         # REPORT-10
        check_station_result(state, body, actor)   # REPORT-11/12
    elif not station and not how.genesis:
        authorize_roles(state, actor, how.kind, how.allowed)
        if cites:
            check_citation(state, body, actor)     # REPORT-10
    core = _CHECKS.get(type(body))
    if core is not None:
        core(state, body, actor)
    if how.genesis:
        return
    plugin = how.plugin
    if plugin is not None:
        plugin.rules.check(state, body, actor)
    elif core is None:
        raise RuleError("RULES-8", f"{body.KIND.value} belongs to a format that is not "
                        "known here", finding="unknown_format")


def _check_key(kid: str, public_key: str) -> None:
    raw = b64_exact(public_key, 32)
    if raw is None:
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
    require_plugin(body.format.id).rules.check_spec(body.format)
    if body.policy is not None:
        check_policy(body.policy)


#: Ranges of the genesis ledger policy (``LedgerPolicy``).
POLICY_RANGES = {"time_tolerance_s": (0, 86400), "witness_quorum": (0, 16),
                 "witness_max_age_s": (0, 366 * 86400)}


def check_policy(policy: LedgerPolicy) -> None:
    for name, (lo, hi) in POLICY_RANGES.items():
        value = getattr(policy, name)
        if isinstance(value, bool) or not lo <= value <= hi:
            raise RuleError("LEDGER-POLICY-1", f"policy {name}={value} is outside {lo}..{hi}",
                            hint=f"choose {name} in {lo}..{hi}")


def check_claimed_time(state: TournamentState, time: str) -> None:
    """The command side's clock rule (docs/AUDIT.md §2 step 10, THREATS F4): a claimed time
    is RFC 3339 UTC and not earlier than the head's by more than the genesis tolerance."""
    try:
        claimed = parse_time(time)
    except ValueError:
        raise RuleError("LEDGER-TIME-1", f"claimed time {time!r} is not RFC 3339 UTC",
                        hint="check the system clock or TOURNEY_FIXED_CLOCK",
                        finding="time_malformed") from None
    if not state.last_time:
        return
    head = parse_time(state.last_time)
    tolerance = state.ledger_policy.time_tolerance_s
    behind = (head - claimed).total_seconds()
    if behind > tolerance:
        raise RuleError("LEDGER-TIME-1", f"this station's clock says {time}, "
                        f"{behind:.0f} s before the last event ({state.last_time}); the "
                        f"tolerance is {tolerance} s",
                        hint="set this computer's clock right (order is by seq, but times "
                             "may not go backwards)", finding="time_regressed")


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


@checks(ReportPublished)
def _report_published(state: TournamentState, body: ReportPublished, actor: str) -> None:
    """Structure only: the figures themselves are recomputed by the audit (projections)."""
    import hashlib

    from ledger.wire.canonical import canonical

    if body.size != state.size:
        raise RuleError("DESIGN-11", f"a report covers the log right before it (size "
                        f"{state.size}), not size {body.size}", hint="publish again",
                        finding="report_mismatch")
    if hashlib.sha256(canonical(body.figures)).hexdigest() != body.digest:
        raise RuleError("DESIGN-11", "report digest is not SHA-256 of its figures",
                        finding="report_mismatch")
    cp = body.figures.get("checkpoint")
    if not isinstance(cp, dict) or cp.get("size") != body.size or cp.get("root") != body.root:
        raise RuleError("DESIGN-11", "the figures name another checkpoint than the report",
                        finding="report_mismatch")


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
    for draw_check in plugged_draw_checks():
        draw_check(state, body)    # the seed's hygiene (ledger.randomness.rules)
    if is_decided(body):   # Tournament.make_draw drew it just now (ledger.core.decided)
        return
    expected = draw_v1(bytes.fromhex(seed.seed), body.ctx, body.items)
    if body.result != expected:
        raise RuleError("LEDGER-RAND-2", f"draw {body.ctx!r}: recorded result {body.result} "
                        f"but DRAW-v1 gives {expected}", finding="draw_mismatch")



@checks(PairingsPosted)
def _pairings_posted(state: TournamentState, body: PairingsPosted, actor: str) -> None:
    """PAGES-2..4: only a paired round held by the gate is posted, once per pairing."""
    p, n = state.pages, body.round
    if n not in p.paired:
        raise RuleError("PAGES-2", f"round {n} is not paired (nothing to post)",
                        hint="pair it with 'tourney round pair'; see 'tourney pages show'")
    if n in p.posted:
        raise RuleError("PAGES-4", f"round {n} was already posted at seq {p.posted[n]}",
                        hint="nothing to post; phones already show it")
    if n not in p.held:
        raise RuleError("PAGES-3", f"round {n} is not held: its pairing (seq "
                        f"{p.paired[n]}) has been on public pages since it was recorded",
                        hint="only a round paired while hold pairings is on waits for "
                             "posting; see 'tourney pages show'")
