"""The ``rules`` facet of a format (docs/DESIGN.md §10): what the core asks of a format.

Owns: ``Rules`` — the one declaration of the core's protocol, pure: the format's state
(``new_state`` / ``decode_state``), its genesis (``genesis_params`` / ``check_spec``), the
fold (``evolve``), the checks (``check``), the permissions (``roles_for``,
``derived_kinds``), the roster (``has_left`` / ``removed``) and the pairing gate
(``paired_round`` / ``unpaired_round``, ADR 0023) and what the audit lists for review
(``notice``).  The state fold, the rules, the roster, the signing table and the audit
call nothing else of a format.  A format
subclasses it (``ledger.formats.<name>``) and sets ``book`` (and ``transitions`` when the
fold must not import the checks, issue 22).

May import: ``msgspec``, ``ledger.core.facet_base``, ``ledger.core.first_use``,
``ledger.core.params``, ``ledger.wire.events`` (``ledger.core.plugin`` for the ``Rulebook`` type and
``ledger.core.state_model`` for the state type, both for type hints only).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import msgspec

from ledger.core.facet_base import Facet
from ledger.core.first_use import on_first_use

if TYPE_CHECKING:
    from ledger.core.params import Param, ParamSpec
    from ledger.core.plugin import Rulebook
    from ledger.core.state_model import TournamentState
    from ledger.wire.events import Body, FormatSpec, Role, SignedEvent


class Rules(Facet):
    """A format's rules: the state it folds and every pure decision the core and the
    audit make with it.  ``params`` and ``state_type`` are the format's (its identity
    reads them from here: one place)."""

    book: ClassVar[Rulebook]
    #: the state transitions of ``book`` alone, which is all a fold needs: a format may
    #: fill it without importing its checks (``ledger.core.first_use``; issue 22)
    transitions: ClassVar[Rulebook] = on_first_use(lambda cls: cls.book)
    #: kinds whose whole body the format's rules determine from the state (the command
    #: side and the audit derive it and refuse any other), so that signing one adds no
    #: authority: a station that records an agreed result may sign them when that result
    #: completes a round (ADR 0027, REPORT-9)
    derived_kinds: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, params: ParamSpec, state_type: type[msgspec.Struct]) -> None:
        self.params = params
        self.state_type = state_type

    # -- the state and the genesis ---------------------------------------------------------
    def new_state(self) -> msgspec.Struct:
        return self.state_type()

    def decode_state(self, raw: bytes) -> msgspec.Struct:
        return msgspec.msgpack.decode(raw, type=self.state_type)

    def genesis_params(self, given: dict[str, Param]) -> dict[str, Param]:
        """Every parameter value the genesis records: the defaults under the rule revision
        ``given`` names (or the newest), overridden by ``given``."""
        return {**self.params.defaults, **given}

    def check_spec(self, spec: FormatSpec) -> None:
        """Genesis: every parameter known and allowed (RULES.md §8); formats add more."""
        self.params.check(spec)

    # -- the fold, the checks, the permissions ---------------------------------------------
    def evolve(self, state: TournamentState, ev: SignedEvent) -> None:
        for fn in self.transitions.appliers.get(type(ev.body), ()):
            fn(state, ev, ev.body)

    def check(self, state: TournamentState, body: Body, actor: str) -> None:
        fn = self.book.checkers.get(type(body))
        if fn is not None:
            fn(state, body, actor)

    def roles_for(self, kind: str) -> frozenset[Role] | None:
        return self.book.permissions.get(kind)

    # -- the roster and the pairing gate ---------------------------------------------------
    def has_left(self, state: TournamentState, number: int) -> bool:
        """Whether a registered player has withdrawn from the event (dropped, disqualified,
        declared forfeit): such a player is outside the active roster that player draws
        are made over (THREATS T25).  Formats with match records override this."""
        return False

    def removed(self, state: TournamentState) -> dict[int, str]:
        """The entrants (players; in a team event, teams) the officials have removed from
        the event, each with the format's word for it (what a player's page and the live
        standings say now, issue 32).  None by default."""
        return {}

    def paired_round(self, state: TournamentState, body: Body) -> int | None:
        """The round (a Game in Wheel of Time) ``body`` pairs or re-pairs — an engine's
        pairing, a head judge's override, a pairing after a void — else None.  Called by
        the core's fold after this format's own transition of every event (so: cheap,
        pure, from the body); the public pages' posting gate is keyed on it (ADR 0023)."""
        return None

    def unpaired_round(self, state: TournamentState, body: Body) -> int | None:
        """The round whose pairing ``body`` takes back (a void before any result), else
        None: that round has no pairing to show or post until it is paired again."""
        return None

    # -- what the audit lists for review -----------------------------------------------------
    def notice(self, state: TournamentState, body: Body,
               checked: bool) -> tuple[str, str] | None:
        """A fact of ``body`` an auditor should see that is no error (its finding code and
        message), from the state before it: a head judge's own pairing, a voided one, a
        Judge's override.  ``checked``: whether ``body`` passed its checks.  None: none."""
        return None
