"""The rules facet of a format officiated by the shared officiating layer (issue 9, ADR
0007): the match layer's rules plus what officiating adds to them.

Owns: ``OfficiatedRules`` — ``MatchRules`` whose rounds a head judge may pair again
(``pairing_overridden``) or take back (``pairing_voided``), the public pages' posting
gate keyed on both (ADR 0023), and whose notices the audit lists for review (a head
judge's own pairing, a void: ``ledger.formats.officiating.notices``).

May import: ``ledger.formats.match.*``, ``ledger.formats.officiating.*``,
``ledger.core.*`` (type hints).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ledger.formats.match.plugin import MatchRules, RoundBody
from ledger.formats.officiating.events import REPAIRING_BODIES, UNPAIRING_BODIES

if TYPE_CHECKING:
    from ledger.core.state_model import TournamentState
    from ledger.wire.events import Body


class OfficiatedRules(MatchRules):
    pairing_bodies: tuple[type[RoundBody], ...] = MatchRules.pairing_bodies + REPAIRING_BODIES
    unpairing_bodies: tuple[type[RoundBody], ...] = UNPAIRING_BODIES

    def notice(self, state: TournamentState, body: Body,
               checked: bool) -> tuple[str, str] | None:
        """The officiating layer's notices: a head judge's pairing, a voided one (the
        audit asks of every event: others are answered without importing them)."""
        if not isinstance(body, _NOTICED):
            return None
        from ledger.formats.officiating.notices import notice

        return notice(state, body)


#: the bodies ``ledger.formats.officiating.notices.notice`` speaks of
_NOTICED = REPAIRING_BODIES + UNPAIRING_BODIES
