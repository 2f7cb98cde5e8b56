"""Decisions every format that plays rounds of matches shares: the one implementation used
by the commands (to decide) and by the checks (to verify).

Owns: draw contexts, the current/open round, the active entrants, the Swiss-like pairing
plan of a round (one engine for every format, grouped by wins or points, HOTC-PAIR-5 /
AMB-B7), the next bracket round, drop timing (BR-DROP-1/2, AMB-B17), which table takes a
result or a correction, and the close summary of a bracket round.

May import: ``ledger.core.state``, ``ledger.errors``, ``ledger.formats.match.*``.
"""

from __future__ import annotations

from operator import attrgetter

from ledger.core.state import TournamentState
from ledger.core.views_facet import PhaseName, Progress, RoundProgress
from ledger.errors import RuleError
from ledger.formats.match.apply import find_round, find_table
from ledger.formats.match.bracket import bracket_tables
from ledger.formats.match.departure import both_out
from ledger.formats.match.events import (
    PAIRING_ALGORITHM,
    DropTiming,
    RoundClosed,
    RoundPaired,
    Table,
)
from ledger.formats.match.model import (
    MatchState,
    Phase,
    PlayerRecord,
    RoundState,
    Status,
    TableState,
)
from ledger.formats.match.pairing import CORE_PER_GROUP, EXACT_LIMIT, Entrant, pair_swiss

# enum members read as module constants: a member read through its enum class is a
# metaclass lookup on every use, and these are read for every event the audit
# folds (issue 28)
_PHASE_SWISS = Phase.SWISS
_PHASE_TOP_CUT = Phase.TOP_CUT
_STATUS_ACTIVE = Status.ACTIVE
_STATUS_DISQUALIFIED = Status.DISQUALIFIED
_STATUS_DROPPED = Status.DROPPED


#: Field size above which the exact matcher runs on a core of each win/point group (the
#: first players of each large group in draw order), per recorded pairing algorithm: HotC's
#: two win groups afford a large core (ADR 0004); a Swiss with a dozen point groups keeps
#: each group's core small so one round of 4,096 stays in budget (ADR 0006).
PAIRING_LIMITS: dict[str, tuple[int, int]] = {
    PAIRING_ALGORITHM: (EXACT_LIMIT, CORE_PER_GROUP),     # "hotc-pair/v1": 160, 40
    "match-pair/v1": (32, 8),
}


def ctx(state: TournamentState, what: str) -> str:
    return f"{state.log}/{what}"


def attempt(state: TournamentState, number: int) -> int:
    """How many times round ``number``'s pairing was voided (ADR 0012)."""
    return len(state.fmt.officiating.voids.get(number, ()))


def round_what(state: TournamentState, number: int, what: str, *,
               first: str | None = None) -> str:
    """The draw (or seed) context of round ``number`` below ``<log>/``: ``first`` (default
    ``R<n>/<what>``) while its pairing was never voided, then ``R<n>/v<k>/<what>`` after
    the k-th void — a context is drawn once, so each attempt has its own (ADR 0012).
    ``what = ""`` is the attempt's seed context (``R<n>``, ``R<n>/v<k>``)."""
    k = attempt(state, number)
    if k == 0:
        return first if first is not None else f"R{number}/{what}".rstrip("/")
    return f"R{number}/v{k}/{what}".rstrip("/")


def round_ctx(state: TournamentState, number: int, what: str, *,
              first: str | None = None) -> str:
    return ctx(state, round_what(state, number, what, first=first))


def last_void(state: TournamentState, number: int) -> int:
    """The seq of round ``number``'s latest void (0: none): its draws need a seed recorded
    after it."""
    seqs = state.fmt.officiating.voids.get(number, ())
    return seqs[-1] if seqs else 0


def param(state: TournamentState, name: str, default: str) -> str:
    return str(state.format.params.get(name, default)) if state.format else default


def last_round(state: TournamentState) -> RoundState | None:
    return state.fmt.rounds[-1] if state.fmt.rounds else None


def open_round(state: TournamentState) -> RoundState | None:
    rnd = last_round(state)
    return rnd if rnd is not None and rnd.closed_seq is None else None


_NUMBER = attrgetter("number")


def entrants(state: TournamentState) -> list[Entrant]:
    """The active players, by number.  Not memoised: on a hostile log the same head and
    size can stand for different states (the chain is what the audit is checking), so a
    cache keyed by them could hand one audit another log's field; a check that needs the
    field several times builds it once and passes it on (``active``)."""
    # positional: (number, wins, byes, pair_downs, opponents), built for every player
    return [Entrant(r.number, r.wins, r.byes, r.pair_downs, frozenset(r.opponents))
            for r in sorted(state.fmt.records.values(), key=_NUMBER)
            if r.status is _STATUS_ACTIVE]


def active_count(state: TournamentState) -> int:
    """``len(entrants(state))`` without building the entrants."""
    return sum(1 for r in state.fmt.records.values() if r.status is _STATUS_ACTIVE)


def pairing_items(state: TournamentState, bye: int | None,
                  active: list[Entrant] | None = None) -> list[int]:
    """The items of the pairing draw; ``active`` = ``entrants(state)`` if already built."""
    return [e.number for e in (entrants(state) if active is None else active)
            if e.number != bye]


def plan_swiss(state: TournamentState, number: int, bye: int | None,
               order: list[int], draws: list[int], *,
               algorithm: str = PAIRING_ALGORITHM,
               active: list[Entrant] | None = None) -> RoundPaired:
    """The round_paired of Swiss round ``number`` given the bye and the pairing draw
    (``active`` = ``entrants(state)`` if the caller already built them)."""
    field = [e for e in (entrants(state) if active is None else active) if e.number != bye]
    limit, core = PAIRING_LIMITS.get(algorithm, (EXACT_LIMIT, CORE_PER_GROUP))
    pairs, _exact = pair_swiss(field, order, param(state, "pair_down_counts", "higher"),
                               exact_limit=limit, core_per_group=core)
    pos = {n: i for i, n in enumerate(order)}
    pairs.sort(key=lambda p: (-p.high_wins, -p.low_wins, min(pos[p.high], pos[p.low])))
    tables = []
    for i, p in enumerate(pairs, start=1):     # the one drawn first sits first
        high, low, hw, lw = p.high, p.low, p.high_wins, p.low_wins
        cross = hw != lw                          # ``Pair.cross``
        players, groups = ([high, low], [hw, lw]) if pos[high] <= pos[low] else \
            ([low, high], [lw, hw])
        tables.append(Table(table=i, players=players, groups=groups, rematch=p.rematch,
                            pair_down=high if cross else None,
                            pair_up=low if cross else None))
    return RoundPaired(round=number, phase=_PHASE_SWISS, tables=tables, bye=bye, draws=draws,
                       algorithm=algorithm)


def plan_top_cut(state: TournamentState) -> RoundPaired:
    """The next bracket round from the current entries (HOTC-TOP-1, AMB-H10)."""
    h = state.fmt
    if h.entries is None:
        raise RuleError("HOTC-TOP-1", "the bracket is not seeded",
                        hint="seed it with 'tourney bracket'")
    if open_round(state) is not None:
        raise RuleError("HOTC-TOP-3", "the current bracket round is still open",
                        hint="record its remaining results first")
    if h.champion is not None:
        raise RuleError("HOTC-TOP-3", f"the tournament is over: champion #{h.champion}")
    if len(h.entries) < 2:
        raise RuleError("BR-SE-3", "the bracket is finished with no fighter left (both "
                        "finalists lost): no champion", hint="AMB-B13: the organizer decides")
    dropped = {n for n, r in h.records.items()
               if r.status in (_STATUS_DROPPED, _STATUS_DISQUALIFIED)}
    entries = [None if e in dropped else e for e in h.entries]
    matches, advances = bracket_tables(entries)
    groups = [0, 0]
    tables = [Table(table=i, players=m, groups=groups) for i, m in enumerate(matches, start=1)]
    return RoundPaired(round=len(h.rounds) + 1, phase=_PHASE_TOP_CUT, tables=tables, bye=None,
                       advances=advances)


def round_complete(rnd: RoundState) -> bool:
    """Every table of ``rnd`` has a result: the count kept at each result
    (``RoundState.results``), not a scan of the tables (issue 22 item 2)."""
    return rnd.results == len(rnd.tables)


def drop_timing(state: TournamentState, number: int) -> DropTiming:
    """BR-DROP-1/2 by ledger order (AMB-B17).  A player whose win in the open round came
    only from the opponent leaving it (``departure.both_out``) has not played: their drop
    is still after pairing, and the table then has no winner (TC-23)."""
    h = state.fmt
    rnd = open_round(state)
    if rnd is not None:
        for t in rnd.tables:
            if number in t.players:
                if t.result is None or both_out(h, rnd, t, number):
                    return DropTiming.AFTER_PAIRING
                return DropTiming.AFTER_RESULT
    if h.swiss_over and h.cut is None:
        return DropTiming.CUT_WINDOW
    return DropTiming.BEFORE_PAIRING


def open_table(state: TournamentState, round_no: int,
               table: int) -> tuple[RoundState, TableState]:
    """The table of the open round a result may be entered for (LEDGER-RES-1)."""
    rnd = open_round(state)
    if rnd is None or rnd.number != round_no:
        last = last_round(state)
        fixable = last is not None and last.number == round_no and not (
            state.fmt.cut is not None and last.phase is _PHASE_SWISS)
        raise RuleError("LEDGER-RES-1", f"round {round_no} is not open for results",
                        hint="results are recorded for the current round only; " + (
                            "a judge corrects this closed round with 'tourney result "
                            "correct'" if fixable else "see 'tourney info' for the open "
                            "round"))
    tab = find_table(state.fmt, round_no, table)
    if tab is None:
        raise RuleError("LEDGER-RES-1", f"round {round_no} has no table {table}",
                        hint="see 'tourney round show'")
    if tab.result is not None:
        raise RuleError("LEDGER-RES-1", f"table {table} of round {round_no} already has a "
                        f"result (seq {tab.result.seq})",
                        hint="a judge corrects it with 'tourney result correct'")
    return rnd, tab


def correctable_table(state: TournamentState, round_no: int,
                      table: int) -> tuple[RoundState, TableState, int]:
    """A table whose result may still be corrected, and the seq of that result: only the
    newest round, before the next round or the cut (BR-PEN-3.10.2 timing)."""
    rnd = find_round(state.fmt, round_no)
    if rnd is None or rnd is not last_round(state) or \
            state.fmt.cut is not None and rnd.phase is _PHASE_SWISS:
        amend = rnd is not None and rnd.phase is _PHASE_SWISS and state.fmt.cut is None
        raise RuleError("BR-PEN-3.10.2-AMEND-3", f"round {round_no} is final: a later "
                        "round or the cut was already made",
                        hint=f"the head judge amends it: tourney result amend --round "
                             f"{round_no} --table {table} … --reason TEXT (later pairings "
                             "stand)" if amend else "no correction is possible: the top "
                             "cut was made")
    if state.fmt.champion is not None:
        raise RuleError("LEDGER-RES-3", "the tournament is over")
    tab = find_table(state.fmt, round_no, table)
    if tab is None or tab.result is None:
        raise RuleError("LEDGER-RES-1", f"round {round_no} table {table} has no result to "
                        "correct", hint="see 'tourney round show'")
    return rnd, tab, tab.result.seq


def dropping_record(state: TournamentState, number: int) -> PlayerRecord:
    """The record of a player asking to drop (BR-DROP-1); before registration closes a
    registered player has no record yet and withdraws instead."""
    rec = state.fmt.records.get(number)
    if rec is None and number in state.players:
        raise RuleError("BR-DROP-1", f"registration is still open: player {number} "
                        "is registered and withdraws instead of dropping",
                        hint=f"tourney player withdraw {number}")
    if rec is None:
        raise RuleError("BR-DROP-1", f"player {number} is not registered",
                        hint="see 'tourney player list'")
    return rec  # type: ignore[no-any-return]


def current_round_number(state: TournamentState) -> int:
    rnd = last_round(state)
    return rnd.number if rnd is not None else 0

def close_top_cut(state: TournamentState, rnd: RoundState) -> RoundClosed:
    """round_closed of a bracket round whose results are all in (who remains)."""
    losers = {n for t in rnd.tables if t.result for n in t.result.losers}
    h: MatchState = state.fmt
    remaining = [n for n in (h.entries or []) if n is not None and n not in losers]
    return RoundClosed(round=rnd.number, phase=rnd.phase, undefeated=len(remaining),
                       one_loss=0, eliminated=sorted(losers), swiss_over=True)


def recorded_draw(state: TournamentState, seq: int, want_ctx: str, items: list[int]) -> list[int]:
    """The result of draw ``seq``, which must be the draw of ``want_ctx`` over exactly
    ``items`` (pre-ordered); an event that cites another draw is refused."""
    if state.draws.get(want_ctx) != seq:
        raise RuleError("LEDGER-RAND-1", f"draw seq {seq} is not the draw of {want_ctx!r}",
                        finding="draw_mismatch")
    if state.draw_items.get(seq) != items:
        raise RuleError("LEDGER-RAND-1", f"draw {want_ctx!r} was not over {items}",
                        finding="draw_mismatch")
    return state.draw_results[seq]


def correction_table(state: TournamentState, round_no: int, table: int, corrects_seq: int,
                     reason: str) -> tuple[RoundState, TableState]:
    """The table a ``result_corrected`` may change: still correctable, citing the seq of its
    current result, with a reason (LEDGER-RES-1).  Every match format's check calls this."""
    rnd, tab, current = correctable_table(state, round_no, table)
    if current != corrects_seq:
        raise RuleError("LEDGER-RES-1", f"seq {corrects_seq} is not the current result "
                        f"of round {round_no} table {table} (seq {current})",
                        hint="cite the seq shown by 'tourney round show'")
    if not reason.strip():
        raise RuleError("LEDGER-RES-1", "a correction needs a reason", hint="pass --reason")
    return rnd, tab


def match_progress(state: TournamentState) -> Progress:
    """Where a match-layer event stands (``FormatPlugin.progress`` of HotC and every
    Bushiroad format): phase, the current round and its tables still missing a result,
    the champion."""
    h: MatchState = state.fmt
    rnd = h.rounds[-1] if h.rounds else None
    phase: PhaseName
    if state.registration_closed_seq is None:
        phase = "registration"
    elif h.champion is not None or h.final:
        phase = "finished"
    elif h.slots is not None:
        phase = "top_cut"
    elif h.cut is not None:
        phase = "cut_made"
    elif h.swiss_over:
        phase = "cut_window"
    else:
        phase = "swiss"
    current = None if rnd is None else RoundProgress(
        number=rnd.number, phase=rnd.phase.value, open=rnd.closed_seq is None,
        tables=len(rnd.tables), missing_results=[t.table for t in rnd.tables
                                                 if t.result is None])
    return Progress(phase=phase, champion=h.champion, round=current)
