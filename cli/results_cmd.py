"""``tourney result record``, ``tourney result correct`` and ``tourney drop``.

Owns: the commands (their outcome options and what they mean are
``cli.result_options``), the drop-timing messages, and what is printed when a command closes a round:
the stop rule's verdict (or the bracket's progress, or the champion) and the automatic
checkpoint when a head judge signed (else a hint to run ``tourney checkpoint``).  Who won
and why each loser lost is the ledger's (``ledger.formats.hotc.results.decide_result``), never
decided here.

May import: ``typer``, ``msgspec``, ``cli.common``, ``cli.round_cmd``, ``cli.wot_cmd``,
``ledger.*``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import msgspec
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
from cli.result_options import (  # noqa: F401  (choose, parse_games: re-exported)
    AnnexOpt,
    BothSlowOpt,
    ConcessionOpt,
    DoubleLossOpt,
    DrawOpt,
    GamesOpt,
    RoundOpt,
    SlowPlayOpt,
    TableOpt,
    TieOpt,
    TimeoutOpt,
    TurnPlayerOpt,
    WinnerOpt,
    choose,
    parse_annex,
    parse_games,
)
from cli.round_cmd import label, result_text
from cli.wot_cmd import (
    ConcededOpt,
    LastBattleOpt,
    NeutralOpt,
    OutcomeOpt,
    PatternOpt,
    SupportOpt,
    is_wot,
    wot_kwargs,
)
from ledger.errors import UsageError
from ledger.formats.match.events import DropTiming, PlayerDropped, ResultCorrected, ResultRecorded

if TYPE_CHECKING:
    from ledger.events import SignedEvent
    from ledger.keys import Signer
    from ledger.state import TournamentState
    from ledger.store import Ledger

_Opt = typer.Option
app = typer.Typer(no_args_is_help=True, help=(
    "Match results: record (scorekeeper, judge or head judge) and correct (judge).\n\n"
    "Example: tourney result record --round 1 --table 3 --winner 17 --key sk.pem"))

def closing(s: Session, led: Ledger, log: str, signer: Signer, state: TournamentState,
            events: list[SignedEvent]) -> tuple[dict[str, Any], list[str]]:
    """What a command that may have closed a round adds to its output (JSON, lines)."""
    from ledger.formats.match.events import ChampionDeclared, RoundClosed
    from ledger.formats.match.model import Phase
    from ledger.plugin import require_plugin

    closed = next((e.body for e in events if isinstance(e.body, RoundClosed)), None)
    champ = next((e.body for e in events if isinstance(e.body, ChampionDeclared)), None)
    extra: dict[str, Any] = {"round_closed": None, "verdict": None, "champion": None,
                             "checkpoint": None}
    if closed is None:
        return extra, []
    n = closed.round
    if closed.phase is Phase.SWISS:  # what comes next is the format's to say (defect 13)
        gone = (f"; eliminated: {', '.join(f'#{p}' for p in closed.eliminated)}"
                if closed.eliminated else "")
        verdict = (f"{closed.undefeated} undefeated; "
                   + ("Swiss phase over: " if closed.swiss_over else "Swiss continues: ")
                   + require_plugin(state.format.id if state.format else "").next_step(state))
        lines = [f"round {n} closed: {verdict}{gone}"]
    elif champ is not None:
        verdict = f"champion: {label(state, champ.number)}"
        lines = [f"round {n} closed (top cut): {verdict}"]
    else:
        verdict = (f"{closed.undefeated} players remain in the bracket: pair the next "
                   "bracket round with tourney bracket")
        lines = [f"round {n} closed (top cut): {verdict}"]
    extra.update(round_closed={"round": n, "phase": closed.phase.value,
                               "undefeated": closed.undefeated, "one_loss": closed.one_loss,
                               "eliminated": list(closed.eliminated),
                               "swiss_over": closed.swiss_over},
                 verdict=verdict, champion=None if champ is None else champ.number)
    cp = auto_checkpoint(s, led, log, signer, f"{seq_span(events)} written", state)
    if champ is not None:
        extra["sealed"] = cp is not None  # the end-of-event checkpoint (DESIGN.md §4)
    if cp is not None:
        extra["checkpoint"] = cp.json()
        lines.append(f"{'end-of-event checkpoint (sealed)' if champ else 'checkpoint'}: {cp}")
    elif champ is not None:
        hint = ("the event is not sealed until the head judge signs the end-of-event "
                "checkpoint: tourney checkpoint --key FILE (or tourney publish)")
        extra["hint"] = hint
        lines.append(f"hint: {hint}")
    else:
        hint = "the head judge should now sign a checkpoint: tourney checkpoint --key FILE"
        extra["hint"] = hint
        lines.append(f"hint: {hint}")
    return extra, lines


def _write(s: Session, command: Any) -> tuple[str, Any, TournamentState,
                                             dict[str, Any], list[str]]:
    """One write: ``command(t, time, signer, ledger, log)`` returns the events it recorded
    (or ``Unchanged``); then what closing a round prints."""
    from cli.result_entry import Unchanged

    signer = s.signer()
    with s.ledger() as led:
        log = s.tournament(led)
        events, agg = led.write(log, lambda t, time: (command(t, time, signer, led, log), t))
        if isinstance(events, Unchanged):
            return log, events, agg.state, {}, []
        extra, lines = closing(s, led, log, signer, agg.state, events)
    return log, events, agg.state, extra, lines


def _games_fields(b: ResultRecorded | ResultCorrected) -> dict[str, Any]:
    import msgspec

    out: dict[str, Any] = {}
    if not isinstance(b.games, msgspec.UnsetType):
        out["games"] = list(b.games)
    if not isinstance(b.decided_by, msgspec.UnsetType):
        out["decided_by"] = b.decided_by.value
    return out
def _unchanged(s: Session, log: str, st: TournamentState, same: Any, what: str) -> None:
    """An identical re-entry: exit 0, nothing written, the earlier event named."""
    from ledger.formats.match.apply import find_table

    tab = find_table(st.fmt, same.round, same.table)
    players = " v ".join(label(st, p) for p in tab.players) if tab else "?"
    res = tab.result if tab else None
    s.emit({"ok": True, "tournament": log, "written": False, "seq": same.seq,
            "round": same.round, "table": same.table,
            "winner": res.winner if res else None,
            "losers": list(res.losers) if res else [],
            "outcome": res.outcome.value if res else None},
           [f"unchanged: round {same.round} table {same.table} ({players}) already has "
            f"this result as {what} (seq {same.seq}): {result_text(res)}; nothing written"])


def _result_lines(state: TournamentState, events: list[SignedEvent], what: str) -> list[str]:
    from ledger.formats.match.apply import find_table

    body = events[0].body
    assert isinstance(body, (ResultRecorded, ResultCorrected))
    tab = find_table(state.fmt, body.round, body.table)
    players = " v ".join(label(state, p) for p in tab.players) if tab else "?"
    return [f"{seq_span(events)}: {what} round {body.round} table {body.table} "
            f"({players}): {result_text(tab.result if tab else None)}"]


@app.command("record")
def result_record(
    ctx: typer.Context,
    round_no: RoundOpt,
    table: TableOpt,
    winner: WinnerOpt = None,
    concession: ConcessionOpt = None,
    timeout: TimeoutOpt = False,
    slow_play: SlowPlayOpt = None,
    double_loss: DoubleLossOpt = False,
    tie: TieOpt = False,
    draw: DrawOpt = False,
    annex_a: AnnexOpt = None,
    games: GamesOpt = None,
    turn_player: TurnPlayerOpt = None,
    both_slow_play: BothSlowOpt = False,
    outcome: OutcomeOpt = None,
    support: SupportOpt = None,
    pattern: PatternOpt = None,
    neutral: NeutralOpt = None,
    conceded_by: ConcededOpt = None,
    last_battle: LastBattleOpt = None,
    note_text: Annotated[str, _Opt("--note", metavar="TEXT",
                                   help="Free text kept with the result.")] = "",
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Record the result of one table of the open round.

    Exactly one outcome: --winner N, --concession N (N conceded), --timeout (Swiss: double
    loss; top cut: add --turn-player N, who loses), --slow-play N (time with an upheld
    call against N: N loses), --double-loss (Swiss: the timeout double loss) or --tie
    (Swiss: a simultaneous loss, both lose without a time loss).  Bushiroad formats:
    --winner N [--games 2-1], --draw [--games 1-1-1], --timeout --games A-B[-D] (the
    unfinished game is drawn; game wins decide, BR-SWISS-5 / BR-DE-6 / BR-SE-3),
    --concession N, or --annex-a A/B (Annex A values, when announced).  The last result
    closes the round and prints the stop rule's verdict.

    Example: tourney result record --round 2 --table 5 --slow-play 22 --key sk.pem
    """
    from cli.result_entry import Unchanged, enter_result

    s = Session(ctx, key=key, json=json)
    if outcome is not None:
        kw = wot_kwargs(outcome, winner, support, pattern, neutral, conceded_by, last_battle,
                        _other_options(concession, timeout, slow_play, double_loss, tie, draw,
                                       annex_a, games, turn_player, both_slow_play))
        _wot_record(s, round_no, table, "result of", lambda t, time, signer: t.record_result(
            signer, time, round_no=round_no, table=table, note=note_text, **kw))
        return
    _no_wot_options(support, pattern, neutral, conceded_by, last_battle)
    choice = choose(winner, concession, timeout, slow_play, double_loss, turn_player,
                    both_slow_play, tie, draw, games, annex_a)
    log, events, st, extra, more = _write(s, lambda t, time, signer, led, log: enter_result(
        t, signer, time, lambda seq: led.actor_of(log, seq), note=note_text,
        **choice.kwargs(t.state, round_no, table)))
    if isinstance(events, Unchanged):
        _unchanged(s, log, st, events, "recorded")
        return
    b = events[0].body
    assert isinstance(b, ResultRecorded)
    s.emit(write_result(events[0], round=round_no, table=table, winner=b.winner,
                        losers=list(b.losers), outcome=b.outcome.value,
                        **_games_fields(b), events=events_brief(events), **extra),
           _result_lines(st, events, "result of") + more)


@app.command("correct")
def result_correct(
    ctx: typer.Context,
    round_no: RoundOpt,
    table: TableOpt,
    reason: Annotated[str, _Opt("--reason", metavar="TEXT",
                                help="Why the result is corrected (required).")],
    winner: WinnerOpt = None,
    concession: ConcessionOpt = None,
    timeout: TimeoutOpt = False,
    slow_play: SlowPlayOpt = None,
    double_loss: DoubleLossOpt = False,
    tie: TieOpt = False,
    draw: DrawOpt = False,
    annex_a: AnnexOpt = None,
    games: GamesOpt = None,
    turn_player: TurnPlayerOpt = None,
    both_slow_play: BothSlowOpt = False,
    outcome: OutcomeOpt = None,
    support: SupportOpt = None,
    pattern: PatternOpt = None,
    neutral: NeutralOpt = None,
    conceded_by: ConcededOpt = None,
    last_battle: LastBattleOpt = None,
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Correct a recorded result (judge or head judge) by a new event citing its seq.

    Possible until the next round is paired.  Same outcome options as 'result record';
    --reason is required.

    Example: tourney result correct --round 2 --table 5 --winner 9 --reason "slips swapped" --key judge.pem
    """
    from cli.result_entry import Unchanged, correct_entry

    s = Session(ctx, key=key, json=json)
    if not reason.strip():
        raise UsageError("--reason is empty", hint="say why the result is corrected")
    if outcome is not None:
        kw = wot_kwargs(outcome, winner, support, pattern, neutral, conceded_by, last_battle,
                        _other_options(concession, timeout, slow_play, double_loss, tie, draw,
                                       annex_a, games, turn_player, both_slow_play))
        _wot_record(s, round_no, table, "corrected", lambda t, time, signer: t.correct_result(
            signer, time, round_no=round_no, table=table, reason=reason.strip(), **kw))
        return
    _no_wot_options(support, pattern, neutral, conceded_by, last_battle)
    choice = choose(winner, concession, timeout, slow_play, double_loss, turn_player,
                    both_slow_play, tie, draw, games, annex_a)
    log, events, st, extra, more = _write(s, lambda t, time, signer, led, log: correct_entry(
        t, signer, time, reason=reason.strip(), **choice.kwargs(t.state, round_no, table)))
    if isinstance(events, Unchanged):
        _unchanged(s, log, st, events, "the current result")
        return
    b = events[0].body
    assert isinstance(b, ResultCorrected)
    s.emit(write_result(events[0], round=round_no, table=table, winner=b.winner,
                        losers=list(b.losers), outcome=b.outcome.value,
                        corrects_seq=b.corrects_seq, events=events_brief(events), **extra),
           _result_lines(st, events, f"corrected (seq {b.corrects_seq})") + more)


def _other_options(concession: int | None, timeout: bool, slow_play: int | None,
                   double_loss: bool, tie: bool, draw: bool, annex_a: str | None,
                   games: str | None, turn_player: int | None,
                   both_slow_play: bool) -> dict[str, bool]:
    return {"--concession": concession is not None, "--timeout": timeout,
            "--slow-play": slow_play is not None, "--double-loss": double_loss, "--tie": tie,
            "--draw": draw, "--annex-a": annex_a is not None, "--games": games is not None,
            "--turn-player": turn_player is not None, "--both-slow-play": both_slow_play}


def _no_wot_options(support: str | None, pattern: str | None, neutral: int | None,
                    conceded_by: int | None, last_battle: bool | None) -> None:
    if (support, pattern, neutral, conceded_by, last_battle) != (None,) * 5:
        raise UsageError("--support, --pattern, --neutral, --conceded-by and --last-battle "
                         "go with --outcome", hint="Wheel of Time: --outcome CODE …")


def _wot_record(s: Session, round_no: int, table: int, what: str, command: Any) -> None:
    """A WoT result or correction: one event; on the Game's last table, what comes next."""
    from cli.wot_cmd import after_result, result_lines

    signer = s.signer()
    with s.ledger() as led:
        log = s.tournament(led)

        def run(t: Any, time: str) -> tuple[list[SignedEvent], Any]:
            if not is_wot(t.state):
                raise UsageError("--outcome is for Wheel of Time events",
                                 hint="this format's results: see 'tourney result record "
                                      "--help'")
            return command(t, time, signer), t

        events, agg = led.write(log, run)
        extra, more = after_result(s, led, log, signer, agg.state, round_no)
    b = events[0].body
    assert isinstance(b, (ResultRecorded, ResultCorrected))
    fields = msgspec.to_builtins(b)
    s.emit(write_result(events[0], **{k: v for k, v in fields.items()
                                      if k in ("round", "table", "winner", "losers", "outcome",
                                               "sides", "support", "pattern", "neutral",
                                               "conceded_by", "last_battle", "corrects_seq")},
                        events=events_brief(events), **extra),
           result_lines(agg.state, events, what) + more)


def _timing_text(state: TournamentState, events: list[SignedEvent]) -> str:
    body = events[0].body
    assert isinstance(body, PlayerDropped)
    who = label(state, body.number)
    res = next((e.body for e in events if isinstance(e.body, ResultRecorded)), None)
    if body.timing is DropTiming.AFTER_PAIRING and res is not None:
        return (f"{who} dropped after pairing: a loss in round {res.round} (table "
                f"{res.table}; #{res.winner} wins); not paired again")
    if body.timing is DropTiming.AFTER_RESULT:
        return f"{who} dropped after their round {body.round} result: not paired again"
    if body.timing is DropTiming.CUT_WINDOW:
        return (f"{who} dropped in the cut window (Swiss over, cut not made): cannot be "
                "selected for the top cut (HOTC-DROP-1)")
    return (f"{who} dropped before the next pairing (round {body.round + 1}): "
            "not paired again")


def drop(
    ctx: typer.Context,
    number: Annotated[int, typer.Argument(metavar="NUMBER", min=1,
                                          help="Player number.")],
    reason: Annotated[str, _Opt("--reason", metavar="TEXT",
                                help="Why (kept in the event).")] = "",
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Drop a player (scorekeeper or head judge); prints when it takes effect.

    Before pairing: not paired again.  After pairing: a loss this round (not a time loss).
    After the Swiss phase, before the cut: cannot be selected for the top cut.

    Example: tourney drop 31 --reason "left the venue" --key sk.pem
    """
    s = Session(ctx, key=key, json=json)
    log, events, st, extra, more = _write(s, lambda t, time, signer, led, log: t.drop_player(
        signer, time, number, reason.strip()))
    b = events[0].body
    assert isinstance(b, PlayerDropped)
    s.emit(write_result(events[0], number=number, round=b.round, timing=b.timing.value,
                        events=events_brief(events), **extra),
           [f"{seq_span(events)}: {_timing_text(st, events)}"] + more)


def _register_import() -> None:
    from cli.result_import import result_import
    app.command("import")(result_import)


_register_import()
