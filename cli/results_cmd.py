"""``tourney result record``, ``tourney result correct``, ``tourney result codes`` and
``tourney drop``.

Owns: the commands (their outcome options are the event's format's vocabulary, read
through ``cli.result_options``), the drop-timing messages, and the words of what happens
when a command closes a round (``usecases.rounds.after_round_closed``: the stop rule's
verdict, or the bracket's progress, or the champion, or the format's own word that a
round is complete; the automatic checkpoint when a head judge signed, else a hint to run
``tourney checkpoint``).  Entering a result is ``usecases.results``.  Who won
and why each loser lost is the format's (its ``record_result`` / ``decided_result``),
never decided here; how a result reads is its ``describe_result``.

May import: ``typer``, ``msgspec``, ``cli.common``, ``cli.result_options``,
``cli.round_cmd``, ``projections.result_words``, ``usecases.*``, ``ledger.*`` (no format
package).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import msgspec
import typer

from cli.common import (
    JsonOpt,
    KeyOpt,
    Session,
    events_brief,
    seq_span,
    write_result,
)
from cli.result_options import (
    OUTCOME_SETTINGS,
    ResultCommand,
    RoundOpt,
    TableOpt,
    entry_kwargs,
)
from cli.result_text import label
from cli.round_closing import closing
from ledger.errors import TourneyError, UsageError
from ledger.formats.match.events import DropTiming, PlayerDropped, ResultRecorded

if TYPE_CHECKING:
    from ledger.core.state import TournamentState
    from ledger.storage.store import Ledger
    from ledger.wire.events import SignedEvent
    from ledger.wire.keys import Signer

_Opt = typer.Option
app = typer.Typer(no_args_is_help=True, help=(
    "Match results: record (scorekeeper, judge or head judge) and correct (judge).\n\n"
    "Example: tourney result record --round 1 --table 3 --winner 17 --key sk.pem"))

def _write(s: Session, command: Any) -> tuple[str, Any, TournamentState,
                                             dict[str, Any], list[str]]:
    """One write: ``command(t, time, signer, ledger, log)`` returns the events it recorded
    (or ``Unchanged``); then what closing a round prints."""
    from usecases.results import Unchanged

    signer = s.signer()
    with s.ledger() as led:
        log = s.tournament(led)
        events, agg = led.write(log, lambda t, time: (command(t, time, signer, led, log), t))
        if isinstance(events, Unchanged):
            return log, events, agg.state, {}, []
        extra, lines = closing(s, led, log, signer, agg.state, events)
    return log, events, agg.state, extra, lines


def _describe(state: TournamentState, round_no: int, table: int) -> tuple[str, str]:
    """``(#1 Ann v #2 Bob)`` and the table's result in its format's words."""
    from projections.result_words import describe

    seat = state_table(state, round_no, table)
    players = " v ".join(label(state, p) for p in seat[0]) if seat else "?"
    return players, describe(state, seat[1] if seat else None)


def state_table(state: TournamentState, round_no: int, table: int) -> tuple[list[int], Any] | None:
    """The players and the result of one table, as the format keeps them."""
    from ledger.core.plugin import plugin_for

    plugin = plugin_for(state.format.id if state.format else None)
    return None if plugin is None else plugin.table_at(state, round_no, table)


def _result_fields(b: Any) -> dict[str, Any]:
    """The recorded result's fields (docs/DESIGN.md §8/§11 names), as JSON."""
    fields = msgspec.to_builtins(b)
    return {k: v for k, v in fields.items() if k not in ("note", "reason")}


def _unchanged(s: Session, log: str, st: TournamentState, same: Any, what: str) -> None:
    """An identical re-entry: exit 0, nothing written, the earlier event named."""
    players, words = _describe(st, same.round, same.table)
    seat = state_table(st, same.round, same.table)
    res = seat[1] if seat else None
    s.emit({"ok": True, "tournament": log, "written": False, "seq": same.seq,
            "round": same.round, "table": same.table,
            "winner": getattr(res, "winner", None),
            "losers": list(getattr(res, "losers", []) or []),
            "outcome": _value(getattr(res, "outcome", None))},
           [f"unchanged: round {same.round} table {same.table} ({players}) already has "
            f"this result as {what} (seq {same.seq}): {words}; nothing written"])


def _value(x: Any) -> Any:
    return getattr(x, "value", x)


def _emit_result(s: Session, log: str, st: TournamentState, events: list[SignedEvent],
                 extra: dict[str, Any], more: list[str], what: str) -> None:
    b = events[0].body
    fields = _result_fields(b)
    players, words = _describe(st, fields["round"], fields["table"])
    if fields.get("seat"):
        words = _seat_words(st, fields, words)
    s.emit(write_result(events[0], **fields, events=events_brief(events), **extra),
           [f"{seq_span(events)}: {what} round {fields['round']} table {fields['table']} "
            f"({players}): {words}"] + more)


def _seat_words(state: TournamentState, fields: dict[str, Any], team: str) -> str:
    """A team seat's result in its format's words, then the team's (issue 32: the echo
    was "-" until the table's last seat was in)."""
    from ledger.core.plugin import plugin_for

    plugin = plugin_for(state.format.id if state.format else None)
    try:
        said = plugin.describe_body(fields) if plugin is not None else "recorded"
    except (KeyError, TypeError, ValueError):
        said = "recorded"
    return f"seat {fields['seat']}: {said}; team: " + (
        team if team != "-" else "when every seat is in")


def _settles(text: str | None) -> list[int]:
    """``--settles 41,44`` → [41, 44] (ADR 0027)."""
    if text is None:
        return []
    try:
        seqs = [int(p) for p in text.split(",")]
    except ValueError:
        seqs = []
    if not seqs or any(n < 1 for n in seqs) or len(set(seqs)) != len(seqs):
        raise UsageError(f"--settles {text!r} is not a list of distinct seqs",
                         hint="e.g. --settles 41,44 (see 'tourney report list')")
    return seqs


@app.command("record", cls=ResultCommand, context_settings=OUTCOME_SETTINGS)
def result_record(
    ctx: typer.Context,
    round_no: RoundOpt,
    table: TableOpt,
    note_text: Annotated[str, _Opt("--note", metavar="TEXT",
                                   help="Free text kept with the result.")] = "",
    settles: Annotated[str | None, _Opt(
        "--settles", metavar="SEQ,SEQ", help="The seqs of the players' pending reports of "
        "this table that this result settles (cited in it; see 'tourney report list').")]
    = None,
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Record the result of one table of the open round.

    Name exactly one outcome with the options of the event's format (listed below, and
    by 'tourney result codes'): the format decides who won and why.  The last result
    closes the round and prints what comes next.

    Example: tourney result record --round 2 --table 5 --winner 22 --key sk.pem
    """
    from usecases.results import Unchanged, enter_result

    cited = _settles(settles)
    s = Session(ctx, key=key, json=json)
    args = list(ctx.args)

    def enter(t: Any, time: str, signer: Signer, led: Ledger, log: str) -> Any:
        return enter_result(t, signer, time, lambda seq: led.actor_of(log, seq),
                            settles=cited or None, note=note_text,
                            **entry_kwargs(t, args, round_no, table))
    log, events, st, extra, more = _write(s, enter)
    if isinstance(events, Unchanged):
        _unchanged(s, log, st, events, "recorded")
        return
    _emit_result(s, log, st, events, extra, more, "result of")


@app.command("correct", cls=ResultCommand, context_settings=OUTCOME_SETTINGS)
def result_correct(
    ctx: typer.Context,
    round_no: RoundOpt,
    table: TableOpt,
    reason: Annotated[str, _Opt("--reason", metavar="TEXT",
                                help="Why the result is corrected (required).")],
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Correct a recorded result (judge or head judge) by a new event citing its seq.

    Possible until the next round is paired (afterwards: 'tourney result amend').  The
    same outcome options as 'result record'; --reason is required.

    Example: tourney result correct --round 2 --table 5 --winner 9 --reason "slips swapped" --key judge.pem
    """
    from usecases.results import Unchanged, correct_entry

    s = Session(ctx, key=key, json=json)
    if not reason.strip():
        raise UsageError("--reason is empty", hint="say why the result is corrected")
    args = list(ctx.args)
    log, events, st, extra, more = _write(s, lambda t, time, signer, led, log: correct_entry(
        t, signer, time, reason=reason.strip(), **entry_kwargs(t, args, round_no, table)))
    if isinstance(events, Unchanged):
        _unchanged(s, log, st, events, "the current result")
        return
    _emit_result(s, log, st, events, extra, more,
                 f"corrected (seq {getattr(events[0].body, 'corrects_seq', '?')})")


@app.command("codes")
def result_codes(ctx: typer.Context, json: JsonOpt = False) -> None:
    """The outcomes a result can have in this event's format (every format without a
    ledger): each option, the phase it exists in and the rule it follows.

    Example: tourney result codes
    """
    from cli.result_options import vocabularies, vocabulary_help

    s = Session(ctx, json=json)
    vocabs = vocabularies()
    try:
        with s.ledger(create=False) as led:
            state = led.load(s.tournament(led)).state
        from ledger.core.plugin import require_plugin
        if state.format is not None:
            vocabs = [require_plugin(state.format.id).result_vocabulary()]
    except TourneyError:
        pass      # no event here: every format's vocabulary
    s.emit({"formats": [{"title": v.title,
                         "entries": [{"key": e.key, "option": v.field(e.selector).option,
                                      "value": e.value or None, "summary": e.summary,
                                      "phases": list(e.phases), "example": e.example,
                                      "takes": [v.field(n).option for n in e.takes],
                                      "needs": [v.field(n).option for n in e.needs]}
                                     for e in v.entries]} for v in vocabs]},
           vocabulary_help(vocabs))


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
