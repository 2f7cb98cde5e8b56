"""``tourney cut`` and ``tourney bracket``: top-cut selection and the random bracket.

Owns: printing the selection (what it says is the format's ``selection_report``: HotC's
admitted undefeated, eligible pool, players drawn and eliminated; Bushiroad's finalists
or final standings) and the bracket (slots, then the bracket round just paired), and the
checkpoint after each.  Selection, seeding and pairing are the ledger's
(``Tournament.select_cut`` / ``seed_bracket``: HOTC-CUT-1..3, HOTC-TOP-1, AMB-H6/H9/H10),
never redone here.

May import: ``typer``, ``cli.common``, ``cli.round_cmd``, ``cli.result_text``, ``cli.pages_cmd``
(the held-round line), ``ledger.*``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from cli.common import (
    JsonOpt,
    KeyOpt,
    Session,
    events_brief,
    note,
    seq_span,
    write_result,
)
from cli.result_text import label
from cli.round_cmd import (
    SeedMaterialOpt,
    SeedSourceOpt,
    round_json,
    round_lines,
    seeded_write,
)
from ledger.formats.officiating.commands import apply_pending

if TYPE_CHECKING:
    from ledger.core.state import TournamentState


def _names(state: TournamentState, numbers: list[int]) -> str:
    return ", ".join(label(state, n) for n in numbers) or "none"


def cut(
    ctx: typer.Context,
    seed_material: SeedMaterialOpt = None,
    seed_source: SeedSourceOpt = None,
    no_champion: Annotated[str | None, typer.Option(
        "--no-champion", metavar="REASON",
        help="HOTC_2013_R2, a top cut with no player: the head judge's reason for ending "
             "the event with no champion (AMB-H9).")] = None,
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Select the top cut (head judge) once the Swiss phase is over, then checkpoint.

    Bushiroad formats: the finalists by ranking (BR-FIN-5), or without a top cut the final
    standings; a recorded draw orders fighters still tied (BR-SWISS-TB-7).  HotC:

    Every undefeated player is admitted; the remaining spots are drawn from the eligible
    pool (one loss, not dropped, no time or slow-play loss) with the seed for
    <tournament>/cut: recorded earlier with 'tourney seed record --ctx <tournament>/cut',
    or given here with --seed-material and --seed-source.  Everyone else is eliminated.

    Example: tourney cut --seed-material "52 07 19" --seed-source "atmospheric randomizer #1131" --key hj.pem
    """
    s = Session(ctx, key=key, json=json)
    log, events, agg, cp = seeded_write(
        s, seed_material, seed_source,
        lambda t, signer, time, **seed: t.select_cut(signer, time, no_champion=no_champion,
                                                     **seed),
        seed_unused=lambda t: False, unused_note="", done="cut made",
        kinds=("cut_made", "finalists_decided", "standings_finalized"))
    st = agg.state
    ev, lines, data = agg.plugin.views.selection_report(st, events, lambda ns: _names(st, ns))
    if seed_material is not None and not any(e.kind == "seed_recorded" for e in events):
        note("no random spot was drawn: --seed-material was not needed and not recorded")
    lines = [f"{seq_span(events)}: {lines[0]}", *lines[1:]] if lines else \
        [f"{seq_span(events)} written"]
    if cp is not None:
        lines.append(f"checkpoint: {cp}")
    s.emit(write_result(ev, **data, events=events_brief(events),
                        checkpoint=None if cp is None else cp.json()), lines)


def _slot_lines(state: TournamentState, slots: list[int | None]) -> list[str]:
    lines = ["bracket (slots; round 1 pairs 1-2, 3-4, …):"]
    for i, p in enumerate(slots, start=1):
        lines.append(f"  slot {i:>3}: {label(state, p) if p is not None else '(empty)'}")
    return lines


def bracket(
    ctx: typer.Context,
    seed_material: SeedMaterialOpt = None,
    seed_source: SeedSourceOpt = None,
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Seed the bracket and pair its first round, or pair the next bracket round.

    Head judge.  Afterwards writes a checkpoint and prints the bracket.  The seeding
    draw uses the seed for <tournament>/bracket: recorded earlier with 'tourney seed
    record --ctx <tournament>/bracket', or given here with --seed-material and
    --seed-source.

    Example: tourney bracket --seed-material "88 14 02" --seed-source "atmospheric randomizer #1140" --key hj.pem
    """
    s = Session(ctx, key=key, json=json)
    log, events, agg, cp = seeded_write(
        s, seed_material, seed_source,
        lambda t, signer, time, **seed: t.seed_bracket(signer, time, **seed)
        + apply_pending(t, signer, time),
        seed_unused=lambda t: t.state.fmt.slots is not None,
        unused_note="the bracket is seeded already: --seed-material was not recorded",
        done="bracket", kinds=("bracket_seeded",))
    st = agg.state
    slots = list(st.fmt.slots or [])
    rnd = st.fmt.rounds[-1]
    seeded = any(e.kind == "bracket_seeded" for e in events)
    lines = [f"{seq_span(events)}: " + ("bracket seeded and round paired" if seeded
                                        else "next bracket round paired"),
             *_slot_lines(st, slots), *round_lines(st, rnd)]
    from cli.pages_cmd import held_line

    held, held_text = held_line(st, events)
    if held_text:
        lines.append(held_text)
    if cp is not None:
        lines.append(f"checkpoint: {cp}")
    s.emit({"ok": True, "tournament": log, "seeded": seeded, "slots": slots,
            "round": round_json(rnd), "held": held is not None, "events": events_brief(events),
            "checkpoint": None if cp is None else cp.json()}, lines)
