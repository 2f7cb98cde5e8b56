"""Wheel of Time on the command line: Games, results by outcome code, the Judge's powers.

Owns: ``is_wot``, the printable and JSON forms of a WoT Game (``game_lines`` /
``game_json``: table, Hero, Villain, GP before the Game, rematch and deck-repeat marks,
the result), the WoT result options of ``result record`` / ``result correct`` (``--outcome``
and the amounts it needs, parsed into ``record_result`` keyword arguments), the standings
table, and the commands ``tourney forfeit`` (Declaration of Forfeiture) and ``tourney
tbp-override`` (WOTOLD-FORF-2).  Every decision is the ledger's (``ledger.formats.wot``).

May import: ``typer``, ``cli.common``, ``projections.*``, ``ledger.*``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from cli.common import (
    JsonOpt,
    KeyOpt,
    Session,
    auto_checkpoint,
    events_brief,
    seq_span,
    write_result,
)
from ledger.errors import UsageError

if TYPE_CHECKING:
    from ledger.events import SignedEvent
    from ledger.formats.wot.state import GameState, ResultState
    from ledger.state import TournamentState

_Opt = typer.Option
PANEL = "Wheel of Time result"
OutcomeOpt = Annotated[str | None, _Opt(
    "--outcome", metavar="CODE", show_default=False, rich_help_panel=PANEL,
    help="WoT outcome code: O1..O8 (wot-classic, WOTOLD-SCORE-3) or Q1..Q5 (wot-2001).")]
SupportOpt = Annotated[str | None, _Opt(
    "--support", metavar="N=V[,N=V]", show_default=False, rich_help_panel=PANEL,
    help="wot-classic: final support/opposition per player, e.g. --support 3=6,8=2.")]
PatternOpt = Annotated[str | None, _Opt(
    "--pattern", metavar="N=V,N=V", show_default=False, rich_help_panel=PANEL,
    help="wot-2001: each player's own Pattern, e.g. --pattern 3=9,8=4.")]
NeutralOpt = Annotated[int | None, _Opt(
    "--neutral", metavar="N", min=0, show_default=False, rich_help_panel=PANEL,
    help="wot-2001, Q4/Q5: the Neutral Pattern.")]
ConcededOpt = Annotated[int | None, _Opt(
    "--conceded-by", metavar="NUMBER", show_default=False, rich_help_panel=PANEL,
    help="O3/O5/Q5: the player who conceded or was declared forfeit.")]
LastBattleOpt = Annotated[bool | None, _Opt(
    "--last-battle/--before-last-battle", show_default=False, rich_help_panel=PANEL,
    help="When the game ended (only Q3/Q5 need it; other codes fix it).")]


def is_wot(state: TournamentState) -> bool:
    from ledger.formats.wot.state import WotState
    return isinstance(state.fmt, WotState)


def parse_amounts(text: str | None, option: str) -> dict[int, int] | None:
    """``3=6,8=2`` → {3: 6, 8: 2}."""
    if text is None:
        return None
    out: dict[int, int] = {}
    for part in text.split(","):
        num, sep, val = part.strip().partition("=")
        if not sep or not num.isdigit() or not val.isdigit() or int(num) in out:
            raise UsageError(f"{option} {text!r} is not NUMBER=AMOUNT[,NUMBER=AMOUNT]",
                             hint=f"e.g. {option} 3=6,8=2 (player number = amount >= 0)")
        out[int(num)] = int(val)
    return out


def wot_kwargs(outcome: str, winner: int | None, support: str | None, pattern: str | None,
               neutral: int | None, conceded_by: int | None, last_battle: bool | None,
               others: dict[str, bool]) -> dict[str, Any]:
    """``record_result`` keyword arguments of a WoT result; other formats' options refused."""
    used = [name for name, on in others.items() if on]
    if used:
        raise UsageError(f"{', '.join(used)} {'is' if len(used) == 1 else 'are'} not "
                         "Wheel of Time options",
                         hint="WoT results: --outcome CODE [--winner N] [--support N=V,…| "
                              "--pattern N=V,N=V --neutral N] [--conceded-by N]")
    return {"wot_outcome": outcome.strip().upper(), "winner": winner,
            "support": parse_amounts(support, "--support"),
            "pattern": parse_amounts(pattern, "--pattern"), "neutral": neutral,
            "conceded_by": conceded_by, "last_battle": last_battle}


def result_text(res: ResultState | None) -> str:
    from ledger.formats.wot.words import result_words

    return result_words(res)


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
    """``round show --json`` of a WoT Game: DESIGN.md §8 keys plus Hero/Villain."""
    from ledger.formats.wot import plan
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
    from ledger.formats.wot import plan
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


def after_result(s: Session, led: Any, log: str, signer: Any, state: TournamentState,
                 round_no: int) -> tuple[dict[str, Any], list[str]]:
    """When the result completed its Game: what comes next, and the checkpoint."""
    from ledger.formats.wot import plan
    g = plan.find_game(state, round_no)
    if g is None or not plan.complete(g):
        return {"game_complete": False}, []
    verdict = ("the event is over: see the final ranking with tourney standings"
               if plan.over(state) else f"pair Game {round_no + 1} with tourney round pair")
    lines = [f"Game {round_no} complete: {verdict}"]
    cp = auto_checkpoint(s, led, log, signer, f"Game {round_no} complete")
    if cp is not None:
        lines.append(f"checkpoint: {cp}")
    return {"game_complete": True, "verdict": verdict,
            "checkpoint": None if cp is None else cp.json()}, lines


def result_lines(state: TournamentState, events: list[SignedEvent], what: str) -> list[str]:
    from ledger.formats.wot import plan
    b = events[0].body
    g = plan.find_game(state, b.round)  # type: ignore[attr-defined]
    t = None if g is None else plan.find_table(g, b.table)  # type: ignore[attr-defined]
    who = "?" if t is None else f"{_label(state, t.hero)} (H) v {_label(state, t.villain)} (V)"
    return [f"{seq_span(events)}: {what} Game {b.round} table {b.table} "  # type: ignore[attr-defined]
            f"({who}): {result_text(None if t is None else t.result)}"]


def _judge_write(s: Session, verb: str, **kw: Any) -> tuple[str, list[SignedEvent], Any]:
    signer = s.signer()
    with s.ledger() as led:
        log = s.tournament(led)

        def command(t: Any, time: str) -> tuple[list[SignedEvent], Any]:
            if not is_wot(t.state):
                raise UsageError(f"'{verb}' is a Wheel of Time Judge power",
                                 hint="this tournament is not a wot-2001/wot-classic event")
            fn = t.plugin.declare_forfeit if verb == "forfeit" else t.plugin.override_tbp
            return fn(t, signer, time, **kw), t

        events, agg = led.write(log, command)
    return log, events, agg.state


def forfeit(
    ctx: typer.Context,
    number: Annotated[int, typer.Argument(metavar="NUMBER", min=1, help="Player number.")],
    reason: Annotated[str, _Opt("--reason", metavar="TEXT",
                                help="Why (required; kept in the event).")],
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Declaration of Forfeiture (WoT Judge = head judge; WOTOLD-FORF-1, AMB-W10).

    The player is removed from the standings and future pairings and loses all points;
    opponents keep their earlier results.  An open table of theirs is then recorded as
    their concession (O3/O5, or Q5) with --conceded-by.

    Example: tourney forfeit 7 --reason "illegal deck size (WOTOLD-DECK-6)" --key judge.pem
    """
    s = Session(ctx, key=key, json=json)
    if not reason.strip():
        raise UsageError("--reason is empty", hint="say why the player is declared forfeit")
    log, events, st = _judge_write(s, "forfeit", number=number, reason=reason)
    s.emit(write_result(events[0], number=number, events=events_brief(events)),
           [f"{seq_span(events)}: {_label(st, number)} declared forfeit: removed, all "
            "points lost (an open table of theirs is recorded as their concession)"])


def tbp_override(
    ctx: typer.Context,
    round_no: Annotated[int, _Opt("--round", metavar="N", min=1, help="Game number.")],
    number: Annotated[int, _Opt("--number", metavar="NUMBER", min=1,
                                help="The opponent of the conceding/forfeiting player.")],
    new: Annotated[str, _Opt("--new", metavar="TBP",
                             help="The TBP the Judge awards: an integer or num/den.")],
    method: Annotated[str, _Opt("--method", metavar="TEXT",
                                help="How the value was reached (required).")],
    reason: Annotated[str, _Opt("--reason", metavar="TEXT", help="Why (required).")],
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """The Judge's TBP adjustment after a concession or forfeit (WOTOLD-FORF-2).

    Replaces NUMBER's TBP for that Game; the event cites the value it replaces and is
    listed by 'tourney audit verify'.  Other players' averages keep the derived values
    unless the event announced wot_override_in_averages (AMB-W15).

    Example: tourney tbp-override --round 3 --number 4 --new 5 --method "replayed final turn" --reason "concession to move the pile" --key judge.pem
    """
    s = Session(ctx, key=key, json=json)
    if not method.strip() or not reason.strip():
        raise UsageError("--method and --reason must say something",
                         hint="the override is noted and submitted with the verification")
    log, events, st = _judge_write(s, "tbp-override", round_no=round_no, number=number,
                                   new=new.strip(), method=method, reason=reason)
    b = events[0].body
    s.emit(write_result(events[0], round=round_no, number=number,
                        old=b.old, new=b.new, events=events_brief(events)),  # type: ignore[attr-defined]
           [f"{seq_span(events)}: Game {round_no}: TBP of {_label(st, number)} "
            f"{b.old} -> {b.new}"])  # type: ignore[attr-defined]


def seed_unused(state: TournamentState) -> bool:
    """True when the next Game draws nothing (no tie to order), so no seed is recorded."""
    from ledger.formats.wot import plan
    if not plan.ws(state).games:
        return False
    try:
        plan.next_game(state)
        return plan.tie_items(plan.entrants(state)) is None
    except Exception:  # noqa: BLE001 - the pairing itself reports the refusal
        return False
