"""Judge calls on the command line (issue 30): ``tourney call open|claim|close|list|show``
and ``tourney floor stats`` (the head judge's view).

Owns: option shapes and output; the use cases are ``usecases.calls`` and
``usecases.floor_stats``, the rules the ledger's (``ledger.core.call_rules``, CALL-1..6;
the proposal ``ledger.formats.officiating.call_extension``).  An extension citing a call
is ``tourney round extend --call SEQ`` (``cli.floor_cmd``).

May import: ``typer``, ``cli.common``, ``ledger.*``, ``usecases.*``.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from cli.common import JsonOpt, KeyOpt, Session, write_result

_Opt = typer.Option
app = typer.Typer(no_args_is_help=True, help=(
    "Judge calls at a table: open, claim, close; the queue (issue 30).\n\n"
    "Example: tourney call open --table 4 --key judge.pem"))
floor_app = typer.Typer(no_args_is_help=True, help=(
    "The head judge's view of the floor.\n\nExample: tourney floor stats --json"))
CallArg = Annotated[int, typer.Argument(metavar="CALL_SEQ", min=1,
                                        help="Seq of the call's call_opened.")]


def _mmss(seconds: int | None) -> str:
    return "-" if seconds is None else f"{seconds // 60}:{seconds % 60:02d}"


def _write(s: Session, command: Any) -> tuple[Any, Any]:
    signer = s.signer()
    with s.ledger() as led:
        log = s.tournament(led)
        out, agg = led.write(log, lambda t, time: (command(t, time, signer), t))
    return out, agg.state


def _state(s: Session) -> Any:
    with s.ledger(readonly=True) as led:
        return led.load(s.tournament(led)).state


def _now(s: Session) -> str:
    from ledger.wire.clock import default_clock
    return default_clock().now()


@app.command("open")
def call_open(
    ctx: typer.Context,
    table: Annotated[int, _Opt("--table", metavar="T", min=1, help="The table.")],
    round_no: Annotated[int | None, _Opt("--round", metavar="N", min=1, show_default=False,
                                         help="The round (default: the current one).")
                        ] = None,
    note: Annotated[str, _Opt("--note", metavar="TEXT", help="What it is about.")] = "",
    key: KeyOpt = None, json: JsonOpt = False,
) -> None:
    """Open a judge call at a table (one open call per table, CALL-2).

    Example: tourney call open --table 4 --note "rules question" --key judge.pem
    """
    from usecases.calls import open_call

    s = Session(ctx, key=key, json=json)
    ev, _st = _write(s, lambda t, time, signer: open_call(
        t, signer, time, table=table, round_no=round_no, note=note))
    s.emit(write_result(ev), f"seq {ev.seq}: judge call at round {ev.body.round} table "
           f"{ev.body.table} opened at {ev.time}")


@app.command("claim")
def call_claim(ctx: typer.Context, call: CallArg, key: KeyOpt = None,
               json: JsonOpt = False) -> None:
    """Take a call: you are the judge on the way (CALL-3).

    Example: tourney call claim 41 --key judge.pem
    """
    from ledger.core.call_rules import waiting_seconds
    from usecases.calls import claim_call

    s = Session(ctx, key=key, json=json)
    ev, st = _write(s, lambda t, time, signer: claim_call(t, signer, time, call))
    wait = waiting_seconds(st.calls.calls[call])
    s.emit(write_result(ev, waited_s=wait),
           f"seq {ev.seq}: judge call {call} claimed after {_mmss(wait)}")


@app.command("close")
def call_close(
    ctx: typer.Context, call: CallArg,
    outcome: Annotated[str, _Opt("--outcome", metavar="TEXT", help="What was decided.")],
    cites: Annotated[int | None, _Opt("--cites", metavar="SEQ", min=1, show_default=False,
                                      help="The ruling, penalty or appeal it led to.")
                     ] = None,
    key: KeyOpt = None, json: JsonOpt = False,
) -> None:
    """Close a claimed call with its outcome (CALL-4/5); prints the extension the record
    proposes (claim → close is the ruling; confirm with 'tourney round extend --call').

    Example: tourney call close 41 --outcome "X resolves first" --cites 43 --key judge.pem
    """
    from usecases.calls import close_call

    s = Session(ctx, key=key, json=json)
    (ev, p), _st = _write(s, lambda t, time, signer: close_call(
        t, signer, time, call, outcome, cites))
    lines = [f"seq {ev.seq}: judge call {call} closed; ruling {_mmss(p.ruling_s)}"]
    if p.minutes or p.turns:
        lines.append(f"proposed extension: {p.amount} ({p.words}; {p.rule}); "
                     f"confirm: tourney round extend --call {call}")
    else:
        lines.append(f"no extension proposed ({p.words}; {p.rule})")
    s.emit(write_result(ev, proposal=_proposal(p)), lines)


def _proposal(p: Any) -> dict[str, Any]:
    import msgspec
    return msgspec.to_builtins(p)  # type: ignore[no-any-return]


@app.command("list")
def call_list(ctx: typer.Context, json: JsonOpt = False) -> None:
    """The open calls, oldest first, with how long each has waited.

    Example: tourney call list --json
    """
    import msgspec

    from usecases.calls import queue_rows

    s = Session(ctx, json=json)
    rows = queue_rows(_state(s), _now(s))
    lines = [f"call {r.call}: round {r.round} table {r.table}, "
             + (f"claimed (waited {_mmss(r.waiting_s)})" if r.claimed
                else f"waiting {_mmss(r.waiting_s)}")
             + (f", #{r.number}" if r.number is not None else "")
             + (f": {r.note}" if r.note else "") for r in rows] or ["no open judge calls"]
    s.emit({"calls": msgspec.to_builtins(rows)}, lines)


@app.command("show")
def call_show(ctx: typer.Context, call: CallArg, json: JsonOpt = False) -> None:
    """One call: its times, outcome and the extension the record proposes.

    Example: tourney call show 41
    """
    import msgspec

    from ledger.formats.officiating.call_extension import propose
    from usecases.calls import call_of

    s = Session(ctx, json=json)
    st = _state(s)
    c = call_of(st, call)
    ext = st.calls.extended.get(call)
    p = propose(st, c)
    doc: dict[str, Any] = {"call": msgspec.to_builtins(c), "proposal": _proposal(p),
                           "extension": None}
    last = f"proposal now: {p.amount if p.turns else f'{p.minutes} minute(s)'} " \
        f"({p.words}; {p.rule})"
    if ext is not None:    # what was proposed and given when it was confirmed
        doc["extension"] = {"seq": ext[0], "minutes": ext[1], "proposed": ext[2]}
        last = f"extended at seq {ext[0]}: +{ext[1]} min (proposed {ext[2]})"
    s.emit(doc, [f"call {c.seq}: round {c.round} table {c.table}, opened {c.opened_time}",
                 f"claimed {c.claimed_time or '-'}, closed {c.closed_time or '-'}"
                 + (f": {c.outcome}" if c.outcome else ""), last])


def _amount(minutes: int, turns: int, plus: str = "+") -> str:
    """``+3 min``, ``+1 turn(s)``, ``+3 min +1 turn(s)``: turns only when there are some
    (BR-XTURN-1); minutes always when there are no turns (``proposed 0``)."""
    parts = ([f"{plus}{minutes} min"] if minutes or not turns else []) + \
        ([f"{plus}{turns} turn(s)"] if turns else [])
    return " ".join(parts)


def _proposed(minutes: int, turns: int) -> str:
    """The record's proposal: its minutes as before, ``1 turn(s)`` where it proposed turns."""
    return _amount(minutes, turns, plus="") if turns else str(minutes)


@floor_app.command("stats")
def floor_stats_cmd(ctx: typer.Context, json: JsonOpt = False) -> None:
    """Median and longest wait from call to claim per round, open calls, calls per table,
    deck checks per round (drawn or on suspicion, median time), extensions given (what
    each cites, proposed vs given).

    Example: tourney floor stats --json
    """
    import msgspec

    from usecases.floor_stats import floor_stats

    s = Session(ctx, json=json)
    fs = floor_stats(_state(s))
    lines = [f"open calls: {fs.open_calls}"]
    lines += [f"round {r.round}: {r.calls} call(s), {r.open} open; call → claim median "
              f"{_mmss(r.median_wait_s)}, longest {_mmss(r.longest_wait_s)}"
              for r in fs.rounds]
    lines += [f"round {t.round} table {t.table}: {t.calls} call(s)" for t in fs.tables[:10]]
    lines += [f"round {c.round}: {c.checks} deck check(s), {c.drawn} drawn, {c.suspicion} "
              f"on suspicion, {c.open} open; median {_mmss(c.median_s)}, longest "
              f"{_mmss(c.longest_s)}" for c in fs.checks]
    for e in fs.extensions:
        lines.append(f"round {e.round} table {e.table}: {_amount(e.minutes, e.turns)}")
        lines += [f"  seq {g.seq}: {_amount(g.minutes, g.turns)} for "
                  f"{'call' if g.cites.value == 'call' else 'deck check'} {g.cited} "
                  f"(proposed {_proposed(g.proposed, g.proposed_turns)})"
                  for g in e.given]
        if (e.by_hand or e.by_hand_turns) and e.given:
            lines.append(f"  {_amount(e.by_hand, e.by_hand_turns)} given by hand")
    s.emit(msgspec.to_builtins(fs), lines)
