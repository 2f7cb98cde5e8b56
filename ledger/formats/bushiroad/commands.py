"""Bushiroad commands: decide the events of one command and record them on the aggregate.

Owns: ``pair_round`` (Swiss / DE rounds with bye and pairing draws, round-robin rounds from
one drawn order, or the next bracket round), ``record_result`` / ``correct_result`` (from
game scores, BR-MATCH-1), ``drop_player``, ``select_cut`` (finalists, or the final
standings of an event without a cut, with the tie-break draw when one is needed) and
``seed_bracket`` (by ranking after a cut, by a recorded draw in a single-elimination
event).  Decisions come from ``plan``; every event still passes the checks when recorded.

May import: ``ledger.core.aggregate`` (type hints), ``ledger.errors``, ``ledger.wire.events``,
``ledger.wire.keys``, ``ledger.formats.match.*``, ``ledger.formats.bushiroad.*``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

import msgspec

from ledger.errors import RuleError, UsageError
from ledger.formats.bushiroad.finalists import PendingDraw
from ledger.formats.bushiroad.plan import (
    BR_SWISS,
    FormatId,
    close_summary,
    decide,
    fmt_id,
    make_annex,
    make_final_standings,
    make_finalists,
    match_state,
    outcome_of,
    require_stage_over,
    round_preconditions,
    round_robin_round,
    stage_over,
    step_ctx,
    tiebreak_needed,
)
from ledger.formats.bushiroad.results import Ending, Games
from ledger.formats.match.apply import find_round
from ledger.formats.match.bracket import bracket_size, bracket_slots, ranked_order
from ledger.formats.match.commands import (
    leave_open_round,
    pair_swiss_round,
    round_seed,
    seed_for,
)
from ledger.formats.match.events import (
    AnnexA,
    BracketSeeded,
    ChampionDeclared,
    DropTiming,
    PlayerDropped,
    ResultCorrected,
    ResultRecorded,
    RoundPaired,
)
from ledger.formats.match.model import DecidedBy, LossReason, Outcome, Phase
from ledger.formats.match.plan import (
    correctable_table,
    ctx,
    current_round_number,
    drop_timing,
    entrants,
    open_table,
    plan_top_cut,
    round_complete,
    round_ctx,
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
    st = t.state
    if match_state(st).slots is not None:
        paired = t.record(plan_top_cut(st), signer, time)
        body = paired.body
        assert isinstance(body, RoundPaired)
        # a bracket round where everyone advances unplayed closes at once (one finalist
        # left is the champion with no match)
        return [paired, *_after_result(t, body.round, signer, time)]
    n = round_preconditions(st)
    out: list[SignedEvent] = []
    if fmt_id(st) is FormatId.ROUND_ROBIN:
        draws: list[int] = []
        order = match_state(st).order
        if n == 1:
            seed_seq = round_seed(t, 1, signer, time, out, first="order",
                                  material=material, source=source)
            ev = t.make_draw(ctx=round_ctx(st, 1, "order", first="order"),
                             items=[e.number for e in entrants(st)],
                             seed_seq=seed_seq, signer=signer, time=time,
                             reason="round-robin schedule order (BR-SWISS-ROUNDS-1)")
            out.append(ev)
            draws = [ev.seq]
            order = st.draw_results[ev.seq]
        out.append(t.record(round_robin_round(st, n, list(order or []), draws), signer, time))
        return out + _after_result(t, n, signer, time)   # a round left with no table
    return pair_swiss_round(t, signer, time, n, BR_SWISS, material=material, source=source)


def _after_result(t: Tournament, number: int, signer: Signer, time: str) -> list[SignedEvent]:
    rnd = find_round(match_state(t.state), number)
    if rnd is None or not round_complete(rnd):
        return []
    st = t.state
    if rnd.phase is Phase.TOP_CUT:
        from ledger.formats.match.plan import close_top_cut
        out = [t.record(close_top_cut(st, rnd), signer, time)]
        left = [n for n in (match_state(t.state).entries or []) if n is not None]
        if len(left) == 1:
            out.append(t.record(ChampionDeclared(number=left[0], round=rnd.number),
                                signer, time))
        return out
    out = [t.record(close_summary(st, rnd), signer, time)]
    over, champion = stage_over(t.state, rnd)
    if over and champion is not None and not t.state.format.cut:  # type: ignore[union-attr]
        out.append(t.record(ChampionDeclared(number=champion, round=rnd.number), signer, time))
    return out


_ENDING = {Outcome.WIN: Ending.PLAYED, Outcome.DRAW: Ending.PLAYED,
           Outcome.TIMEOUT: Ending.TIMEOUT, Outcome.CONCESSION: Ending.CONCESSION,
           Outcome.DROP: Ending.DROP, Outcome.PENALTY: Ending.PENALTY}


def _games(state: TournamentState, players: list[int], outcome: Outcome, winner: int | None,
           games: list[int] | None, annex: AnnexA | None) -> Games:
    """The game score: as given (``--games``), or the only one the outcome allows in BO1
    (a win 1-0, a draw one drawn game); the Annex A game is added to its winner."""
    if games is not None:
        g = Games(*games) if len(games) in (2, 3) else None
        if g is None:
            raise UsageError("--games takes WINS-WINS or WINS-WINS-DRAWS",
                             hint="e.g. --games 2-1 (the first number is the first player "
                                  "at the table)")
    elif outcome is Outcome.WIN and winner in players:
        bo3 = state.format is not None and state.format.params.get("match_format") == "BO3"
        w = 2 if bo3 else 1
        g = Games(w, 0) if winner == players[0] else Games(0, w)
    elif outcome is Outcome.DRAW:
        g = Games(0, 0, 1)
    elif outcome in (Outcome.CONCESSION, Outcome.DROP, Outcome.PENALTY):
        g = Games(0, 0)
    else:
        raise UsageError("this result needs the game score", hint="pass --games A-B")
    if annex is not None:
        won_a = annex.loser == players[1]
        g = Games(g.a + (1 if won_a else 0), g.b + (0 if won_a else 1), g.draws)
    return g


class ResultBody(TypedDict):
    """The decided fields of a Bushiroad result body (a table's or a team seat's)."""

    winner: int | None
    losers: list[int]
    outcome: Outcome
    loss_reasons: list[LossReason]
    games: list[int]
    decided_by: DecidedBy
    annex_a: AnnexA | msgspec.UnsetType     # UNSET: no Annex A (left out of the body)


def result_body(state: TournamentState, round_no: int, players: list[int], phase: Phase, *,
                outcome: Outcome, winner: int | None, loser: int | None,
                games: list[int] | None, annex: AnnexA | None,
                losers: list[int] | None = None,
                no_show: bool = False) -> ResultBody:
    """The decided fields of a result body (shared by record and correct); ``no_show``
    lets a double loss with no named loser be the wrong-table amendment's (AMB-B25)."""
    for who, what in ((winner, "the winner"), (loser, "the conceding player")):
        if who is not None and who not in players:   # before any score (issue 17 #12)
            raise RuleError("LEDGER-RES-1", f"#{who} is not at this table "
                            f"(#{players[0]} v #{players[1]})",
                            hint=f"{what} is #{players[0]} or #{players[1]}")
    ending = Ending.ANNEX_A if annex is not None else _ENDING.get(outcome)
    if outcome is Outcome.DOUBLE_LOSS and losers:
        ending = Ending.PENALTY          # both under a Loss of Match (BR-DROP-2)
        games = games if games is not None else [0, 0]
    elif outcome is Outcome.DOUBLE_LOSS and no_show and annex is None:
        ending = Ending.NO_SHOW          # neither fighter sat at the table: no game counts
        games = games if games is not None else [0, 0]
    if ending is None:
        raise UsageError(f"a Bushiroad result has no outcome {outcome.value!r}",
                         hint="use --winner, --draw, --timeout --games, --concession or "
                              "--annex-a")
    g = _games(state, players, outcome, winner, games, annex)
    named = losers or ([loser] if loser is not None else None)
    res = decide(state, phase, players, ending=ending, games=g, losers=named, annex=annex)
    if outcome is Outcome.WIN and annex is None and res.winner != winner:
        raise RuleError("BR-MATCH-1", f"the game score {g.a}-{g.b} does not make #{winner} "
                        "the winner", hint="check --games (first number = first player)")
    oc, reasons = outcome_of(res)
    return {"winner": res.winner, "losers": sorted(res.losers), "outcome": oc,
            "loss_reasons": reasons, "games": g.as_wire(), "decided_by": res.decided_by,
            "annex_a": annex if annex is not None else msgspec.UNSET}


def _no_hotc_options(turn_player: int | None, slow_play: list[int] | None) -> None:
    if turn_player is not None or slow_play:
        raise UsageError("--turn-player and --slow-play are HotC timeout options",
                         hint="Bushiroad results: --winner, --draw, --timeout --games A-B, "
                              "--concession N or --annex-a VALUES")


def record_result(t: Tournament, signer: Signer, time: str, *, round_no: int, table: int,
                  outcome: Outcome, winner: int | None = None, loser: int | None = None,
                  games: list[int] | None = None,
                  annex_values: list[list[list[int]]] | None = None,
                  turn_player: int | None = None, slow_play: list[int] | None = None,
                  note: str = "", losers: list[int] | None = None,
                  penalty_seq: int | None = None) -> list[SignedEvent]:
    _no_hotc_options(turn_player, slow_play)
    rnd, tab = open_table(t.state, round_no, table)
    annex = make_annex(t.state, tab.players, annex_values) if annex_values else None
    body = result_body(t.state, round_no, tab.players, rnd.phase, outcome=outcome, winner=winner,
                       loser=loser, games=games, annex=annex, losers=losers)
    ev = t.record(ResultRecorded(round=round_no, table=table, note=note,
                                 penalty_seq=msgspec.UNSET if penalty_seq is None
                                 else penalty_seq, **body), signer, time)
    return [ev, *_after_result(t, round_no, signer, time)]


def decided_result(state: TournamentState, *, round_no: int, table: int, outcome: Outcome,
                   winner: int | None = None, loser: int | None = None,
                   games: list[int] | None = None,
                   annex_values: list[list[list[int]]] | None = None,
                   turn_player: int | None = None, slow_play: list[int] | None = None,
                   note: str = "", reason: str = "") -> DecidedResult:
    """What this entry decides for a table that already has players (recording nothing):
    ``result_body``, shared with ``record_result`` and ``correct_result``."""
    _no_hotc_options(turn_player, slow_play)
    found = seat(state, round_no, table)
    if found is None:
        raise RuleError("LEDGER-RES-1", f"round {round_no} has no table {table}",
                        hint="see 'tourney round show'")
    phase, players = found
    annex = make_annex(state, players, annex_values) if annex_values else None
    body = result_body(state, round_no, players, phase, outcome=outcome, winner=winner,
                       loser=loser, games=games, annex=annex)
    return (body["winner"], list(body["losers"]), list(body["loss_reasons"]),
            body["outcome"], list(body["games"]))


def correct_result(t: Tournament, signer: Signer, time: str, *, round_no: int, table: int,
                   outcome: Outcome, reason: str, winner: int | None = None,
                   loser: int | None = None, games: list[int] | None = None,
                   annex_values: list[list[list[int]]] | None = None,
                   turn_player: int | None = None, slow_play: list[int] | None = None,
                   losers: list[int] | None = None) -> list[SignedEvent]:
    _no_hotc_options(turn_player, slow_play)
    rnd, tab, current = correctable_table(t.state, round_no, table)
    annex = make_annex(t.state, tab.players, annex_values) if annex_values else None
    body = result_body(t.state, round_no, tab.players, rnd.phase, outcome=outcome, winner=winner,
                       loser=loser, games=games, annex=annex, losers=losers, no_show=True)
    ev = t.record(ResultCorrected(round=round_no, table=table, corrects_seq=current,
                                  reason=reason, **body),
                  signer, time)
    out = [ev]
    if rnd.closed_seq is not None:
        out += _after_result(t, round_no, signer, time)
    return out


def drop_player(t: Tournament, signer: Signer, time: str, number: int,
                reason: str = "") -> list[SignedEvent]:
    """BR-DROP-1/2: before pairings not paired again; after pairings a loss (the opponent
    wins, AMB-B17) — or no winner when the opponent had already left (TC-23)."""
    timing = drop_timing(t.state, number)
    out = [t.record(PlayerDropped(number=number, round=current_round_number(t.state),
                                  timing=timing, reason=reason), signer, time)]
    if timing is DropTiming.AFTER_PAIRING:
        out += leave_open_round(t, signer, time, number, outcome=Outcome.DROP, why="dropped")
    return out


def select_cut(t: Tournament, signer: Signer, time: str, *, material: str | None = None,
               source: str | None = None) -> list[SignedEvent]:
    """After the qualifying stage: the finalists (BR-FIN-5), or without a cut the final
    standings; a recorded DRAW-v1 draw orders groups still tied (BR-SWISS-TB-7)."""
    st = t.state
    require_stage_over(st)
    out: list[SignedEvent] = []
    draw_seq = None
    tiebreak = None
    items = tiebreak_needed(st)
    if items:
        seed_seq = seed_for(t, "tiebreak", signer, time, out, material=material,
                            source=source)
        # over places in the standings: fighters who dropped are ranked too (universe)
        ev = t.make_draw(ctx=ctx(st, "tiebreak"), items=items, seed_seq=seed_seq,
                         reason="final tie-break of tied standings (BR-SWISS-TB-7)",
                         signer=signer, time=time, universe="standings")
        out.append(ev)
        draw_seq = ev.seq
        tiebreak = st.draw_results[ev.seq]
    cut = st.format.cut if st.format else 0
    if not cut:
        out.append(t.record(make_final_standings(st, draw_seq, tiebreak), signer, time))
        return out
    orders: dict[int, tuple[int, list[int]]] = {}
    while True:
        body = make_finalists(st, draw_seq, tiebreak, orders)
        if not isinstance(body, PendingDraw):
            break
        # step_overflow_choice = random: one recorded draw per overflowing step (AMB-B15)
        seed_seq = seed_for(t, f"finalists/step{body.step}", signer, time, out,
                            material=material and f"{material} / step {body.step}",
                            source=source)
        ev = t.make_draw(ctx=step_ctx(st, body.step), items=list(body.candidates),
                         seed_seq=seed_seq, signer=signer, time=time,
                         reason=f"finalist step {body.step}: {body.spots} of "
                                f"{len(body.candidates)} (BR-FIN-6/7, AMB-B15)")
        out.append(ev)
        orders[body.step] = (ev.seq, st.draw_results[ev.seq])
    out.append(t.record(body, signer, time))
    return out


def seed_bracket(t: Tournament, signer: Signer, time: str, *, material: str | None = None,
                 source: str | None = None) -> list[SignedEvent]:
    """The bracket: the finalists by ranking (seed 1 v lowest, BR-FIN-5) or, in a
    single-elimination event, every active fighter by a recorded draw (BR-SE-1); then its
    first round.  On a seeded bracket, the next bracket round."""
    st = t.state
    h = match_state(st)
    if h.slots is not None:
        return pair_round(t, signer, time)
    out: list[SignedEvent] = []
    if fmt_id(st) is FormatId.SINGLE_ELIM:
        if st.registration_closed_seq is None:
            raise RuleError("LEDGER-REG-2", "registration is still open",
                            hint="close it with 'tourney registration close'")
        field = sorted(e.number for e in entrants(st))
        if not field:
            raise RuleError("BR-SE-1", "no fighter is left to seed")
        seed_seq = seed_for(t, "bracket", signer, time, out, material=material, source=source)
        ev = t.make_draw(ctx=ctx(st, "bracket"), items=field, seed_seq=seed_seq,
                         reason="single-elimination seeding (BR-SE-1)", signer=signer,
                         time=time)
        size = bracket_size(len(field), 1 << (len(field) - 1).bit_length())
        slots = bracket_slots(st.draw_results[ev.seq], size)
        out += [ev, t.record(BracketSeeded(slots=slots, draw_seq=ev.seq), signer, time)]
    else:
        if h.cut is None:
            raise RuleError("BR-FIN-5", "the finalists are not decided",
                            hint="run 'tourney cut'")
        size = 1 << max(len(h.cut) - 1, 1).bit_length()
        out.append(t.record(BracketSeeded(slots=ranked_order(h.cut, size), draw_seq=None),
                            signer, time))
    return out + pair_round(t, signer, time)
