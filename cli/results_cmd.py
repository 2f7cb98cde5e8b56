"""``tourney result record``, ``tourney result correct`` and ``tourney drop``.

Owns: the outcome options of the command line and their mapping onto
``ledger.formats.match.model.Outcome`` (exactly one of --winner, --concession, --timeout,
--slow-play, --double-loss, --tie; ``--both-slow-play`` with --winner; --turn-player with
--timeout), the drop-timing messages, and what is printed when a command closes a round:
the stop rule's verdict (or the bracket's progress, or the champion) and the automatic
checkpoint when a head judge signed (else a hint to run ``tourney checkpoint``).  Who won
and why each loser lost is the ledger's (``ledger.formats.hotc.results.decide_result``), never
decided here.

May import: ``typer``, ``msgspec``, ``cli.common``, ``cli.round_cmd``, ``cli.wot_cmd``,
``ledger.*``.
"""

from __future__ import annotations

from dataclasses import dataclass
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
from ledger.formats.match.model import Outcome

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
DrawOpt = Annotated[bool, _Opt(
    "--draw", rich_help_panel="Outcome (exactly one)",
    help="Bushiroad: the match ended with equal game wins (Swiss / round robin: a draw "
         "worth 0, BR-SWISS-4; DE: a tie, both lose, BR-DE-3).")]
GamesOpt = Annotated[str | None, _Opt(
    "--games", metavar="A-B[-D]", show_default=False,
    help="Bushiroad: game wins of the first and second player at the table [and drawn "
         "games], e.g. 2-1; with --timeout the unfinished game counts as drawn (BR-SWISS-5).")]
AnnexOpt = Annotated[str | None, _Opt(
    "--annex-a", metavar="A/B[;A/B…]", show_default=False,
    rich_help_panel="Outcome (exactly one)",
    help="Bushiroad, Annex A announced: the values compared at time-up (and at later "
         "checkpoints) for the first/second player: VG damage, WS level,clock, BF life "
         "(BR-ANNEXA-*), e.g. --annex-a 2,3/2,5; --games counts the games before it.")]
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
    games: list[int] | None = None
    annex_values: list[list[list[int]]] | None = None

    def kwargs(self, state: TournamentState, round_no: int, table: int) -> dict[str, Any]:
        """Keyword arguments of ``record_result`` / ``correct_result``."""
        from ledger.formats.match.apply import find_round, find_table
        from ledger.formats.match.model import Phase

        if is_wot(state):
            raise UsageError("a Wheel of Time result names its outcome code",
                             hint="e.g. --outcome O1 --winner 3 --support 3=6,8=2 (classic) "
                                  "or --outcome Q1 --winner 3 --pattern 3=9,8=4 (2001)")
        rnd = find_round(state.fmt, round_no)
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
            tab = find_table(state.fmt, round_no, table)
            calls = list(tab.players) if tab is not None else []
        kw: dict[str, Any] = {"round_no": round_no, "table": table, "outcome": self.outcome,
                              "winner": self.winner, "loser": self.loser,
                              "turn_player": self.turn_player, "slow_play": calls}
        if self.games is not None:
            kw["games"] = self.games
        if self.annex_values is not None:
            kw["annex_values"] = self.annex_values
        return kw


def parse_games(text: str | None) -> list[int] | None:
    """``--games 2-1`` or ``2-1-1`` → [2, 1] / [2, 1, 1]."""
    if text is None:
        return None
    parts = text.split("-")
    if len(parts) not in (2, 3) or not all(p.isdigit() for p in parts):
        raise UsageError(f"--games {text!r} is not A-B or A-B-D",
                         hint="game wins of the first and second player [and drawn games], "
                              "e.g. --games 2-1")
    return [int(p) for p in parts]


def parse_annex(text: str | None) -> list[list[list[int]]] | None:
    """``--annex-a 2,3/2,5;2,3/3,5`` → [[[2, 3], [2, 5]], [[2, 3], [3, 5]]]."""
    if text is None:
        return None
    out: list[list[list[int]]] = []
    for checkpoint in text.split(";"):
        sides = checkpoint.strip().split("/")
        try:
            if len(sides) != 2:
                raise ValueError
            out.append([[int(v) for v in side.split(",")] for side in sides])
        except ValueError:
            raise UsageError(f"--annex-a {text!r} is not A_VALUES/B_VALUES[;…]",
                             hint="e.g. WS level,clock: --annex-a 2,3/2,5") from None
    return out


def choose(winner: int | None, concession: int | None, timeout: bool,
           slow_play: int | None, double_loss: bool, turn_player: int | None,
           both_slow_play: bool, tie: bool = False, draw: bool = False,
           games: str | None = None, annex: str | None = None) -> Choice:
    """Exactly one outcome option, and the modifiers only where they mean something."""
    given = [name for name, on in (("--winner", winner is not None),
                                   ("--concession", concession is not None),
                                   ("--timeout", timeout),
                                   ("--slow-play", slow_play is not None),
                                   ("--double-loss", double_loss),
                                   ("--tie", tie), ("--draw", draw),
                                   ("--annex-a", annex is not None)) if on]
    hint = ("pass exactly one of --winner, --concession, --timeout, --slow-play, "
            "--double-loss, --tie (HotC) or --winner, --draw, --timeout, --concession, "
            "--annex-a (Bushiroad)")
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
    g = parse_games(games)
    if winner is not None:
        return Choice(Outcome.WIN, winner=winner, both_slow_play=both_slow_play, games=g)
    if concession is not None:
        return Choice(Outcome.CONCESSION, loser=concession, games=g)
    if draw:
        return Choice(Outcome.DRAW, games=g)
    if annex is not None:
        return Choice(Outcome.WIN, games=g or [0, 0], annex_values=parse_annex(annex))
    if timeout:
        return Choice(Outcome.TIMEOUT, turn_player=turn_player, games=g)
    if slow_play is not None:
        return Choice(Outcome.SLOW_PLAY, slow_play=slow_play)
    if double_loss:
        return Choice(Outcome.TIMEOUT, swiss_only="--double-loss")
    return Choice(Outcome.TIE, swiss_only="--tie")


def closing(s: Session, led: Ledger, log: str, signer: Signer, state: TournamentState,
            events: list[SignedEvent]) -> tuple[dict[str, Any], list[str]]:
    """What a command that may have closed a round adds to its output (JSON, lines)."""
    from ledger.formats.match.events import ChampionDeclared, RoundClosed
    from ledger.formats.match.model import Phase

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
