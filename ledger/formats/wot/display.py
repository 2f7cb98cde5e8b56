"""How a Wheel of Time Game reads (``round show``, ``round pair``; issue 17): the
format's own display of its rounds, reached through its plug-in (``round_display``,
``round_verdict``, ``draws_nothing``), never named by the CLI.

Owns: ``forfeit_todo`` (what a Declaration of Forfeiture leaves to record, issue 17
defect 18), ``game_lines`` / ``game_json`` (table, Hero, Villain, marks, result; the JSON keys
of docs/DESIGN.md §8 plus Hero/Villain), ``verdict`` (what a completed Game leads to) and
``seed_unused`` (the next Game draws nothing).

May import: ``ledger.formats.wot.*``, ``ledger.core.state``.
"""

from __future__ import annotations

from typing import Any

from ledger.core.state import TournamentState
from ledger.formats.wot import plan
from ledger.formats.wot.state import GameState, ResultState
from ledger.formats.wot.words import result_words as result_text


def _result_json(res: ResultState | None) -> dict[str, Any] | None:
    if res is None:
        return None
    return {"seq": res.seq, "outcome": res.outcome, "winner": res.winner,
            "support": {str(k): v for k, v in sorted(res.support.items())},
            "pattern": {str(k): v for k, v in sorted(res.pattern.items())},
            "neutral": res.neutral, "conceded_by": res.conceded_by,
            "last_battle": res.last_battle}


def _kind(n: int) -> str:
    from ledger.formats.wot.pairing import game_kind

    return game_kind(n).value


def game_json(state: TournamentState, g: GameState) -> dict[str, Any]:
    """``round show --json`` of a WoT Game: docs/DESIGN.md §8 keys plus Hero/Villain."""
    return {"round": g.number, "cycle": (g.number + 1) // 2, "kind": _kind(g.number),
            "tables": [{"table": t.table, "players": [t.hero, t.villain], "hero": t.hero,
                        "villain": t.villain, "rematch": t.rematch,
                        "result": _result_json(t.result)} for t in g.tables],
            "bye": g.bye, "bye_side": g.bye_side, "phase": "swiss", "method": g.method,
            "deck_repeats": list(g.deck_repeats), "closed": plan.complete(g),
            "overrides": [{"seq": o.seq, "table": o.table, "number": o.number, "old": o.old,
                           "new": o.new, "method": o.method, "reason": o.reason}
                          for o in g.overrides]}


def _label(state: TournamentState, n: int) -> str:
    p = state.players.get(n)
    text = f"#{n} {p.name}" if p is not None else f"#{n}"
    return text if len(text) <= 24 else text[:23] + "…"


def game_lines(state: TournamentState, g: GameState) -> list[str]:
    """A WoT Game ready to post: table, Hero, Villain (HERO plays first column)."""
    done = sum(1 for t in g.tables if t.result is not None)
    lines = [f"Game {g.number} (Cycle {(g.number + 1) // 2}, {_kind(g.number)}; "
             f"{g.method}): {len(g.tables)} tables, {done} results in, "
             + ("complete" if plan.complete(g) else "open")]
    if g.bye is not None:
        lines.append(f"bye: {_label(state, g.bye)} (counts as {g.bye_side})")
    if g.deck_repeats:
        lines.append("deck repeats (AMB-W7/W10): "
                     + ", ".join(_label(state, n) for n in g.deck_repeats))
    lines.append(f"{'TABLE':>5}  {'HERO':<24}  v  {'VILLAIN':<24}  {'MARKS':<8}  RESULT")
    for t in g.tables:
        lines.append(f"{t.table:>5}  {_label(state, t.hero):<24}  v  "
                     f"{_label(state, t.villain):<24}  {'rematch' if t.rematch else '-':<8}  "
                     f"{result_text(t.result)}")
    for o in g.overrides:
        lines.append(f"TBP override seq {o.seq}: #{o.number} {o.old} -> {o.new} "
                     f"({o.method}; {o.reason})")
    return lines


def verdict(state: TournamentState, round_no: int) -> str | None:
    """What a completed Game leads to (None: the Game is still open)."""
    g = plan.find_game(state, round_no)
    if g is None or not plan.complete(g):
        return None
    nxt = ("the event is over: see the final ranking with tourney standings"
           if plan.over(state) else f"pair Game {round_no + 1} with tourney round pair")
    return f"Game {round_no} complete: {nxt}"


def seed_unused(state: TournamentState) -> bool:
    """True when the next Game draws nothing (no tie to order), so no seed is recorded."""
    if not plan.ws(state).games:
        return False
    try:
        plan.next_game(state)
        return plan.tie_items(plan.entrants(state)) is None
    except Exception:  # noqa: BLE001 - the pairing itself reports the refusal
        return False


def forfeit_todo(st: TournamentState, number: int) -> tuple[dict[str, Any] | None, str]:
    """Issue 17, defect 18: what a Declaration of Forfeiture leaves to do, truthfully.

    The forfeit records no result (WOTOLD-FORF-1, AMB-W10): a table of the player's that
    is still open in the Game in progress stays open until it is recorded as their
    concession (the revision's code, ``plan.forfeit_code``).  Returns that table (or None)
    and the line that says so."""
    games = plan.ws(st).games
    game = games[-1] if games else None
    table = None if game is None else next(
        (t for t in game.tables if number in (t.hero, t.villain) and t.result is None), None)
    if game is None or table is None:
        return None, "no open table of theirs: nothing else to record"
    other = table.villain if table.hero == number else table.hero
    codes = sorted({plan.forfeit_code(st, False), plan.forfeit_code(st, True)})
    command = (f"tourney result record --round {game.number} --table {table.table} "
               f"--outcome {codes[-1]} --winner {other} --conceded-by {number}")
    if len(codes) == 1:  # wot-2001's Q5 takes both Patterns and the Neutral Pattern
        command += f" --pattern {other}=P,{number}=P --neutral N"
    return ({"round": game.number, "table": table.table, "opponent": other,
             "codes": codes, "record": command},
            f"Game {game.number} table {table.table} is still open and nothing was recorded "
            f"there: record it as their concession ({' or '.join(codes)}), e.g. {command}")
