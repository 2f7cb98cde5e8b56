"""The Wheel of Time plug-ins ``wot-classic`` (003, WOT_OLD) and ``wot-2001`` (004,
WOT_2001) (docs/DESIGN.md §10): Games in Cycles on the WoT state and rulebook, with the shared
match layer's wire kinds for pairings and results.

Owns: ``WotFormat`` (the verbs: pair, record, correct, plus the Judge's ``override_tbp``
and ``declare_forfeit``) and one ``ParamSpec`` per revision built from ``params.PARAMS``.

May import: ``ledger.core.plugin``, ``ledger.core.params``, ``ledger.errors``,
``ledger.wire.events``,
``ledger.formats.match.*``, ``ledger.formats.wot.*``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, cast

from ledger.core.params import Allowed, ParamSpec
from ledger.core.plugin import FormatPlugin, Progress, RoundProgress
from ledger.errors import RuleError
from ledger.formats.match.events import RoundPaired
from ledger.formats.wot import apply as _apply  # noqa: F401  (fills WOT_BOOK)
from ledger.formats.wot import checks as _checks  # noqa: F401  (fills WOT_BOOK)
from ledger.formats.wot import commands
from ledger.formats.wot.book import WOT_BOOK
from ledger.formats.wot.events import WOT_BODIES
from ledger.formats.wot.model import Revision
from ledger.formats.wot.params import PARAMS, IntRange, check_params
from ledger.formats.wot.state import WotState
from ledger.wire.events import Body, FormatSpec, SignedEvent

if TYPE_CHECKING:
    from collections.abc import Mapping

    from ledger.core.aggregate import Tournament
    from ledger.core.state import TournamentState
    from ledger.core.vocabulary import Given, ResultEntry, Vocabulary
    from ledger.standings_view import StandingsView
    from ledger.wire.keys import Signer

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

    def removed(self, state: TournamentState) -> dict[int, str]:
        """A Judge's Declaration of Forfeiture removes a player (WOTOLD-FORF-1)."""
        from ledger.formats.wot import plan

        return {n: "forfeited" for n in plan.ws(state).removed}

    def paired_round(self, state: TournamentState, body: Body) -> int | None:
        """A Game is paired by its ``round_paired`` (ADR 0023); WoT has no override or
        void."""
        return body.round if isinstance(body, RoundPaired) else None

    def pair_round(self, t: Tournament, signer: Signer, time: str, *,
                   material: str | None = None, source: str | None = None) -> list[SignedEvent]:
        return commands.pair_round(t, signer, time, material=material, source=source)

    def record_result(self, t: Tournament, signer: Signer, time: str,
                      **kw: Any) -> list[SignedEvent]:
        return commands.record_result(t, signer, time, **kw)

    def correct_result(self, t: Tournament, signer: Signer, time: str,
                       **kw: Any) -> list[SignedEvent]:
        return commands.correct_result(t, signer, time, **kw)

    def result_vocabulary(self) -> Vocabulary:
        from ledger.formats.wot.vocabulary import VOCABULARIES

        return VOCABULARIES[self.revision]

    def table_at(self, state: TournamentState, round_no: int,
                 table: int) -> tuple[list[int], Any] | None:
        from ledger.formats.wot import plan

        g = plan.find_game(state, round_no)
        t = None if g is None else plan.find_table(g, table)
        return None if t is None else ([t.hero, t.villain], t.result)

    def result_kwargs(self, state: TournamentState, entry: ResultEntry, given: Given, *,
                      round_no: int, table: int) -> dict[str, Any]:
        from ledger.formats.wot import vocabulary

        return vocabulary.result_kwargs(entry, given, round_no=round_no, table=table)

    def slip_given(self, state: TournamentState, row: Mapping[str, str]) -> tuple[Given, str]:
        return self.result_vocabulary().from_slip(row), ""

    def round_display(self, state: TournamentState,
                      round_no: int | None) -> tuple[list[str], dict[str, Any]] | None:
        from ledger.errors import UsageError
        from ledger.formats.wot import display

        games = state.fmt.games
        log = state.log
        if not games:
            raise UsageError(f"no Game of {log} has been paired yet",
                             hint="the head judge pairs one with 'tourney round pair'")
        n = games[-1].number if round_no is None else round_no
        if not 1 <= n <= len(games):
            raise UsageError(f"{log} has no Game {n} (Games 1..{len(games)})",
                             hint="run 'tourney round show' for the latest Game")
        return display.game_lines(state, games[n - 1]), display.game_json(state, games[n - 1])

    def forfeit_todo(self, state: TournamentState,
                     number: int) -> tuple[dict[str, Any] | None, str]:
        from ledger.formats.wot import display

        return display.forfeit_todo(state, number)

    def round_verdict(self, state: TournamentState, round_no: int) -> str | None:
        from ledger.formats.wot import display

        return display.verdict(state, round_no)

    def draws_nothing(self, state: TournamentState) -> bool:
        from ledger.formats.wot import display

        return display.seed_unused(state)

    def same_result(self, t: Tournament, result: Any, kw: dict[str, Any]) -> bool:
        """A WoT entry is the recorded result when it says the same code, winner, amounts
        and phase (the phase the code fixes, or the one given for Q3/Q5)."""
        from ledger.errors import TourneyError
        from ledger.formats.wot import plan

        code = str(kw.get("wot_outcome"))
        try:
            lb = plan.default_last_battle(t.state, code, kw.get("last_battle"))
        except TourneyError:
            return False
        said = (code, kw.get("winner"), dict(kw.get("support") or {}),
                dict(kw.get("pattern") or {}), kw.get("neutral"), kw.get("conceded_by"), lb)
        return said == (result.outcome, result.winner, dict(result.support),
                         dict(result.pattern), result.neutral, result.conceded_by,
                         result.last_battle)

    def describe_body(self, body: Mapping[str, Any]) -> str:
        from ledger.formats.wot.words import body_words

        return body_words(body)

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
    player_name = "Wheel of Time CCG, older tournament rules"
    params = param_spec(Revision.WOT_OLD)
    revision = Revision.WOT_OLD


class Wot2001(WotFormat):
    id = "wot-2001"
    title = "Wheel of Time CCG, tournament rules of July 2001 (RULES.md §7, WOT_2001)"
    player_name = "Wheel of Time CCG, 2001 tournament rules"
    params = param_spec(Revision.WOT_2001)
    revision = Revision.WOT_2001


WOT_CLASSIC = WotClassic()
WOT_2001 = Wot2001()
