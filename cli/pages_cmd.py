"""``tourney pages set|show`` and ``tourney round post``: the organizer's options for public
pages and the head judge's posting gate (issue 18, ADR 0023).

Owns: the command-line shapes and output of those commands, ``held_line`` (what a
pairing command prints when the round it paired waits for posting) and ``held_notice``
(what ``round show`` prints under a held round).  What is allowed
is the ledger's (``ledger.core.rules``: PAGES-1..8); what public pages show is
``ledger.core.public_pages``.  Names no format.

May import: ``typer``, ``cli.common``, ``cli.sheet_language``, ``ledger.*``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from cli.common import JsonOpt, KeyOpt, Session, auto_checkpoint, write_result
from ledger.errors import RuleError, UsageError
from ledger.wire.pages import NameStyle

if TYPE_CHECKING:
    from ledger.core.state import TournamentState
    from ledger.wire.events import SignedEvent

app = typer.Typer(no_args_is_help=True, help=(
    "Public pages: how they name players, whether penalties show, and whether new "
    "rounds wait for the head judge to post them (ADR 0023).\n\n"
    "Example: tourney pages set --names initial --hold-pairings --key hj.pem"))


def held_line(state: TournamentState, events: list[SignedEvent]) -> tuple[int | None, str | None]:
    """The round ``events`` paired, if it is held: (round, the line saying so)."""
    pages = state.pages
    seqs = {e.seq for e in events}
    rounds = [n for n, seq in pages.held.items() if seq in seqs]
    if not rounds:
        return None, None
    n = max(rounds)
    return n, f"held: not on public pages until 'tourney round post {n}'"


def held_notice(state: TournamentState, n: int) -> list[str]:
    """The line ``round show`` adds under a held round (none when it is public)."""
    if n in state.pages.held:
        return [f"held: not on public pages until 'tourney round post {n}'"]
    return []


def shipped_language(code: str) -> str:
    """``code`` when this build ships pages in that language (``server.i18n.Language``:
    a catalogue, or English); else a usage refusal naming the languages there are."""
    from cli.sheet_language import sheet_language

    return sheet_language(code).code


def known_zone(name: str) -> str:
    """``name`` when it is a time zone this machine's tz database knows (``zoneinfo``:
    the system's, else the ``tzdata`` package) and of the ledger's form (PAGES-8); else a
    usage refusal saying what a zone name looks like."""
    import zoneinfo

    from ledger.wire.pages import is_zone_name

    hint = "use an IANA name such as Asia/Tokyo, Europe/Paris, America/New_York or UTC " \
           "(case matters)"
    if not is_zone_name(name):
        raise UsageError(f"--time-zone {name!r}: not a time zone name", hint=hint)
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        raise UsageError(f"--time-zone {name!r}: no such time zone in the tz database",
                         hint=hint) from None
    return name


def _options_lines(state: TournamentState) -> list[str]:
    from ledger.core.public_pages import pages_options

    opts = pages_options(state)
    since = "defaults, never set" if opts.set_seq is None else f"set at seq {opts.set_seq}"
    held = ", ".join(str(n) for n in opts.held) or "none"
    return [f"public pages: {opts.text()} ({since})", f"held rounds:  {held}",
            f"language:     {opts.language} (when a phone asks for none the pages have)",
            f"time zone:    {opts.time_zone} (the times the pages show)"]


@app.command("set")
def pages_set(
    ctx: typer.Context,
    names: Annotated[NameStyle | None, typer.Option(
        "--names", show_default=False, case_sensitive=False,
        help="How public pages name a player: full (name and nickname), initial "
             "(\"Ann L.\"), number (\"#17\" only).")] = None,
    penalties: Annotated[bool | None, typer.Option(
        "--penalties/--no-penalties", show_default=False,
        help="Show a player's penalties on public pages.")] = None,
    hold: Annotated[bool | None, typer.Option(
        "--hold-pairings/--no-hold-pairings", show_default=False,
        help="Rounds paired from now on wait for 'tourney round post' before public "
             "pages show them.")] = None,
    language: Annotated[str | None, typer.Option(
        "--language", show_default=False, metavar="CODE",
        help="The pages' language when a phone asks for none it has (no ?lang=, no "
             "switch cookie, no Accept-Language match): a language with a catalogue, "
             "e.g. ja (issue 31).")] = None,
    time_zone: Annotated[str | None, typer.Option(
        "--time-zone", show_default=False, metavar="ZONE",
        help="The event's time zone, an IANA name (e.g. Asia/Tokyo): the pages show clock "
             "times in it (default UTC; the log's times stay UTC).")] = None,
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Set the public pages' options (organizer or head judge); options not given keep
    their value.  Recorded in the log, in force from this event on: rounds already paired
    keep their state.  Defaults: names full, penalties hidden, pairings posted when paired.

    Example: tourney pages set --names initial --no-penalties --hold-pairings --key hj.pem

    Example: tourney pages set --language ja --time-zone Asia/Tokyo --key organizer.pem
    """
    if names is None and penalties is None and hold is None and language is None \
            and time_zone is None:
        raise UsageError("nothing to set", hint="pass --names, --penalties/--no-penalties, "
                         "--hold-pairings/--no-hold-pairings, --language or --time-zone")
    if language is not None:
        language = shipped_language(language)
    if time_zone is not None:
        time_zone = known_zone(time_zone)
    s = Session(ctx, key=key, json=json)
    signer = s.signer()
    with s.ledger() as led:
        log = s.tournament(led)
        ev, agg = led.write(log, lambda t, time: (t.set_public_pages(
            signer, time, names=names, penalties=penalties, hold_pairings=hold,
            language=language, time_zone=time_zone), t))
        cp = auto_checkpoint(s, led, log, signer, f"seq {ev.seq} written", agg.state)
    from ledger.core.public_pages import pages_options

    lines = [f"seq {ev.seq}: public_pages_set", *_options_lines(agg.state)]
    if cp is not None:
        lines.append(f"checkpoint: {cp}")
    s.emit(write_result(ev, public_pages=pages_options(agg.state).json(),
                        checkpoint=None if cp is None else cp.json()), lines)


@app.command("show")
def pages_show(ctx: typer.Context, json: JsonOpt = False) -> None:
    """Show the public pages' options in force and the rounds waiting for posting.

    Example: tourney pages show --json
    """
    from ledger.core.public_pages import pages_options

    s = Session(ctx, json=json)
    with s.ledger(readonly=True) as led:
        log = s.tournament(led)
        st = led.load(log).state
    s.emit({"tournament": log, **pages_options(st).json()}, _options_lines(st))


def round_post(
    ctx: typer.Context,
    number: Annotated[int | None, typer.Argument(
        metavar="[N]", min=1, show_default=False,
        help="The held round (a Game in Wheel of Time) to post (default: the latest "
             "held).")] = None,
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Post a held round's pairings to public pages (head judge), after checking them:
    'tourney serve' nudges every phone following the event.

    A round is held when it was paired while 'tourney pages set --hold-pairings' was on.

    Example: tourney round post 3 --key hj.pem
    """
    from ledger.core.public_pages import held_rounds, latest_held

    s = Session(ctx, key=key, json=json)
    signer = s.signer()

    def post(t: Any, time: str) -> tuple[Any, Any]:
        n = latest_held(t.state) if number is None else number
        if n is None:
            raise RuleError("PAGES-3", "no round waits for posting (none is held)",
                            hint="a round is held only when paired while 'tourney pages "
                                 "set --hold-pairings' is on")
        return t.post_pairings(n, signer, time), t

    with s.ledger() as led:
        log = s.tournament(led)
        ev, agg = led.write(log, post)
        cp = auto_checkpoint(s, led, log, signer, f"seq {ev.seq} written", agg.state)
    n = ev.body.round
    still = held_rounds(agg.state)
    lines = [f"seq {ev.seq}: round {n} pairings posted: public pages show them from now on; "
             "phones following the event are nudged"]
    if still:
        lines.append("still held: " + ", ".join(str(r) for r in still))
    if cp is not None:
        lines.append(f"checkpoint: {cp}")
    s.emit(write_result(ev, round=n, held=still,
                        checkpoint=None if cp is None else cp.json()), lines)
