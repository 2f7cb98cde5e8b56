"""``tourney player``: register players one by one or from a CSV file, and list them.

Owns: the CSV import format (header row ``number,name[,nickname,deck,clan,invitation,external_id]``;
an empty number takes the next free one) and its all-or-nothing validation: the whole file is
checked first (file-level problems exit 2, conflicts with the ledger exit 3, each naming
the line), then every row is written in one save.

May import: ``typer``, ``cli.common``, ``ledger.*``.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from cli.common import JsonOpt, KeyOpt, Session, read_file_bytes, write_result
from cli.csv_files import at_line, csv_text, delimiter_hint
from ledger.errors import UsageError
from ledger.wire.events import PlayerRegistered
from ledger.wire.text import whole_number

app = typer.Typer(no_args_is_help=True, help=(
    "Players: register (scorekeeper or head judge) and list.\n\n"
    "Example: tourney player add \"Ada Lovelace\" --number 7 --key sk.pem"))

COLUMNS = ("number", "name", "nickname", "deck", "clan", "invitation", "external_id")
MAX_NUMBER = 2**31 - 1


@app.command("add")
def player_add(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(metavar="NAME", help="Player name (display).")],
    number: Annotated[int | None, typer.Option(
        "--number", metavar="N", min=1, max=MAX_NUMBER,
        help="Player number (default: the next free one).")] = None,
    nickname: Annotated[str | None, typer.Option("--nickname", metavar="X")] = None,
    deck: Annotated[str | None, typer.Option("--deck", metavar="X")] = None,
    clan: Annotated[str | None, typer.Option("--clan", metavar="X")] = None,
    invitation: Annotated[str | None, typer.Option(
        "--invitation", metavar="REF",
        help="Invitation reference (required when the event has "
             "invitation_required=true, HOTC-ENTRY-1).")] = None,
    external_id: Annotated[str | None, typer.Option(
        "--external-id", metavar="ID",
        help="An outside id (membership number…): tells namesakes apart.")] = None,
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Register one player; players are named by number on the command line.

    A player already registered with the same name and external id is refused (name
    them apart with --external-id).

    Example: tourney player add "Ada Lovelace" --number 7 --deck Crab --key sk.pem
    """
    s = Session(ctx, key=key, json=json)
    if not name.strip():
        raise UsageError("the player NAME is empty", hint="pass a name")
    signer = s.signer()

    def register(t: Any, time: str) -> Any:
        twin = same_player(t.state, name, external_id)
        if twin is not None:
            raise UsageError(f"{name.strip()!r} is already registered as player {twin}"
                             + (f" (external id {external_id})" if external_id else ""),
                             hint="a namesake needs --external-id to tell them apart")
        return t.register_player(name, signer, time, number=number, nickname=nickname,
                                 deck=deck, clan=clan, invitation=invitation,
                                 external_id=external_id or None)

    with s.ledger() as led:
        log = s.tournament(led)
        ev = led.write(log, register)
    assert isinstance(ev.body, PlayerRegistered)
    num = ev.body.number
    s.emit(write_result(ev, number=num), f"seq {ev.seq}: player {num} {name.strip()}")


def _key(name: str, external_id: str | None) -> tuple[str, str]:
    return " ".join(name.split()).casefold(), (external_id or "").strip()


def same_player(state: Any, name: str, external_id: str | None) -> int | None:
    """The number of a registered player with this name and external id (names compared
    case- and spacing-insensitively), or None."""
    want = _key(name, external_id)
    for p in state.players.values():
        if _key(p.name, p.external_id) == want:
            return int(p.number)
    return None


@dataclass(frozen=True)
class Row:
    line: int
    number: int | None
    name: str
    nickname: str | None
    deck: str | None
    clan: str | None
    invitation: str | None = None
    external_id: str | None = None


def parse_csv(path: Path) -> list[Row]:
    """Read and check the whole file; raise ``UsageError`` naming the first bad line."""
    text = csv_text(read_file_bytes(path, "CSV file"), path)

    def bad(line: int, what: str, hint: str | None = None) -> UsageError:
        return UsageError(f"{path} line {line}: {what}", hint=hint or
                          "fix the file; nothing was written")

    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        header = next(reader, None)
    except csv.Error as exc:
        raise bad(1, f"malformed CSV ({exc})") from None
    if header is None or not any(h.strip() for h in header):
        raise bad(1, "the header row is missing",
                  "the first line must be number,name[,nickname,deck,clan,invitation,external_id]")
    cols = [h.strip().lower() for h in header]
    hint = delimiter_hint(header)
    if hint is not None and not set(cols) <= set(COLUMNS):
        raise bad(1, f"the header {','.join(header)!r} is not comma-separated", hint)
    for c in cols:
        if c not in COLUMNS:
            raise bad(1, f"unknown column {c!r}", f"columns are {', '.join(COLUMNS)}")
    if len(set(cols)) != len(cols):
        raise bad(1, "a column is repeated in the header")
    if "number" not in cols or "name" not in cols:
        raise bad(1, "the header must have the columns number and name",
                  "the first line must be number,name[,nickname,deck,clan,invitation,external_id]")
    rows: list[Row] = []
    seen: dict[int, int] = {}
    try:
        for fields in reader:
            line = reader.line_num
            if not fields or all(not f.strip() for f in fields):
                continue
            if len(fields) != len(cols):
                raise bad(line, f"{len(fields)} fields, the header has {len(cols)}")
            rec = {c: f.strip() for c, f in zip(cols, fields, strict=True)}
            num: int | None = None
            if rec["number"]:
                num = whole_number(rec["number"])
                if num is None or not 1 <= num <= MAX_NUMBER:
                    raise bad(line, f"number {rec['number']!r} is not a whole number >= 1 "
                              "in ASCII digits", "use a player number (0-9), or leave it "
                              "empty for the next free one")
                if num in seen:
                    raise bad(line, f"number {num} is already used on line {seen[num]}")
                seen[num] = line
            if not rec["name"]:
                raise bad(line, "the name is empty")
            rows.append(Row(line=line, number=num, name=rec["name"],
                            nickname=rec.get("nickname") or None,
                            deck=rec.get("deck") or None, clan=rec.get("clan") or None,
                            invitation=rec.get("invitation") or None,
                            external_id=rec.get("external_id") or None))
    except csv.Error as exc:
        raise bad(reader.line_num, f"malformed CSV ({exc})") from None
    if not rows:
        raise UsageError(f"{path} has a header but no players", hint="add rows to import")
    return rows


def _assign_numbers(rows: list[Row], taken: set[int]) -> list[int]:
    """Explicit numbers as given; empty ones the next free number above the ledger's."""
    reserved = {r.number for r in rows if r.number is not None}
    nxt = max(taken, default=0) + 1
    out: list[int] = []
    for r in rows:
        if r.number is not None:
            out.append(r.number)
            continue
        while nxt in reserved or nxt in taken:
            nxt += 1
        out.append(nxt)
        reserved.add(nxt)
    return out


@app.command("import")
def player_import(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(metavar="FILE.csv",
                                         help="CSV with header "
                                               "number,name[,nickname,deck,clan,invitation,external_id].")],
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Register every player of a CSV file, all or nothing.

    The header row is required: number,name[,nickname,deck,clan,invitation,external_id]. An empty
    number takes the next free one. A row naming a player already registered (same name
    and external id, same or no number) is skipped, so importing a file again registers
    nobody twice. The whole file is checked first; any bad line is reported with its
    line number and nothing is written.

    Example: tourney player import players.csv --key sk.pem
    """
    s = Session(ctx, key=key, json=json)
    rows = parse_csv(file)
    signer = s.signer()

    skipped: list[tuple[Row, int]] = []

    def register_all(t: Any, time: str) -> list[Any]:
        skipped.clear()
        fresh: list[Row] = []
        for row in rows:
            twin = same_player(t.state, row.name, row.external_id)
            if twin is not None and row.number in (None, twin):
                skipped.append((row, twin))
            else:
                fresh.append(row)
        numbers = _assign_numbers(fresh, set(t.state.players) | set(t.state.withdrawn))
        events = []
        for row, num in zip(fresh, numbers, strict=True):
            with at_line(file, row.line):
                events.append(t.register_player(row.name, signer, time, number=num,
                                                nickname=row.nickname, deck=row.deck,
                                                clan=row.clan, invitation=row.invitation,
                                                external_id=row.external_id))
        return events

    with s.ledger() as led:
        log = s.tournament(led)
        events = led.write(log, register_all)
    data = {"ok": True, "tournament": log, "count": len(events),
            "first_seq": events[0].seq if events else None,
            "last_seq": events[-1].seq if events else None,
            "players": [{"number": e.body.number, "name": e.body.name, "seq": e.seq}
                        for e in events],
            "already_registered": [{"line": r.line, "name": r.name, "number": n}
                                   for r, n in skipped]}
    span = f" (seq {events[0].seq}..{events[-1].seq})" if events else ""
    again = f"; {len(skipped)} already registered, skipped" if skipped else ""
    s.emit(data, f"imported {len(events)} players{span}{again}")


@app.command("withdraw")
def player_withdraw(
    ctx: typer.Context,
    number: Annotated[int, typer.Argument(metavar="NUMBER", min=1, help="Player number.")],
    reason: Annotated[str, typer.Option("--reason", metavar="TEXT",
                                        help="Why (kept in the event).")] = "",
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Withdraw a registered player before registration closes (never paired).

    After registration closes a player drops instead: tourney drop NUMBER.

    Example: tourney player withdraw 12 --reason "registered twice" --key sk.pem
    """
    s = Session(ctx, key=key, json=json)
    signer = s.signer()
    with s.ledger() as led:
        log = s.tournament(led)
        name = ""

        def withdraw(t: Any, time: str) -> Any:
            nonlocal name
            p = t.state.players.get(number)
            name = p.name if p is not None else ""
            return t.withdraw_player(number, reason.strip(), signer, time)
        ev = led.write(log, withdraw)
    s.emit(write_result(ev, number=number),
           f"seq {ev.seq}: player {number} {name} withdrawn (not paired; the number is not "
           "reused)")


@app.command("rename")
def player_rename(
    ctx: typer.Context,
    number: Annotated[int, typer.Argument(metavar="NUMBER", min=1, help="Player number.")],
    name: Annotated[str, typer.Argument(metavar="NAME", help="The corrected name.")],
    reason: Annotated[str, typer.Option("--reason", metavar="TEXT",
                                        help="Why (kept in the event).")] = "",
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Correct a player's display name (a new event; the old one stays in the log).

    Example: tourney player rename 12 "Ada Lovelace" --reason "typo" --key sk.pem
    """
    s = Session(ctx, key=key, json=json)
    if not name.strip():
        raise UsageError("the new NAME is empty", hint="pass the corrected name")
    signer = s.signer()
    with s.ledger() as led:
        log = s.tournament(led)
        ev = led.write(log, lambda t, time: t.rename_player(number, name.strip(),
                                                            reason.strip(), signer, time))
    s.emit(write_result(ev, number=number, name=name.strip()),
           f"seq {ev.seq}: player {number} is now {name.strip()}")


@app.command("list")
def player_list(ctx: typer.Context, json: JsonOpt = False) -> None:
    """List registered players by number.

    Example: tourney player list --json
    """
    s = Session(ctx, json=json)
    with s.ledger(readonly=True) as led:
        log = s.tournament(led)
        st = led.load(log).state
    players = [st.players[n] for n in sorted(st.players)]
    data = {"tournament": log, "players": [
        {"number": p.number, "name": p.name, "nickname": p.nickname, "deck": p.deck,
         "clan": p.clan, "registered_seq": p.registered_seq} for p in players]}
    from cli.text import LINE_WIDTH, fit, ljust

    lines = [f"{'NUMBER':>6}  {ljust('NAME', 28)}  {ljust('NICKNAME', 14)}  "
             f"{ljust('DECK', 14)}  CLAN"]
    for p in players:
        lines.append(fit(f"{p.number:>6}  {ljust(p.name, 28)}  {ljust(p.nickname or '-', 14)}  "
                         f"{ljust(p.deck or '-', 14)}  {p.clan or '-'}", LINE_WIDTH))
    s.emit(data, lines)
