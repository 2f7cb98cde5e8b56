"""What the next event of a Wheel of Time event must say, computed from the state: the one
implementation of every WoT decision, used by the commands (to decide), by the checks (to
verify, so the audit re-derives it) and by the standings projection.

Owns: reading the recorded revision and parameters; Game preconditions (registration
closed, previous Game complete, Cycles left, AMB-W19); the seating items and the Game 1
``round_paired`` from the recorded shuffle (WOTOLD-PAIR-1, BYE-1); the entrants of a later
Game (totals over the scored Games, previous side, byes; removed players left out,
AMB-W10), the AMB-W9 tie-order items and the ``round_paired`` of ``pairing.pair_game``;
results ↔ wire fields (docs/DESIGN.md §11); every Game's GP/TBP (``scoring.score_game``) and the
totals and final ranking (``ranking``).

May import: ``msgspec``, ``ledger.core.state``, ``ledger.errors``, ``ledger.formats.match.*``,
``ledger.formats.wot.*``.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache

import msgspec

from ledger.core.state import TournamentState
from ledger.errors import RuleError
from ledger.formats.match.events import ResultCorrected, ResultRecorded, RoundPaired
from ledger.formats.match.events import Table as WireTable
from ledger.formats.match.model import Outcome, Phase
from ledger.formats.wot.model import Revision, Side, parse_tbp, rule_id
from ledger.formats.wot.pairing import Entrant, Pairing, PairingKind, Table, game_kind, pair_game
from ledger.formats.wot.params import total_games
from ledger.formats.wot.ranking import Place, final_ranking, next_entrants, totals
from ledger.formats.wot.results import (
    RESULT_CODES,
    WotResult,
    concession_code,
    last_battle_of,
)
from ledger.formats.wot.scoring import PlayerScore, TbpOverride, score_game
from ledger.formats.wot.seating import seat_first_game
from ledger.formats.wot.state import GameState, ResultState, TableState, WotState

ALGORITHM = {PairingKind.SEATING: "wot-seating/v1", PairingKind.PILES: "wot-piles/v1",
             PairingKind.LIST: "wot-list/v1"}
#: outcomes in which both players lose (no winner, not a tie)
_BOTH_LOSE = frozenset({"O6", "O7", "Q3", "Q4"})


def ws(state: TournamentState) -> WotState:
    w: WotState = state.fmt
    return w


def revision(state: TournamentState) -> Revision:
    if state.format is None:
        raise RuleError("RULES-8", "this ledger has no format")
    return Revision.from_format_id(state.format.id)


def params(state: TournamentState) -> dict[str, object]:
    return dict(state.format.params) if state.format else {}


def rid(state: TournamentState, topic: str) -> str:
    return rule_id(revision(state), topic)


def ctx(state: TournamentState, what: str) -> str:
    return f"{state.log}/{what}"


def games_total(state: TournamentState) -> int:
    return total_games(params(state))


# -- reading the state ------------------------------------------------------------------
def table_sides(t: TableState) -> dict[int, Side]:
    return {t.hero: Side.HERO, t.villain: Side.VILLAIN}


def game_sides(g: GameState) -> dict[int, Side]:
    out: dict[int, Side] = {}
    for t in g.tables:
        out.update(table_sides(t))
    return out


def complete(g: GameState) -> bool:
    return all(t.result is not None for t in g.tables)


def find_table(g: GameState, table: int) -> TableState | None:
    return g.tables[table - 1] if 1 <= table <= len(g.tables) else None


def find_game(state: TournamentState, number: int) -> GameState | None:
    games = ws(state).games
    return games[number - 1] if 1 <= number <= len(games) else None


def result_of(t: TableState) -> WotResult:
    r = t.result
    if r is None:
        raise RuleError("WOTOLD-ORDER-1", f"table {t.table} has no result")
    return WotResult(table=t.table, outcome=r.outcome, sides=table_sides(t),
                     last_battle=r.last_battle, winner=r.winner, support=dict(r.support),
                     pattern=dict(r.pattern), neutral=r.neutral, conceded_by=r.conceded_by)


def overrides_of(g: GameState) -> list[TbpOverride]:
    return [TbpOverride(round=g.number, table=o.table, number=o.number, old=parse_tbp(o.old),
                        new=parse_tbp(o.new), method=o.method, reason=o.reason)
            for o in g.overrides]


def game_scores(state: TournamentState, g: GameState,
                extra: tuple[TbpOverride, ...] = ()) -> dict[int, PlayerScore]:
    """GP and TBP of every player of a complete Game (WOTOLD-SCORE-*, WOT01-SCORE-*).
    Memoised on the Game's exact content (its msgpack bytes) and the parameters, so one
    command that asks several times (decide, then check) scores each Game once."""
    fmt = state.format
    key = (fmt.id if fmt else "", tuple(sorted(fmt.params.items())) if fmt else ())
    return _scores(key, _GAME.encode(g), extra)


_GAME = msgspec.msgpack.Encoder()


@lru_cache(maxsize=64)
def _scores(key: tuple[str, tuple[tuple[str, object], ...]], raw: bytes,
            extra: tuple[TbpOverride, ...]) -> dict[int, PlayerScore]:
    g = msgspec.msgpack.decode(raw, type=GameState)
    return score_game(Revision.from_format_id(key[0]), [result_of(t) for t in g.tables],
                      dict(key[1]), bye=g.bye,
                      bye_side=None if g.bye_side is None else Side(g.bye_side),
                      overrides=[*overrides_of(g), *extra], round_no=g.number,
                      sides=game_sides(g))


def scored(state: TournamentState) -> list[dict[int, PlayerScore]]:
    """Every complete Game's scores, in Game order (an incomplete last Game is left out:
    classic averages are final only once every table has reported)."""
    return [game_scores(state, g) for g in ws(state).games if complete(g)]


def pairing_of(g: GameState) -> Pairing:
    return Pairing(game=g.number, kind=game_kind(g.number),
                   tables=tuple(Table(t.table, t.hero, t.villain) for t in g.tables),
                   bye=g.bye, bye_side=None if g.bye_side is None else Side(g.bye_side),
                   order=((), ()))


def seated(state: TournamentState) -> list[int]:
    """Players of the event, not removed (WOTOLD-FORF-1), pre-ordered by number."""
    gone = set(ws(state).removed)
    return sorted(p for p in state.players if p not in gone)


def standings(state: TournamentState) -> tuple[dict[int, tuple[int, Fraction]],
                                               tuple[Place, ...]]:
    """Totals over the scored Games and the ranking with shared places (WOTOLD-RANK-1/2)."""
    w = ws(state)
    tot = totals(scored(state), seated(state), w.removed)
    return tot, final_ranking(tot, w.removed)


def over(state: TournamentState) -> bool:
    """Every Game of every Cycle is played (AMB-W19)."""
    games = ws(state).games
    return len(games) >= games_total(state) and complete(games[-1])


# -- pairing ----------------------------------------------------------------------------
def next_game(state: TournamentState) -> int:
    """Refuse unless the next Game may be paired now; returns its number."""
    if state.registration_closed_seq is None:
        raise RuleError("LEDGER-REG-2", "registration is still open",
                        hint="close it with 'tourney registration close'")
    games = ws(state).games
    if games and not complete(games[-1]):
        open_tables = [t.table for t in games[-1].tables if t.result is None]
        raise RuleError(rid(state, "ORDER-1"), f"Game {games[-1].number} still has tables "
                        f"without results: {', '.join(map(str, open_tables))}",
                        hint="record them first ('tourney round show')")
    n = len(games) + 1
    if n > games_total(state):
        raise RuleError(rid(state, "CYCLE-2"), f"all {games_total(state)} Games "
                        f"({games_total(state) // 2} Cycles) are played: the event is over",
                        hint="see the final ranking with 'tourney standings'")
    active = seated(state) if n == 1 else [e.number for e in entrants(state)]
    if len(active) < 2:
        raise RuleError(rid(state, "GAME-1"), f"Game {n} needs at least 2 players, "
                        f"{len(active)} remain", hint="the event is over: 'tourney standings'")
    return n


def entrants(state: TournamentState) -> list[Entrant]:
    """Active players before the next Game (totals, previous side, byes; AMB-W10)."""
    games = ws(state).games
    return next_entrants([pairing_of(g) for g in games], scored(state), ws(state).removed)


def tie_items(ents: list[Entrant]) -> list[int] | None:
    """The AMB-W9 draw's items (every active player) when two share (GP, TBP), else None."""
    keys = [(e.gp, e.tbp) for e in ents]
    return sorted(e.number for e in ents) if len(set(keys)) != len(keys) else None


def _wire(p: Pairing, draws: list[int], gp: Mapping[int, int]) -> RoundPaired:
    rematch = {r.table for r in p.rematches}
    tables = [WireTable(table=t.table, players=[t.hero, t.villain],
                        groups=[gp.get(t.hero, 0), gp.get(t.villain, 0)],
                        rematch=t.table in rematch) for t in p.tables]
    return RoundPaired(round=p.game, phase=Phase.SWISS, tables=tables, bye=p.bye,
                       draws=draws, algorithm=ALGORITHM[p.kind],
                       sides={str(k): v.value for k, v in p.sides.items()},
                       bye_side=None if p.bye_side is None else p.bye_side.value,
                       deck_repeats=list(p.deck_repeats), method=p.method)


def seating(state: TournamentState, order: list[int], draw_seq: int) -> RoundPaired:
    """Game 1 from the recorded shuffle of the score sheets (WOTOLD-PAIR-1, BYE-1)."""
    return _wire(seat_first_game(revision(state), order), [draw_seq], {})


def later_game(state: TournamentState, n: int, ents: list[Entrant], tie_order: list[int] | None,
               draws: list[int]) -> RoundPaired:
    """Game ``n`` >= 2 by piles or list (WOTOLD-PAIR-2..10, BYE-2..7, AMB-W7/W8/W9)."""
    history = [Table(t.table, t.hero, t.villain) for g in ws(state).games for t in g.tables]
    p = pair_game(revision(state), n, ents, history, tie_order)
    return _wire(p, draws, {e.number: e.gp for e in ents})


# -- results ----------------------------------------------------------------------------
def wot_result(table: TableState, *, outcome: str, winner: int | None, last_battle: bool,
               support: Mapping[int, int] | None = None, pattern: Mapping[int, int] | None = None,
               neutral: int | None = None, conceded_by: int | None = None) -> WotResult:
    return WotResult(table=table.table, outcome=outcome, sides=table_sides(table),
                     last_battle=last_battle, winner=winner, support=dict(support or {}),
                     pattern=dict(pattern or {}), neutral=neutral, conceded_by=conceded_by)


def default_last_battle(state: TournamentState, code: str, given: bool | None) -> bool:
    """The outcome fixes the phase, except Q3/Q5 (asked for) and unknown codes."""
    fixed = last_battle_of(revision(state), code)
    if given is not None:
        return given
    if code not in RESULT_CODES[revision(state)]:
        return False                      # validate_result refuses the code itself
    if fixed is None:
        from ledger.errors import UsageError
        raise UsageError(f"outcome {code} can happen before or during the Last Battle",
                         hint="add --last-battle or --before-last-battle")
    return fixed


def losers(res: WotResult) -> list[int]:
    if res.winner is not None:
        return [p for p in sorted(res.sides) if p != res.winner]
    return sorted(res.sides) if res.outcome in _BOTH_LOSE else []


def _amounts(m: Mapping[int, int]) -> dict[str, int] | msgspec.UnsetType:
    return {str(k): v for k, v in sorted(m.items())} if m else msgspec.UNSET


def wire_fields(res: WotResult) -> dict[str, object]:
    """The decided fields of a WoT ``result_recorded`` / ``result_corrected`` (docs/DESIGN.md
    §11): one result has one spelling (unused amounts absent, never empty)."""
    try:
        outcome = Outcome(res.outcome)
    except ValueError:
        outcome = Outcome.WIN      # refused by validate_result before it is ever written
    return {"winner": res.winner, "losers": losers(res), "outcome": outcome,
            "loss_reasons": [],
            "sides": {str(p): s.value for p, s in sorted(res.sides.items())},
            "support": _amounts(res.support), "pattern": _amounts(res.pattern),
            "neutral": msgspec.UNSET if res.neutral is None else res.neutral,
            "conceded_by": msgspec.UNSET if res.conceded_by is None else res.conceded_by,
            "last_battle": res.last_battle}


def _num(key: str) -> int:
    """A player-number key of a wire map; anything else becomes -1 (no player), which the
    check then refuses as a mismatch instead of failing to decode."""
    return int(key) if key.isdigit() and len(key) < 16 else -1


def _ints(m: dict[str, int] | msgspec.UnsetType) -> dict[int, int]:
    return {} if isinstance(m, msgspec.UnsetType) else {_num(k): v for k, v in m.items()}


def body_result(table: int, body: ResultRecorded | ResultCorrected) -> WotResult:
    """The rule-level result a recorded body states (its own sides; checked elsewhere)."""
    sides = {} if isinstance(body.sides, msgspec.UnsetType) else \
        {_num(k): Side(v) for k, v in body.sides.items()}
    lb = body.last_battle
    return WotResult(table=table, outcome=body.outcome.value, sides=sides,
                     last_battle=lb if isinstance(lb, bool) else False, winner=body.winner,
                     support=_ints(body.support), pattern=_ints(body.pattern),
                     neutral=None if isinstance(body.neutral, msgspec.UnsetType)
                     else body.neutral,
                     conceded_by=None if isinstance(body.conceded_by, msgspec.UnsetType)
                     else body.conceded_by)


def result_state(seq: int, res: WotResult) -> ResultState:
    return ResultState(seq=seq, outcome=res.outcome, winner=res.winner,
                       last_battle=res.last_battle, support=dict(res.support),
                       pattern=dict(res.pattern), neutral=res.neutral,
                       conceded_by=res.conceded_by)


def forfeit_code(state: TournamentState, last_battle: bool) -> str:
    return concession_code(revision(state), last_battle)
