"""The tournament state's data (docs/DESIGN.md §5): what a fold of the log holds.

Owns: ``TournamentState`` (a msgspec Struct, so snapshots encode it directly) and its
parts ``Official``, ``Player``, ``Seed``, ``Commitment``.  Data only, no transition: the
fold is ``ledger.core.state``.  It sits below the format socket, so the format facets
(``ledger.core.rules_facet`` and the others) name the state they read without a circle.

May import: ``msgspec``, ``ledger.errors``, ``ledger.wire.events``, ``ledger.core.pages_state``,
``ledger.core.reports_state``, ``ledger.core.calls_state``.
"""

from __future__ import annotations

from typing import Any, TypeVar

import msgspec

from ledger.core.calls_state import CallsState
from ledger.core.pages_state import PagesState
from ledger.core.reports_state import ReportsState
from ledger.errors import RuleError
from ledger.wire.events import DEFAULT_POLICY, ZERO_HASH, FormatSpec, LedgerPolicy, Role

S = TypeVar("S")

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
    fmt: Any = None     # read it typed with ``format_state``
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
    #: issue 30: judge calls, open and closed, with the log's time of each step
    calls: CallsState = msgspec.field(default_factory=CallsState)

    def format_state(self, kind: type[S]) -> S:
        """The format's own state as the type its plug-in declares (``state_type``):
        the one typed way to read ``fmt`` (RULES-8 when the event runs another kind)."""
        fmt = self.fmt
        if not isinstance(fmt, kind):
            raise RuleError("RULES-8", f"this event's format keeps no {kind.__name__}")
        return fmt

    def active_roles(self, key_id: str) -> list[Role]:
        off = self.officials.get(key_id)
        if off is None or off.revoked_seq is not None:
            return []
        return off.roles
