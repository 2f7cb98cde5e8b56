"""Rules of every event of a Wheel of Time event: who may sign it and what it must say.

Owns: the permissions (RULES.md §1.3: the WoT Judge — the head judge key — pairs, declares
forfeiture and overrides TBP; results are written by the Judge or a designated assistant:
judge or scorekeeper keys) and one check per kind that recomputes the expected body with
``plan`` (the code the commands use) and refuses any difference, so the audit re-derives
the seating shuffle, piles, byes, pairings and every GP/TBP they depend on.

May import: ``msgspec``, ``ledger.core.state``, ``ledger.wire.events``, ``ledger.errors``,
``ledger.formats.match.*``, ``ledger.formats.wot.*``.
"""

from __future__ import annotations

from fractions import Fraction

from ledger.core.state import TournamentState
from ledger.errors import RuleError
from ledger.formats.match.events import MatchKind, ResultCorrected, ResultRecorded, RoundPaired
from ledger.formats.match.plan import recorded_draw
from ledger.formats.wot import plan
from ledger.formats.wot.book import WOT_BOOK as BOOK
from ledger.formats.wot.events import ForfeitureDeclared, TbpOverridden, WotKind
from ledger.formats.wot.model import parse_tbp
from ledger.formats.wot.results import validate_result
from ledger.formats.wot.scoring import TbpOverride
from ledger.formats.wot.state import TableState
from ledger.wire.events import Role

JUDGE = frozenset({Role.HEAD_JUDGE})
SCORING = frozenset({Role.SCOREKEEPER, Role.JUDGE, Role.HEAD_JUDGE})
for _kind in (MatchKind.ROUND_PAIRED.value, WotKind.TBP_OVERRIDDEN.value,
              WotKind.FORFEITURE_DECLARED.value):
    BOOK.permit(_kind, JUDGE)                         # LEDGER-RAND-3, WOTOLD-OFF-2, FORF-1/2
BOOK.permit(MatchKind.RESULT_RECORDED.value, SCORING)        # WoT Floor #1
BOOK.permit(MatchKind.RESULT_CORRECTED.value, frozenset({Role.JUDGE, Role.HEAD_JUDGE}))


def _mismatch(code: str, rule: str, what: str, expected: object,
              recorded: object) -> RuleError:
    return RuleError(rule, f"{what}: expected {expected!r}, recorded {recorded!r}",
                     finding=code)


def _shown(body: RoundPaired) -> object:
    return ([t.players for t in body.tables], body.bye, body.bye_side, body.method)


@BOOK.checks(RoundPaired)
def _round_paired(state: TournamentState, body: RoundPaired, actor: str) -> None:
    n = plan.next_game(state)
    if body.round != n:
        raise _mismatch("pairing_mismatch", plan.rid(state, "ORDER-1"), "Game number", n,
                        body.round)
    if n == 1:
        if len(body.draws) != 1:
            raise _mismatch("pairing_mismatch", plan.rid(state, "PAIR-1"),
                            "draws (the score-sheet shuffle)", 1, len(body.draws))
        order = recorded_draw(state, body.draws[0], plan.ctx(state, "R1/seating"),
                              plan.seated(state))
        expected = plan.seating(state, order, body.draws[0])
    else:
        ents = plan.entrants(state)
        items = plan.tie_items(ents)
        if len(body.draws) != (0 if items is None else 1):
            raise _mismatch("pairing_mismatch", plan.rid(state, "PAIR-8"),
                            "draws (the AMB-W9 tie order)", 0 if items is None else 1,
                            len(body.draws))
        tie = None if items is None else recorded_draw(
            state, body.draws[0], plan.ctx(state, f"R{n}/ties"), items)
        expected = plan.later_game(state, n, ents, tie, list(body.draws))
    if expected != body:
        raise _mismatch("pairing_mismatch", plan.rid(state, "PAIR-2"), f"Game {n} pairing",
                        _shown(expected), _shown(body))


def _result_rules(state: TournamentState, table: TableState,
                  body: ResultRecorded | ResultCorrected) -> None:
    res = plan.body_result(table.table, body)
    if res.sides != plan.table_sides(table):
        raise RuleError(plan.rid(state, "SCORE-5"), f"table {table.table}: result sides "
                        f"{body.sides!r} differ from the pairing's (hero #{table.hero}, "
                        f"villain #{table.villain})", finding="wot_sides_mismatch",
                        hint="a result's sides equal its pairing's")
    validate_result(plan.revision(state), res)
    fields = plan.wire_fields(res)
    recorded = {k: getattr(body, k) for k in fields}
    if recorded != fields:
        raise _mismatch("result_mismatch", plan.rid(state, "SCORE-5"),
                        f"table {table.table} result fields", fields, recorded)
    gone = set(plan.ws(state).removed)
    if gone & set(res.sides) and res.conceded_by not in gone:
        who = sorted(gone & set(res.sides))[0]
        raise RuleError(plan.rid(state, "FORF-1"), f"#{who} was declared forfeit: table "
                        f"{table.table} is scored as their concession (AMB-W10)",
                        hint=f"record it as {plan.forfeit_code(state, res.last_battle)} with "
                             f"--conceded-by {who}", finding="wot_result_invalid")


def _unset(*values: object) -> bool:
    import msgspec
    return all(isinstance(v, msgspec.UnsetType) for v in values)


def _open_table(state: TournamentState, round_no: int, number: int) -> TableState:
    games = plan.ws(state).games
    if not games or games[-1].number != round_no:
        raise RuleError(plan.rid(state, "ORDER-1"), f"Game {round_no} is not the Game in "
                        "progress" + (f" (Game {games[-1].number})" if games else ""),
                        hint="see 'tourney round show'")
    table = plan.find_table(games[-1], number)
    if table is None:
        raise RuleError(plan.rid(state, "ORDER-1"), f"Game {round_no} has no table {number} "
                        f"(tables 1..{len(games[-1].tables)})", hint="see 'tourney round show'")
    return table


@BOOK.checks(ResultRecorded)
def _result(state: TournamentState, body: ResultRecorded, actor: str) -> None:
    table = _open_table(state, body.round, body.table)
    if table.result is not None:
        raise RuleError("LEDGER-RES-1", f"Game {body.round} table {body.table} already has "
                        f"a result (seq {table.result.seq})",
                        hint="a judge corrects it with 'tourney result correct'")
    if not _unset(body.games, body.decided_by, body.annex_a) or body.turn_player is not None \
            or body.slow_play:
        raise RuleError("DESIGN-11", "a WoT result carries no games, decided_by, annex_a, "
                        "turn_player or slow_play", finding="result_mismatch")
    _result_rules(state, table, body)


@BOOK.checks(ResultCorrected)
def _corrected(state: TournamentState, body: ResultCorrected, actor: str) -> None:
    table = _open_table(state, body.round, body.table)
    game = plan.ws(state).games[-1]
    if table.result is None or table.result.seq != body.corrects_seq:
        cur = None if table.result is None else table.result.seq
        raise RuleError("LEDGER-RES-1", f"seq {body.corrects_seq} is not the current result "
                        f"of Game {body.round} table {body.table} (seq {cur})",
                        hint="cite the seq shown by 'tourney round show'")
    if game.overrides:
        raise RuleError(plan.rid(state, "FORF-2"), f"Game {body.round} has a Judge TBP "
                        "override that cites its scores", hint="a correction comes before "
                        "any tbp_overridden of its Game")
    if not body.reason.strip():
        raise RuleError("LEDGER-RES-1", "a correction needs a reason", hint="pass --reason")
    if not _unset(body.games, body.decided_by, body.annex_a) or body.turn_player is not None \
            or body.slow_play:
        raise RuleError("DESIGN-11", "a WoT result carries no games, decided_by, annex_a, "
                        "turn_player or slow_play", finding="result_mismatch")
    _result_rules(state, table, body)


def override_of(state: TournamentState, body: TbpOverridden) -> TbpOverride:
    """The rule-level override a body states; refuses TBP text that is not exact."""
    try:
        old, new = parse_tbp(body.old), parse_tbp(body.new)
    except ValueError as exc:
        raise RuleError(plan.rid(state, "FORF-2"), str(exc), finding="wot_override_invalid",
                        hint="TBP are exact: an integer or num/den in lowest terms") from None
    return TbpOverride(round=body.round, table=body.table, number=body.number, old=old,
                       new=new, method=body.method, reason=body.reason)


@BOOK.checks(TbpOverridden)
def _override(state: TournamentState, body: TbpOverridden, actor: str) -> None:
    game = plan.find_game(state, body.round)
    if game is None or not plan.complete(game):
        raise RuleError(plan.rid(state, "FORF-2"), f"Game {body.round} is not complete",
                        hint="the Judge adjusts TBP once every table of the Game has a "
                             "result", finding="wot_override_invalid")
    ov = override_of(state, body)
    scores = plan.game_scores(state, game, (ov,))    # refuses stale old / wrong player
    got: Fraction = scores[body.number].tbp
    if got != ov.new:  # pragma: no cover - score_game applies the chain it validated
        raise RuleError(plan.rid(state, "FORF-2"), "override not applied",
                        finding="wot_override_invalid")


@BOOK.checks(ForfeitureDeclared)
def _forfeit(state: TournamentState, body: ForfeitureDeclared, actor: str) -> None:
    if body.number not in state.players:
        raise RuleError(plan.rid(state, "FORF-1"), f"player {body.number} is not registered",
                        hint="see 'tourney player list'")
    if body.number in plan.ws(state).removed:
        raise RuleError(plan.rid(state, "FORF-1"), f"player {body.number} was already "
                        "declared forfeit")
    if plan.over(state):
        raise RuleError(plan.rid(state, "FORF-1"), "the event is over",
                        hint="a Declaration of Forfeiture is made during the event")
    if body.round != len(plan.ws(state).games):
        raise _mismatch("forfeit_mismatch", plan.rid(state, "FORF-1"), "Game",
                        len(plan.ws(state).games), body.round)
    if not body.reason.strip():
        raise RuleError(plan.rid(state, "FORF-1"), "a Declaration of Forfeiture needs a "
                        "reason", hint="pass --reason")
