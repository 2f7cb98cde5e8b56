"""``tourney round pair`` and ``tourney round show``: pairing rounds and posting them.

Owns: the printable round (table, both players by number and name, win groups, rematch
and pair-down marks, the result once in), the ``round show --json`` document of docs/DESIGN.md
§8 (``round_json``), the ``--seed-material/--seed-source`` options that pairing, cut and
bracket share (``SeedMaterialOpt``, ``SeedSourceOpt``, ``seed_args``); the player label ``#7 Name`` and
the result phrase is the format's (``projections.result_words``).  Pairing itself (bye, draws, Rule A/B, the bracket) is the ledger's
(``Tournament.pair_round``), never redone here; the checkpoint after the pairing is
``cli.common.auto_checkpoint``.

May import: ``typer``, ``cli.common``, ``cli.result_text``, ``cli.text``, ``cli.pages_cmd``
(the held-round lines), ``ledger.*``, ``projections.*``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cli.common import (
    JsonOpt,
    KeyOpt,
    Session,
    auto_checkpoint,
    events_brief,
    note,
    seq_span,
)
from cli.result_text import label
from cli.sheet_language import LanguageOpt, sheet_language
from ledger.core.format_socket import require_plugin
from ledger.errors import UsageError
from projections.result_words import describe

if TYPE_CHECKING:
    from ledger.core.state import TournamentState
    from ledger.formats.match.model import ResultState, RoundState
    from projections.rounds import Overridden

app = typer.Typer(no_args_is_help=True, help=(
    "Rounds: pair the next round (head judge) and show pairings ready to post.\n\n"
    "Example: tourney round pair --seed-material \"17 03 88\" --seed-source \"atmospheric "
    "#123\" --key hj.pem"))

SeedMaterialOpt = Annotated[str | None, typer.Option(
    "--seed-material", metavar="TEXT", show_default=False,
    help="Randomizer output to record (verbatim) as this draw's seed, in the same command.")]
SeedSourceOpt = Annotated[str | None, typer.Option(
    "--seed-source", metavar="TEXT", show_default=False,
    help="Where --seed-material came from (service, serial, time); required with it.")]

NAME_WIDTH = 24  # two names, their win groups and the table number fit 80 columns


def seed_args(material: str | None, source: str | None) -> tuple[str | None, str | None]:
    """Check the seed options: both or neither, neither empty."""
    if material is None and source is None:
        return None, None
    if material is None:
        raise UsageError("--seed-source without --seed-material",
                         hint="pass both, or record the seed with 'tourney seed record --ctx …'")
    if source is None or not source.strip():
        raise UsageError("--seed-material needs --seed-source (its provenance)",
                         hint="e.g. --seed-source \"atmospheric randomizer, 09:01\"")
    from cli.common import check_seed_material

    check_seed_material(material, "--seed-material")
    return material, source.strip()


def preauthorize(state: TournamentState, actor: str, kinds: tuple[str, ...]) -> None:
    """Refuse a key without the role for the first of ``kinds`` this tournament's format
    (or the core) knows, before anything else is checked: the scorekeeper who runs
    ``round pair`` learns about the role, not about a missing seed."""
    from ledger.core.format_socket import plugin_for
    from ledger.core.rules import PERMITTED, authorize

    plugin = plugin_for(state.format.id if state.format else None)
    for kind in kinds:
        if kind in PERMITTED or (plugin is not None and plugin.rules.roles_for(kind)):
            authorize(state, actor, kind)
            return


def seeded_write(s: Session, seed_material: str | None, seed_source: str | None,
                 act: Callable[..., list[Any]], *, seed_unused: Callable[[Any], bool],
                 unused_note: str, done: str,
                 kinds: tuple[str, ...]) -> tuple[str, list[Any], Any, Any]:
    """The head judge's drawing commands (round pair, cut, bracket): check the seed
    options, write the command's events in one save, then the automatic checkpoint.
    ``act(t, signer, time, material=, source=)`` records the events; when
    ``seed_unused(t)`` holds the material is not recorded (``unused_note`` says so).
    Returns (tournament id, events, aggregate, checkpoint path or None)."""
    material, source = seed_args(seed_material, seed_source)
    signer = s.signer()

    def command(t: Any, time: str) -> tuple[list[Any], Any]:
        preauthorize(t.state, signer.key_id, kinds)  # a role refusal before "no seed"
        if material is not None and seed_unused(t):
            note(unused_note)
            return act(t, signer, time, material=None, source=None), t
        return act(t, signer, time, material=material, source=source), t

    with s.ledger() as led:
        log = s.tournament(led)
        events, agg = led.write(log, command)
        cp = auto_checkpoint(s, led, log, signer, f"{seq_span(events)} written ({done})",
                             agg.state)
    return log, events, agg, cp


def result_json(res: ResultState | None) -> dict[str, Any] | None:
    if res is None:
        return None
    return {"seq": res.seq, "winner": res.winner, "losers": list(res.losers),
            "outcome": res.outcome.value,
            "loss_reasons": [r.value for r in res.loss_reasons],
            # the game score as recorded: [wins of players[0], wins of players[1],
            # draws], null where no games were played or none were entered (issue 32)
            "games": None if res.games is None else list(res.games)}


def round_json(rnd: RoundState, overridden: Overridden | None = None, *,
               lost_bye: bool = False) -> dict[str, Any]:
    """``tourney round show N --json`` (docs/DESIGN.md §8 keys, plus ``overridden``: null, or
    the head judge's override whose tables these are, with the engine's pairing it
    replaced; ``bye_lost``: the bye was lost to a Loss of Match, BR-SWISS-7; each result
    with ``games``, the recorded game score or null, issue 32)."""
    return {"round": rnd.number,
            "tables": [{"table": t.table, "players": list(t.players),
                        "groups": list(t.groups), "rematch": t.rematch,
                        "pair_down": t.pair_down, "pair_up": t.pair_up,
                        "result": result_json(t.result)} for t in rnd.tables],
            "bye": rnd.bye, "phase": rnd.phase.value, "advances": list(rnd.advances),
            "closed": rnd.closed_seq is not None, "bye_lost": lost_bye,
            "overridden": None if overridden is None else overridden.json()}


def override_lines(o: Overridden) -> list[str]:
    """Two or more lines under a round's head: the head judge's override (these tables)
    and the engine's pairing it replaced (AMB-B7), wrapped to 80 columns."""
    import textwrap

    from cli.text import LINE_WIDTH, fit

    pairs = ", ".join(f"{i}: #{a} v #{b}" for i, (a, b) in enumerate(o.engine_tables, 1))
    return [fit(f"pairing overridden by the head judge (seq {o.seq}): {o.reason}",
                LINE_WIDTH),
            *textwrap.wrap(f"engine's pairing (seq {o.paired_seq}, not played): {pairs}",
                           LINE_WIDTH, subsequent_indent="  ")]


def bye_lost(state: TournamentState, rnd: RoundState) -> bool:
    """``projections.rounds.bye_lost`` (imported when used: start-up stays small)."""
    from projections.rounds import bye_lost as lost

    return lost(state, rnd)


def round_lines(state: TournamentState, rnd: RoundState,
                overridden: Overridden | None = None) -> list[str]:
    """The printable pairings of one round, ready to post: every line fits 80 columns
    whatever the names' scripts (display width); a table's marks and result go on a
    continuation line when they do not fit beside the players."""
    from cli.text import LINE_WIDTH, fit, ljust, rjust, width
    from ledger.formats.match.model import Phase

    swiss = rnd.phase is Phase.SWISS
    done = sum(1 for t in rnd.tables if t.result is not None)
    head = (f"Round {rnd.number} ({'Swiss' if swiss else 'top cut'}): "
            f"{len(rnd.tables)} table{'' if len(rnd.tables) == 1 else 's'}, {done} results in, "
            + ("closed" if rnd.closed_seq is not None else "open"))
    lines = [head, *(override_lines(overridden) if overridden is not None else [])]
    if rnd.bye is not None:
        lost = " (lost: Loss of Match, BR-SWISS-7)" if bye_lost(state, rnd) else ""
        lines.append(fit(f"bye: {label(state, rnd.bye)}{lost}", LINE_WIDTH))
    if rnd.advances:
        lines.append(fit("advance without playing: "
                         + ", ".join(label(state, n) for n in rnd.advances), LINE_WIDTH))
    w = NAME_WIDTH
    from ledger.core.format_socket import plugin_for

    plugin = plugin_for(state.format.id if state.format else None)
    col, m = ("WINS", 1) if plugin is None else plugin.views.group_column(state)
    # ``describe``'s plug-in, looked up once for the round's tables (issue 22)
    words = (partial(describe, state) if plugin is None
             else partial(plugin.views.describe_result, state))
    lines.append(f"{'TABLE':>5}  {ljust('PLAYER', w)} {col:>4}  v  {ljust('PLAYER', w)} "
                 f"{col:>4}  RESULT")
    for t in rnd.tables:
        a, b = t.players
        ga, gb = (str(t.groups[0] * m), str(t.groups[1] * m)) if swiss else ("-", "-")
        marks = []
        if t.rematch:
            marks.append("rematch")
        if t.pair_down is not None:
            marks.append(f"pair-down #{t.pair_down}")
        tail = words(t.result) + (f" [{', '.join(marks)}]" if marks else "")
        core = (f"{t.table:>5}  {ljust(label(state, a), w)} {rjust(ga, 4)}  v  "
                f"{ljust(label(state, b), w)} {rjust(gb, 4)}")
        if width(core) + 2 + width(tail) <= LINE_WIDTH:
            lines.append(f"{core}  {tail}")
        else:
            lines += [core, fit(f"{'':>7}{tail}", LINE_WIDTH)]
    return lines


@app.command("pair")
def round_pair(
    ctx: typer.Context,
    seed_material: SeedMaterialOpt = None,
    seed_source: SeedSourceOpt = None,
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Pair the next round (head judge), then write a signed checkpoint.

    A Swiss round needs a seed for <tournament>/R<n>: recorded earlier with 'tourney seed
    record --ctx <tournament>/R<n>', or given here with --seed-material and --seed-source
    (recorded in the same command).  After 'tourney round void' the round is drawn again
    under <tournament>/R<n>/v<k> and needs a seed recorded after the void.  Once the
    bracket is seeded this pairs the next bracket round (no seed needed).

    Example: tourney round pair --seed-material "17 03 88 41" --seed-source "atmospheric randomizer #1123, 09:02" --key hj.pem
    """
    from ledger.formats.officiating.commands import apply_pending  # writes only

    s = Session(ctx, key=key, json=json)
    log, events, agg, cp = seeded_write(
        s, seed_material, seed_source,
        lambda t, signer, time, **seed: t.pair_round(signer, time, **seed)
        + apply_pending(t, signer, time),
        seed_unused=lambda t: t.plugin.views.draws_nothing(t.state),
        unused_note="this pairing draws nothing: --seed-material was not recorded",
        done="round paired", kinds=("round_paired",))
    st = agg.state
    own = agg.plugin.views.round_display(st, None)
    from cli.pages_cmd import held_line

    held, held_text = held_line(st, events)
    if own is not None:                  # a format with rounds of its own (WoT Games)
        lines = [f"{seq_span(events)} written", *own[0], *([held_text] if held_text else [])]
        if cp is not None:
            lines.append(f"checkpoint: {cp}")
        s.emit({"ok": True, "tournament": log, **own[1], "held": held is not None,
                "events": events_brief(events),
                "checkpoint": None if cp is None else cp.json()}, lines)
        return
    rnd = st.fmt.rounds[-1]
    if s.json:          # only the output asked for is built (issue 22: 2,048 tables)
        s.emit({"ok": True, "tournament": log,
                **round_json(rnd, lost_bye=bye_lost(st, rnd)),
                "held": held is not None, "events": events_brief(events),
                "checkpoint": None if cp is None else cp.json()})
        return
    lines = [f"{seq_span(events)} written", *round_lines(st, rnd),
             *([held_text] if held_text else [])]
    if cp is not None:
        lines.append(f"checkpoint: {cp}")
    s.emit(None, lines)


@app.command("show")
def round_show(
    ctx: typer.Context,
    number: Annotated[int | None, typer.Argument(
        metavar="[N]", min=1, show_default=False,
        help="Round number (default: the latest round).")] = None,
    html: Annotated[bool, typer.Option(
        "--html", help="Print one self-contained HTML page (phone and print CSS).")] = False,
    language: LanguageOpt = "en",
    json: JsonOpt = False,
) -> None:
    """Show a round's pairings by table, ready to post (default: the latest round).
    --html --language ja prints the wall sheet in Japanese.

    Player numbers and names, win groups, rematch and pair-down marks, and the results
    in so far.

    Example: tourney round show 3 --html > round3.html
    """
    s = Session(ctx, json=json)
    if html and s.json:
        raise UsageError("--html and --json are different outputs", hint="pick one")
    sheet = sheet_language(language)
    if language != "en" and not html:
        raise UsageError("--language is the printed sheet's", hint="add --html")
    with s.reader() as led:   # the state and raw leaves (issue 22)
        log = s.tournament(led)
        st = led.load_state(log)
        own = require_plugin(st.format.id if st.format else "").views.round_display(st, number)
        from cli.pages_cmd import held_notice

        if own is not None:              # a format with rounds of its own (WoT Games)
            s.emit(own[1], [*own[0], *held_notice(st, int(own[1].get("round", 0)))])
            return
        rounds = st.fmt.rounds
        if not rounds:
            raise UsageError(f"no round of {log} has been paired yet",
                             hint="the head judge pairs one with 'tourney round pair'")
        from projections.rounds import load_round, override_of

        rnd = load_round(led, log, st, rounds[-1].number if number is None else number)
        over = None if rnd is None else override_of(led, log, st, rnd)
        if html:  # the wall sheet carries the line phones show (issue 18)
            from projections.checkable import checkable_of

            cp = checkable_of(st, led.full().led)   # the stored checkpoints' tables
    if rnd is None:
        raise UsageError(f"{log} has no round {number} (rounds 1..{rounds[-1].number})",
                         hint="run 'tourney round show' for the latest round")
    if html:
        import sys

        from projections.report import round_doc
        from projections.site import round_page

        sys.stdout.write(round_page(st, round_doc(rnd, over, lost_bye=bye_lost(st, rnd), state=st),
                                    st.size, cp, tr=sheet.translations, lang=sheet.code,
                                    dir_=sheet.dir, fw=sheet.words(st)))
        sys.stdout.flush()
        return
    s.emit(round_json(rnd, over, lost_bye=bye_lost(st, rnd)),
           [*round_lines(st, rnd, over), *held_notice(st, rnd.number)])
