"""``tourney init``, ``tourney info`` and ``tourney registration close``.

Owns: the genesis command (tournament id slug and its validation, format parameters,
one event per ledger unless ``--another-event``, creating the SQLite file only once
everything else checked out), the tournament summary,
and closing registration (followed by the automatic checkpoint of docs/DESIGN.md §4).

May import: ``typer``, ``cli.common``, ``ledger.*``.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import msgspec
import typer

from cli.common import JsonOpt, KeyOpt, Session, note, write_result
from ledger.errors import RuleError, TourneyError, UsageError
from ledger.wire.events import SelfReportPolicy

if TYPE_CHECKING:
    from ledger.storage.store import Ledger

#: Tournament ids: 1-64 characters, Unicode letters, digits and combining marks (NFC),
#: plus ``.``, ``_`` and ``-``, starting with a letter or digit.
TOURNAMENT_ID = re.compile(r"(?!_)\w[\w.-]{0,63}\Z")

registration_app = typer.Typer(no_args_is_help=True, help=(
    "Registration of players (open until closed by the head judge).\n\n"
    "Example: tourney registration close --key hj.pem"))


def _wordy(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "LNM"


def slug(name: str) -> str:
    """The id of a name: NFC, lowercase, Unicode letters/digits/marks kept (so
    ``山田カップ 2026`` → ``山田カップ-2026``), anything else a dash, dashes collapsed and
    trimmed, at most 64 characters."""
    text = unicodedata.normalize("NFC", name).lower()
    out = "".join(ch if _wordy(ch) else "-" for ch in text)
    return re.sub(r"-+", "-", out).strip("-")[:64].rstrip("-")


def valid_id(text: str) -> bool:
    return bool(TOURNAMENT_ID.match(text)) and text == unicodedata.normalize("NFC", text) \
        and all(_wordy(ch) or ch in "._-" for ch in text)


def init(
    ctx: typer.Context,
    name: Annotated[str, typer.Option("--name", help="Tournament name (display).")],
    format: Annotated[str, typer.Option("--format", metavar="FORMAT",
                                        help="Format id (the README lists them; an unknown one is refused with the list).")],
    cut: Annotated[int | None, typer.Option("--cut", metavar="N",
                                            help="Top cut size (power of two).")] = None,
    tid: Annotated[str | None, typer.Option("--id", metavar="ID",
                                            help="Tournament id (default: slug of NAME).")]
        = None,
    param: Annotated[list[str] | None, typer.Option(
        "--param", metavar="NAME=VALUE",
        help="Format parameter fixed at genesis, repeatable: match_minutes=40, "
             "pair_down_counts=higher|both (AMB-H1), bye_priority=no_repeat|least_wins "
             "(AMB-H4).")] = None,
    time_tolerance: Annotated[int, typer.Option(
        "--time-tolerance", metavar="SECONDS", min=0, max=86400,
        help="How far a claimed time may lie before the last event's (and how far an "
             "event may jump ahead of its neighbours) before it is refused / flagged.")]
        = 300,
    witness_quorum: Annotated[int, typer.Option(
        "--witness-quorum", metavar="N", min=0, max=16,
        help="Witnesses that must cosign the end-of-event checkpoint (0: none).")] = 0,
    witness_max_age: Annotated[int, typer.Option(
        "--witness-max-age", metavar="SECONDS", min=0,
        help="The newest witness cosignature may be at most this much older than the "
             "last event (0: no limit).")] = 0,
    self_report: Annotated[SelfReportPolicy | None, typer.Option(
        "--self-report-policy", case_sensitive=False, show_default=False,
        help="When both players of a table report the same result from their phones: "
             "confirm (a scorekeeper records it, one tap; the default) or auto (the live "
             "server records it at once, citing both reports). Recorded only when given "
             "(ADR 0027).")] = None,
    another_event: Annotated[bool, typer.Option(
        "--another-event",
        help="Add this tournament to a ledger that already holds one (then every command "
             "needs --tournament ID); without it, init refuses such a ledger.")] = False,
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Create a tournament (genesis event); the signing key becomes head judge.

    Creates the ledger file if it does not exist. Refuses, writing nothing, if the
    ledger already holds an event (pass --ledger NEW.db for a new event, or
    --another-event to keep several in one ledger) or the tournament id is taken. The format's parameters are fixed here and
    shown by 'tourney info'.

    Example: tourney init --name "Spring Open 2026" --format hotc-swiss-de --cut 8 --key hj.pem
    """
    from ledger.core.aggregate import Tournament
    from ledger.formats.registry import FORMAT_IDS, make_format, parse_params
    from ledger.wire.events import LedgerPolicy, open_leaf

    s = Session(ctx, key=key, json=json)
    if not name.strip():
        raise UsageError("--name is empty", hint="give the tournament a name")
    log = tid if tid is not None else slug(name)
    if not log:
        raise UsageError(f"cannot derive a tournament id from the name {name!r}",
                         hint="pass --id ID")
    if not valid_id(log):
        raise UsageError(f"tournament id {log!r} is not 1-64 letters, digits, '.', '_' or "
                         "'-' starting with a letter or digit", hint="pass another --id")
    if cut is not None and cut < 0:
        raise UsageError(f"--cut {cut} is negative", hint="use --cut 2, 4, 8, …")
    if format not in FORMAT_IDS:
        raise UsageError(f"unknown format {format!r}",
                         hint=f"known formats: {', '.join(sorted(FORMAT_IDS))}")
    try:
        fmt = make_format(format, cut, parse_params(format, list(param or [])))
    except RuleError as err:  # issue 17, defect 20: a bad --param/--cut is usage (exit 2)
        raise UsageError(err.message, hint=err.hint) from None
    policy = LedgerPolicy(time_tolerance_s=time_tolerance, witness_quorum=witness_quorum,
                          witness_max_age_s=witness_max_age)
    if self_report is not None:   # on the wire only when given (ADR 0027)
        policy = msgspec.structs.replace(policy, self_report_policy=self_report)
    signer = s.signer()
    location = s.location
    existed = location.is_postgres or location.path.exists()
    saved = False
    try:
        if existed and not location.is_postgres:  # read-only: the file's bytes stay as they are
            with s.ledger(readonly=True) as led:
                _refuse_second_event(s, led, another_event)
        with s.ledger(create=True) as led:
            if location.is_postgres:  # the schema may not exist yet: opened to create it
                _refuse_second_event(s, led, another_event)
            led.create(log, lambda time: Tournament.create(
                log=log, name=name.strip(), fmt=fmt, signer=signer, time=time,
                policy=policy))
            saved = True
            genesis = open_leaf(next(led.raw_leaves(log))[1])
    except TourneyError:
        if not saved and not existed and not location.is_postgres:
            _remove_sqlite(location.path)  # a failed genesis leaves no empty ledger behind
        raise
    s.emit(write_result(genesis, ledger=location.display(),
                        format={"id": fmt.id, "cut": fmt.cut, "params": fmt.params},
                        policy=msgspec.to_builtins(policy), head_judge=signer.key_id),
           [f"tournament: {log}", f"name:       {name.strip()}",
            f"format:     {fmt.id} (cut {fmt.cut})",
            f"head judge: {signer.key_id} ({signer.name or '-'})",
            f"ledger:     {location.display()}"])


def _refuse_second_event(s: Session, led: Ledger, another_event: bool) -> None:
    """Issue 17, defect 15: ``init`` on a ledger that already holds an event is refused
    (exit 2, nothing written) unless ``--another-event`` says it is meant; a second
    tournament in one ledger makes every later command need ``--tournament``."""
    if another_event:
        return
    held = led.tournament_ids()
    if held:
        raise UsageError(
            f"the ledger {s.location.display()} already holds tournament "
            f"{', '.join(repr(t) for t in held)}",
            hint="pass --ledger NEW.db for a new event, or --another-event to add a second "
                 "tournament to this ledger; nothing was written")


def _remove_sqlite(path: Path) -> None:
    for p in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        try:
            p.unlink()
        except FileNotFoundError:
            pass


def _progress(st: Any) -> dict[str, Any]:
    """Where the event stands, as its format says (``FormatPlugin.progress``)."""
    from ledger.core.format_socket import plugin_for

    plugin = plugin_for(st.format.id if st.format else None)
    if plugin is None:
        return {"phase": "registration" if st.registration_closed_seq is None else "swiss",
                "champion": None, "round": None}
    out: dict[str, Any] = msgspec.to_builtins(plugin.views.progress(st))
    out.setdefault("champion", None)
    out.setdefault("round", None)
    return out


def _next_step(st: Any) -> str:
    """What comes next, as the format says (``FormatPlugin.next_step``)."""
    from ledger.core.format_socket import plugin_for

    plugin = plugin_for(st.format.id if st.format else None)
    return "register players" if plugin is None else plugin.views.next_step(st)


def info(ctx: typer.Context, json: JsonOpt = False) -> None:
    """Summarise the tournament: format, officials, players, phase, current round and
    its missing results, champion, size, head and the latest checkpoint.

    Example: tourney info --json
    """
    from cli.text import LINE_WIDTH, fit
    from ledger.core.public_pages import pages_options
    from ledger.proofs.checkpoint import parse_checkpoint_note
    from ledger.proofs.checkpoint_store import latest_note

    s = Session(ctx, json=json)
    with s.ledger(readonly=True) as led:
        log = s.tournament(led)
        st = led.load(log).state
        cp_dir = s.checkpoint_dir(led, log)
        found = latest_note(led, log, cp_dir)
    hj = st.officials.get(st.organizer)
    active = [o for o in st.officials.values() if o.revoked_seq is None]
    latest: dict[str, Any] | None = None
    if found is not None:
        cp, _ = parse_checkpoint_note(found[1])
        where = found[0]
        latest = {"where": where, "path": None if where.startswith("ledger:") else where,
                  "size": cp.size, "root": cp.root.hex()}
    fmt = st.format
    reg = ("open" if st.registration_closed_seq is None
           else f"closed at seq {st.registration_closed_seq}")
    progress = _progress(st)
    if progress["champion"] is not None:     # a disqualified champion's title (ADR 0018)
        from projections.standings_doc import event_summary
        progress["champion"] = event_summary(st)["champion"]
    data = {"tournament": log, "name": st.name,
            "format": None if fmt is None else {"id": fmt.id, "cut": fmt.cut,
                                                "params": fmt.params},
            "head_judge": {"key_id": st.organizer, "name": hj.name if hj else ""},
            "officials": len(st.officials), "active_officials": len(active),
            "players": len(st.players),
            "registration": {"closed": st.registration_closed_seq is not None,
                             "closed_seq": st.registration_closed_seq},
            "policy": msgspec.to_builtins(st.ledger_policy),
            **progress, "next": _next_step(st),
            "size": st.size, "root": _root(st), "head": st.head, "created": st.created_time,
            "last_event_time": st.last_time, "ledger": s.location.display(),
            "checkpoints_dir": str(cp_dir), "latest_checkpoint": latest,
            "public_pages": pages_options(st).json()}
    params = ", ".join(f"{k}={v}" for k, v in sorted((fmt.params if fmt else {}).items()))
    rnd = progress["round"]
    if rnd is None:
        round_text = "-"
    else:
        missing = rnd["missing_results"]
        state = (f"open, {len(missing)} of {rnd['tables']} results missing"
                 if rnd["open"] else "closed")
        round_text = f"{rnd['number']} ({rnd['phase'].replace('_', ' ')}): {state}"
    champ = progress["champion"]
    lines = [f"tournament:   {log}", f"name:         {st.name}",
             f"format:       {fmt.id if fmt else '-'} (cut {fmt.cut if fmt else '-'}; {params})",
             f"head judge:   {st.organizer} ({hj.name if hj else '-'})",
             f"officials:    {len(st.officials)} ({len(active)} active)",
             f"players:      {len(st.players)}",
             f"registration: {reg}",
             f"phase:        {progress['phase'].replace('_', ' ')}",
             f"round:        {round_text}"]
    if rnd is not None and rnd["open"] and rnd["missing_results"]:
        lines.append(fit("missing:      tables " + ", ".join(
            str(n) for n in rnd["missing_results"]), LINE_WIDTH))
    if champ is not None:
        player = st.players.get(champ)
        lines.append(f"champion:     #{champ} {player.name if player else ''}".rstrip())
    opts = pages_options(st)
    lines.append(fit(f"public pages: {opts.text()}", LINE_WIDTH))
    if opts.held:
        lines.append("held:         round" + ("s " if len(opts.held) > 1 else " ")
                     + ", ".join(str(n) for n in opts.held)
                     + " (not on public pages until 'tourney round post')")
    lines += [f"next:         {_next_step(st)}",
              f"size:         {st.size} events",
              f"root:         {_root(st)} (the live pages' footer)",
              f"head:         {st.head}",
              "checkpoint:   " + (f"size {latest['size']} ({latest['where']})" if latest
                                 else "none yet (the head judge signs one: 'tourney "
                                      "checkpoint')")]
    s.emit(data, lines)


def _root(st: Any) -> str:
    """The Merkle root of the log now: what every page's checkable line shows."""
    from ledger.proofs.merkle import frontier_root

    return frontier_root(st.merkle).hex()


@registration_app.command("close")
def registration_close(ctx: typer.Context, key: KeyOpt = None, json: JsonOpt = False) -> None:
    """Close registration (head judge), then write a signed checkpoint.

    Example: tourney registration close --key hj.pem
    """
    from ledger.proofs.checkpoint_store import write_checkpoint

    s = Session(ctx, key=key, json=json)
    signer = s.signer()
    with s.ledger() as led:
        log = s.tournament(led)
        ev, st = led.write(log, lambda t, time: (t.close_registration(signer, time), t.state))
        try:
            path, cp = write_checkpoint(led, log, signer, s.checkpoint_dir(led, log), state=st)
        except TourneyError as err:
            note(f"registration closed at seq {ev.seq}, but the checkpoint failed")
            raise err
    players = getattr(ev.body, "players", None)
    s.emit(write_result(ev, players=players,
                        checkpoint={"path": None if path is None else str(path),
                                    "stored": "ledger", "size": cp.size,
                                    "root": cp.root.hex()}),
           [f"registration closed at seq {ev.seq} ({players} players)",
            f"checkpoint: size {cp.size}, root {cp.root.hex()} (in the ledger"
            + (f" and {path})" if path else ")")])
