"""The HotC rule revisions (docs/DESIGN.md §10 "Rule revisions", ADR 0010).

Owns: the revision names, the parameters each revision records at genesis (with their
defaults) and ``revised`` — the one question every HotC decision that changed asks of the
recorded ``rules`` parameter.  A ``HOTC_2013`` ledger is run and audited as it was
written; ``HOTC_2013_R2`` (RULES.md §11 Revisions "§2 HotC") is the default for new ones.

May import: ``ledger.core.state``, ``ledger.core.params``.
"""

from __future__ import annotations

from ledger.core.params import Param
from ledger.core.state import TournamentState

HOTC_2013 = "HOTC_2013"
HOTC_2013_R2 = "HOTC_2013_R2"
#: R2 + a loss by penalty recorded as one, citing the penalty (issue 17, ADR 0015)
HOTC_2013_R3 = "HOTC_2013_R3"
REVISIONS = (HOTC_2013, HOTC_2013_R2, HOTC_2013_R3)
LATEST = HOTC_2013_R3

#: what a HOTC_2013 genesis records (the 70-player sample's bytes depend on it)
DEFAULTS_2013: dict[str, Param] = {"match_minutes": 40, "rules": HOTC_2013,
                                   "pair_down_counts": "higher", "bye_priority": "no_repeat"}
#: what a HOTC_2013_R2 genesis records: AMB-H4 default least_wins, HOTC-ENTRY-1
DEFAULTS_R2: dict[str, Param] = {"match_minutes": 40, "rules": HOTC_2013_R2,
                                 "pair_down_counts": "higher", "bye_priority": "least_wins",
                                 "invitation_required": False}
#: what a HOTC_2013_R3 genesis records: R2's and how a loss by penalty is recorded
DEFAULTS_R3: dict[str, Param] = {**DEFAULTS_R2, "rules": HOTC_2013_R3,
                                 "penalty_results": "cited"}
#: parameters a revision does not know (refused at its genesis)
NEW_IN_R2 = frozenset({"invitation_required"})
NEW_IN_R3 = frozenset({"penalty_results"})
#: the parameters each revision's genesis must record beyond HOTC_2013's, and refuses
REQUIRED: dict[str, frozenset[str]] = {HOTC_2013: frozenset(), HOTC_2013_R2: NEW_IN_R2,
                                       HOTC_2013_R3: NEW_IN_R2 | NEW_IN_R3}


def defaults_for(rules: str) -> dict[str, Param]:
    return dict(DEFAULTS_2013 if rules == HOTC_2013 else
                DEFAULTS_R2 if rules == HOTC_2013_R2 else DEFAULTS_R3)


def rules_of(state: TournamentState) -> str:
    if state.format is None:
        return LATEST
    return str(state.format.params.get("rules", HOTC_2013))


def revised(state: TournamentState) -> bool:
    """True under HOTC_2013_R2: the stop rule at pairing time, the bye of HOTC-BYE-5 as
    revised, entrants = N_cut play round 1, tiny cuts, recorded slow-play calls, and
    invitations (RULES.md §11 "§2 HotC")."""
    return rules_of(state) != HOTC_2013
