"""The Wheel of Time plug-ins ``wot-classic`` (003, WOT_OLD) and ``wot-2001`` (004,
WOT_2001) (DESIGN.md §10): Games in Cycles on the WoT state and rulebook, with the shared
match layer's wire kinds for pairings and results.

Owns: ``WotFormat`` (the verbs: pair, record, correct, plus the Judge's ``override_tbp``
and ``declare_forfeit``) and one ``ParamSpec`` per revision built from ``params.PARAMS``.

May import: ``ledger.plugin``, ``ledger.params``, ``ledger.errors``, ``ledger.events``,
``ledger.formats.match.*``, ``ledger.formats.wot.*``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, cast

from ledger.errors import RuleError
from ledger.events import FormatSpec, SignedEvent
from ledger.formats.wot import apply as _apply  # noqa: F401  (fills WOT_BOOK)
from ledger.formats.wot import checks as _checks  # noqa: F401  (fills WOT_BOOK)
from ledger.formats.wot import commands
from ledger.formats.wot.book import WOT_BOOK
from ledger.formats.wot.events import WOT_BODIES
from ledger.formats.wot.model import Revision
from ledger.formats.wot.params import PARAMS, IntRange, check_params
from ledger.formats.wot.state import WotState
from ledger.params import Allowed, ParamSpec
from ledger.plugin import FormatPlugin, Progress, RoundProgress

if TYPE_CHECKING:
    from ledger.aggregate import Tournament
    from ledger.keys import Signer
    from ledger.standings_view import StandingsView
    from ledger.state import TournamentState

#: the largest number of Cycles a genesis may announce (the rules set no upper bound)
MAX_CYCLES = 64


def param_spec(revision: Revision) -> ParamSpec:
    choices: dict[str, Allowed] = {}
    for name, (_, allowed) in PARAMS[revision].items():
        if isinstance(allowed, IntRange):
            choices[name] = (allowed.low, MAX_CYCLES if allowed.high is None else allowed.high)
        else:
            choices[name] = cast(Allowed, allowed)    # str choices, or (False, True)
    return ParamSpec(defaults={k: d for k, (d, _) in PARAMS[revision].items()},
                     choices=choices, default_cut=0)


class WotFormat(FormatPlugin):
    state_type = WotState
    bodies = WOT_BODIES
    book = WOT_BOOK
    revision: ClassVar[Revision]

    def check_spec(self, spec: FormatSpec) -> None:
        super().check_spec(spec)
        if spec.cut:
            raise RuleError("RULES-8", f"{spec.id} has no top cut: the final ranking decides "
                            "(WOTOLD-RANK-1)", hint="leave --cut out")
        check_params(self.revision, spec.params)

    def pair_round(self, t: Tournament, signer: Signer, time: str, *,
                   material: str | None = None, source: str | None = None) -> list[SignedEvent]:
        return commands.pair_round(t, signer, time, material=material, source=source)

    def record_result(self, t: Tournament, signer: Signer, time: str,
                      **kw: Any) -> list[SignedEvent]:
        return commands.record_result(t, signer, time, **kw)

    def correct_result(self, t: Tournament, signer: Signer, time: str,
                       **kw: Any) -> list[SignedEvent]:
        return commands.correct_result(t, signer, time, **kw)

    def describe_result(self, state: TournamentState, result: Any) -> str:
        from ledger.formats.wot.words import result_words

        return result_words(result)

    def progress(self, state: TournamentState) -> Progress:
        """Games played Cycle by Cycle; over when every Game is played (AMB-W19), the
        winner the sole first place of the final ranking (WOTOLD-RANK-1/2)."""
        from ledger.formats.wot import plan

        if state.registration_closed_seq is None:
            return Progress(phase="registration")
        games = plan.ws(state).games
        g = games[-1] if games else None
        current = None if g is None else RoundProgress(
            number=g.number, phase="game", open=not plan.complete(g), tables=len(g.tables),
            missing_results=[t.table for t in g.tables if t.result is None])
        if g is None or not plan.over(state):
            return Progress(phase="swiss", round=current)
        first = [p.number for p in plan.standings(state)[1] if p.place == 1]
        return Progress(phase="finished", round=current,
                        champion=first[0] if len(first) == 1 else None)

    def drop_player(self, t: Tournament, signer: Signer, time: str, number: int,
                    reason: str = "") -> list[SignedEvent]:
        raise RuleError("WOTOLD-FORF-1", "a Wheel of Time event has no drop: the Judge "
                        "removes a player by a Declaration of Forfeiture",
                        hint=f"tourney forfeit {number} --reason TEXT --key JUDGE.pem")

    def override_tbp(self, t: Tournament, signer: Signer, time: str,
                     **kw: Any) -> list[SignedEvent]:
        return commands.override_tbp(t, signer, time, **kw)

    def declare_forfeit(self, t: Tournament, signer: Signer, time: str,
                        **kw: Any) -> list[SignedEvent]:
        return commands.declare_forfeit(t, signer, time, **kw)

    def round_docs(self, state: TournamentState) -> list[dict[str, Any]]:
        """Every Game as a round document for the published site (defect 7)."""
        from ledger.formats.wot.game_docs import game_docs

        return game_docs(state)

    def standings(self, state: TournamentState) -> StandingsView:
        from ledger.formats.wot.standings_view import view

        return view(state)


class WotClassic(WotFormat):
    id = "wot-classic"
    title = "Wheel of Time CCG, older tournament rules (RULES.md §6, WOT_OLD)"
    params = param_spec(Revision.WOT_OLD)
    revision = Revision.WOT_OLD


class Wot2001(WotFormat):
    id = "wot-2001"
    title = "Wheel of Time CCG, tournament rules of July 2001 (RULES.md §7, WOT_2001)"
    params = param_spec(Revision.WOT_2001)
    revision = Revision.WOT_2001


WOT_CLASSIC = WotClassic()
WOT_2001 = Wot2001()
