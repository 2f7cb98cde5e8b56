"""The shared match layer's state (docs/DESIGN.md §10): rounds of tables, results, records.

Owns: ``PlayerRecord``, ``ResultState``, ``TableState``, ``RoundState``, ``MatchState`` and
the closed sets ``Status``, ``Phase``, ``Outcome``, ``LossReason`` (RULES.md AMB-H8) and
``DecidedBy`` (docs/DESIGN.md §11).  One model for every format that plays matches (HotC,
Bushiroad Swiss / DE / SE / round robin); folded by ``ledger.formats.match.apply``; read by
pairing, selections, standings and the audit.  Pure data, no behaviour.

May import: ``msgspec``, ``ledger.formats.match.officiating_model``,
``ledger.formats.match.team_model`` (pure data).
"""

from __future__ import annotations

from enum import Enum

import msgspec

from ledger.formats.match.officiating_model import OfficiatingState
from ledger.formats.match.team_model import TeamState


class Status(str, Enum):
    ACTIVE = "active"
    ELIMINATED = "eliminated"
    DROPPED = "dropped"
    DISQUALIFIED = "disqualified"
    CUT = "cut"
    CHAMPION = "champion"


class Phase(str, Enum):
    SWISS = "swiss"
    TOP_CUT = "top_cut"


class Outcome(str, Enum):
    """How a match ended (HOTC-TIME-2/3, HOTC-TOP-2, AMB-H11, AMB-H14)."""

    WIN = "win"                       # played to a result (incl. supervised after both calls)
    CONCESSION = "concession"
    TIMEOUT = "timeout"               # no upheld slow-play call
    SLOW_PLAY = "slow_play"           # timeout after an upheld call against one player
    TIE = "tie"                       # simultaneous loss in the Swiss phase: both lose
    DROP = "drop"                     # a player dropped after pairings (BR-DROP-2)
    DRAW = "draw"                     # a match draw: no winner, no loser (BR-SWISS-5)
    DOUBLE_LOSS = "double_loss"       # both lose: DE tie, SE time-up (BR-DE-3, BR-SE-3)
    # Wheel of Time outcome codes (docs/DESIGN.md §11): WOTOLD-SCORE-3 (wot-classic) and
    # WOT01-SCORE-9 (wot-2001); the bye codes O9/Q6 never appear on the wire
    WOT_O1 = "O1"
    WOT_O2 = "O2"
    WOT_O3 = "O3"
    WOT_O4 = "O4"
    WOT_O5 = "O5"
    WOT_O6 = "O6"
    WOT_O7 = "O7"
    WOT_O8 = "O8"
    WOT_Q1 = "Q1"
    WOT_Q2 = "Q2"
    WOT_Q3 = "Q3"
    WOT_Q4 = "Q4"
    WOT_Q5 = "Q5"
    # issue 17 (penalty_results=cited): a Loss of Match or a DQ, citing it (``penalty_seq``);
    # last, so the history codes of the members above never move
    PENALTY = "penalty"


class DecidedBy(str, Enum):
    """How a result was decided (docs/DESIGN.md §11, normative)."""

    PLAYED = "played"
    CONCESSION = "concession"
    TIMEOUT = "timeout"
    SLOW_PLAY = "slow_play"
    ANNEX_A = "annex_a"
    EOM_STEP_1 = "eom_step_1"
    EOM_STEP_2 = "eom_step_2"
    EOM_STEP_3 = "eom_step_3"
    EOM_STEP_4 = "eom_step_4"
    DOUBLE_LOSS = "double_loss"
    PENALTY = "penalty"
    DROP = "drop"
    BYE = "bye"


class LossReason(str, Enum):
    """Why a player lost (AMB-H8); decides top-cut eligibility."""

    PLAY = "play"
    CONCESSION = "concession"
    TIMEOUT_DOUBLE = "timeout_double"
    TIMEOUT_SLOW_PLAY = "timeout_slow_play"
    TIMEOUT_TURN_PLAYER = "timeout_turn_player"
    TIE = "tie"
    DROP_AFTER_PAIRING = "drop_after_pairing"
    DOUBLE_LOSS = "double_loss"       # both lost a drawn match that counts as a tie (DE, SE)
    ANNEX_A = "annex_a"
    TIMEOUT = "timeout"               # time-up, fewer game wins (BR-SWISS-5, BR-DE-6)
    LATE_ENTRY = "late_entry"         # a round missed by a late registration (issue 9)
    PENALTY = "penalty"               # a bye lost to a Loss of Match (BR-SWISS-7, issue 9)


#: Losses that make a player ineligible for the random cut spots (HOTC-CUT-2c, AMB-H8).
TIME_LOSSES = frozenset({LossReason.TIMEOUT_DOUBLE, LossReason.TIMEOUT_SLOW_PLAY})


class PlayerRecord(msgspec.Struct, kw_only=True, array_like=True, gc=False):
    number: int
    wins: int = 0
    losses: int = 0
    byes: int = 0
    pair_downs: int = 0
    pair_ups: int = 0
    opponents: list[int] = []          # Swiss opponents in round order, byes excluded
    loss_reasons: list[LossReason] = []
    status: Status = Status.ACTIVE
    second_loss_round: int | None = None
    dropped_round: int | None = None   # the round in progress or last completed at the drop
    dropped_after_rounds: int | None = None  # completed Swiss rounds when dropped
    dropped_losses: int | None = None  # losses held when dropped (before any forced loss)
    cut_finish: int | None = None      # top-cut round in which they were knocked out
    top_wins: int = 0                  # of ``wins``, those won in the top cut
    top_losses: int = 0                # of ``losses``, those lost in the top cut
    draws: int = 0                     # match draws (no winner, no loser)
    beaten: list[int] = []             # qualifying-stage opponents this player beat (h2h)
    #: one character per qualifying round (index = round − 1): W win, L loss, D draw,
    #: X double loss, B bye, N a loss with no opponent (late entry), - not paired (the
    #: history the Bushiroad standings read)
    played: str = ""


class ResultState(msgspec.Struct, kw_only=True, array_like=True, gc=False):
    seq: int
    winner: int | None
    losers: list[int]
    loss_reasons: list[LossReason]
    outcome: Outcome
    games: list[int] | None = None     # [wins of players[0], wins of players[1], draws]


class TableState(msgspec.Struct, kw_only=True, array_like=True, gc=False):
    table: int
    players: list[int]
    groups: list[int]
    rematch: bool = False
    pair_down: int | None = None
    pair_up: int | None = None
    result: ResultState | None = None


class RoundState(msgspec.Struct, kw_only=True, array_like=True, gc=False):
    number: int
    phase: Phase
    paired_seq: int
    tables: list[TableState]
    bye: int | None = None
    advances: list[int] = []   # top cut: players facing an empty slot
    entries: list[int | None] = []  # top cut: the bracket entries this round was paired from
    closed_seq: int | None = None
    corrected_seq: int | None = None  # latest result_corrected of this round
    #: tables of ``tables`` with a result, kept by ``ledger.formats.match.apply``
    #: (``set_tables`` and each result) so that whether the round is complete is not a
    #: scan of its tables per result (issue 22 item 2)
    results: int = 0


class MatchState(msgspec.Struct, kw_only=True, array_like=True, gc=False):
    """Kept small on purpose (it is loaded by every command): only the last round keeps
    its tables; earlier rounds keep their metadata (projections read the log for them).
    ``swiss_rounds`` / ``swiss_over`` count and close the qualifying stage (Swiss, DE or
    round robin); ``cut`` / ``slots`` / ``entries`` / ``champion`` are the single-elimination
    stage that may follow it."""

    #: losses that eliminate in the qualifying stage (2 in double elimination, 0 = never)
    eliminate_at: int = 0
    #: the qualifying stage's R_total once known (fixed Swiss rounds, round-robin schedule)
    rounds_total: int = 0
    #: round robin: the drawn order the whole schedule follows (BR-SWISS-ROUNDS-1)
    order: list[int] | None = None
    #: the final standings' tie-break order (a DRAW-v1 result, BR-SWISS-TB-7), once drawn
    tiebreak: list[int] | None = None
    #: the standings were finalized (``standings_finalized``): the event is over
    final: bool = False
    records: dict[int, PlayerRecord] = {}
    rounds: list[RoundState] = []
    swiss_rounds: int = 0
    swiss_over: bool = False
    cut: list[int] | None = None
    cut_seq: int | None = None
    slots: list[int | None] | None = None
    entries: list[int | None] | None = None   # the current top-cut round's bracket entries
    champion: int | None = None
    #: active players with no loss (X-0), kept by ``ledger.formats.match.unbeaten``
    unbeaten: int = 0
    #: penalties, pending result effects and disqualifications (``ledger.formats.officiating``)
    officiating: OfficiatingState = msgspec.field(default_factory=OfficiatingState)
    #: team fights (issue 20, RULES.md §3.16): None in an individual event
    teams: TeamState | None = None


#: the HotC format's state is the shared match state (name kept for readability)
HotcState = MatchState


#: statuses of players who have withdrawn from the event (not eliminated: those are out
#: of the competition but still registered and in the roster of player draws)
GONE = frozenset({Status.DROPPED, Status.DISQUALIFIED})


def has_left(h: MatchState | None, number: int) -> bool:
    rec = h.records.get(number) if h is not None else None
    return rec is not None and rec.status in GONE
