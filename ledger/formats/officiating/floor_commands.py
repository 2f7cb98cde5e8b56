"""Commands of the floor: decide the bodies (with the same functions the checks use) and
record them.

Owns: ``make_ruling``, ``raise_challenge``, ``decide_challenge``, ``start_round``,
``call_time``, ``extend``, ``decide_eom``, ``register_deck``, ``check_deck``.

May import: ``ledger.core.aggregate`` (type hints), ``ledger.errors``, ``ledger.wire.events``,
``ledger.wire.keys``, ``ledger.formats.match.*``, ``ledger.formats.officiating.*``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ledger.errors import RuleError
from ledger.formats.match.model import DecidedBy
from ledger.formats.match.plan import open_round
from ledger.formats.officiating.floor import (
    ChallengeDecided,
    ChallengeRaised,
    DeckChecked,
    DeckRegistered,
    EomDecided,
    RoundStarted,
    RoundTimeCalled,
    RulingMade,
    TimeExtended,
)
from ledger.formats.officiating.floor_rules import deck_hash, eom_decision, refused_players
from ledger.formats.officiating.params import extra_turns
from ledger.formats.officiating.rules import refusing_match_state
from ledger.wire.events import SignedEvent
from ledger.wire.keys import Signer

if TYPE_CHECKING:
    from ledger.core.aggregate import Tournament


def make_ruling(t: Tournament, signer: Signer, time: str, *, round_no: int, table: int,
                question: str, ruling: str, minutes: int = 0) -> SignedEvent:
    return t.record(RulingMade(round=round_no, table=table, question=question,
                               ruling=ruling, minutes=minutes), signer, time)


def raise_challenge(t: Tournament, signer: Signer, time: str, *, ruling_seq: int,
                    players: list[int]) -> SignedEvent:
    return t.record(ChallengeRaised(ruling_seq=ruling_seq, players=players,
                                    refused=refused_players(t.state, players)), signer, time)


def decide_challenge(t: Tournament, signer: Signer, time: str, *, challenge_seq: int,
                     ruling: str, same_as_first: bool,
                     keep: list[int] | None = None) -> SignedEvent:
    ch = refusing_match_state(t.state).officiating.challenges.get(challenge_seq)
    players = ch.players if ch is not None else []
    dec = [p for p in players if p not in (keep or [])] if same_as_first else []
    return t.record(ChallengeDecided(challenge_seq=challenge_seq, ruling=ruling,
                                     same_as_first=same_as_first, decrement=dec),
                    signer, time)


def start_round(t: Tournament, signer: Signer, time: str,
                minutes: int | None = None) -> SignedEvent:
    rnd = open_round(t.state)
    if rnd is None:
        raise RuleError("BR-TIME-5", "no round is paired and open", hint="pair it first")
    fmt = t.state.format
    m = minutes if minutes is not None else int(fmt.params.get("match_minutes", 40)
                                                if fmt else 40)
    return t.record(RoundStarted(round=rnd.number, minutes=m), signer, time)


def call_time(t: Tournament, signer: Signer, time: str) -> SignedEvent:
    rnd = open_round(t.state)
    if rnd is None:
        raise RuleError("BR-TIME-5", "no round is in progress")
    return t.record(RoundTimeCalled(round=rnd.number, extra_turns=extra_turns(t.state)),
                    signer, time)


def extend(t: Tournament, signer: Signer, time: str, *, round_no: int, table: int,
           minutes: int, turns: int, reason: str,
           ruling_seq: int | None = None) -> SignedEvent:
    return t.record(TimeExtended(round=round_no, table=table, minutes=minutes, turns=turns,
                                 reason=reason, ruling_seq=ruling_seq), signer, time)


def decide_eom(t: Tournament, signer: Signer, time: str, *, round_no: int, table: int,
               games: list[int], boards: list[list[int]] | None = None) -> SignedEvent:
    probe = EomDecided(round=round_no, table=table, games=games,
                       decided_by=DecidedBy.EOM_STEP_1,
                       compared=[], winner=None, boards=boards or [])
    d, _players = eom_decision(t.state, probe)
    return t.record(EomDecided(round=round_no, table=table, games=games,
                               decided_by=d.decided_by, compared=d.compared,  # type: ignore[attr-defined]
                               winner=d.winner, boards=boards or []),  # type: ignore[attr-defined]
                    signer, time)


def register_deck(t: Tournament, signer: Signer, time: str, *, number: int,
                  text: str | None = None, sha256: str | None = None) -> SignedEvent:
    if text is None and sha256 is None:
        raise RuleError("BR-DECK-1", "give the list or its sha256")
    h = deck_hash(text) if text is not None else str(sha256)
    return t.record(DeckRegistered(number=number, sha256=h, list=text), signer, time)


def check_deck(t: Tournament, signer: Signer, time: str, *, number: int, matches: bool,
               note: str = "", minutes: int = 0) -> SignedEvent:
    return t.record(DeckChecked(number=number, matches=matches, note=note, minutes=minutes),
                    signer, time)
