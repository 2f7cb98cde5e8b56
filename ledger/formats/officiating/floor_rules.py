"""Rules and transitions of the floor kinds (``floor``): who may sign them (RULES.md §1.3),
the one check of each, and how each changes ``OfficiatingState`` — rulings and the
challenge count (BR-APPEAL-3, AMB-B26, TC-22), the authoritative round clock (BR-TIME-5),
extensions with their per-match cap (BR-EXT-1, EOM-EXT-1, AMB-B27, AMB-E6), the 001
end-of-match decision (TC-25) and the result it fixes, deck registration and checks
(BR-DECK-1..3).

May import: ``ledger.core.state``, ``ledger.wire.events``, ``ledger.errors``,
``ledger.formats.match.*``, ``ledger.formats.officiating.*``.
"""

from __future__ import annotations

import hashlib

from ledger.core.state import TournamentState
from ledger.errors import RuleError
from ledger.formats.match import history
from ledger.formats.match.events import ResultCorrected, ResultRecorded
from ledger.formats.match.model import MatchState, Phase
from ledger.formats.match.officiating_model import Challenge, EomRecord, RoundClock
from ledger.formats.match.plan import open_round
from ledger.formats.officiating.book_table import OFFICIATING_BOOK as BOOK
from ledger.formats.officiating.book_table import guards
from ledger.formats.officiating.corrections import key
from ledger.formats.officiating.eom import Board, nse_match, se_decide
from ledger.formats.officiating.extension_cites import check_cited
from ledger.formats.officiating.floor import (
    ChallengeDecided,
    ChallengeRaised,
    DeckChecked,
    DeckRegistered,
    EomDecided,
    FloorKind,
    RoundStarted,
    RoundTimeCalled,
    RulingMade,
    TimeExtended,
)
from ledger.formats.officiating.params import (
    challenge_limit,
    end_of_match,
    extension_cap,
    extra_turns,
)
from ledger.formats.officiating.rules import refusing_match_state
from ledger.wire.events import Role, SignedEvent

_J = frozenset({Role.JUDGE, Role.HEAD_JUDGE})
_TK = frozenset({Role.TIME_KEEPER, Role.JUDGE, Role.HEAD_JUDGE})   # FR §4.2
for _kind, _roles in ((FloorKind.RULING_MADE, _J), (FloorKind.CHALLENGE_RAISED, _J),
                      (FloorKind.CHALLENGE_DECIDED, frozenset({Role.HEAD_JUDGE})),
                      (FloorKind.ROUND_STARTED, _TK), (FloorKind.ROUND_TIME_CALLED, _TK),
                      (FloorKind.TIME_EXTENDED, _J), (FloorKind.EOM_DECIDED, _J),
                      (FloorKind.DECK_REGISTERED, frozenset({
                          Role.SCOREKEEPER, Role.JUDGE, Role.HEAD_JUDGE})),
                      (FloorKind.DECK_CHECKED, frozenset({Role.HEAD_JUDGE}))):
    BOOK.permit(_kind.value, _roles)


def _table_players(state: TournamentState, round_no: int, table: int) -> list[int]:
    row = history.get(refusing_match_state(state).officiating, round_no, table)
    if row is None:
        raise RuleError("BR-APPEAL-1", f"round {round_no} has no table {table}",
                        hint="see 'tourney round show'")
    return row.players


def _open_table(state: TournamentState, round_no: int, table: int) -> list[int]:
    rnd = open_round(state)
    if rnd is None or rnd.number != round_no:
        raise RuleError("BR-TIME-5", f"round {round_no} is not the round in progress")
    tab = next((t for t in rnd.tables if t.table == table), None)
    if tab is None or tab.result is not None:
        raise RuleError("BR-EXT-2", f"round {round_no} table {table} is not a match in "
                        "progress", hint="extensions and end-of-match come before the result")
    return tab.players


# -- rulings and challenges ---------------------------------------------------------------
def other_judges(state: TournamentState, actor: str) -> list[str]:
    """Active judges and head judges besides ``actor``: a multi-judge event when any."""
    return sorted(k for k, o in state.officials.items()
                  if k != actor and o.revoked_seq is None and _J.intersection(o.roles))


@BOOK.checks(RulingMade)
def _ruling(state: TournamentState, body: RulingMade, actor: str) -> None:
    _table_players(state, body.round, body.table)
    o = state.officials.get(actor)
    if o is not None and Role.HEAD_JUDGE in o.roles and other_judges(state, actor):
        raise RuleError("BR-APPEAL-2", "in a multi-judge event a floor judge makes the "
                        "first ruling, not the head judge (BR-OFF-4): the head judge "
                        "rules on its appeal", hint="record the floor judge's ruling with "
                        "that judge's key", finding="role_not_permitted")
    if not body.question.strip() or not body.ruling.strip() or body.minutes < 0:
        raise RuleError("BR-APPEAL-1", "a ruling records the question and the ruling",
                        hint="pass --question and --ruling")


@BOOK.applies(RulingMade)
def _ruling_apply(state: TournamentState, ev: SignedEvent, body: RulingMade) -> None:
    row = history.get(state.fmt.officiating, body.round, body.table)
    state.fmt.officiating.rulings[ev.seq] = list(row.players) if row else []
    state.fmt.officiating.ruling_by[ev.seq] = ev.actor


def committed(state: TournamentState, number: int) -> int:
    """Challenges ``number`` has used or staked: decided ones that cost a count plus every
    accepted challenge still undecided (each may yet cost one, BR-APPEAL-3), so appeals
    raised before any is decided cannot overrun the limit (issue 21 item 17, ADR 0018)."""
    o = refusing_match_state(state).officiating
    return o.challenges_used.get(number, 0) + sum(
        1 for c in o.challenges.values() if c.decided_seq is None and number in c.players)


def refused_players(state: TournamentState, players: list[int]) -> list[int]:
    """Challengers with no challenge left, undecided ones counted (AMB-B26: recorded and
    refused)."""
    limit = challenge_limit(state)
    return [] if limit is None else sorted(p for p in players
                                           if committed(state, p) >= limit)


def remaining(state: TournamentState, number: int) -> int | None:
    """Challenges left to ``number`` (never below 0); undecided ones are counted as spent
    until the head judge decides them."""
    limit = challenge_limit(state)
    return None if limit is None else max(0, limit - committed(state, number))


@BOOK.checks(ChallengeRaised)
def _challenge(state: TournamentState, body: ChallengeRaised, actor: str) -> None:
    o = refusing_match_state(state).officiating
    at = o.rulings.get(body.ruling_seq)
    if at is None:
        raise RuleError("BR-APPEAL-2", f"seq {body.ruling_seq} is not a ruling",
                        hint="cite the seq of the ruling_made event")
    if not body.players or len(set(body.players)) != len(body.players) or \
            any(p not in at for p in body.players):
        raise RuleError("BR-APPEAL-1", "only the fighters of that match may appeal its "
                        f"ruling ({' v '.join(map(str, at))})")
    want = refused_players(state, list(body.players))
    if sorted(body.refused) != want:
        raise RuleError("AMB-B26", f"refused challengers: expected {want}, recorded "
                        f"{sorted(body.refused)}", finding="challenge_limit_exceeded")


@BOOK.applies(ChallengeRaised)
def _challenge_apply(state: TournamentState, ev: SignedEvent, body: ChallengeRaised) -> None:
    accepted = [p for p in body.players if p not in body.refused]
    state.fmt.officiating.challenges[ev.seq] = Challenge(ruling_seq=body.ruling_seq,
                                                         players=accepted)


@BOOK.checks(ChallengeDecided)
def _decided(state: TournamentState, body: ChallengeDecided, actor: str) -> None:
    ch = refusing_match_state(state).officiating.challenges.get(body.challenge_seq)
    if ch is None or ch.decided_seq is not None:
        raise RuleError("BR-APPEAL-3", f"seq {body.challenge_seq} is not an open challenge")
    if not ch.players:
        raise RuleError("AMB-B26", "every challenger had no challenge left: the floor "
                        "ruling stands", finding="challenge_limit_exceeded")
    judge = refusing_match_state(state).officiating.ruling_by.get(ch.ruling_seq)
    if judge == actor and other_judges(state, actor):
        raise RuleError("BR-APPEAL-2", f"the ruling appealed (seq {ch.ruling_seq}) is "
                        "this head judge's own: in a multi-judge event its appeal is not "
                        "decided by the judge who made it (BR-OFF-4)",
                        hint="another head judge decides the appeal",
                        finding="role_not_permitted")
    if not body.ruling.strip():
        raise RuleError("BR-APPEAL-3", "the decision records the head judge's ruling")
    if body.same_as_first and not set(body.decrement) <= set(ch.players) or \
            not body.same_as_first and body.decrement:
        raise RuleError("BR-APPEAL-3", "a count drops only for a challenger, and only when "
                        "the head judge's ruling is the same as the first",
                        finding="rule_violation")


@BOOK.applies(ChallengeDecided)
def _decided_apply(state: TournamentState, ev: SignedEvent, body: ChallengeDecided) -> None:
    o = state.fmt.officiating
    ch = o.challenges.get(body.challenge_seq)
    if ch is not None:
        ch.decided_seq = ev.seq
    for p in body.decrement:
        o.challenges_used[p] = o.challenges_used.get(p, 0) + 1


# -- the clock -------------------------------------------------------------------------------
@BOOK.checks(RoundStarted)
def _started(state: TournamentState, body: RoundStarted, actor: str) -> None:
    rnd = open_round(state)
    if rnd is None or rnd.number != body.round:
        raise RuleError("BR-TIME-5", f"round {body.round} is not paired and open",
                        hint="pair it first")
    if body.round in refusing_match_state(state).officiating.clock:
        raise RuleError("BR-TIME-5", f"round {body.round} has already started")
    if body.minutes < 1:
        raise RuleError("BR-TIME-1", "the round time is at least one minute")


@BOOK.applies(RoundStarted)
def _started_apply(state: TournamentState, ev: SignedEvent, body: RoundStarted) -> None:
    state.fmt.officiating.clock[body.round] = RoundClock(started_seq=ev.seq,
                                                         started_time=ev.time)


@BOOK.checks(RoundTimeCalled)
def _called(state: TournamentState, body: RoundTimeCalled, actor: str) -> None:
    c = refusing_match_state(state).officiating.clock.get(body.round)
    if c is None:
        raise RuleError("BR-TIME-5", f"round {body.round} has not started",
                        hint="'tourney round start' first")
    if c.called_seq is not None:
        raise RuleError("BR-TIME-5", f"time was already called in round {body.round}")
    if body.extra_turns != extra_turns(state):
        raise RuleError("BR-XTURN-1", f"the event has {extra_turns(state)} extra turns",
                        finding="rule_violation")


@BOOK.applies(RoundTimeCalled)
def _called_apply(state: TournamentState, ev: SignedEvent, body: RoundTimeCalled) -> None:
    c = state.fmt.officiating.clock.get(body.round)
    if c is not None:
        c.called_seq, c.called_time = ev.seq, ev.time


@BOOK.checks(TimeExtended)
def _extended(state: TournamentState, body: TimeExtended, actor: str) -> None:
    _open_table(state, body.round, body.table)
    check_cited(state, body)      # first: what it cites decides what it may give
    if body.minutes < 0 or body.turns < 0 or body.minutes + body.turns == 0:
        raise RuleError("BR-EXT-1", "an extension gives minutes or turns")
    if not body.reason.strip():
        raise RuleError("BR-EXT-1", "an extension says why", hint="pass --reason")
    o = refusing_match_state(state).officiating
    if body.ruling_seq is not None and body.ruling_seq not in o.rulings:
        raise RuleError("BR-EXT-1", f"seq {body.ruling_seq} is not a ruling")
    cap = extension_cap(state)
    had = o.extensions.get(key(body.round, body.table), 0)
    if cap is not None and had + body.minutes > cap:
        raise RuleError("EOM-EXT-1", f"this match would have {had + body.minutes} minutes "
                        f"of extensions; the cap is {cap} per match (AMB-E6)",
                        hint=f"at most {cap - had} more minute(s)",
                        finding="extension_above_cap")


@BOOK.applies(TimeExtended)
def _extended_apply(state: TournamentState, ev: SignedEvent, body: TimeExtended) -> None:
    turns = [body.turns, body.proposed_turns if isinstance(body.proposed_turns, int) else 0]
    o = state.fmt.officiating
    if isinstance(body.call, int):
        state.calls.extended[body.call] = [
            ev.seq, body.minutes, body.proposed if isinstance(body.proposed, int) else 0]
        if any(turns):
            state.calls.extended_turns[body.call] = turns
    if isinstance(body.deck_check, int):
        o.deck_extended[body.deck_check] = [
            ev.seq, body.minutes, body.proposed if isinstance(body.proposed, int) else 0]
        if any(turns):
            o.deck_extended_turns[body.deck_check] = turns
    k = key(body.round, body.table)
    o.extensions[k] = o.extensions.get(k, 0) + body.minutes
    if body.turns:
        o.extension_turns[k] = o.extension_turns.get(k, 0) + body.turns


# -- 001 end of match ------------------------------------------------------------------------
def eom_decision(state: TournamentState, body: EomDecided) -> tuple[object, list[int]]:
    players = _open_table(state, body.round, body.table)
    rnd = open_round(state)
    single = rnd is not None and rnd.phase is Phase.TOP_CUT or \
        (state.format is not None and state.format.id == "single-elim")
    a, b = players
    wa, wb = body.games
    if not single:
        return nse_match(a, b, wa, wb), players
    boards = [Board(life=x[0], damage=x[1], influence=x[2], main_deck=x[3],
                    final_turn=bool(x[4])) for x in body.boards] \
        if len(body.boards) == 2 and all(len(x) == 5 for x in body.boards) else [None, None]
    try:
        return se_decide(a, b, wa, wb, boards[0], boards[1]), players
    except ValueError as exc:
        raise RuleError("EOM-SE-1", str(exc), hint="--board LIFE,DAMAGE,INFLUENCE,DECK,"
                        "FINAL for each player") from None


@BOOK.checks(EomDecided)
def _eom(state: TournamentState, body: EomDecided, actor: str) -> None:
    if end_of_match(state) != "eom_001":
        raise RuleError("AMB-X1", "this event did not adopt the 001 end-of-match procedures",
                        hint="genesis parameter end_of_match=eom_001")
    c = refusing_match_state(state).officiating.clock.get(body.round)
    if c is None or c.called_seq is None:
        raise RuleError("EOM-NSE-1", "time has not been called in this round")
    if len(body.games) != 2 or min(body.games) < 0:
        raise RuleError("EOM-NSE-4", "games are the two players' game wins")
    d, _players = eom_decision(state, body)
    got = (body.winner, body.decided_by, body.compared)
    want = (d.winner, d.decided_by, d.compared)  # type: ignore[attr-defined]
    if got != want:
        raise RuleError("EOM-SE-7", f"end of match: expected {want}, recorded {got}",
                        finding="result_mismatch")


@BOOK.applies(EomDecided)
def _eom_apply(state: TournamentState, ev: SignedEvent, body: EomDecided) -> None:
    h: MatchState = state.fmt
    rnd = open_round(state)
    tab = next((t for t in rnd.tables if t.table == body.table), None) if rnd else None
    games = list(body.games)
    if body.decided_by.value in ("eom_step_2", "eom_step_3", "eom_step_4") and tab:
        i = 0 if body.winner == tab.players[0] else 1
        games[i] += 1
    h.officiating.eom[key(body.round, body.table)] = EomRecord(seq=ev.seq,
                                                               winner=body.winner, games=games)


def _eom_guard(state: TournamentState, body: ResultRecorded | ResultCorrected,
               actor: str) -> None:
    eom = refusing_match_state(state).officiating.eom
    rec = eom.get(key(body.round, body.table)) if eom else None   # none: no key to build
    if rec is not None and body.winner != rec.winner:
        raise RuleError("EOM-SE-7", f"the end-of-match procedure (seq {rec.seq}) gives "
                        f"winner {rec.winner}, the result says {body.winner}",
                        finding="result_mismatch")


guards(ResultRecorded)(_eom_guard)
guards(ResultCorrected)(_eom_guard)


# -- decks -------------------------------------------------------------------------------------
def deck_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@BOOK.checks(DeckRegistered)
def _deck(state: TournamentState, body: DeckRegistered, actor: str) -> None:
    if body.number not in state.players:
        raise RuleError("BR-DECK-1", f"player {body.number} is not registered")
    o = refusing_match_state(state).officiating
    if body.number in o.decks:
        raise RuleError("BR-DECK-1", f"player {body.number}'s deck is already registered: "
                        "a registered list is immutable", hint="see 'tourney deck show'",
                        finding="deck_immutable")
    if len(body.sha256) != 64 or any(c not in "0123456789abcdef" for c in body.sha256):
        raise RuleError("BR-DECK-1", "sha256 is not 64 lowercase hex digits")
    if body.list is not None and deck_hash(body.list) != body.sha256:
        raise RuleError("BR-DECK-1", "the list does not hash to sha256",
                        finding="rule_violation")


@BOOK.applies(DeckRegistered)
def _deck_apply(state: TournamentState, ev: SignedEvent, body: DeckRegistered) -> None:
    state.fmt.officiating.decks[body.number] = body.sha256
    state.fmt.officiating.deck_seqs[body.number] = ev.seq


@BOOK.checks(DeckChecked)
def _deck_checked(state: TournamentState, body: DeckChecked, actor: str) -> None:
    if body.number not in refusing_match_state(state).officiating.decks:
        raise RuleError("BR-DECK-2", f"player {body.number} has no registered deck",
                        hint="a deck check compares the deck with its registration")
    if body.minutes < 0:
        raise RuleError("BR-EXT-3", "minutes cannot be negative")

