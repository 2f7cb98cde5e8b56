"""The HotC rule revisions (DESIGN.md §10 "Rule revisions", ADR 0010).

Owns: the revision names, the parameters each revision records at genesis (with their
defaults) and ``revised`` — the one question every HotC decision that changed asks of the
recorded ``rules`` parameter.  A ``HOTC_2013`` ledger is run and audited as it was
written; ``HOTC_2013_R2`` (RULES.md §11 Revisions "§2 HotC") is the default for new ones.

May import: ``ledger.state``, ``ledger.params``.
"""

from __future__ import annotations

from ledger.params import Param
from ledger.state import TournamentState

HOTC_2013 = "HOTC_2013"
HOTC_2013_R2 = "HOTC_2013_R2"
REVISIONS = (HOTC_2013, HOTC_2013_R2)
LATEST = HOTC_2013_R2

#: what a HOTC_2013 genesis records (the 70-player sample's bytes depend on it)
DEFAULTS_2013: dict[str, Param] = {"match_minutes": 40, "rules": HOTC_2013,
                                   "pair_down_counts": "higher", "bye_priority": "no_repeat"}
#: what a HOTC_2013_R2 genesis records: AMB-H4 default least_wins, HOTC-ENTRY-1
DEFAULTS_R2: dict[str, Param] = {"match_minutes": 40, "rules": HOTC_2013_R2,
                                 "pair_down_counts": "higher", "bye_priority": "least_wins",
                                 "invitation_required": False}
#: parameters a revision does not know (refused at its genesis)
NEW_IN_R2 = frozenset({"invitation_required"})


def defaults_for(rules: str) -> dict[str, Param]:
    return dict(DEFAULTS_2013 if rules == HOTC_2013 else DEFAULTS_R2)


def rules_of(state: TournamentState) -> str:
    if state.format is None:
        return LATEST
    return str(state.format.params.get("rules", HOTC_2013))


def revised(state: TournamentState) -> bool:
    """True under HOTC_2013_R2: the stop rule at pairing time, the bye of HOTC-BYE-5 as
    revised, entrants = N_cut play round 1, tiny cuts, recorded slow-play calls, and
    invitations (RULES.md §11 "§2 HotC")."""
    return rules_of(state) != HOTC_2013
