"""Who may sign which kind: the roles table of a log (RULES.md §1.3, ADR 0027), as data.

Owns: ``PERMITTED`` (core kind → roles), ``CHECKPOINT``, ``roles_for_kind`` (a kind's roles
in a format: the core's, else the format's), ``Needs`` and ``station_signs`` (what a
station key signs beyond the table — a result citing players' reports, a player's own
act, a kind the format derives whole from the state — told by the body's shape),
``signing_table`` (every (kind, role, needs) row of a format: what the audit's
``rules.check`` admits at the level of kind × role, and what the PostgreSQL admission
function ``tourney_admit_event`` is generated from, ``ledger.storage.pg_roles``) and
``role_problem`` (why a stored leaf's signer may not have signed it: the guard the command
side runs before it signs on top of a leaf, ``ledger.storage.write_guard``).

``rules.authorize`` and ``rules.check`` judge with these same functions, so the command
side, the audit, the write guard and the database apply one table.

May import: ``ledger.wire.events``, ``ledger.wire.pages``, ``ledger.wire.reports``,
``ledger.wire.calls``,
``ledger.core.state``, ``ledger.core.format_socket``.
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Any

from ledger.core.format_socket import plugin_for
from ledger.core.state import TournamentState
from ledger.wire.calls import CallClaimed, CallClosed, CallOpened
from ledger.wire.events import Body, Kind, Role, SignedEvent
from ledger.wire.pages import AnnouncementMade, PairingsPosted, PublicPagesSet
from ledger.wire.reports import (
    CredentialIssued,
    CredentialRevoked,
    DeviceKeyBound,
    ReportRejected,
    ResultReported,
)

if TYPE_CHECKING:
    from ledger.core.format_plugin import FormatPlugin

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
    Kind.SEED_COMMITTED.value: frozenset({Role.HEAD_JUDGE}),  # LEDGER-RAND-3
    Kind.REPORT_PUBLISHED.value: frozenset({Role.HEAD_JUDGE}),  # docs/DESIGN.md §11
    Kind.PUBLIC_PAGES_SET.value: frozenset({Role.ORGANIZER, Role.HEAD_JUDGE}),  # PAGES-5
    Kind.PAIRINGS_POSTED.value: frozenset({Role.HEAD_JUDGE}),                   # PAGES-5
    Kind.ANNOUNCEMENT_MADE.value: frozenset({Role.HEAD_JUDGE}),                 # PAGES-6
    # issue 19 (ADR 0027): the station signs players' reports and nothing else (REPORT-9)
    Kind.CREDENTIAL_ISSUED.value: frozenset({Role.ORGANIZER, Role.HEAD_JUDGE}),   # REPORT-9
    Kind.CREDENTIAL_REVOKED.value: frozenset({Role.ORGANIZER, Role.HEAD_JUDGE}),  # REPORT-9
    Kind.RESULT_REPORTED.value: frozenset({Role.STATION}),                        # REPORT-9
    Kind.REPORT_REJECTED.value: frozenset({Role.SCOREKEEPER, Role.JUDGE,          # REPORT-14
                                           Role.HEAD_JUDGE}),
    Kind.DEVICE_KEY_BOUND.value: frozenset({Role.STATION}),                       # REPORT-16
    # issue 30: judge calls; a station opens one only as a player's own act (REPORT-15)
    Kind.CALL_OPENED.value: frozenset({Role.JUDGE, Role.HEAD_JUDGE}),             # CALL-1
    Kind.CALL_CLAIMED.value: frozenset({Role.JUDGE, Role.HEAD_JUDGE}),            # CALL-3
    Kind.CALL_CLOSED.value: frozenset({Role.JUDGE, Role.HEAD_JUDGE}),             # CALL-4
    CHECKPOINT: frozenset({Role.HEAD_JUDGE}),                 # docs/DESIGN.md §5
}

#: core kinds whose ``credential`` field is the subject, not the credential acted with
CREDENTIAL_KINDS: tuple[type[Body], ...] = (CredentialIssued, CredentialRevoked,
                                            ResultReported, DeviceKeyBound)
_CORE_BODIES: tuple[type[Body], ...] = (*CREDENTIAL_KINDS, ReportRejected, PublicPagesSet,
                                        PairingsPosted, AnnouncementMade, CallOpened,
                                        CallClaimed, CallClosed)


class Needs(str, Enum):
    """When a role may sign a kind (a row of the roles table)."""

    ALWAYS = "always"          # the table grants it
    CITES_REPORTS = "reports"  # a station: the body's ``reports`` is a list (REPORT-10..12)
    OWN_ACT = "credential"     # a station: the body names the player's ``credential`` (REPORT-15)


def roles_for_kind(plugin: FormatPlugin | None, kind: str) -> frozenset[Role]:
    """The roles that may sign ``kind``: the core's table, else the format's; none if
    neither knows it."""
    allowed = PERMITTED.get(kind)
    if allowed is None:
        allowed = (plugin.rules.roles_for(kind) if plugin is not None else None) or frozenset()
    return allowed


def cites_reports(body: Any) -> bool:
    return isinstance(getattr(body, "reports", None), list)


def own_act(body: Any) -> bool:
    return isinstance(getattr(body, "credential", None), str) and \
        not isinstance(body, CREDENTIAL_KINDS)


def station_signs(plugin: FormatPlugin | None, body: Body) -> bool:
    """Whether a station key signs ``body`` beyond the table (ADR 0027): a result citing
    reports, a player's own act, or a kind the format derives whole from the state.  Such
    an event is judged by its own rules instead of the role table (``rules.check``)."""
    return cites_reports(body) or own_act(body) or \
        (plugin is not None and body.KIND.value in plugin.rules.derived_kinds)


def plugin_of(state: TournamentState) -> FormatPlugin | None:
    return plugin_for(state.format.id if state.format else None)


def _fields(body_type: type[Body]) -> tuple[str, ...]:
    return tuple(getattr(body_type, "__struct_fields__", ()))


def signing_table(plugin: FormatPlugin | None) -> list[tuple[str, Role, Needs]]:
    """Every (kind, role, needs) the audit admits at the level of kind × role, for the core
    kinds (``plugin`` None) or for one format's own kinds, sorted."""
    kinds: list[tuple[str, tuple[str, ...], bool]]   # (kind, body fields, subject credential)
    if plugin is None:
        by_kind = {b.KIND.value: b for b in _CORE_BODIES}
        kinds = [(k, _fields(by_kind[k]) if k in by_kind else (),
                  by_kind.get(k) in CREDENTIAL_KINDS) for k in PERMITTED if k != CHECKPOINT]
        derived: frozenset[str] = frozenset()
    else:
        kinds = [(b.KIND.value, _fields(b), False) for b in plugin.bodies
                 if b.KIND.value not in PERMITTED]
        derived = plugin.rules.derived_kinds
    rows: set[tuple[str, Role, Needs]] = set()
    for kind, fields, subject in kinds:
        roles = roles_for_kind(plugin, kind)
        rows.update((kind, r, Needs.ALWAYS) for r in roles)
        if Role.STATION in roles:
            continue
        if kind in derived:
            rows.add((kind, Role.STATION, Needs.ALWAYS))
        elif "reports" in fields:
            rows.add((kind, Role.STATION, Needs.CITES_REPORTS))
        elif "credential" in fields and not subject:
            rows.add((kind, Role.STATION, Needs.OWN_ACT))
    return sorted(rows, key=lambda r: (r[0], r[1].value))


def role_problem(state: TournamentState, ev: SignedEvent) -> str | None:
    """Why the stored leaf ``ev`` is one its signer's role may not sign (the audit's
    ``key_revoked`` / ``role_not_permitted``), judged on ``state`` (the log folded to it or
    past it); None when the role table allows it.  Genesis is judged by its own rule."""
    if ev.kind == Kind.TOURNAMENT_CREATED.value:
        return None
    off = state.officials.get(ev.actor)
    if off is None:
        return f"event seq {ev.seq} is signed by key {ev.actor}, which is no official"
    if off.added_seq >= ev.seq:
        return f"event seq {ev.seq} is signed by key {ev.actor} before the log added it"
    if off.revoked_seq is not None and off.revoked_seq < ev.seq:
        return (f"event seq {ev.seq} is signed by key {ev.actor} ({off.name}), revoked at "
                f"seq {off.revoked_seq}")
    plugin = plugin_of(state)
    if roles_for_kind(plugin, ev.kind).intersection(off.roles):
        return None
    if Role.STATION in off.roles and station_signs(plugin, ev.body):
        return None
    have = ", ".join(r.value for r in off.roles)
    return (f"event seq {ev.seq} ({ev.kind}) is signed by key {ev.actor} ({off.name}, "
            f"{have}), a role that may not sign it")
