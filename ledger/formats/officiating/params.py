"""Genesis parameters of the officiating layer (RULES.md §8), offered by every format that
merges it and recorded only when the organizer sets them (so older genesis bytes stay the
same; absent = the default below).

Owns: ``OFFICIATING_CHOICES`` and typed readers with their defaults.

May import: ``ledger.core.params``, ``ledger.core.state``.
"""

from __future__ import annotations

from ledger.core.params import Allowed
from ledger.core.state import TournamentState

OFFICIATING_CHOICES: dict[str, Allowed] = {
    "tournament_level": (1, 3),                 # BR-LEVEL-1 (default 1)
    "challenge_limit": (0, 99),                 # BR-APPEAL-3, AMB-B26 (absent: unlimited)
    "judge_extension_cap_minutes": (0, 60),     # BR-EXT-1/2, EOM-EXT-1, AMB-B27 (absent: none)
    "extra_turns": (0, 5),                      # BR-XTURN-1 (default 0)
    "end_of_match": ("none", "eom_001"),        # 001 procedures (§5; default none)
    "penalties_on_score_sheets": (False, True),  # BR-PEN-3.18.3, AMB-B21 (default false)
    # issue 17 (ADR 0015): a loss by penalty is recorded as one (outcome ``penalty``, the
    # penalty cited); absent (rule revisions before HOTC_2013_R3 / BR_FR_1_2_0_R2): as a
    # concession with a note
    "penalty_results": ("concession", "cited"),
}


def _int(state: TournamentState, name: str) -> int | None:
    v = state.format.params.get(name) if state.format else None
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def challenge_limit(state: TournamentState) -> int | None:
    return _int(state, "challenge_limit")


def extension_cap(state: TournamentState) -> int | None:
    """Minutes per match (cumulative, AMB-E6); 5 under 001 when not set (EOM-EXT-1)."""
    cap = _int(state, "judge_extension_cap_minutes")
    if cap is None and end_of_match(state) == "eom_001":
        return 5
    return cap


def extra_turns(state: TournamentState) -> int:
    return _int(state, "extra_turns") or 0


def end_of_match(state: TournamentState) -> str:
    v = state.format.params.get("end_of_match") if state.format else None
    return str(v) if v else "none"


def penalties_on_score_sheets(state: TournamentState) -> bool:
    """The event records penalties on the score sheets (PG §3.18.3: then a re-issued
    sheet's Warning is raised to Loss of Match)."""
    v = state.format.params.get("penalties_on_score_sheets") if state.format else None
    return v is True


def cites_penalties(state: TournamentState) -> bool:
    """Whether a loss by penalty is recorded as one, citing the penalty (issue 17)."""
    v = state.format.params.get("penalty_results") if state.format else None
    return v == "cited"
