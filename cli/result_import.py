"""``tourney result import FILE.csv|-``: a batch of result slips in one process.

Owns: reading the slip CSV (docs/DESIGN.md §8) — the columns ``round,table`` and the event's
format's own slip columns (``FormatPlugin.result_vocabulary().slip_columns``; for the
match formats ``winner[,games,decided_by]`` — ``winner`` a player number,
``double-loss`` or ``none``; ``decided_by`` play, concession, slow-play, timeout, tie or
draw; ``games`` ``A-B[-D]`` —, for Wheel of Time ``outcome,winner,…`` named after the
options of ``result record``) — each row read by the format (``slip_given``) into the
same outcome its ``result record`` options would give; and the batch itself: every row is
its own transaction (``Ledger.session``), entered exactly as ``result record`` enters one
slip (``usecases.results``: an identical slip is unchanged, a conflicting one refused);
a bad row is reported with its line number and the good rows are written (exit 3 when
any row was refused: a partial import, docs/DESIGN.md §8).

May import: ``typer``, ``cli.*``, ``usecases.*``, ``ledger.*``.
"""

from __future__ import annotations

import csv
import io
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cli.common import JsonOpt, KeyOpt, Session, note, read_file_bytes
from cli.csv_files import csv_text, delimiter_hint
from ledger.errors import ExitCode, StorageError, TourneyError, UsageError
from ledger.wire.text import whole_number

if TYPE_CHECKING:
    from ledger.core.plugin import FormatPlugin
    from ledger.core.state import TournamentState

REQUIRED = ("round", "table")


@dataclass(frozen=True)
class Slip:
    line: int
    round: int
    table: int
    row: dict[str, str]          # every column, stripped


@dataclass(frozen=True)
class Bad:
    line: int
    message: str
    exit_code: int = int(ExitCode.USAGE)


def read_slips(data: bytes, name: str) -> tuple[list[str], list[Slip], list[Bad]]:
    """Parse the whole file: its header, well-formed slips, and the lines that are not
    (a file-level problem — encoding, header — raises ``UsageError``)."""
    text = csv_text(data, name)
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader, None)
    except csv.Error as exc:
        raise UsageError(f"{name} line 1: malformed CSV ({exc})") from None
    cols = [h.strip().lower().replace("-", "_") for h in header or []]
    if not any(cols) or len(set(cols)) != len(cols) or not set(REQUIRED) <= set(cols):
        raise UsageError(f"{name} line 1: the header must start round,table and name the "
                         "format's slip columns (match formats: round,table,winner"
                         "[,games,decided_by])",
                         hint=delimiter_hint(header or []) or "fix the header; nothing was "
                                                              "written")
    slips: list[Slip] = []
    bad: list[Bad] = []
    while True:
        try:
            fields = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            bad.append(Bad(reader.line_num, f"malformed CSV ({exc})"))
            continue
        line = reader.line_num
        if not fields or all(not f.strip() for f in fields):
            continue
        if len(fields) != len(cols):
            bad.append(Bad(line, f"{len(fields)} fields, the header has {len(cols)}"))
            continue
        rec = {c: f.strip() for c, f in zip(cols, fields, strict=True)}
        problem = next((f"{c} {rec[c]!r} is not a whole number >= 1 in ASCII digits"
                        for c in REQUIRED if (whole_number(rec[c]) or 0) < 1), None)
        if problem:
            bad.append(Bad(line, problem))
            continue
        slips.append(Slip(line, int(rec["round"]), int(rec["table"]), rec))
    return cols, slips, bad


def check_header(plugin: FormatPlugin, cols: list[str], name: str) -> None:
    """The header names only this format's slip columns, and its required ones."""
    vocab = plugin.result_vocabulary()
    allowed = {*REQUIRED, *vocab.slip_required, *vocab.slip_columns}
    unknown = [c for c in cols if c not in allowed]
    missing = [c for c in vocab.slip_required if c not in cols]
    if unknown or missing:
        what = (f"unknown column {', '.join(unknown)}" if unknown
                else f"missing column {', '.join(missing)}")
        raise UsageError(f"{name} line 1: {what} for {vocab.title} slips",
                         hint="the header is round,table,"
                              + ",".join(vocab.slip_required)
                              + "".join(f"[,{c}]" for c in vocab.slip_columns)
                              + "; nothing was written")


def slip_kwargs(slip: Slip, state: TournamentState) -> dict[str, Any]:
    """``record_result`` keyword arguments of one slip: the row read by the format into
    the outcome its ``result record`` options would give (one reading of an outcome
    for the command line and the batch: ``Vocabulary.entry_for``, ``result_kwargs``)."""
    from ledger.core.plugin import require_plugin

    plugin = require_plugin(state.format.id if state.format else "")
    vocab = plugin.result_vocabulary()
    given, text = plugin.slip_given(state, slip.row)
    entry = vocab.entry_for(given, plugin.round_phase(state, slip.round))
    kw = plugin.result_kwargs(state, entry, given, round_no=slip.round, table=slip.table)
    return {**kw, "note": text}


def result_import(
    ctx: typer.Context,
    file: Annotated[str, typer.Argument(
        metavar="FILE.csv|-", help="Slips: header round,table,winner[,games,decided_by]; "
                                   "'-' reads stdin.")],
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Record a batch of result slips, one transaction per row.

    Columns: round,table and the event's format's slip columns.  Match formats (HotC,
    Bushiroad): winner is a player number, double-loss or none; decided_by is play
    (default), concession, slow-play, timeout, tie or draw; games is A-B[-D], the first
    player at the table first (recorded where the format keeps game scores).  Wheel of
    Time: outcome,winner,support|pattern,neutral,conceded_by,last_battle — the options of
    'result record' as columns ('tourney result codes').  A slip already recorded
    identically is left unchanged.

    A partial import: exit 3 when any row was refused (docs/DESIGN.md §8), and the good rows
    ARE written, each in its own transaction; the summary says how many.  Fix the refused
    rows and import the same file again: rows already recorded are left unchanged.  The
    last result of a round closes it, as with 'result record'.

    Example: tourney result import round3.csv --key sk.pem
    """
    from cli.round_closing import closing
    from ledger.formats.match.events import MatchResult
    from usecases.results import Unchanged, enter_result

    s = Session(ctx, key=key, json=json)
    name = "stdin" if file == "-" else file
    data = sys.stdin.buffer.read() if file == "-" else read_file_bytes(Path(file), "CSV file")
    cols, slips, bad = read_slips(data, name)
    signer = s.signer()
    written: list[dict[str, Any]] = []
    unchanged: list[dict[str, Any]] = []
    closings: list[dict[str, Any]] = []
    lines: list[str] = []
    with s.ledger() as led, led.group_commit():
        log = s.tournament(led)
        session = led.session(log)
        st = session.state
        from ledger.core.plugin import require_plugin
        check_header(require_plugin(st.format.id if st.format else ""), cols, name)
        for slip in slips:
            def command(t: Any, time: str, slip: Slip = slip) -> Any:
                kw = slip_kwargs(slip, t.state)
                return enter_result(t, signer, time, lambda seq: led.actor_of(log, seq), **kw)
            try:
                events = session.write(command)
            except StorageError as err:  # the ledger, not the slip (issue 21, item 13)
                raise StorageError(f"{name} line {slip.line}: {err.message}; "
                                   f"{len(written)} earlier slips were recorded, this and "
                                   "later lines were not",
                                   hint="fix the cause and import the file again: slips "
                                        "already recorded are left unchanged") from None
            except TourneyError as err:
                bad.append(Bad(slip.line, err.cli_message().removeprefix("error: "),
                               int(err.exit_code)))
                continue
            if isinstance(events, Unchanged):
                unchanged.append({"line": slip.line, "round": slip.round, "table": slip.table,
                                  "seq": events.seq})
                continue
            body = events[0].body
            assert isinstance(body, MatchResult)     # a table's or a seat's result
            written.append({"line": slip.line, "seq": events[0].seq, "round": body.round,
                            "table": body.table, "winner": body.winner,
                            "losers": list(body.losers)})
            if len(events) > 1:
                extra, more = closing(s, led, log, signer, session.state, events)
                closings.append(extra)
                lines += more
    bad.sort(key=lambda b: b.line)
    for b in bad:
        note(f"error: {name} line {b.line}: {b.message}")
    refused = [{"line": b.line, "error": b.message, "exit_code": b.exit_code} for b in bad]
    summary = (f"imported {len(written)} results from {name}"
               + (f" (seq {written[0]['seq']})" if len(written) == 1 else
                  f" (seqs {written[0]['seq']}..{written[-1]['seq']})" if written else "")
               + f"; {len(unchanged)} already recorded identically; {len(bad)} refused"
               + (f" (partial import: the {len(written)} good rows were written; fix the "
                  f"refused rows and import {name} again)" if bad else ""))
    s.emit({"ok": not bad, "tournament": log, "written": written, "unchanged": unchanged,
            "refused": refused, "closed": closings}, [summary, *lines])
    if bad:
        raise typer.Exit(int(ExitCode.REFUSED))
