"""The ``commands`` facet of a format and its optional facets (docs/DESIGN.md §8, §10).

Owns: ``Commands`` — the verbs every format answers (each decides events and records
them on the aggregate, whose ``record`` runs the rules before signing; a verb the
format does not run refuses, RULES-8), and the optional facets a format declares only
when it has them, probed by presence (``plugin.teams is None``): ``Teams`` (team events,
issue 20), ``SlowPlay`` (HotC R2 slow-play calls), ``JudgePowers`` (Wheel of Time's
Judge: forfeiture and TBP overrides), ``RoundDocs`` (rounds that are not the match
layer's tables, for the published site) and ``Simulation`` (``tourney simulate``).

``Desk`` names the aggregate a verb decides on (``ledger.core.aggregate.Tournament``) and
``Session`` the writer session simulate drives (``ledger.storage.write_session``): the
facets sit below both (the aggregate calls them), so they are named by these aliases
and each format's facets narrow them to the real types.

May import: ``ledger.core.facet_base``, ``ledger.core.entry_facet`` (``ledger.wire.events``,
``ledger.wire.keys``, ``ledger.core.state_model`` for type hints only).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ledger.core.facet_base import Desk, Facet, Session

if TYPE_CHECKING:
    from collections.abc import Callable

    from ledger.core.entry_facet import ResultFields
    from ledger.core.params import Param
    from ledger.core.state_model import TournamentState
    from ledger.wire.events import SignedEvent
    from ledger.wire.keys import Signer



class Commands(Facet):
    """The verbs of a format; each default refuses (the format does not run it)."""

    def pair_round(self, t: Desk, signer: Signer, time: str, *,
                   material: str | None = None, source: str | None = None
                   ) -> list[SignedEvent]:
        raise self.no_verb("round pair")

    def record_result(self, t: Desk, signer: Signer, time: str,
                      kw: ResultFields) -> list[SignedEvent]:
        raise self.no_verb("result record")

    def correct_result(self, t: Desk, signer: Signer, time: str,
                       kw: ResultFields) -> list[SignedEvent]:
        raise self.no_verb("result correct")

    def drop_player(self, t: Desk, signer: Signer, time: str, number: int,
                    reason: str = "") -> list[SignedEvent]:
        raise self.no_verb("drop")

    def select_cut(self, t: Desk, signer: Signer, time: str, *,
                   material: str | None = None, source: str | None = None,
                   no_champion: str | None = None) -> list[SignedEvent]:
        raise self.no_verb("cut")

    def seed_bracket(self, t: Desk, signer: Signer, time: str, *,
                     material: str | None = None,
                     source: str | None = None) -> list[SignedEvent]:
        raise self.no_verb("bracket")

    def check_registration_close(self, state: TournamentState) -> None:
        """Refuse (``RuleError``) closing registration on a field this format cannot run
        as configured, before anything is written: a command-side check (issue 17,
        defect 9), not an audit rule, so ledgers already closed audit as before."""

    def after_disqualification(self, t: Desk, signer: Signer, time: str, number: int,
                               member: bool = False) -> list[SignedEvent]:
        """What a disqualification of ``number`` entails beyond its own events (a team
        event: a member's disqualification drops the team, BR-DROP-4; ``member``: the
        representative's own, not the team's; issue 20)."""
        return []


class Teams(Protocol):
    """Team events (issue 20, BR-TEAM-1…7): teams and a team table's seats."""

    def register_team(self, t: Desk, signer: Signer, time: str, *, members: list[int],
                      name: str | None = None,
                      representative: int | None = None) -> list[SignedEvent]: ...

    def register_late_team(self, t: Desk, signer: Signer, time: str, *, names: list[str],
                           byes: int, losses: int, reason: str,
                           numbers: list[int] | None = None, name: str | None = None,
                           representative: int | None = None) -> list[SignedEvent]: ...

    def amend_seat(self, t: Desk, signer: Signer, time: str,
                   kw: ResultFields) -> list[SignedEvent]: ...


class SlowPlay(Protocol):
    """Slow-play calls made during a match and ruled on (HotC R2, HOTC-SLOW-1)."""

    def call_slow_play(self, t: Desk, signer: Signer, time: str, *, round_no: int,
                       table: int, caller: int, called: int) -> SignedEvent: ...

    def rule_slow_play(self, t: Desk, signer: Signer, time: str, *, call_seq: int,
                       upheld: bool, minutes_added: int = 0) -> SignedEvent: ...


class JudgePowers(Protocol):
    """A Judge's own decisions beyond results (Wheel of Time: WOTOLD-FORF-1/2)."""

    def declare_forfeit(self, t: Desk, signer: Signer, time: str, *, number: int,
                        reason: str) -> list[SignedEvent]: ...

    def override_tbp(self, t: Desk, signer: Signer, time: str, *, round_no: int,
                     number: int, new: str, method: str,
                     reason: str) -> list[SignedEvent]: ...

    def forfeit_todo(self, state: TournamentState,
                     number: int) -> tuple[dict[str, Any] | None, str]: ...


class RoundDocs(Protocol):
    """Rounds that are not the match layer's tables, as the published site's documents
    (Wheel of Time Games, defect 7)."""

    def round_docs(self, state: TournamentState) -> list[dict[str, Any]]: ...


@dataclass(frozen=True)
class SimRun:
    """One ``tourney simulate`` run after registration closed: the writer session, the
    demo keys, the recorded simulation seed, the rates, where checkpoints go."""

    session: Session
    ledger: Session
    log: str
    head_judge: Signer
    scorekeeper: Signer
    sim_seed: bytes
    seed_text: str
    timeouts: Fraction
    drops: Fraction
    checkpoints: Path | None
    say: Callable[[str], None]
    #: the top cut the genesis recorded (0: none)
    cut: int

    def material(self, what: str) -> str:
        """The seed material of one simulated draw (``<seed text>/<what>``)."""
        return f"{self.seed_text}/{what}"


@dataclass(frozen=True)
class SimOutcome:
    """What a simulated event ended with (``tourney simulate`` prints it)."""

    events: int
    rounds: int
    cut: list[int]
    champion: int | None


class Simulation(Protocol):
    """How ``tourney simulate`` plays this format's event once registration closed."""

    title: str

    def check_rates(self, timeouts: Fraction, drops: Fraction) -> None: ...

    def team_size(self, params: dict[str, Param] | None) -> int: ...

    def team_steps(self, params: dict[str, Param] | None, players: int,
                   scorekeeper: Signer) -> list[Callable[[Desk, str], object]]: ...

    def play(self, run: SimRun) -> SimOutcome: ...
