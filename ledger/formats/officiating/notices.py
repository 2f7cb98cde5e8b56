"""Audit notices of the officiating layer: facts an auditor should see that are not
errors — today, a head judge's pairing that differs from the engine's (issue 9 §7).

Owns: ``notice`` (state before the event, the event → a message, or None).

May import: ``ledger.state``, ``ledger.events``, ``ledger.formats.match.*``,
``ledger.formats.officiating.*``.
"""

from __future__ import annotations

from ledger.events import Body
from ledger.formats.match.apply import find_round
from ledger.formats.match.model import MatchState
from ledger.formats.officiating.events import PairingOverridden
from ledger.state import TournamentState


def notice(state: TournamentState, body: Body) -> str | None:
    if not isinstance(body, PairingOverridden) or not isinstance(state.fmt, MatchState):
        return None
    rnd = find_round(state.fmt, body.round)
    engine = [sorted(t.players) for t in rnd.tables] if rnd is not None else []
    manual = [sorted(t.players) for t in body.tables]
    gone = [p for p in engine if p not in manual]
    new = [p for p in manual if p not in engine]
    return (f"round {body.round}: the head judge's pairing replaces the engine's (seq "
            f"{body.paired_seq}): engine {gone} → {new}; reason: {body.reason}")
