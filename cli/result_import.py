"""``tourney result import FILE.csv|-``: a batch of result slips in one process.

Owns: the slip CSV format of DESIGN.md §8 — header ``round,table,winner[,games,decided_by]``;
``winner`` is a player number, ``double-loss`` or ``none``; ``decided_by`` (optional) is
one of ``play`` (default), ``concession`` (the other player conceded), ``slow-play``
(time, the other player's slow-play call was upheld), ``timeout`` (HotC top cut: time,
the other player was the turn player; HotC Swiss: with ``double-loss``; Bushiroad: the
game wins decide), ``tie`` (HotC Swiss simultaneous loss, with ``double-loss``), ``draw``
(Bushiroad, with ``none``); ``games`` is the game score ``A-B[-D]`` (first player at the
table first): recorded by a Bushiroad format, kept in the note by HotC — and
the batch itself: every row is its own transaction (``Ledger.session``), entered exactly
as ``result record`` enters one slip (``cli.result_entry``: an identical slip is
unchanged, a conflicting one refused); a bad row is reported with its line number and
the good rows are written; exit 3 when any row was refused.

May import: ``typer``, ``cli.*``, ``ledger.*``.
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
from cli.csv_files import delimiter_hint
from ledger.errors import ExitCode, TourneyError, UsageError

if TYPE_CHECKING:
    from ledger.state import TournamentState

REQUIRED = ("round", "table", "winner")
COLUMNS = (*REQUIRED, "games", "decided_by")
DECIDED_BY = ("play", "concession", "slow-play", "timeout", "tie", "draw")
DOUBLE_LOSS = "double-loss"
NO_WINNER = "none"  # a Bushiroad draw (0 points each) or a timed-out match the games decide


@dataclass(frozen=True)
class Slip:
    line: int
    round: int
    table: int
    winner: int | None          # None: double-loss
    decided_by: str
    games: str


@dataclass(frozen=True)
class Bad:
    line: int
    message: str
    exit_code: int = int(ExitCode.USAGE)


def read_slips(data: bytes, name: str) -> tuple[list[Slip], list[Bad]]:
    """Parse the whole file: well-formed slips, and the lines that are not (a file-level
    problem — encoding, header — raises ``UsageError``)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UsageError(f"{name} is not UTF-8 (byte {exc.start})",
                         hint="save the file as UTF-8 CSV; nothing was written") from None
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader, None)
    except csv.Error as exc:
        raise UsageError(f"{name} line 1: malformed CSV ({exc})") from None
    cols = [h.strip().lower() for h in header or []]
    if not any(cols) or any(c not in COLUMNS for c in cols) or len(set(cols)) != len(cols) \
            or not set(REQUIRED) <= set(cols):
        raise UsageError(f"{name} line 1: the header must be round,table,winner"
                         "[,games,decided_by]",
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
        problem = _check(rec)
        if problem:
            bad.append(Bad(line, problem))
            continue
        winner = None if rec["winner"].lower() in (DOUBLE_LOSS, NO_WINNER) \
            else int(rec["winner"])
        slips.append(Slip(line, int(rec["round"]), int(rec["table"]), winner,
                          (rec.get("decided_by") or "play").lower(), rec.get("games", "")))
    return slips, bad


def _check(rec: dict[str, str]) -> str | None:
    for col in ("round", "table"):
        if not rec[col].isdigit() or int(rec[col]) < 1:
            return f"{col} {rec[col]!r} is not a whole number >= 1"
    win = rec["winner"].lower()
    if win not in (DOUBLE_LOSS, NO_WINNER) and (not win.isdigit() or int(win) < 1):
        return (f"winner {rec['winner']!r} is not a player number, {DOUBLE_LOSS} or "
                f"{NO_WINNER}")
    how = (rec.get("decided_by") or "play").lower()
    if how not in DECIDED_BY:
        return f"decided_by {rec.get('decided_by')!r} is not one of {', '.join(DECIDED_BY)}"
    if win == DOUBLE_LOSS and how not in ("play", "timeout", "tie"):
        return f"{DOUBLE_LOSS} goes with decided_by timeout or tie, not {how}"
    if win == NO_WINNER and how not in ("draw", "timeout"):
        return f"{NO_WINNER} goes with decided_by draw or timeout, not {how}"
    if how == "tie" and win != DOUBLE_LOSS:
        return f"decided_by tie means both lose: winner must be {DOUBLE_LOSS}"
    if how == "draw" and win != NO_WINNER:
        return f"decided_by draw means nobody won: winner must be {NO_WINNER}"
    return None


def slip_kwargs(slip: Slip, state: TournamentState) -> dict[str, Any]:
    """``record_result`` keyword arguments of one slip: the slip read as the options of
    ``tourney result record`` would say it, through the same ``choose`` and
    ``Choice.kwargs`` (one reading of an outcome for the command line and the batch).
    A format without game scores (HotC) keeps a slip's games in the note and decides a
    timed-out match by the turn player; one with them (Bushiroad) records them and they
    decide it (BR-SWISS-5)."""
    from cli.result_options import choose
    from ledger.formats.match.apply import find_table
    from ledger.plugin import plugin_for

    tab = find_table(state.fmt, slip.round, slip.table)
    players = list(tab.players) if tab is not None else []
    plugin = plugin_for(state.format.id if state.format else None)
    by_games = plugin is not None and plugin.game_scores
    other = [p for p in players if p != slip.winner]
    loser = other[0] if slip.winner is not None and len(other) == 1 else None
    how = slip.decided_by
    opts: dict[str, Any] = {"winner": None, "concession": None, "timeout": False,
                            "slow_play": None, "double_loss": False, "turn_player": None,
                            "both_slow_play": False, "tie": False, "draw": False,
                            "games": slip.games or None if by_games else None}
    if slip.winner is None:
        key = {"tie": "tie", "draw": "draw"}.get(how, "timeout")
        opts[key] = True
    elif how == "concession":
        opts["concession"] = loser
    elif how == "slow-play":
        opts["slow_play"] = loser
    elif how == "timeout":
        opts["timeout"] = True
        opts["turn_player"] = None if by_games else loser  # by games: the game wins decide
    else:
        opts["winner"] = slip.winner
    kw = choose(**opts).kwargs(state, slip.round, slip.table)
    note = f"games {slip.games}" if slip.games and not by_games else ""
    return {**kw, "note": note}


def result_import(
    ctx: typer.Context,
    file: Annotated[str, typer.Argument(
        metavar="FILE.csv|-", help="Slips: header round,table,winner[,games,decided_by]; "
                                   "'-' reads stdin.")],
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Record a batch of result slips, one transaction per row.

    winner is a player number, double-loss or none; decided_by is play (default),
    concession, slow-play, timeout, tie (HotC) or draw (Bushiroad); games is A-B[-D],
    the first player at the table first (Bushiroad records it).  A bad row is refused with
    its line number, good rows are written; a slip already recorded identically is left
    unchanged.

    A partial import: exit 3 when any row was refused (DESIGN.md §8), and the good rows
    ARE written, each in its own transaction; the summary says how many.  Fix the refused
    rows and import the same file again: rows already recorded are left unchanged.  The
    last result of a round closes it, as with 'result record'.

    Example: tourney result import round3.csv --key sk.pem
    """
    from cli.result_entry import Unchanged, enter_result
    from cli.results_cmd import closing
    from ledger.formats.match.events import ResultRecorded

    s = Session(ctx, key=key, json=json)
    name = "stdin" if file == "-" else file
    data = sys.stdin.buffer.read() if file == "-" else read_file_bytes(Path(file), "CSV file")
    slips, bad = read_slips(data, name)
    signer = s.signer()
    written: list[dict[str, Any]] = []
    unchanged: list[dict[str, Any]] = []
    closings: list[dict[str, Any]] = []
    lines: list[str] = []
    with s.ledger() as led, led.group_commit():
        log = s.tournament(led)
        session = led.session(log)
        for slip in slips:
            def command(t: Any, time: str, slip: Slip = slip) -> Any:
                kw = slip_kwargs(slip, t.state)
                return enter_result(t, signer, time, lambda seq: led.actor_of(log, seq), **kw)
            try:
                events = session.write(command)
            except TourneyError as err:
                bad.append(Bad(slip.line, err.cli_message().removeprefix("error: "),
                               int(err.exit_code)))
                continue
            if isinstance(events, Unchanged):
                unchanged.append({"line": slip.line, "round": slip.round, "table": slip.table,
                                  "seq": events.seq})
                continue
            body = events[0].body
            assert isinstance(body, ResultRecorded)
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
