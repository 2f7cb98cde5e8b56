"""Voiding the open round's pairing before any result (issue 9 §7, ADR 0012): the check
and transition of ``pairing_voided``, and the rule the next attempt's draws follow.

A void takes the round back as if it had never been paired — opponents, pair-downs, the
bye, the table history, the clock, and the losses pending penalties gave at the pairing
(a bye lost to such a LoM is a bye again; they bind again when the round is paired anew)
— and gives the previous round back its tables, so a result of it can be corrected again.
The ``round_paired`` stays on the log.
Every draw context is drawn once, so attempt k+1 of round n draws under
``<log>/R<n>/v<k>/…`` (``match.plan.round_ctx``), only after the k-th void and from a seed
recorded after it: a head judge cannot keep voiding until a pairing known in advance comes
up.  A result entered by the tables (or by a penalty during the round) makes the pairing
stand: later fixes are corrections and amendments.  In a team event a seat result counts
as a table's (issue 20, ADR 0026): a member's seat lost to a Loss of Match given before the
round (``carried_seat``), and a team result derived only from such seats, do not make the
pairing stand; the void clears the round's seats and the losses bind again at the re-pair.

Findings: ``rule_violation`` (a void the rules refuse), ``draw_mismatch`` (a draw of a
re-pair context out of turn or from a seed older than the void).

May import: ``ledger.core.state``, ``ledger.wire.events``, ``ledger.errors``,
``ledger.formats.match.*``, ``ledger.formats.officiating.*``.
"""

from __future__ import annotations

import re

from ledger.core.state import TournamentState
from ledger.errors import RuleError
from ledger.formats.match import history
from ledger.formats.match.apply import effect, find_round, set_tables
from ledger.formats.match.model import (
    MatchState,
    Outcome,
    Phase,
    RoundState,
    TableState,
)
from ledger.formats.match.plan import attempt, last_void, open_round
from ledger.formats.match.team_model import SeatResult, seat_key
from ledger.formats.officiating.apply import bye_restored, carried_bye_loss
from ledger.formats.officiating.book_table import OFFICIATING_BOOK as BOOK
from ledger.formats.officiating.book_table import guards
from ledger.formats.officiating.events import PairingVoided
from ledger.formats.officiating.rules import refusing_match_state
from ledger.wire.events import DrawMade, SignedEvent

_ATTEMPT = re.compile(r"/R(\d+)/v(\d+)(?:/|$)")


def carried(h: MatchState, rnd: RoundState, tab: TableState) -> bool:
    """The table's result is the loss a penalty given before this round owed (recorded with
    the pairing, BR-PEN-RANK-8): it is not a result the table entered."""
    res = tab.result
    one = res is not None and res.outcome in (Outcome.CONCESSION, Outcome.PENALTY) and \
        len(res.losers) == 1
    both = res is not None and res.outcome is Outcome.DOUBLE_LOSS and \
        sorted(res.losers) == sorted(tab.players)           # both owed it (BR-DROP-2)
    if res is None or not (one or both):
        return False
    return all(any(x.number == p and x.match and x.round == rnd.number
                   and x.after_round < rnd.number for x in h.officiating.pending)
               for p in res.losers)


def carried_seat(h: MatchState, rnd: RoundState, r: SeatResult) -> bool:
    """A team event's seat result (issue 20) is the loss a member's own Loss of Match
    given before this round owed (bound at the pairing and recorded with it, ADR 0026
    decision 12) — one loser, or both fighters when both owed it (BR-DROP-2) — the seat
    counterpart of ``carried``: not a result the table entered."""
    if not r.losers or (r.winner is None) != (len(r.losers) == 2):
        return False
    return all(any(x.number == p and x.member and x.match and x.round == rnd.number
                   and x.after_round < rnd.number for x in h.officiating.pending)
               for p in r.losers)


def _seats(h: MatchState, rnd: RoundState, table: int) -> list[SeatResult]:
    return [] if h.teams is None else h.teams.seats.get(seat_key(rnd.number, table), [])


def _team_carried(h: MatchState, rnd: RoundState, tab: TableState) -> bool:
    """A team table's result derived only from carried seats (all of them) is carried."""
    rows = _seats(h, rnd, tab.table)
    return h.teams is not None and len(rows) == h.teams.size and \
        all(carried_seat(h, rnd, r) for r in rows)


def blockers(state: TournamentState, rnd: RoundState) -> list[str]:
    """What makes the pairing of the open round stand (empty: it may be voided).  In a
    team event each seat result counts as a table's would (issue 20): a member's loss a
    penalty given before the round owed does not make the pairing stand."""
    h = refusing_match_state(state)
    o = h.officiating
    out = [f"table {t.table} has a result (seq {t.result.seq})" for t in rnd.tables
           if t.result is not None and not carried(h, rnd, t)
           and not _team_carried(h, rnd, t)]
    out += [f"table {t.table} seat {r.seat} has a result (seq {r.seq})" for t in rnd.tables
            for r in _seats(h, rnd, t.table) if not carried_seat(h, rnd, r)]
    bye = h.records.get(rnd.bye) if rnd.bye is not None else None
    if bye is not None and rnd.phase is Phase.SWISS and bye.played[rnd.number - 1:
                                                                    rnd.number] == "N" \
            and not carried_bye_loss(state, rnd):
        out.append(f"the bye of #{bye.number} was lost to a Loss of Match")
    out += [f"table {k.split('/')[1]} has an end-of-match decision (seq {e.seq})"
            for k, e in o.eom.items() if k.startswith(f"{rnd.number}/")]
    out += [f"#{x.number} lost a game of this round to a penalty (seq {x.seq})"
            for x in o.pending if x.round == rnd.number and x.after_round >= rnd.number]
    return out


@BOOK.checks(PairingVoided)
def _void(state: TournamentState, body: PairingVoided, actor: str) -> None:
    rnd = open_round(state)
    if rnd is None or rnd.number != body.round or rnd.paired_seq != body.paired_seq:
        raise RuleError("LEDGER-RES-1", f"seq {body.paired_seq} is not the pairing of the "
                        f"open round {body.round}",
                        hint="void the round just paired (see 'tourney round show')")
    if not body.reason.strip():
        raise RuleError("LEDGER-RES-1", "a void needs a reason", hint="pass --reason TEXT")
    why = blockers(state, rnd)
    if why:
        raise RuleError("LEDGER-RES-1", f"round {rnd.number}'s pairing stands: "
                        + "; ".join(why), hint="results are fixed with 'tourney result "
                        "correct'; a pairing is voided only before any result")


def _unpair(state: TournamentState, rnd: RoundState) -> None:
    """Take back what ``round_paired`` (or the override that replaced its tables) added."""
    h: MatchState = state.fmt
    rec = h.records
    swiss = rnd.phase is Phase.SWISS
    both = state.format is not None and state.format.params.get("pair_down_counts") == "both"
    for t in rnd.tables:
        if t.result is not None:                 # a carried penalty loss (``carried``)
            effect(state, rnd, t, t.result, -1)
        a, b = t.players
        if swiss and a in rec and b in rec:
            rec[a].opponents.pop()
            rec[b].opponents.pop()
        if t.pair_down in rec:
            rec[t.pair_down].pair_downs -= 1
        if t.pair_up in rec:
            rec[t.pair_up].pair_ups -= 1
            if both:
                rec[t.pair_up].pair_downs -= 1
    seated = [p for t in rnd.tables for p in t.players]
    if rnd.bye is not None and rnd.bye in rec:
        if carried_bye_loss(state, rnd):        # the LoM binds again at the re-pair
            bye_restored(h, rnd.bye, rnd.number)
        r = rec[rnd.bye]
        r.wins -= 1
        r.byes -= 1
        seated.append(rnd.bye)
        if r.dropped_round == rnd.number and r.dropped_after_rounds:
            r.dropped_round = rnd.number - 1       # left while holding the voided bye
            r.dropped_after_rounds -= 1
        dq = h.officiating.dq.get(rnd.bye)
        if dq is not None and dq.round == rnd.number:
            dq.round = rnd.number - 1
    if swiss:
        for p in seated:
            if p in rec:
                rec[p].played = rec[p].played[:rnd.number - 1]


@BOOK.applies(PairingVoided)
def _apply(state: TournamentState, ev: SignedEvent, body: PairingVoided) -> None:
    h: MatchState = state.fmt
    rnd = find_round(h, body.round)
    if rnd is None or rnd is not h.rounds[-1]:
        return
    o = h.officiating
    _unpair(state, rnd)
    h.rounds.pop()
    h.swiss_rounds = max((r.number for r in h.rounds if r.phase is Phase.SWISS), default=0)
    prev = h.rounds[-1] if h.rounds else None
    if prev is not None and not prev.tables:
        set_tables(prev, history.tables_of(o, prev.number))
    o.history.pop(rnd.number, None)
    o.layout.pop(rnd.number, None)
    for x in o.pending:                          # bind again when the round is re-paired
        if x.round == rnd.number:
            x.round = None
    o.clock.pop(rnd.number, None)
    for k in [k for k in o.extensions if k.startswith(f"{rnd.number}/")]:
        del o.extensions[k]
        o.extension_turns.pop(k, None)
    o.voids.setdefault(rnd.number, []).append(ev.seq)
    if h.teams is not None:                      # the seats carried penalties gave (issue 20)
        for t in rnd.tables:
            h.teams.seats.pop(seat_key(rnd.number, t.table), None)


@guards(DrawMade)
def _attempt_draw(state: TournamentState, body: DrawMade, actor: str) -> None:
    """A draw under ``<log>/R<n>/v<k>/…`` belongs to attempt k+1 of round n: only after
    its k-th void, before the round is paired again, from a seed recorded since."""
    if not body.ctx.startswith(f"{state.log}/R"):
        return
    m = _ATTEMPT.match(body.ctx, len(state.log))
    if m is None:
        return
    n, k = int(m.group(1)), int(m.group(2))
    h = refusing_match_state(state)
    if k != attempt(state, n) or find_round(h, n) is not None:
        raise RuleError("LEDGER-RAND-1", f"{body.ctx!r} is not the context of round {n}'s "
                        f"next pairing (its pairing was voided {attempt(state, n)} time(s))",
                        finding="draw_mismatch")
    if body.seed_seq <= last_void(state, n):
        raise RuleError("LEDGER-RAND-1", f"round {n} was voided at seq {last_void(state, n)}:"
                        f" its new draws need a seed recorded after it, not seq "
                        f"{body.seed_seq}", hint="record a fresh seed (--seed-material)",
                        finding="draw_mismatch")


def void_notice(body: PairingVoided, k: int) -> str:
    return (f"round {body.round}: the pairing at seq {body.paired_seq} was voided by the "
            f"head judge (void {k} of this round); reason: {body.reason}")
