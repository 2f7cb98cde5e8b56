"""The Bushiroad plug-ins: ``bushiroad-swiss``, ``bushiroad-de``, ``single-elim`` and
``round-robin`` (DESIGN.md §10), each a composition of the shared match layer, the
Bushiroad rulebook and a qualifying stage (or none), with an optional top cut selected by
ranking (BR-FIN-5) and played as a single-elimination bracket (BR-SE).

Owns: ``BushiroadFormat`` (the verbs, shared) and its four subclasses (id, title,
parameters, the stage's elimination threshold).

May import: ``ledger.plugin``, ``ledger.params``, ``ledger.errors``, ``ledger.events``,
``ledger.formats.match.*``, ``ledger.formats.bushiroad.*``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ledger.errors import RuleError
from ledger.events import FormatSpec, SignedEvent
from ledger.formats.bushiroad import apply as _apply  # noqa: F401  (fills BR_BOOK)
from ledger.formats.bushiroad import checks as _checks  # noqa: F401  (fills BR_BOOK)
from ledger.formats.bushiroad import commands, params
from ledger.formats.bushiroad.book import BR_BOOK
from ledger.formats.bushiroad.events import BR_BODIES
from ledger.formats.match import apply as _match_apply  # noqa: F401  (fills MATCH_BOOK)
from ledger.formats.match.book import MATCH_BOOK
from ledger.formats.match.model import MatchState
from ledger.formats.match.model import has_left as match_has_left
from ledger.formats.match.plan import match_progress
from ledger.formats.officiating.book import with_officiating
from ledger.formats.officiating.events import OFFICIATING_BODIES
from ledger.plugin import FormatPlugin, Progress

if TYPE_CHECKING:
    from ledger.aggregate import Tournament
    from ledger.keys import Signer
    from ledger.plugin import DecidedResult
    from ledger.standings_view import StandingsView
    from ledger.state import TournamentState


class BushiroadFormat(FormatPlugin):
    state_type = MatchState
    bodies = BR_BODIES + OFFICIATING_BODIES
    book = with_officiating(BR_BOOK, MATCH_BOOK)
    game_scores = True
    #: losses that eliminate in the qualifying stage (BR-DE-1: 2; Swiss and RR: never)
    eliminate_at: ClassVar[int] = 0
    #: the largest top cut (0 = none allowed)
    max_cut: ClassVar[int] = 256

    def has_left(self, state: TournamentState, number: int) -> bool:
        return match_has_left(state.fmt, number)

    def new_state(self) -> MatchState:
        return MatchState(eliminate_at=self.eliminate_at)

    def check_spec(self, spec: FormatSpec) -> None:
        super().check_spec(spec)
        if not 0 <= spec.cut <= self.max_cut:
            raise RuleError("BR-FIN-1", f"a top cut of {spec.cut} is not possible in {spec.id}",
                            hint=f"use --cut 0..{self.max_cut}" if self.max_cut
                            else "this format has no top cut: leave --cut out")
        if spec.params.get("stop_rule") == "undefeated_below_cut" and not spec.cut:
            raise RuleError("BR-SWISS-ROUNDS-4", "stop_rule=undefeated_below_cut needs a top "
                            "cut", hint="pass --cut N, or another stop_rule")
        if spec.params.get("stop_rule", "fixed") != "fixed" and spec.params.get("swiss_rounds"):
            raise RuleError("BR-SWISS-ROUNDS-4", "announce either a fixed number of rounds "
                            "or a stop rule, not both",
                            hint="drop --param swiss_rounds, or use stop_rule=fixed")

    def pair_round(self, t: Tournament, signer: Signer, time: str, *,
                   material: str | None = None, source: str | None = None) -> list[SignedEvent]:
        return commands.pair_round(t, signer, time, material=material, source=source)

    def record_result(self, t: Tournament, signer: Signer, time: str,
                      **kw: Any) -> list[SignedEvent]:
        return commands.record_result(t, signer, time, **kw)

    def correct_result(self, t: Tournament, signer: Signer, time: str,
                       **kw: Any) -> list[SignedEvent]:
        return commands.correct_result(t, signer, time, **kw)

    def progress(self, state: TournamentState) -> Progress:
        return match_progress(state)

    def decided_result(self, t: Tournament, **kw: Any) -> DecidedResult:
        return commands.decided_result(t, **kw)

    def drop_player(self, t: Tournament, signer: Signer, time: str, number: int,
                    reason: str = "") -> list[SignedEvent]:
        return commands.drop_player(t, signer, time, number, reason)

    def select_cut(self, t: Tournament, signer: Signer, time: str, *,
                   material: str | None = None, source: str | None = None) -> list[SignedEvent]:
        return commands.select_cut(t, signer, time, material=material, source=source)

    def seed_bracket(self, t: Tournament, signer: Signer, time: str, *,
                     material: str | None = None,
                     source: str | None = None) -> list[SignedEvent]:
        return commands.seed_bracket(t, signer, time, material=material, source=source)

    def standings(self, state: TournamentState) -> StandingsView:
        from ledger.formats.bushiroad.standings_view import view

        return view(state)


class BushiroadSwiss(BushiroadFormat):
    id = "bushiroad-swiss"
    title = "Bushiroad Swiss draw with an optional top cut by ranking (RULES.md §3.4–3.5)"
    params = params.SWISS


class BushiroadDoubleElim(BushiroadFormat):
    id = "bushiroad-de"
    title = "Bushiroad double elimination with an optional top cut (RULES.md §3.6–3.7)"
    params = params.DOUBLE_ELIM
    eliminate_at = 2


class SingleElim(BushiroadFormat):
    id = "single-elim"
    title = "Single elimination seeded by a recorded draw (RULES.md §3.8)"
    params = params.SINGLE_ELIM
    max_cut = 0


class RoundRobin(BushiroadFormat):
    id = "round-robin"
    title = "Round robin for small fields, Swiss standings (BR-SWISS-ROUNDS-1)"
    params = params.ROUND_ROBIN
    max_cut = 0


SWISS = BushiroadSwiss()
DOUBLE_ELIM = BushiroadDoubleElim()
SINGLE_ELIM = SingleElim()
ROUND_ROBIN = RoundRobin()
