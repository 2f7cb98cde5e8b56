"""Genesis parameters of the Bushiroad formats (RULES.md §8, docs/DESIGN.md §10).

Owns: one ``ParamSpec`` per format id, built from the parameters they share, and typed
readers of a tournament's recorded values.  Every value is recorded at genesis, defaults
included, so a ledger keeps its meaning under a later release (docs/DESIGN.md §10 revisions).

May import: ``ledger.core.params``, ``ledger.core.state``, ``ledger.formats.bushiroad.*``.
"""

from __future__ import annotations

from ledger.core.params import Allowed, Param, ParamSpec
from ledger.core.state import TournamentState
from ledger.formats.bushiroad.mw import MwDenominator
from ledger.formats.bushiroad.results import MatchFormat, SeEqualGames
from ledger.formats.bushiroad.tiebreak import H2HGroup, H2HPosition, Territory, TiebreakParams
from ledger.formats.officiating.params import OFFICIATING_CHOICES

RULES = "BR_FR_1_2_0"
#: the same floor rules, a loss by penalty recorded as one citing the penalty
#: (``penalty_results=cited``, issue 17, ADR 0015); the default for new events
RULES_R2 = "BR_FR_1_2_0_R2"
#: what each revision's genesis records beyond the parameter tables below
REVISION_PARAMS: dict[str, dict[str, Param]] = {RULES: {},
                                                RULES_R2: {"penalty_results": "cited"}}

_COMMON: dict[str, tuple[Param, Allowed]] = {
    "rules": (RULES_R2, (RULES, RULES_R2)),
    "game": ("WS", ("VG", "WS", "BF")),                               # 002 FR Range
    "tournament_level": (1, (1, 3)),                                  # BR-LEVEL-1
    "match_format": ("BO1", ("BO1", "BO3")),                          # BR-MATCH-1
    "match_minutes": (30, (1, 240)),                                  # BR-TIME-1/2
    "annex_a": (False, (False, True)),                                # BR-ANNEXA-0
    "nicknames_allowed": (False, (False, True)),                      # BR-NICK-1
}
_STANDINGS: dict[str, tuple[Param, Allowed]] = {
    "points_per_win": (1, (1, 3)),                                    # BR-SWISS-4
    "territory": ("outside_japan", ("outside_japan", "japan")),       # BR-SWISS-TB-2
    "bye_in_own_mw": (True, (False, True)),                           # AMB-B1
    "swiss_mw_denominator": ("total_rounds", ("total_rounds", "rounds_played")),  # AMB-B2
    "h2h_group": ("dominance", ("dominance", "pairs_only")),          # AMB-B4
    "h2h_position": ("after_oomw", ("after_oomw", "after_omw")),      # AMB-B4
    "final_tiebreak": ("random", ("random",)),                        # BR-SWISS-TB-7, AMB-B5
}
_CUT: dict[str, tuple[Param, Allowed]] = {
    "finalist_method": ("ranking", ("ranking", "nation_clan", "title")),  # BR-FIN-1/5/6/7
    "step_overflow_choice": ("ranking", ("ranking", "random")),       # AMB-B15
    "fin_draw_handling": ("literal", ("literal", "unbeaten_as_full_win")),  # AMB-B34
    "fin_count_excluded_full_wins": (False, (False, True)),           # AMB-B35
    "br_se_equal_games_at_time": ("both_lose", ("both_lose", "extra_game")),  # AMB-B13
}


#: team fights (issue 20, RULES.md §3.16, §8): recorded only when set, so an individual
#: event's genesis keeps its bytes; ``genesis_params`` adds the other two with team_mode
TEAM_CHOICES: dict[str, Allowed] = {
    "team_mode": ("none", "tag", "trio"),                             # BR-TEAM-1
    "team_communication": ("not_allowed", "allowed"),                 # BR-TEAM-5
    "team_result_rule": ("more_wins", "more_wins_then_last_seat"),  # AMB-B30
}
TEAM_DEFAULTS: dict[str, Param] = {"team_communication": "not_allowed",
                                   "team_result_rule": "more_wins"}


def _spec(*parts: dict[str, tuple[Param, Allowed]], default_cut: int = 0) -> ParamSpec:
    merged = {k: v for part in parts for k, v in part.items()}
    extra = {k: a for k, a in {**OFFICIATING_CHOICES, **TEAM_CHOICES}.items()
             if k not in merged}
    return ParamSpec(defaults={k: d for k, (d, _) in merged.items()},
                     choices={**{k: a for k, (_, a) in merged.items()}, **extra},
                     default_cut=default_cut, optional=frozenset(extra))


SWISS = _spec(_COMMON, _STANDINGS, _CUT, {
    "swiss_rounds": (0, (0, 64)),       # 0 = recommended for the field (BR-SWISS-ROUNDS-2/3)
    "stop_rule": ("fixed", ("fixed", "one_undefeated", "undefeated_below_cut")),  # ROUNDS-4
})
DOUBLE_ELIM = _spec(_COMMON, _STANDINGS, _CUT, {
    "de_rank_losses_secondary": (False, (False, True)),               # AMB-B10
    "de_dq_as_drop": (True, (False, True)),                           # AMB-B24
})
SINGLE_ELIM = _spec(_COMMON, {
    "br_se_equal_games_at_time": ("both_lose", ("both_lose", "extra_game")),  # AMB-B13
    "seeding": ("draw", ("draw",)),                                   # BR-SE: a recorded draw
})
ROUND_ROBIN = _spec(_COMMON, _STANDINGS)


def param(state: TournamentState, name: str) -> Param:
    fmt = state.format
    if fmt is None or name not in fmt.params:
        raise KeyError(name)
    return fmt.params[name]


def text(state: TournamentState, name: str) -> str:
    return str(param(state, name))


def number(state: TournamentState, name: str) -> int:
    v = param(state, name)
    return v if isinstance(v, int) else int(str(v))


def flag(state: TournamentState, name: str) -> bool:
    return param(state, name) is True


_MATCH_FORMATS = {m.value: m for m in MatchFormat}
_SE_EQUAL = {m.value: m for m in SeEqualGames}


def match_format(state: TournamentState) -> MatchFormat:
    v = text(state, "match_format")
    return _MATCH_FORMATS.get(v) or MatchFormat(v)


def se_equal_games(state: TournamentState) -> SeEqualGames:
    fmt = state.format
    v = str(fmt.params.get("br_se_equal_games_at_time", "both_lose") if fmt else "both_lose")
    return _SE_EQUAL.get(v) or SeEqualGames(v)


def tiebreak_params(state: TournamentState) -> TiebreakParams:
    p = state.format.params if state.format else {}

    def get(name: str, default: Param) -> Param:
        return p.get(name, default)

    return TiebreakParams(
        points_per_win=int(get("points_per_win", 1)),
        territory=Territory(str(get("territory", "outside_japan"))),
        bye_in_own_mw=get("bye_in_own_mw", True) is True,
        swiss_mw_denominator=MwDenominator(str(get("swiss_mw_denominator", "total_rounds"))),
        h2h_group=H2HGroup(str(get("h2h_group", "dominance"))),
        h2h_position=H2HPosition(str(get("h2h_position", "after_oomw"))),
        de_rank_losses_secondary=get("de_rank_losses_secondary", False) is True,
        de_dq_as_drop=get("de_dq_as_drop", True) is True)
