"""``tourney result record``, ``tourney result correct`` and ``tourney drop``.

Owns: the outcome options of the command line and their mapping onto
``ledger.hotc.model.Outcome`` (exactly one of --winner, --concession, --timeout,
--slow-play, --double-loss, --tie; ``--both-slow-play`` with --winner; --turn-player with
--timeout), the drop-timing messages, and what is printed when a command closes a round:
the stop rule's verdict (or the bracket's progress, or the champion) and the automatic
checkpoint when a head judge signed (else a hint to run ``tourney checkpoint``).  Who won
and why each loser lost is the ledger's (``ledger.hotc.results.decide_result``), never
decided here.

May import: ``typer``, ``cli.common``, ``cli.round_cmd``, ``ledger.*``.
"""

from __future__ import annotations

from dataclasses import dataclass
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
from cli.round_cmd import label, result_text
from ledger.errors import UsageError
from ledger.hotc.events import DropTiming, PlayerDropped, ResultCorrected, ResultRecorded
from ledger.hotc.model import Outcome

if TYPE_CHECKING:
    from ledger.events import SignedEvent
    from ledger.keys import Signer
    from ledger.state import TournamentState
    from ledger.store import Ledger

app = typer.Typer(no_args_is_help=True, help=(
    "Match results: record (scorekeeper, judge or head judge) and correct (judge).\n\n"
    "Example: tourney result record --round 1 --table 3 --winner 17 --key sk.pem"))

_Opt = typer.Option
RoundOpt = Annotated[int, _Opt("--round", metavar="N", min=1, help="Round number.")]
TableOpt = Annotated[int, _Opt("--table", metavar="T", min=1, help="Table number.")]
WinnerOpt = Annotated[int | None, _Opt(
    "--winner", metavar="NUMBER", show_default=False, rich_help_panel="Outcome (exactly one)",
    help="The match was played out (or supervised to its end): NUMBER won.")]
ConcessionOpt = Annotated[int | None, _Opt(
    "--concession", metavar="NUMBER", show_default=False,
    rich_help_panel="Outcome (exactly one)", help="NUMBER conceded: the opponent wins.")]
TimeoutOpt = Annotated[bool, _Opt(
    "--timeout", rich_help_panel="Outcome (exactly one)",
    help="Time ran out, no upheld slow-play call: Swiss = double loss (HOTC-TIME-2); "
         "top cut = the --turn-player loses (HOTC-TOP-2).")]
SlowPlayOpt = Annotated[int | None, _Opt(
    "--slow-play", metavar="NUMBER", show_default=False,
    rich_help_panel="Outcome (exactly one)",
    help="Time ran out after an upheld slow-play call against NUMBER: NUMBER loses.")]
DoubleLossOpt = Annotated[bool, _Opt(
    "--double-loss", rich_help_panel="Outcome (exactly one)",
    help="Swiss only: the match went to time with no upheld slow-play call, both lose "
         "(HOTC-TIME-2; the same as --timeout in the Swiss phase: a time loss).")]
TieOpt = Annotated[bool, _Opt(
    "--tie", rich_help_panel="Outcome (exactly one)",
    help="Swiss only: both met a losing condition at once, both lose (AMB-H14; not a "
         "time loss).")]
TurnPlayerOpt = Annotated[int | None, _Opt(
    "--turn-player", metavar="NUMBER", show_default=False,
    help="With --timeout in the top cut: whose turn it was (that player loses).")]
BothSlowOpt = Annotated[bool, _Opt(
    "--both-slow-play",
    help="With --winner: both players were called for slow play and the match was "
         "supervised to its natural result (HOTC-TIME-3).")]


@dataclass(frozen=True)
class Choice:
    """The outcome the command line asked for, before the table is known."""

    outcome: Outcome
    winner: int | None = None
    loser: int | None = None
    turn_player: int | None = None
    slow_play: int | None = None
    both_slow_play: bool = False
    swiss_only: str | None = None   # the option that exists only in the Swiss phase

    def kwargs(self, state: TournamentState, round_no: int, table: int) -> dict[str, Any]:
        """Keyword arguments of ``record_result`` / ``correct_result``."""
        from ledger.hotc.apply import find_round, find_table
        from ledger.hotc.model import Phase

        rnd = find_round(state.hotc, round_no)
        if self.swiss_only and rnd is not None and rnd.phase is Phase.TOP_CUT:
            raise UsageError(f"{self.swiss_only} does not exist in the top cut",
                             hint="time in the top cut: --timeout --turn-player N "
                                  "(HOTC-TOP-2); a simultaneous loss: --winner with the "
                                  "non-turn player (BR-SE-2)")
        if rnd is not None and self.outcome is Outcome.TIMEOUT and self.swiss_only is None:
            if rnd.phase is Phase.TOP_CUT and self.turn_player is None:
                raise UsageError("a top-cut timeout needs --turn-player NUMBER",
                                 hint="the player whose turn it was when time ran out "
                                      "loses (HOTC-TOP-2); with an upheld slow-play call "
                                      "use --slow-play NUMBER")
            if rnd.phase is Phase.SWISS and self.turn_player is not None:
                raise UsageError("--turn-player does not apply in the Swiss phase",
                                 hint="a Swiss timeout is a double loss whoever's turn it "
                                      "was (HOTC-TIME-2): leave out --turn-player")

        calls: list[int] = []
        if self.slow_play is not None:
            calls = [self.slow_play]
        elif self.both_slow_play:
            tab = find_table(state.hotc, round_no, table)
            calls = list(tab.players) if tab is not None else []
        return {"round_no": round_no, "table": table, "outcome": self.outcome,
                "winner": self.winner, "loser": self.loser,
                "turn_player": self.turn_player, "slow_play": calls}


def choose(winner: int | None, concession: int | None, timeout: bool,
           slow_play: int | None, double_loss: bool, turn_player: int | None,
           both_slow_play: bool, tie: bool = False) -> Choice:
    """Exactly one outcome option, and the modifiers only where they mean something."""
    given = [name for name, on in (("--winner", winner is not None),
                                   ("--concession", concession is not None),
                                   ("--timeout", timeout),
                                   ("--slow-play", slow_play is not None),
                                   ("--double-loss", double_loss),
                                   ("--tie", tie)) if on]
    hint = ("pass exactly one of --winner, --concession, --timeout, --slow-play, "
            "--double-loss, --tie")
    if not given:
        raise UsageError("no outcome given", hint=hint)
    if len(given) > 1:
        raise UsageError(f"{' and '.join(given)} are different outcomes", hint=hint)
    if turn_player is not None and not timeout:
        raise UsageError("--turn-player only goes with --timeout",
                         hint="the turn player matters only when time runs out in the top cut")
    if both_slow_play and winner is None:
        raise UsageError("--both-slow-play only goes with --winner",
                         hint="after both calls the match is played to its natural result "
                              "(HOTC-TIME-3): record that with --winner")
    if winner is not None:
        return Choice(Outcome.WIN, winner=winner, both_slow_play=both_slow_play)
    if concession is not None:
        return Choice(Outcome.CONCESSION, loser=concession)
    if timeout:
        return Choice(Outcome.TIMEOUT, turn_player=turn_player)
    if slow_play is not None:
        return Choice(Outcome.SLOW_PLAY, slow_play=slow_play)
    if double_loss:
        return Choice(Outcome.TIMEOUT, swiss_only="--double-loss")
    return Choice(Outcome.TIE, swiss_only="--tie")


def closing(s: Session, led: Ledger, log: str, signer: Signer, state: TournamentState,
            events: list[SignedEvent]) -> tuple[dict[str, Any], list[str]]:
    """What a command that may have closed a round adds to its output (JSON, lines)."""
    from ledger.hotc.events import ChampionDeclared, RoundClosed
    from ledger.hotc.model import Phase

    closed = next((e.body for e in events if isinstance(e.body, RoundClosed)), None)
    champ = next((e.body for e in events if isinstance(e.body, ChampionDeclared)), None)
    extra: dict[str, Any] = {"round_closed": None, "verdict": None, "champion": None,
                             "checkpoint": None}
    if closed is None:
        return extra, []
    n = closed.round
    cut = state.format.cut if state.format else 8
    if closed.phase is Phase.SWISS:
        gone = (f"; eliminated: {', '.join(f'#{p}' for p in closed.eliminated)}"
                if closed.eliminated else "")
        verdict = (f"{closed.undefeated} undefeated, fewer than the top {cut}: "
                   "Swiss phase over: run tourney cut" if closed.swiss_over else
                   f"{closed.undefeated} undefeated; Swiss continues (pair round {n + 1} "
                   "with tourney round pair)")
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
    if cp is not None:
        extra["checkpoint"] = cp.json()
        lines.append(f"checkpoint: {cp}")
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


def _unchanged(s: Session, log: str, st: TournamentState, same: Any, what: str) -> None:
    """An identical re-entry: exit 0, nothing written, the earlier event named."""
    from ledger.hotc.apply import find_table

    tab = find_table(st.hotc, same.round, same.table)
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
    from ledger.hotc.apply import find_table

    body = events[0].body
    assert isinstance(body, (ResultRecorded, ResultCorrected))
    tab = find_table(state.hotc, body.round, body.table)
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
    turn_player: TurnPlayerOpt = None,
    both_slow_play: BothSlowOpt = False,
    note_text: Annotated[str, _Opt("--note", metavar="TEXT",
                                   help="Free text kept with the result.")] = "",
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Record the result of one table of the open round.

    Exactly one outcome: --winner N, --concession N (N conceded), --timeout (Swiss: double
    loss; top cut: add --turn-player N, who loses), --slow-play N (time with an upheld
    call against N: N loses), --double-loss (Swiss: the timeout double loss) or --tie
    (Swiss: a simultaneous loss, both lose without a time loss).  The last result
    closes the round and prints the stop rule's verdict.

    Example: tourney result record --round 2 --table 5 --slow-play 22 --key sk.pem
    """
    from cli.result_entry import Unchanged, enter_result

    s = Session(ctx, key=key, json=json)
    choice = choose(winner, concession, timeout, slow_play, double_loss, turn_player,
                    both_slow_play, tie)
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
                        events=events_brief(events), **extra),
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
    turn_player: TurnPlayerOpt = None,
    both_slow_play: BothSlowOpt = False,
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
    choice = choose(winner, concession, timeout, slow_play, double_loss, turn_player,
                    both_slow_play, tie)
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
