"""``tourney seed record`` and ``tourney draw``: recorded randomness (DESIGN.md §6).

Owns: parsing of the command-line inputs of seeds and draws (``--items 3,1,2``, the
``--evidence`` SHA-256).  Seed derivation and DRAW-v1 are the ledger's, never redone here.

May import: ``typer``, ``cli.common``, ``ledger.*``.
"""

from __future__ import annotations

from typing import Annotated

import typer

from cli.common import JsonOpt, KeyOpt, Session, is_hex, write_result
from ledger.errors import UsageError
from ledger.events import DrawMade, SeedRecorded

seed_app = typer.Typer(no_args_is_help=True, help=(
    "Seeds: record randomizer output verbatim with its provenance (head judge).\n\n"
    "Example: tourney seed record --material '3 9 1 4' --source 'dice' --reason 'round 1' "
    "--key hj.pem"))

_Opt = typer.Option


@seed_app.command("record")
def seed_record(
    ctx: typer.Context,
    material: Annotated[str, _Opt("--material", metavar="TEXT",
                                  help="Exactly what the randomizer gave (verbatim).")],
    source: Annotated[str, _Opt("--source", metavar="TEXT",
                                help="Where it came from (service, device).")],
    reason: Annotated[str, _Opt("--reason", metavar="TEXT", help="What it is for.")],
    seed_ctx: Annotated[str | None, _Opt("--ctx", metavar="CTX",
                                         help="The draw context it is meant for.")] = None,
    serial: Annotated[str | None, _Opt("--serial", metavar="S",
                                       help="The source's serial number.")] = None,
    source_time: Annotated[str | None, _Opt("--source-time", metavar="T",
                                            help="The source's own time stamp.")] = None,
    evidence: Annotated[str | None, _Opt("--evidence", metavar="SHA256",
                                         help="SHA-256 (hex) of evidence, e.g. a video.")]
        = None,
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Record seed material (provenance "entered"); the seed is derived from it.

    Example: tourney seed record --material "0x5f3a 91" --source "random.org" --reason "round 1 pairing" --ctx spring-open/R1/pairing --key hj.pem
    """
    from cli.common import check_seed_material

    s = Session(ctx, key=key, json=json)
    check_seed_material(material, "--material")
    if evidence is not None:
        evidence = evidence.strip().lower()
        if not is_hex(evidence, 64):
            raise UsageError("--evidence is not a SHA-256 (64 hex digits)",
                             hint="pass the output of 'sha256sum FILE'")
    signer = s.signer()
    with s.ledger() as led:
        log = s.tournament(led)
        ev = led.write(log, lambda t, time: t.record_seed(
            material=material, source=source, reason=reason, signer=signer, time=time,
            serial=serial, source_time=source_time, ctx=seed_ctx, evidence=evidence))
    assert isinstance(ev.body, SeedRecorded)
    seed = ev.body.seed
    s.emit(write_result(ev, seed=seed), [f"seq {ev.seq}: seed recorded", f"seed: {seed}"])


def parse_items(text: str) -> list[int]:
    parts = [p.strip() for p in text.split(",")]
    if not text.strip() or any(not p for p in parts):
        raise UsageError(f"--items {text!r} is not a comma-separated list of integers",
                         hint="e.g. --items 3,1,2")
    try:
        items = [int(p) for p in parts]
    except ValueError:
        bad = next(p for p in parts if not p.lstrip("-").isdigit())
        raise UsageError(f"--items: {bad!r} is not an integer",
                         hint="e.g. --items 3,1,2") from None
    if len(set(items)) != len(items):
        raise UsageError("--items lists an item twice", hint="list each item once")
    if any(abs(i) > 2**53 - 1 for i in items):
        raise UsageError("--items: an item is out of range", hint="use player numbers")
    return items


def draw(
    ctx: typer.Context,
    draw_ctx: Annotated[str, _Opt("--ctx", metavar="CTX",
                                  help="Draw context, e.g. <log>/R1/pairing (once each).")],
    items: Annotated[str, _Opt("--items", metavar="3,1,2",
                               help="Comma-separated integers (player numbers).")],
    seed_seq: Annotated[int | None, _Opt("--seed-seq", metavar="N", min=1,
                                         help="Seq of the seed to use (default: latest).")]
        = None,
    reason: Annotated[str, _Opt("--reason", metavar="TEXT", help="What it decides.")] = "",
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Make one DRAW-v1 draw from a recorded seed and record it (head judge).

    Example: tourney draw --ctx spring-open/cut --items 5,3,9,1,7 --seed-seq 4 --key hj.pem
    """
    s = Session(ctx, key=key, json=json)
    values = parse_items(items)
    if not draw_ctx:
        raise UsageError("--ctx is empty", hint="e.g. --ctx <tournament>/R1/pairing")
    signer = s.signer()
    with s.ledger() as led:
        log = s.tournament(led)
        ev = led.write(log, lambda t, time: t.make_draw(
            ctx=draw_ctx, items=values, signer=signer, time=time, seed_seq=seed_seq,
            reason=reason))
    b = ev.body
    assert isinstance(b, DrawMade)
    s.emit(write_result(ev, ctx=b.ctx, seed_seq=b.seed_seq, items=b.items, result=b.result),
           [f"seq {ev.seq}: draw {b.ctx} (seed seq {b.seed_seq})",
            "result: " + ",".join(str(i) for i in b.result)])
