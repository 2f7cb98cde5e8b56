"""Audit notices of the officiating layer: facts an auditor should see that are not
errors — a head judge's pairing that differs from the engine's, and a voided pairing
(issue 9 §7, ADR 0012).

Owns: ``notice`` (state before the event, the event → its finding code and message, or
None).

May import: ``ledger.core.state``, ``ledger.wire.events``, ``ledger.formats.match.*``,
``ledger.formats.officiating.*``.
"""

from __future__ import annotations

from ledger.core.state import TournamentState
from ledger.formats.match.apply import find_round
from ledger.formats.match.model import MatchState
from ledger.formats.match.plan import attempt
from ledger.formats.officiating.events import PairingOverridden, PairingVoided
from ledger.formats.officiating.void import void_notice
from ledger.wire.events import Body


def notice(state: TournamentState, body: Body) -> tuple[str, str] | None:
    if not isinstance(state.fmt, MatchState):
        return None
    if isinstance(body, PairingVoided):
        k = attempt(state, body.round) + 1
        # issue 21 item 3: each void is a fresh draw, so repeated voids of one round are a
        # way to re-roll: a warning from the second on
        return ("pairing_voided" if k == 1 else "pairing_voided_again"), \
            void_notice(body, k)
    if not isinstance(body, PairingOverridden):
        return None
    rnd = find_round(state.fmt, body.round)
    engine = [sorted(t.players) for t in rnd.tables] if rnd is not None else []
    manual = [sorted(t.players) for t in body.tables]
    gone = [p for p in engine if p not in manual]
    new = [p for p in manual if p not in engine]
    return "pairing_overridden", (
        f"round {body.round}: the head judge's pairing replaces the engine's (seq "
        f"{body.paired_seq}): engine {gone} → {new}; reason: {body.reason}")
