"""Rules of deck checks on the floor (issue 30 item 3, BR-DECK-3): the verifiable draw of
the tables to check, and each check's start and end.

The draw is an ordinary ``draw_made`` (the core re-derives its result from the seed, and so
does an outside auditor); what this module adds, as a rule every ``draw_made`` obeys
(``ledger.core.rule_plugins.draw_checks``), is what a context ``…/deck-checks`` means
(DECK-DRAW-1, ``docs/adr/0053-floor-decks-deck-checks-and-decklists.md``):

- the context is ``<log>/R<n>/deck-checks`` and round n is the round paired and open;
- the universe is ``tables`` and the items are exactly that round's table numbers;
- the seed was recorded after the round's pairing (a fresh ``seed record`` or the reveal of
  a commitment), so nobody could know the tables when the pairing was made;
- DECK-DRAW-2: its reason announces the count K ("… the first K tables", ``draw_reason``)
  with 1 ≤ K ≤ the round's tables (``deck_draw_count``), and a check that cites the draw
  is at one of its first K tables (``deck_check_not_drawn``): the spares after K are not
  "drawn" (a judge checks one as their own choice, without ``--draw``).

May import: ``ledger.core.*``, ``ledger.errors``, ``ledger.wire.events``,
``ledger.formats.match.*``, ``ledger.formats.officiating.*``.
"""

from __future__ import annotations

import re

from ledger.core.rule_plugins import draw_checks
from ledger.core.state import TournamentState
from ledger.errors import RuleError
from ledger.formats.match.model import MatchState
from ledger.formats.match.officiating_model import DeckCheckRecord
from ledger.formats.match.plan import open_round
from ledger.formats.officiating.book_table import OFFICIATING_BOOK as BOOK
from ledger.formats.officiating.deck_floor import (
    DECK_CHECKS,
    DeckCheckEnded,
    DeckCheckKind,
    DeckCheckStarted,
    deck_ctx,
)
from ledger.formats.officiating.rules import refusing_match_state
from ledger.wire.events import DrawMade, Role, SignedEvent

RULE = "BR-DECK-3"
_COUNT = re.compile(r"deck checks of round (\d+): the first (\d+) tables")
_J = frozenset({Role.JUDGE, Role.HEAD_JUDGE})
BOOK.permit(DeckCheckKind.DECK_CHECK_STARTED.value, _J)
BOOK.permit(DeckCheckKind.DECK_CHECK_ENDED.value, _J)


def round_tables(state: TournamentState, round_no: int) -> list[int]:
    """The table numbers of round ``round_no`` when it is the round paired and open."""
    h = state.fmt
    if not isinstance(h, MatchState):
        raise RuleError("RULES-8", "this format does not play matches at tables: no deck "
                        "checks by table here", finding="deck_draw_not_round")
    rnd = open_round(state)
    if rnd is None or rnd.number != round_no:
        raise RuleError(RULE, f"round {round_no} is not the round paired and open",
                        hint="draw deck checks after the round's pairing is posted, before "
                        "its results", finding="deck_draw_not_round")
    return sorted(t.table for t in rnd.tables)


def is_deck_draw(ctx: str) -> bool:
    return ctx.rpartition("/")[2] == DECK_CHECKS


def draw_reason(round_no: int, count: int) -> str:
    """The reason a deck-check draw records: it announces the count K (DECK-DRAW-2)."""
    return f"deck checks of round {round_no}: the first {count} tables"


def announced_count(reason: str, round_no: int) -> int | None:
    """The count K a deck-check draw's reason announces for round ``round_no``, or None
    when the reason announces none (``draw_reason``'s words exactly)."""
    m = _COUNT.fullmatch(reason)
    if m is None or int(m.group(1)) != round_no:
        return None
    return int(m.group(2))


def check_deck_draw(state: TournamentState, body: DrawMade) -> None:
    """DECK-DRAW-1 (module docstring) for a ``draw_made`` whose context ends in
    ``/deck-checks``; other draws pass untouched."""
    if not is_deck_draw(body.ctx):
        return
    rnd = open_round(state) if isinstance(state.fmt, MatchState) else None
    want = deck_ctx(state.log, rnd.number) if rnd is not None else None
    if rnd is None or body.ctx != want:
        raise RuleError(RULE, f"a deck-check draw's context is <log>/R<n>/deck-checks for "
                        f"the open round ({want or 'none is open'}), not {body.ctx!r}",
                        hint="tourney deck draw --round N", finding="deck_draw_not_round")
    tables = round_tables(state, rnd.number)
    if body.universe != "tables" or body.items != tables:
        raise RuleError(RULE, f"a deck-check draw is over the tables of round {rnd.number} "
                        f"({tables}), universe 'tables'", hint="tourney deck draw draws them",
                        finding="deck_draw_items")
    if body.seed_seq <= rnd.paired_seq:
        raise RuleError(RULE, f"seed seq {body.seed_seq} was recorded before round "
                        f"{rnd.number}'s pairing (seq {rnd.paired_seq}): the tables could "
                        "be known before the pairing was made",
                        hint=f"record a seed now (tourney seed record --ctx {body.ctx} …) "
                        "or reveal a commitment made for it", finding="deck_draw_seed_early")
    k = announced_count(body.reason, rnd.number)
    if k is None or not 1 <= k <= len(tables):
        raise RuleError("DECK-DRAW-2", f"a deck-check draw announces how many of round "
                        f"{rnd.number}'s {len(tables)} table(s) are checked "
                        f"({draw_reason(rnd.number, 1)!r} … up to {len(tables)}), not "
                        f"{body.reason!r}", hint="tourney deck draw --count K writes it",
                        finding="deck_draw_count")


draw_checks(check_deck_draw)


@BOOK.applies(DrawMade)
def _draw_apply(state: TournamentState, ev: SignedEvent, body: DrawMade) -> None:
    """Keep the count K a deck-check draw announced (DECK-DRAW-2: the checks citing it)."""
    if not is_deck_draw(body.ctx) or not isinstance(state.fmt, MatchState):
        return
    n = body.ctx.rpartition("/")[0].rpartition("/R")[2]
    k = announced_count(body.reason, int(n)) if n.isdigit() else None
    state.fmt.officiating.deck_draws[ev.seq] = k or 0


def drawn_tables(state: TournamentState, draw_seq: int, round_no: int) -> list[int]:
    """The first K tables of round ``round_no``'s deck-check draw ``draw_seq`` (K as its
    reason announced, DECK-DRAW-2)."""
    ctx = deck_ctx(state.log, round_no)
    if state.draws.get(ctx) != draw_seq:
        raise RuleError(RULE, f"seq {draw_seq} is not round {round_no}'s deck-check draw",
                        hint="see 'tourney deck draw' (its seq)",
                        finding="deck_check_not_drawn")
    k = state.fmt.officiating.deck_draws.get(draw_seq, 0)
    return state.draw_results[draw_seq][:k]


@BOOK.checks(DeckCheckStarted)
def _started(state: TournamentState, body: DeckCheckStarted, actor: str) -> None:
    o = refusing_match_state(state).officiating
    rnd = open_round(state)
    if rnd is None or rnd.number != body.round:
        raise RuleError(RULE, f"round {body.round} is not the round in progress",
                        hint="a deck check takes the decks of a table of the open round")
    tab = next((t for t in rnd.tables if t.table == body.table), None)
    if tab is None:
        raise RuleError(RULE, f"round {body.round} has no table {body.table}",
                        hint="see 'tourney round show'")
    if tab.result is not None:
        raise RuleError(RULE, f"round {body.round} table {body.table} has its result",
                        hint="check the decks of a match still in progress")
    if any(c.round == body.round and c.table == body.table and not c.ended_seq
           for c in o.deck_checks.values()):
        raise RuleError(RULE, f"round {body.round} table {body.table} is already being "
                        "checked", hint="end that check first (tourney deck end)")
    if body.draw_seq is not None:
        drawn = drawn_tables(state, body.draw_seq, body.round)
        if body.table not in drawn:
            raise RuleError("DECK-DRAW-2", f"table {body.table} is not among the "
                            f"{len(drawn)} table(s) draw seq {body.draw_seq} announced "
                            f"({', '.join(map(str, drawn)) or 'none'})",
                            hint="a spare table is checked without --draw",
                            finding="deck_check_not_drawn")


@BOOK.applies(DeckCheckStarted)
def _started_apply(state: TournamentState, ev: SignedEvent, body: DeckCheckStarted) -> None:
    state.fmt.officiating.deck_checks[ev.seq] = DeckCheckRecord(
        round=body.round, table=body.table, started=ev.time, draw_seq=body.draw_seq or 0)


def _table_players(state: TournamentState, rec: DeckCheckRecord) -> list[int]:
    rnd = open_round(state)
    if rnd is None or rnd.number != rec.round:
        return []
    tab = next((t for t in rnd.tables if t.table == rec.table), None)
    return list(tab.players) if tab is not None else []


@BOOK.checks(DeckCheckEnded)
def _ended(state: TournamentState, body: DeckCheckEnded, actor: str) -> None:
    o = refusing_match_state(state).officiating
    rec = o.deck_checks.get(body.start_seq)
    if rec is None:
        raise RuleError(RULE, f"seq {body.start_seq} is not a deck check's start",
                        hint="see 'tourney deck checks'")
    if rec.ended_seq:
        raise RuleError(RULE, f"the deck check seq {body.start_seq} already ended at seq "
                        f"{rec.ended_seq}")
    if body.penalty_seq is not None:
        pen = next((p for p in o.penalties if p.seq == body.penalty_seq), None)
        if pen is None or pen.seq < body.start_seq:
            raise RuleError(RULE, f"seq {body.penalty_seq} is not a penalty given during "
                            f"the deck check seq {body.start_seq}",
                            hint="issue the penalty first (tourney penalty issue), then cite it")
        if pen.number not in _table_players(state, rec):
            raise RuleError(RULE, f"penalty seq {body.penalty_seq} is to player "
                            f"{pen.number}, who is not at round {rec.round} table {rec.table}")
    if body.outcome.value == "matches" and body.penalty_seq is not None:
        raise RuleError(RULE, "a check whose decks match cites no penalty",
                        hint="say --outcome mismatch or illegal")


@BOOK.applies(DeckCheckEnded)
def _ended_apply(state: TournamentState, ev: SignedEvent, body: DeckCheckEnded) -> None:
    checks = state.fmt.officiating.deck_checks
    rec = checks[body.start_seq]
    checks[body.start_seq] = DeckCheckRecord(round=rec.round, table=rec.table,
                                             started=rec.started, ended_seq=ev.seq,
                                             ended=ev.time, draw_seq=rec.draw_seq)
