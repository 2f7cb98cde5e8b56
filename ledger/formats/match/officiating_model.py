"""Officiating state kept inside the match layer's ``MatchState.officiating``.

Owns: ``AppliesTo`` (AMB-B20), ``PrizePolicy`` (BR-PEN-RANK-9(d)), ``PenaltyRecord`` (one
issued penalty), ``Pending`` (a Loss of Game / Loss of Match bound to the match it decides),
``DqRecord`` and ``OfficiatingState``.  Pure data, folded by ``officiating.apply``.  It lives in
the match layer, which carries it, so that ``ledger.formats.officiating`` imports the match
layer and never the other way (docs/adr/0039-layering-layers-and-rule-ids.md).

May import: ``msgspec`` only.
"""

from __future__ import annotations

from enum import Enum

import msgspec


class AppliesTo(str, Enum):
    """Where a penalty's result effect lands (BR-PEN-RANK-7/8, AMB-B20)."""

    NONE = "none"
    CURRENT_GAME = "current_game"
    NEXT_GAME = "next_game"
    FIRST_GAME_OF_NEXT_MATCH = "first_game_of_next_match"
    CURRENT_MATCH = "current_match"
    NEXT_MATCH = "next_match"


class PrizePolicy(str, Enum):
    VOID = "void"
    PASS_DOWN = "pass_down"


class PenaltyRecord(msgspec.Struct, kw_only=True, array_like=True, gc=False):
    seq: int
    number: int
    section: str
    group: str
    penalty: str          # a ``catalogue.Penalty`` value
    round: int
    applies_to: AppliesTo = AppliesTo.NONE
    upgrade: bool = False
    #: a team member's own penalty (issue 20, BR-TEAM-6): ``number`` is the fighter
    member: bool = False


class Pending(msgspec.Struct, kw_only=True, array_like=True, gc=False):
    """A result effect: ``games`` lost (LoG) or the whole ``match`` (LoM) of ``number``;
    ``round`` is the round whose match it decides, or None until ``number`` is next paired
    in a round after ``after_round``."""

    seq: int
    number: int
    match: bool
    after_round: int
    round: int | None = None
    #: a team member's own LoG / LoM (issue 20): it decides the member's seat, not the
    #: team's match (``number`` is the fighter)
    member: bool = False


class DqRecord(msgspec.Struct, kw_only=True, array_like=True, gc=False):
    seq: int
    round: int
    standing_revoked: bool
    prize_policy: PrizePolicy
    after_event: bool = False
    #: the player had already dropped (their drop still ends their DE rounds, TC-06b)
    dropped_before: bool = False
    #: the player's match of ``round`` had no result yet: the DQ made it a loss
    #: (BR-PEN-RANK-9(a)), which no result or correction may turn (ADR 0018)
    in_match: bool = False


class Challenge(msgspec.Struct, kw_only=True, array_like=True, gc=False):
    ruling_seq: int
    players: list[int]           # those whose challenge was accepted (had one left)
    decided_seq: int | None = None


class RoundClock(msgspec.Struct, kw_only=True, array_like=True, gc=False):
    started_seq: int
    started_time: str
    called_seq: int | None = None
    called_time: str | None = None


class EomRecord(msgspec.Struct, kw_only=True, array_like=True, gc=False):
    seq: int
    winner: int | None
    games: list[int]


class DeckCheckRecord(msgspec.Struct, kw_only=True, array_like=True, gc=False):
    """One deck check (issue 30 item 3): its table, start time and, once ended, the seq and
    time of its end; ``draw_seq`` the deck-check draw it cites (0: chosen by the judge, e.g.
    on suspicion; the floor's numbers count both)."""

    round: int
    table: int
    started: str
    ended_seq: int = 0
    ended: str = ""
    draw_seq: int = 0


class OfficiatingState(msgspec.Struct, kw_only=True, array_like=True, gc=False):
    penalties: list[PenaltyRecord] = []
    pending: list[Pending] = []
    dq: dict[int, DqRecord] = {}
    #: round → its tables and their current results, packed (``match.history``)
    history: dict[int, list[int]] = {}
    #: seq of the engine's round_paired → seq of the pairing_overridden that replaced it
    overrides: dict[int, int] = {}
    #: ruling seq → the players of the match it was made in (appeals cite rulings)
    rulings: dict[int, list[int]] = {}
    #: ruling seq → key id of the judge who made it (BR-APPEAL-2: not its appeal's judge)
    ruling_by: dict[int, str] = {}
    #: challenge seq → the challenge; player → challenges used (BR-APPEAL-3, AMB-B26)
    challenges: dict[int, Challenge] = {}
    challenges_used: dict[int, int] = {}
    #: round → its authoritative clock (BR-TIME-5); "round/table" → extension minutes
    clock: dict[int, RoundClock] = {}
    extensions: dict[str, int] = {}
    #: player → sha256 of the registered deck list (BR-DECK-1, immutable)
    decks: dict[int, str] = {}
    #: "round/table" → an end-of-match decision (001) the result must follow
    eom: dict[str, EomRecord] = {}
    #: the tournament level after a signed amendment (BR-LEVEL-2); None = the genesis level
    level: int | None = None
    #: round → seqs of its ``pairing_voided`` events (ADR 0012: attempt k+1 of the round
    #: draws under ``<log>/R<n>/v<k>/…``)
    voids: dict[int, list[int]] = {}
    #: round → its tables' layout, packed (``history.put_layout``; the newest two rounds):
    #: what a void needs to give the previous round its tables back
    layout: dict[int, list[int]] = {}
    #: player → seq of the ``score_sheet_reissued`` awaiting its 3.18.3 penalty
    reissued: dict[int, int] = {}
    #: seq of a ``deck_check_started`` → the check (issue 30 item 3)
    deck_checks: dict[int, DeckCheckRecord] = {}
    #: player → seq of the event that fixed their current list (registration or correction)
    deck_seqs: dict[int, int] = {}
    #: player → seq of the ``deck_published`` that made their list public
    decks_published: dict[int, int] = {}
    #: seq of a ``deck_check_started`` → [seq of the ``time_extended`` citing it (one per
    #: check), the minutes it gave, the minutes the record proposed] (BR-EXT-3; ``clock``)
    deck_extended: dict[int, list[int]] = {}
    #: seq of a deck-check ``draw_made`` → the count K its reason announces (DECK-DRAW-2)
    deck_draws: dict[int, int] = {}
    #: the organizer's decklist deadline (DECK-LIST-1), the newest ``deck_deadline_set``'s
    #: time; None: players do not submit their own lists
    deck_deadline: str | None = None
    #: "round/table" → extra turns given in all (BR-XTURN-1; ``extensions`` keeps minutes)
    extension_turns: dict[str, int] = {}
    #: seq of a ``deck_check_started`` → [the turns its extension gave, the turns the
    #: record proposed] (only when either is not 0); ``deck_extended`` keeps minutes
    deck_extended_turns: dict[int, list[int]] = {}


def cites_ruling(o: OfficiatingState, seq: int) -> bool:
    """Whether ``seq`` is a ruling, an appeal (its raising or decision), a penalty or a
    disqualification on record in ``o`` (what a closed judge call may cite, CALL-5)."""
    return seq in o.rulings or seq in o.challenges or \
        any(c.decided_seq == seq for c in o.challenges.values()) or \
        any(p.seq == seq for p in o.penalties) or any(d.seq == seq for d in o.dq.values())
