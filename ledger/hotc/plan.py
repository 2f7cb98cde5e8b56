"""What the next HotC event must say, computed from the state: the one implementation
of every HotC decision, used by the commands (to decide) and by the checks (to verify).

Owns: draw contexts, the pairing plan of a Swiss or top-cut round, the close summary
(stop rule), drop timing and the cut plan.

May import: ``ledger.state``, ``ledger.errors``, ``ledger.hotc.*``.
"""

from __future__ import annotations

from ledger.errors import RuleError
from ledger.hotc.apply import find_round, find_table
from ledger.hotc.cut import (
    bracket_tables,
    cut_spots,
    eligible_pool,
    stop_rule,
    undefeated,
)
from ledger.hotc.events import CutMade, DropTiming, RoundClosed, RoundPaired, Table
from ledger.hotc.model import Phase, RoundState, Status, TableState
from ledger.hotc.pairing import Entrant, bye_candidates, pair_swiss
from ledger.state import TournamentState

FORMAT_ID = "hotc-swiss-de"


def ctx(state: TournamentState, what: str) -> str:
    return f"{state.log}/{what}"


def require_hotc(state: TournamentState) -> None:
    if state.format is None or state.format.id != FORMAT_ID:
        raise RuleError("RULES-8", "this command needs a hotc-swiss-de tournament")
    if state.registration_closed_seq is None:
        raise RuleError("LEDGER-REG-2", "registration is still open",
                        hint="close it with 'tourney registration close'")


def cut_size(state: TournamentState) -> int:
    return state.format.cut if state.format else 8


def param(state: TournamentState, name: str, default: str) -> str:
    return str(state.format.params.get(name, default)) if state.format else default


def last_round(state: TournamentState) -> RoundState | None:
    return state.hotc.rounds[-1] if state.hotc.rounds else None


def open_round(state: TournamentState) -> RoundState | None:
    rnd = last_round(state)
    return rnd if rnd is not None and rnd.closed_seq is None else None


_ENTRANTS: dict[tuple[str, int], list[Entrant]] = {}


def entrants(state: TournamentState) -> list[Entrant]:
    """The active players, by number.  Memoised by (head, size): the state at a given
    head is fixed by the log, and one command or check asks up to four times."""
    key = (state.head, state.size)
    found = _ENTRANTS.get(key)
    if found is None:
        _ENTRANTS.clear()
        found = _ENTRANTS[key] = _entrants(state)
    return list(found)


def _entrants(state: TournamentState) -> list[Entrant]:
    return [Entrant(number=r.number, wins=r.wins, byes=r.byes, pair_downs=r.pair_downs,
                    opponents=frozenset(r.opponents))
            for r in sorted(state.hotc.records.values(), key=lambda r: r.number)
            if r.status is Status.ACTIVE]


def swiss_preconditions(state: TournamentState) -> int:
    """Refuse unless a Swiss round may be paired now; returns its number."""
    require_hotc(state)
    h = state.hotc
    if open_round(state) is not None:
        raise RuleError("HOTC-PAIR-1", f"round {h.rounds[-1].number} is still open",
                        hint="record its remaining results first ('tourney round show')")
    if h.swiss_over or h.cut is not None:
        raise RuleError("HOTC-STOP-1", "the Swiss phase is over",
                        hint="select the top cut with 'tourney cut', then 'tourney bracket'")
    active = entrants(state)
    if not h.rounds and len(active) <= cut_size(state):
        raise RuleError("AMB-H6", f"{len(active)} entrants fit in the top {cut_size(state)}: "
                        "there is no Swiss phase", hint="go straight to 'tourney cut'")
    if len(active) < 2:
        raise RuleError("HOTC-PAIR-1", "fewer than two active players",
                        hint="select the top cut with 'tourney cut'")
    return len(h.rounds) + 1


def bye_items(state: TournamentState) -> list[int] | None:
    """Candidates of the bye draw, or None when the field is even (HOTC-BYE-1)."""
    active = entrants(state)
    if len(active) % 2 == 0:
        return None
    return bye_candidates(active, param(state, "bye_priority", "no_repeat"))


def pairing_items(state: TournamentState, bye: int | None) -> list[int]:
    return [e.number for e in entrants(state) if e.number != bye]


def plan_swiss(state: TournamentState, number: int, bye: int | None,
               order: list[int], draws: list[int]) -> RoundPaired:
    """The round_paired of Swiss round ``number`` given the bye and the pairing draw."""
    field = [e for e in entrants(state) if e.number != bye]
    pairs, _exact = pair_swiss(field, order, param(state, "pair_down_counts", "higher"))
    pos = {n: i for i, n in enumerate(order)}
    pairs.sort(key=lambda p: (-p.high_wins, -p.low_wins, min(pos[p.high], pos[p.low])))
    tables = []
    for i, p in enumerate(pairs, start=1):
        first, second = (p.high, p.low) if pos[p.high] <= pos[p.low] else (p.low, p.high)
        wins = {p.high: p.high_wins, p.low: p.low_wins}
        tables.append(Table(table=i, players=[first, second],
                            groups=[wins[first], wins[second]], rematch=p.rematch,
                            pair_down=p.high if p.cross else None,
                            pair_up=p.low if p.cross else None))
    return RoundPaired(round=number, phase=Phase.SWISS, tables=tables, bye=bye, draws=draws)


def plan_top_cut(state: TournamentState) -> RoundPaired:
    """The next bracket round from the current entries (HOTC-TOP-1, AMB-H10)."""
    h = state.hotc
    if h.entries is None:
        raise RuleError("HOTC-TOP-1", "the bracket is not seeded",
                        hint="seed it with 'tourney bracket'")
    if open_round(state) is not None:
        raise RuleError("HOTC-TOP-3", "the current bracket round is still open",
                        hint="record its remaining results first")
    if h.champion is not None:
        raise RuleError("HOTC-TOP-3", f"the tournament is over: champion #{h.champion}")
    dropped = {n for n, r in h.records.items() if r.status is Status.DROPPED}
    entries = [None if e in dropped else e for e in h.entries]
    matches, advances = bracket_tables(entries)
    groups = [0, 0]
    tables = [Table(table=i, players=m, groups=groups) for i, m in enumerate(matches, start=1)]
    return RoundPaired(round=len(h.rounds) + 1, phase=Phase.TOP_CUT, tables=tables, bye=None,
                       advances=advances)


def close_summary(state: TournamentState, rnd: RoundState) -> RoundClosed:
    """round_closed of a round whose results are all in: the stop rule's verdict."""
    recs = state.hotc.records
    losers = {n for t in rnd.tables if t.result for n in t.result.losers}
    if rnd.phase is Phase.SWISS:
        x0 = undefeated(recs.values())
        one = [r.number for r in recs.values() if r.status is Status.ACTIVE and r.losses == 1]
        gone = sorted(n for n in losers if recs[n].status is Status.ELIMINATED
                      and recs[n].second_loss_round == rnd.number)
        return RoundClosed(round=rnd.number, phase=rnd.phase, undefeated=len(x0),
                           one_loss=len(one), eliminated=gone,
                           swiss_over=stop_rule(len(x0), cut_size(state)))
    remaining = [n for n in (state.hotc.entries or []) if n is not None and n not in losers]
    return RoundClosed(round=rnd.number, phase=rnd.phase, undefeated=len(remaining),
                       one_loss=0, eliminated=sorted(losers), swiss_over=True)


def round_complete(rnd: RoundState) -> bool:
    return all(t.result is not None for t in rnd.tables)


def drop_timing(state: TournamentState, number: int) -> DropTiming:
    h = state.hotc
    rnd = open_round(state)
    if rnd is not None:
        for t in rnd.tables:
            if number in t.players:
                return DropTiming.AFTER_RESULT if t.result else DropTiming.AFTER_PAIRING
    if h.swiss_over and h.cut is None:
        return DropTiming.CUT_WINDOW
    return DropTiming.BEFORE_PAIRING


def cut_plan(state: TournamentState) -> tuple[list[int], list[int], int]:
    """(X-0 players admitted, eligible pool pre-ordered, random spots) — HOTC-CUT-1/2."""
    require_hotc(state)
    h = state.hotc
    if h.cut is not None:
        raise RuleError("HOTC-CUT-1", "the top cut was already selected")
    if open_round(state) is not None:
        raise RuleError("HOTC-STOP-1", "a round is still open", hint="record its results")
    size = cut_size(state)
    recs = h.records.values()
    active = [r for r in recs if r.status is Status.ACTIVE]
    if not h.rounds:
        if len(active) > size:
            raise RuleError("HOTC-STOP-1", "the Swiss phase has not started",
                            hint="pair round 1 with 'tourney round pair'")
        return sorted(r.number for r in active), [], 0   # AMB-H6(c)
    if not h.swiss_over:
        raise RuleError("HOTC-STOP-1", f"{len(undefeated(recs))} players are undefeated, not "
                        f"fewer than {size}: play another Swiss round")
    x0 = undefeated(recs)
    return x0, eligible_pool(recs), cut_spots(size, len(x0))


def open_table(state: TournamentState, round_no: int,
               table: int) -> tuple[RoundState, TableState]:
    """The table of the open round a result may be entered for (LEDGER-RES-1)."""
    rnd = open_round(state)
    if rnd is None or rnd.number != round_no:
        last = last_round(state)
        fixable = last is not None and last.number == round_no and not (
            state.hotc.cut is not None and last.phase is Phase.SWISS)
        raise RuleError("LEDGER-RES-1", f"round {round_no} is not open for results",
                        hint="results are recorded for the current round only; " + (
                            "a judge corrects this closed round with 'tourney result "
                            "correct'" if fixable else "see 'tourney info' for the open "
                            "round"))
    tab = find_table(state.hotc, round_no, table)
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
    rnd = find_round(state.hotc, round_no)
    if rnd is None or rnd is not last_round(state) or \
            state.hotc.cut is not None and rnd.phase is Phase.SWISS:
        raise RuleError("BR-PEN-3.10.2-AMEND-3", f"round {round_no} is final: a later "
                        "round or the cut was already made", hint="no correction is possible")
    if state.hotc.champion is not None:
        raise RuleError("LEDGER-RES-3", "the tournament is over")
    tab = find_table(state.hotc, round_no, table)
    if tab is None or tab.result is None:
        raise RuleError("LEDGER-RES-1", f"round {round_no} table {table} has no result to "
                        "correct", hint="see 'tourney round show'")
    return rnd, tab, tab.result.seq


def make_cut(state: TournamentState, x0: list[int], pool: list[int], spots: int,
             drawn: list[int], draw_seq: int | None) -> CutMade:
    """The cut_made of HOTC-CUT-1..3: X-0 plus the drawn, everyone else active out."""
    cut = sorted(x0 + drawn)
    out = sorted(r.number for r in state.hotc.records.values()
                 if r.status is Status.ACTIVE and r.number not in cut)
    return CutMade(spots=spots, undefeated=x0, pool=pool, drawn=drawn, cut=cut,
                   eliminated=out, draw_seq=draw_seq)


def current_round_number(state: TournamentState) -> int:
    rnd = last_round(state)
    return rnd.number if rnd is not None else 0

