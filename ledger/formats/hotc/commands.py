"""HotC commands: decide the events of one command and record them on the aggregate.

Owns: ``pair_round``, ``record_result``, ``correct_result``, ``drop_player``,
``select_cut`` and ``seed_bracket`` — each may record several events in one atomic save
(e.g. seed, bye draw, pairing draw and round_paired; or the last result, round_closed
and champion_declared).  Decisions come from ``ledger.formats.hotc.plan``; every event still
passes ``ledger.core.rules.check`` when recorded.

May import: ``ledger.core.aggregate`` (Tournament), ``ledger.errors``, ``ledger.wire.keys``,
``ledger.wire.events``, ``ledger.formats.hotc.*``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from ledger.errors import RuleError, UsageError
from ledger.formats.hotc.plan import (
    HOTC_SWISS,
    bracket_preconditions,
    close_summary,
    cut_plan,
    hotc_drop_timing,
    make_cut,
    swiss_preconditions,
    tiny_cut,
    tiny_cut_ending,
)
from ledger.formats.hotc.results import decide_result
from ledger.formats.hotc.revision import revised
from ledger.formats.hotc.slow_play import result_calls
from ledger.formats.match.apply import find_round
from ledger.formats.match.bracket import bracket_slots
from ledger.formats.match.commands import leave_open_round, pair_swiss_round, seed_for
from ledger.formats.match.events import (
    BracketSeeded,
    ChampionDeclared,
    DropTiming,
    PlayerDropped,
    ResultCorrected,
    ResultRecorded,
)
from ledger.formats.match.model import Outcome, Phase
from ledger.formats.match.plan import (
    correctable_table,
    ctx,
    current_round_number,
    open_table,
    plan_top_cut,
    round_complete,
)
from ledger.formats.match.vocab import seat
from ledger.wire.events import SignedEvent
from ledger.wire.keys import Signer

if TYPE_CHECKING:
    from ledger.core.aggregate import Tournament
    from ledger.core.entry_facet import DecidedResult
    from ledger.core.state_model import TournamentState


def pair_round(t: Tournament, signer: Signer, time: str, *, material: str | None = None,
               source: str | None = None) -> list[SignedEvent]:
    """Pair the next round: Swiss (with bye and pairing draws) or the next bracket round."""
    st = t.state
    if st.fmt.slots is not None:
        return [t.record(plan_top_cut(st), signer, time)]
    n = swiss_preconditions(st)
    return pair_swiss_round(t, signer, time, n, HOTC_SWISS, material=material, source=source)


def _after_result(t: Tournament, number: int, signer: Signer, time: str) -> list[SignedEvent]:
    rnd = find_round(t.state.fmt, number)
    if rnd is None or not round_complete(rnd):
        return []
    out = [t.record(close_summary(t.state, rnd), signer, time)]
    left = [n for n in (t.state.fmt.entries or []) if n is not None]
    if rnd.phase is Phase.TOP_CUT and len(left) == 1:
        out.append(t.record(ChampionDeclared(number=left[0], round=rnd.number), signer, time))
    return out


def _calls(state: TournamentState, round_no: int, table: int, outcome: Outcome,
           slow_play: list[int] | None) -> tuple[list[int] | None, int | msgspec.UnsetType]:
    """R2: name the recorded upheld calls and cite the one a slow-play timeout rests on."""
    if not revised(state):
        return slow_play, msgspec.UNSET
    named, call = result_calls(state, round_no, table, outcome, slow_play)
    return named, msgspec.UNSET if call is None else call


def record_result(t: Tournament, signer: Signer, time: str, *, round_no: int, table: int,
                  outcome: Outcome, winner: int | None = None, loser: int | None = None,
                  turn_player: int | None = None, slow_play: list[int] | None = None,
                  note: str = "", losers: list[int] | None = None,
                  penalty_seq: int | None = None) -> list[SignedEvent]:
    rnd, tab = open_table(t.state, round_no, table)
    slow_play, call = _calls(t.state, round_no, table, outcome, slow_play)
    d = decide_result(rnd.phase, tab.players, outcome, winner=winner, loser=loser,
                      turn_player=turn_player, slow_play=slow_play, losers=losers)
    ev = t.record(ResultRecorded(round=round_no, table=table, winner=d.winner, losers=d.losers,
                                 outcome=outcome, loss_reasons=d.loss_reasons,
                                 turn_player=turn_player, slow_play=sorted(slow_play or []),
                                 note=note, slow_play_call=call,
                                 penalty_seq=msgspec.UNSET if penalty_seq is None
                                 else penalty_seq), signer, time)
    return [ev, *_after_result(t, round_no, signer, time)]


def decided_result(state: TournamentState, *, round_no: int, table: int, outcome: Outcome,
                   winner: int | None = None, loser: int | None = None,
                   turn_player: int | None = None, slow_play: list[int] | None = None,
                   note: str = "", reason: str = "") -> DecidedResult:
    """What this entry decides for a table that already has players (recording nothing):
    ``decide_result``, the one decision ``record_result`` and the audit use too."""
    found = seat(state, round_no, table)
    if found is None:
        raise RuleError("LEDGER-RES-1", f"round {round_no} has no table {table}",
                        hint="see 'tourney round show'")
    phase, players = found
    slow_play, _call = _calls(state, round_no, table, outcome, slow_play)
    d = decide_result(phase, players, outcome, winner=winner, loser=loser,
                      turn_player=turn_player, slow_play=slow_play)
    return d.winner, list(d.losers), list(d.loss_reasons), outcome, None


def correct_result(t: Tournament, signer: Signer, time: str, *, round_no: int, table: int,
                   outcome: Outcome, reason: str, winner: int | None = None,
                   loser: int | None = None, turn_player: int | None = None,
                   slow_play: list[int] | None = None,
                   losers: list[int] | None = None) -> list[SignedEvent]:
    rnd, tab, current = correctable_table(t.state, round_no, table)
    slow_play, call = _calls(t.state, round_no, table, outcome, slow_play)
    d = decide_result(rnd.phase, tab.players, outcome, winner=winner, loser=loser,
                      turn_player=turn_player, slow_play=slow_play, losers=losers)
    ev = t.record(ResultCorrected(round=round_no, table=table, winner=d.winner,
                                  losers=d.losers, outcome=outcome,
                                  loss_reasons=d.loss_reasons, corrects_seq=current,
                                  reason=reason, turn_player=turn_player,
                                  slow_play=sorted(slow_play or []),
                                  slow_play_call=call), signer, time)
    out = [ev]
    if rnd.closed_seq is not None:
        out += _after_result(t, round_no, signer, time)
    return out


def drop_player(t: Tournament, signer: Signer, time: str, number: int,
                reason: str = "") -> list[SignedEvent]:
    """BR-DROP-1/2, HOTC-DROP-1: before pairings not paired; after pairings a loss."""
    timing = hotc_drop_timing(t.state, number)
    out = [t.record(PlayerDropped(number=number, round=current_round_number(t.state),
                                  timing=timing, reason=reason), signer, time)]
    if timing is DropTiming.AFTER_PAIRING:      # a loss, or no winner (TC-23)
        out += leave_open_round(t, signer, time, number, outcome=Outcome.DROP, why="dropped")
    return out


def select_cut(t: Tournament, signer: Signer, time: str, *, material: str | None = None,
               source: str | None = None, no_champion: str | None = None) -> list[SignedEvent]:
    """HOTC-CUT-1..3: all X-0 players, the rest drawn from the eligible pool.  Under
    HOTC_2013_R2 a cut of one player also declares that player the champion, and a cut of
    none needs the head judge's reason (``no_champion``) and records the ruling."""
    st = t.state
    x0, pool, spots = cut_plan(st)
    size = len(x0) + min(spots, len(pool))
    if no_champion is not None and not (revised(st) and size == 0):
        raise UsageError("--no-champion is only for a top cut with no player "
                         f"(HOTC_2013_R2); this cut has {size}", hint="omit --no-champion")
    if revised(st) and size == 0 and not (no_champion or "").strip():
        raise RuleError("AMB-H9", "the top cut would have no player: the event ends with no "
                        "champion, by the head judge's ruling with a reason",
                        hint="repeat with --no-champion REASON")
    out: list[SignedEvent] = []
    drawn: list[int] = []
    draw_seq = None
    if spots and pool:
        seed_seq = seed_for(t, "cut", signer, time, out, material=material, source=source)
        ev = t.make_draw(ctx=ctx(st, "cut"), items=pool, seed_seq=seed_seq,
                         reason=f"{spots} random top-cut spots (HOTC-CUT-2)", signer=signer,
                         time=time)
        out.append(ev)
        draw_seq = ev.seq
        drawn = st.draw_results[ev.seq][:spots]
    cut_ev = t.record(make_cut(st, x0, pool, spots, drawn, draw_seq), signer, time)
    out.append(cut_ev)
    if tiny_cut(t.state):
        out.append(t.record(tiny_cut_ending(t.state, cut_ev.seq, no_champion or ""),
                            signer, time))
    return out


def seed_bracket(t: Tournament, signer: Signer, time: str, *, material: str | None = None,
                 source: str | None = None) -> list[SignedEvent]:
    """HOTC-TOP-1: random seeding of the cut onto slots, then pair its first round; on a
    seeded bracket, pair the next bracket round."""
    st = t.state
    if st.fmt.slots is not None:
        return pair_round(t, signer, time)
    bracket_preconditions(st)
    out: list[SignedEvent] = []
    seed_seq = seed_for(t, "bracket", signer, time, out, material=material, source=source)
    ev = t.make_draw(ctx=ctx(st, "bracket"), items=sorted(st.fmt.cut), seed_seq=seed_seq,
                     reason="random bracket seeding (HOTC-TOP-1)", signer=signer, time=time)
    slots = bracket_slots(st.draw_results[ev.seq], st.format.cut if st.format else 8)
    out += [ev, t.record(BracketSeeded(slots=slots, draw_seq=ev.seq), signer, time)]
    return out + pair_round(t, signer, time)

