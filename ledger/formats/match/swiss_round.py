"""One Swiss round, decided and verified on one path for every format that pairs with the
match layer's engine (HotC, Bushiroad Swiss and double elimination): the field built once,
the bye draw when the field is odd, the pairing draw over the rest, the plan
(HOTC-PAIR-1, HOTC-BYE-1/5, BR-SWISS-1/2, AMB-B1).  What differs between the formats is
data (``SwissRound``): who may be drawn for the bye, how the drawn order gives the bye,
the draws' reasons, the recorded pairing algorithm and the rule id of a mismatch.

Owns: ``SwissRound``, ``swiss_bye_items`` and the check side, ``expected_swiss_round``
(the plan from the recorded draws) and ``check_pairing``; the command side that makes the
draws is ``ledger.formats.match.commands.pair_swiss_round`` (the same items, the same plan).

May import: ``ledger.core.state``, ``ledger.core.decided``, ``ledger.errors``,
``ledger.wire.events``, ``ledger.formats.match.*``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ledger.core.decided import is_decided
from ledger.core.state import TournamentState
from ledger.errors import RuleError
from ledger.formats.match.events import PAIRING_ALGORITHM, RoundPaired
from ledger.formats.match.pairing import Entrant, bye_candidates
from ledger.formats.match.plan import (
    entrants,
    pairing_items,
    param,
    plan_swiss,
    recorded_draw,
    round_ctx,
)

#: (state, drawn order of the bye candidates, the field) -> the bye
ByeFromDraw = Callable[[TournamentState, list[int], list[Entrant]], int]
#: (state, round number) -> the bye draw's reason
ByeReason = Callable[[TournamentState, int], str]


def first_drawn(state: TournamentState, drawn: list[int], active: list[Entrant]) -> int:
    """The bye is the first candidate drawn (AMB-B1; HOTC-BYE-5 of HOTC_2013)."""
    return drawn[0]


@dataclass(frozen=True)
class SwissRound:
    """What one format says of its Swiss rounds where the formats differ."""

    #: the rule the pairing draw's reason cites ("HOTC-PAIR-1", "BR-SWISS-1/2")
    pairing_rule: str
    #: the rule a recorded round that is not the plan breaks ("HOTC-PAIR-7", "BR-SWISS-2")
    mismatch_rule: str
    bye_reason: ByeReason
    bye_from_draw: ByeFromDraw = first_drawn
    #: the genesis parameter that orders the bye candidates (None: "no_repeat" always)
    bye_priority_param: str | None = None
    #: the pairing algorithm the round records (``match.plan.PAIRING_LIMITS``)
    algorithm: str = PAIRING_ALGORITHM


def swiss_bye_items(state: TournamentState, swiss: SwissRound,
                    active: list[Entrant]) -> list[int] | None:
    """Candidates of the bye draw, or None when the field is even (HOTC-BYE-1, AMB-B1)."""
    if len(active) % 2 == 0:
        return None
    priority = "no_repeat" if swiss.bye_priority_param is None else \
        param(state, swiss.bye_priority_param, "no_repeat")
    return bye_candidates(active, priority)


def pairing_mismatch(swiss: SwissRound, what: str, expected: object,
                     recorded: object) -> RuleError:
    return RuleError(swiss.mismatch_rule, f"{what}: expected {expected!r}, recorded "
                     f"{recorded!r}", finding="pairing_mismatch")


def expected_swiss_round(state: TournamentState, swiss: SwissRound, n: int,
                         body: RoundPaired) -> RoundPaired | None:
    """The check side: what Swiss round ``n`` must be given the draws ``body`` cites (the
    audit re-runs them from the recorded seeds); None when the command side planned
    ``body`` just now (``ledger.core.decided``)."""
    if is_decided(body):
        return None
    active = entrants(state)           # built once for the bye, the draw items, the plan
    items = swiss_bye_items(state, swiss, active)
    want = 1 if items is None else 2
    if body.round != n or len(body.draws) != want:
        raise pairing_mismatch(swiss, "round/draws", (n, want), (body.round, len(body.draws)))
    bye = None
    if items is not None:
        bye = swiss.bye_from_draw(state, recorded_draw(state, body.draws[0],
                                                       round_ctx(state, n, "bye"), items),
                                  active)
    order = recorded_draw(state, body.draws[-1], round_ctx(state, n, "pairing"),
                          pairing_items(state, bye, active))
    return plan_swiss(state, n, bye, order, list(body.draws), algorithm=swiss.algorithm,
                      active=active)


def check_pairing(swiss: SwissRound, expected: RoundPaired, body: RoundPaired) -> None:
    """Refuse a recorded round that is not the plan (every table, the bye)."""
    if expected != body:
        raise pairing_mismatch(swiss, f"round {body.round} pairing",
                               [t.players for t in expected.tables] + [expected.bye],
                               [t.players for t in body.tables] + [body.bye])
