"""``tourney team``: the teams of a team event (team_mode=tag|trio) — add, import, late,
list.

Owns: the command line of team registration (members in order, an optional
representative and name), of a late team (``team late``: its fighters' names, entered
with it in one event, and the byes and losses announced for the rounds played), the CSV import format (header ``first,second[,third]`` plus
optional ``name`` and ``representative``; all or nothing, each bad line named) and the
team list.  The rules (size, one team each, fixed order, representative, name) are the
event's format's: it is reached through the plug-in's ``teams`` facet, and a
format without teams refuses by name.  Nothing here knows a format (issue 17).

May import: ``typer``, ``cli.common``, ``ledger.*`` (no format package).
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cli.common import (
    JsonOpt,
    KeyOpt,
    Session,
    auto_checkpoint,
    events_brief,
    read_file_bytes,
    seq_span,
)
from cli.csv_files import at_line, csv_text
from ledger.errors import UsageError
from ledger.wire.text import whole_number

if TYPE_CHECKING:
    from ledger.core.aggregate import Tournament
    from ledger.core.command_facets import Teams

app = typer.Typer(no_args_is_help=True, help=(
    "Teams of a team event (tag: 2 fighters, trio: 3): add, import, late, list.\n\n"
    "Example: tourney team add 4 5 6 --name \"Blue Wings\" --key sk.pem"))

POSITIONS = ("first", "second", "third")
COLUMNS = (*POSITIONS, "name", "representative")


def _teams(t: Tournament) -> Teams:
    """The format's ``teams`` facet; a format without teams refuses."""
    teams = t.plugin.teams
    if teams is None:
        raise UsageError(f"{t.plugin.title} has no teams",
                         hint="team events are started with --param team_mode=tag|trio")
    return teams


@app.command("add")
def team_add(
    ctx: typer.Context,
    members: Annotated[list[int], typer.Argument(
        metavar="FIGHTER...", min=1, help="Registered fighters' numbers, in the team's "
                                          "fixed order (first, second[, third]).")],
    name: Annotated[str | None, typer.Option("--name", metavar="TEXT",
                                             help="Team name, approved by the organizer.")]
    = None,
    representative: Annotated[int | None, typer.Option(
        "--representative", metavar="N", min=1,
        help="The team's representative (default: the last position).")] = None,
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Register one team: its members in their fixed order.

    The team is named in pairings and standings by its representative's number (the
    last position unless --representative says otherwise).

    Example: tourney team add 4 5 6 --name "Blue Wings" --key sk.pem
    """
    s = Session(ctx, key=key, json=json)
    signer = s.signer()
    with s.ledger() as led:
        log = s.tournament(led)
        events = led.write(log, lambda t, time: _teams(t).register_team(
            t, signer, time, members=list(members), name=name,
            representative=representative))
    ev = events[0]
    body: Any = ev.body   # a team_registered body
    s.emit({"ok": True, "tournament": log, "seq": ev.seq, "team": body.number,
            "members": list(body.members), "events": events_brief(events)},
           f"seq {ev.seq}: team #{body.number} " + " ".join(f"#{m}" for m in body.members)
           + (f" {name}" if name else ""))


def parse_teams(path: Path) -> list[tuple[int, list[int], str | None, int | None]]:
    """(line, members, name, representative) per row; a bad line is a usage error."""
    text = csv_text(read_file_bytes(path, "CSV file"), path)
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    header = [h.strip().lower() for h in next(reader, [])]
    if not header or any(c not in COLUMNS for c in header) or len(set(header)) != len(header) \
            or "first" not in header or "second" not in header:
        raise UsageError(f"{path} line 1: the header must be first,second[,third]"
                         "[,name][,representative]", hint="fix the file; nothing was written")
    out = []
    try:
        for fields in reader:
            line = reader.line_num
            if not fields or all(not f.strip() for f in fields):
                continue
            if len(fields) != len(header):
                raise UsageError(f"{path} line {line}: {len(fields)} fields, the header has "
                                 f"{len(header)}", hint="fix the file; nothing was written")
            rec = {c: f.strip() for c, f in zip(header, fields, strict=True)}
            nums: list[int] = []
            for col in (c for c in POSITIONS if c in rec):
                n = whole_number(rec[col])
                if n is None or n < 1:
                    raise UsageError(f"{path} line {line}: {col} {rec[col]!r} is not a "
                                     "fighter number", hint="fix the file; nothing was "
                                                            "written")
                nums.append(n)
            rep = whole_number(rec["representative"]) if rec.get("representative") else None
            out.append((line, nums, rec.get("name") or None, rep))
    except csv.Error as exc:
        raise UsageError(f"{path} line {reader.line_num}: malformed CSV ({exc})") from None
    if not out:
        raise UsageError(f"{path} has a header but no teams", hint="add rows to import")
    return out


@app.command("import")
def team_import(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(metavar="FILE.csv", help=(
        "CSV with header first,second[,third][,name][,representative]."))],
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Register every team of a CSV file, all or nothing.

    Example: tourney team import teams.csv --key sk.pem
    """
    s = Session(ctx, key=key, json=json)
    rows = parse_teams(file)
    signer = s.signer()

    def register_all(t: Tournament, time: str) -> list[Any]:
        teams = _teams(t)
        events: list[Any] = []
        for line, members, name, rep in rows:
            with at_line(file, line):
                events += teams.register_team(t, signer, time, members=members, name=name,
                                              representative=rep)
        return events

    with s.ledger() as led:
        log = s.tournament(led)
        events = led.write(log, register_all)
    s.emit({"ok": True, "tournament": log, "count": len(events),
            "teams": [{"team": e.body.number, "members": list(e.body.members),
                       "seq": e.seq} for e in events]},
           f"{len(events)} teams registered (seq {events[0].seq}..{events[-1].seq})")


@app.command("late")
def team_late(
    ctx: typer.Context,
    names: Annotated[list[str], typer.Argument(
        metavar="NAME...", help="The fighters' names, in the team's fixed order (first, "
                                "second[, third]); each is registered with the team.")],
    reason: Annotated[str, typer.Option("--reason", metavar="TEXT", help="Why (required).")],
    byes: Annotated[int, typer.Option("--byes", min=0,
                                      help="Rounds missed counted as byes.")] = 0,
    losses: Annotated[int, typer.Option("--losses", min=0,
                                        help="Rounds missed counted as losses.")] = 0,
    number: Annotated[list[int] | None, typer.Option(
        "--number", metavar="N", min=1, show_default=False,
        help="The fighters' numbers, one per NAME in order (default: the next free).")]
        = None,
    name: Annotated[str | None, typer.Option("--name", metavar="TEXT",
                                             help="Team name, approved by the organizer.")]
    = None,
    representative: Annotated[int | None, typer.Option(
        "--representative", metavar="N", min=1,
        help="The representative's fighter number (default: the last position).")] = None,
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Register a team after registration closed (head judge), its fighters with it, with
    the byes and losses the organizer announced for the rounds already played — as a late
    fighter enters.  One event: the whole team is written, or nothing.

    Example: tourney team late "Kim" "Lou" "Max" --losses 1 --reason "train delay" --key hj.pem
    """
    s = Session(ctx, key=key, json=json)
    if not reason.strip():
        raise UsageError("--reason is empty", hint="say why, it is kept in the event")
    if any(not n.strip() for n in names):
        raise UsageError("a NAME is empty", hint="give each fighter's name")
    signer = s.signer()
    with s.ledger() as led:
        log = s.tournament(led)
        events = led.write(log, lambda t, time: _teams(t).register_late_team(
            t, signer, time, names=[n.strip() for n in names], byes=byes, losses=losses,
            reason=reason.strip(), numbers=number or None, name=name,
            representative=representative))
        cp = auto_checkpoint(s, led, log, signer, f"{seq_span(events)} written")
    ev = events[0]
    b: Any = ev.body      # a team_added_late body
    members = [f.number for f in b.fighters]
    doc = {"ok": True, "tournament": log, "seq": ev.seq, "team": b.number,
           "members": members, "rounds": b.rounds, "byes": b.byes, "losses": b.losses,
           "events": events_brief(events), "checkpoint": cp.json() if cp else None}
    s.emit(doc, f"seq {ev.seq}: team #{b.number} " + " ".join(
        f"#{f.number} {f.name}" for f in b.fighters) + (f" ({name})" if name else "")
        + f" joins after round {b.rounds} ({b.byes} bye(s), {b.losses} loss(es))")


@app.command("list")
def team_list(ctx: typer.Context, json: JsonOpt = False) -> None:
    """The teams: number (representative), members by position, name.

    Example: tourney team list
    """
    s = Session(ctx, json=json)
    with s.ledger(readonly=True) as led:
        log = s.tournament(led)
        state = led.load(log).state
    teams = getattr(getattr(state.fmt, "teams", None), "teams", None) or {}
    rows = [{"team": t.number, "name": t.name, "members": list(t.members),
             "names": [state.players[m].name if m in state.players else "" for m in
                       t.members]} for t in sorted(teams.values(), key=lambda t: t.number)]
    lines = [f"#{r['team']:<5} {r['name'] or '-':<24} " + ", ".join(
        f"{i + 1}. #{m} {n}" for i, (m, n) in enumerate(zip(r["members"], r["names"],
                                                            strict=True)))
        for r in rows] or ["no teams"]
    s.emit({"ok": True, "tournament": log, "teams": rows}, lines)
