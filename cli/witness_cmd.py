"""``tourney witness``: an independent party cosigns checkpoints (C2SP tlog-witness).

Owns: ``witness cosign NOTE`` — read the log read-only, let ``ledger.witness.cosign``
decide (consistent with what this witness cosigned before, or refused with exit 4), then
persist the witness's state BEFORE releasing the cosigned note (C2SP: a witness never
cosigns two inconsistent trees, even across a crash); and ``witness show``.

May import: ``typer``, ``cli.common``, ``ledger.*``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from cli.common import JsonOpt, KeyOpt, Session, read_file_bytes

app = typer.Typer(no_args_is_help=True, help=(
    "Witnesses cosign checkpoints so that a head judge cannot quietly rewrite history.\n\n"
    "Example: tourney witness cosign tournament.db.checkpoints/spring-3fa2b1c4d5e6f708/40.note --key w.pem"))


def _state_path(key: Path, state: Path | None) -> Path:
    return state if state is not None else key.with_name(key.name + ".witness.json")


@app.command("cosign")
def witness_cosign(
    ctx: typer.Context,
    note: Annotated[Path, typer.Argument(metavar="NOTE", help="Checkpoint note to cosign.")],
    state: Annotated[Path | None, typer.Option(
        "--state", metavar="FILE", show_default=False,
        help="This witness's state file (default: KEY.witness.json beside the key).")]
        = None,
    out: Annotated[Path | None, typer.Option(
        "--out", metavar="FILE", show_default=False,
        help="Write the cosigned note here (default: rewrite NOTE in place).")] = None,
    bundle: Annotated[Path | None, typer.Option(
        "--bundle", metavar="DIR", show_default=False,
        help="Read the log from an exported bundle instead of the ledger.")] = None,
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Cosign a checkpoint note after checking it is consistent with the last one this
    witness cosigned (exit 4 if not: a rollback, a fork or a rewritten history).

    The witness must be an official with role witness. Its state (last cosigned size and
    root per tournament) is saved before the note is written.

    Example: tourney witness cosign bundle/checkpoints/40.note --bundle bundle/ --key w.pem
    """
    from ledger.checkpoint_store import leaf_hashes
    from ledger.clock import default_clock, parse_time
    from ledger.witness import atomic_write, cosign, load_state, save_state

    s = Session(ctx, key=key, json=json)
    signer = s.signer()
    spath = _state_path(s.key_path(), state)
    wstate = load_state(spath, signer.key_id)
    data = read_file_bytes(note, "checkpoint note")
    if bundle is not None:
        log, tstate, hashes = _from_bundle(bundle)
    else:
        with s.ledger(readonly=True) as led:
            log = s.tournament(led)
            tstate = led.load(log).state
            hashes = leaf_hashes(led, log, tstate.size)
    timestamp = int(parse_time(default_clock().now()).timestamp())
    cosigned, cp = cosign(data, state=tstate, leaf_hashes=hashes, signer=signer,
                          wstate=wstate, timestamp=timestamp)
    save_state(spath, wstate)
    target = out if out is not None else note
    atomic_write(target, cosigned)
    s.emit({"ok": True, "tournament": log, "note": str(target), "size": cp.size,
            "root": cp.root.hex(), "witness": signer.key_id, "timestamp": timestamp,
            "state": str(spath)},
           [f"cosigned {target} (size {cp.size}, root {cp.root.hex()})",
            f"witness {signer.key_id}, state {spath}"])


def _from_bundle(directory: Path) -> tuple[str, Any, list[bytes]]:
    """Fold an exported bundle's leaves (each canonical, chained and in seq order; the
    witness's consistency check does the rest) into the state the decision needs."""
    from ledger.canonical import NonCanonicalError
    from ledger.errors import UsageError, VerificationError
    from ledger.events import ZERO_HASH, open_leaf
    from ledger.merkle import leaf_hash
    from ledger.state import TournamentState, apply_event

    data = read_file_bytes(directory / "log.jsonl", "bundle log")
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    state, prev = TournamentState(), ZERO_HASH
    for i, line in enumerate(lines, start=1):
        try:
            ev = open_leaf(line)
        except NonCanonicalError as exc:
            raise VerificationError(f"{directory}/log.jsonl line {i}: {exc.message}",
                                    hint="run 'tourney audit verify' on the bundle") from None
        if ev.seq != i or ev.prev != prev or (i > 1 and ev.log != state.log):
            raise UsageError(f"{directory}/log.jsonl line {i} is out of order or chain",
                             hint="run 'tourney audit verify' on the bundle first")
        apply_event(state, ev)
        prev = ev.leaf_hash_hex
    if not lines:
        raise UsageError(f"{directory}/log.jsonl is empty")
    return state.log, state, [leaf_hash(line) for line in lines]


@app.command("show")
def witness_show(
    ctx: typer.Context,
    state: Annotated[Path | None, typer.Option(
        "--state", metavar="FILE", show_default=False,
        help="The state file (default: KEY.witness.json beside the key).")] = None,
    key: KeyOpt = None,
    json: JsonOpt = False,
) -> None:
    """Show the last checkpoint this witness cosigned, per tournament.

    Example: tourney witness show --key w.pem
    """
    import msgspec

    from ledger.witness import load_state

    s = Session(ctx, key=key, json=json)
    signer = s.signer()
    spath = _state_path(s.key_path(), state)
    wstate = load_state(spath, signer.key_id)
    s.emit(msgspec.to_builtins(wstate),
           [f"witness {wstate.key_id} ({spath})"] +
           [f"  {origin}: size {e.size} root {e.root} at {e.timestamp}"
            for origin, e in sorted(wstate.logs.items())])
