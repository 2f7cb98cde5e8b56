"""Wheel of Time commands: decide the events of one command and record them.

Owns: ``pair_round`` (Game 1: the recorded score-sheet shuffle and the seating; later
Games: the AMB-W9 tie-order draw when two players share (GP, TBP), then the pile or list
pairing), ``record_result`` / ``correct_result`` (from an outcome code and the amounts it
needs; GP/TBP are never typed), ``override_tbp`` (the Judge's ``tbp_overridden``, citing
the current value) and ``declare_forfeit``.  Decisions come from ``plan``; every event
still passes the checks when recorded.

May import: ``ledger.core.aggregate`` (type hints), ``ledger.errors``, ``ledger.wire.events``,
``ledger.wire.keys``, ``ledger.formats.match.*``, ``ledger.formats.wot.*``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ledger.errors import RuleError, UsageError
from ledger.formats.match.commands import seed_for
from ledger.formats.match.events import ResultCorrected, ResultRecorded
from ledger.formats.wot import plan
from ledger.formats.wot.checks import override_of
from ledger.formats.wot.events import ForfeitureDeclared, TbpOverridden
from ledger.formats.wot.model import format_tbp
from ledger.wire.events import SignedEvent
from ledger.wire.keys import Signer

if TYPE_CHECKING:
    from ledger.core.aggregate import Tournament
    from ledger.core.entry_facet import ResultFields


def pair_round(t: Tournament, signer: Signer, time: str, *, material: str | None = None,
               source: str | None = None) -> list[SignedEvent]:
    st = t.state
    n = plan.next_game(st)
    out: list[SignedEvent] = []
    if n == 1:
        seed_seq = seed_for(t, "R1", signer, time, out, material=material, source=source)
        ev = t.make_draw(ctx=plan.ctx(st, "R1/seating"), items=plan.seated(st),
                         seed_seq=seed_seq, signer=signer, time=time,
                         reason="Game 1: shuffle of the score sheets (WOTOLD-PAIR-1)")
        out.append(ev)
        out.append(t.record(plan.seating(st, st.draw_results[ev.seq], ev.seq), signer, time))
        return out
    ents = plan.entrants(st)
    items = plan.tie_items(ents)
    tie = None
    draws: list[int] = []
    if items is not None:
        seed_seq = seed_for(t, f"R{n}", signer, time, out, material=material, source=source)
        ev = t.make_draw(ctx=plan.ctx(st, f"R{n}/ties"), items=items, seed_seq=seed_seq,
                         signer=signer, time=time,
                         reason=f"Game {n}: order of players with equal GP and TBP (AMB-W9)")
        out.append(ev)
        draws = [ev.seq]
        tie = st.draw_results[ev.seq]
    out.append(t.record(plan.later_game(st, n, ents, tie, draws), signer, time))
    return out


def _fields(t: Tournament, round_no: int, table: int, kw: ResultFields) -> dict[str, object]:
    code = kw.get("wot_outcome")
    if code is None:
        raise UsageError("a Wheel of Time result names its outcome code",
                         hint="e.g. --outcome O1 --winner 3 --support 3=6,8=2 (classic) or "
                              "--outcome Q1 --winner 3 --pattern 3=9,8=4 (2001)")
    games = plan.ws(t.state).games
    tab = plan.find_game(t.state, round_no)
    tstate = None if tab is None else plan.find_table(tab, table)
    if tstate is None or not games or games[-1].number != round_no:
        raise RuleError(plan.rid(t.state, "ORDER-1"), f"Game {round_no} has no open table "
                        f"{table}", hint="see 'tourney round show'")
    code = str(code).upper()
    res = plan.wot_result(tstate, outcome=code, winner=kw.get("winner"),
                          last_battle=plan.default_last_battle(t.state, code,
                                                               kw.get("last_battle")),
                          support=kw.get("support"), pattern=kw.get("pattern"),
                          neutral=kw.get("neutral"), conceded_by=kw.get("conceded_by"))
    from ledger.formats.wot.results import validate_result
    validate_result(plan.revision(t.state), res)
    return plan.wire_fields(res)


def record_result(t: Tournament, signer: Signer, time: str,
                  kw: ResultFields) -> list[SignedEvent]:
    round_no, table = kw["round_no"], kw["table"]
    body = ResultRecorded(round=round_no, table=table, note=kw.get("note", ""),
                          **_fields(t, round_no, table, kw))  # type: ignore[arg-type]
    return [t.record(body, signer, time)]


def correct_result(t: Tournament, signer: Signer, time: str,
                   kw: ResultFields) -> list[SignedEvent]:
    round_no, table, reason = kw["round_no"], kw["table"], kw["reason"]
    game = plan.find_game(t.state, round_no)
    tab = None if game is None else plan.find_table(game, table)
    if tab is None or tab.result is None:
        raise RuleError("LEDGER-RES-1", f"Game {round_no} table {table} has no result to "
                        "correct", hint="see 'tourney round show'")
    body = ResultCorrected(round=round_no, table=table, corrects_seq=tab.result.seq,
                           reason=reason, **_fields(t, round_no, table, kw))  # type: ignore[arg-type]
    return [t.record(body, signer, time)]


def override_tbp(t: Tournament, signer: Signer, time: str, *, round_no: int, number: int,
                 new: str, method: str, reason: str) -> list[SignedEvent]:
    """WOTOLD-FORF-2: replace ``number``'s TBP for Game ``round_no``, citing the current
    value (derived, or the last override)."""
    st = t.state
    game = plan.find_game(st, round_no)
    if game is None or not plan.complete(game):
        raise RuleError(plan.rid(st, "FORF-2"), f"Game {round_no} is not complete",
                        hint="the Judge adjusts TBP once every table of the Game has a result")
    tab = next((x for x in game.tables if number in (x.hero, x.villain)), None)
    if tab is None:
        raise RuleError(plan.rid(st, "FORF-2"), f"player {number} did not play at a table in "
                        f"Game {round_no}", hint="a bye's TBP is not adjusted")
    old = format_tbp(plan.game_scores(st, game)[number].tbp)
    body = TbpOverridden(round=round_no, table=tab.table, number=number, old=old, new=new,
                         method=method.strip(), reason=reason.strip())
    override_of(st, body)                       # a clear refusal of malformed TBP text
    return [t.record(body, signer, time)]


def declare_forfeit(t: Tournament, signer: Signer, time: str, *, number: int,
                    reason: str) -> list[SignedEvent]:
    """WOTOLD-FORF-1: remove ``number``; an open table of theirs is then recorded as their
    concession (AMB-W10)."""
    body = ForfeitureDeclared(number=number, round=len(plan.ws(t.state).games),
                              reason=reason.strip())
    return [t.record(body, signer, time)]
