"""``tourney witness``: an independent party cosigns checkpoints (C2SP tlog-witness).

Owns: ``witness cosign NOTE`` — read the log read-only, let ``ledger.proofs.witness.cosign``
decide (consistent with what this witness cosigned before, or refused with exit 4), then
persist the witness's state BEFORE releasing the cosigned note (C2SP: a witness never
cosigns two inconsistent trees, even across a crash); and ``witness show``.

May import: ``typer``, ``cli.common``, ``ledger.*``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from cli.common import JsonOpt, KeyOpt, Session, read_file_bytes

if TYPE_CHECKING:
    from ledger.core.state import TournamentState

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
    import ledger.formats.registry  # noqa: F401  (issue 21 item 8: every kind parses)
    from ledger.proofs.merkle import leaf_hash
    from ledger.proofs.witness import atomic_write, cosign, load_state, save_state
    from ledger.proofs.witness_fold import verified_fold
    from ledger.wire.clock import default_clock, parse_time

    s = Session(ctx, key=key, json=json)
    signer = s.signer()
    spath = _state_path(s.key_path(), state)
    wstate = load_state(spath, signer.key_id)
    data = read_file_bytes(note, "checkpoint note")
    if bundle is not None:
        leaves = _bundle_leaves(bundle)
        where = f"{bundle}/log.jsonl"
    else:
        with s.ledger(readonly=True) as led:
            log = s.tournament(led)
            leaves = [leaf for _v, leaf in led.raw_leaves(log)]
        where = "the ledger"
    # issue 21 item 4: every event the witness relies on is verified, never a snapshot
    tstate = verified_fold(leaves, where)
    log, hashes = tstate.log, [leaf_hash(leaf) for leaf in leaves]
    timestamp = int(parse_time(default_clock().now()).timestamp())
    cosigned, cp = cosign(data, state=tstate, leaf_hashes=hashes, signer=signer,
                          wstate=wstate, timestamp=timestamp)
    save_state(spath, wstate)
    target = out if out is not None else note
    atomic_write(target, cosigned)
    stored = None if bundle is not None else _store(s, tstate, cosigned)
    s.emit({"ok": True, "tournament": log, "note": str(target), "size": cp.size,
            "root": cp.root.hex(), "witness": signer.key_id, "timestamp": timestamp,
            "state": str(spath), "stored_in_ledger": stored},
           [f"cosigned {target} (size {cp.size}, root {cp.root.hex()})",
            f"witness {signer.key_id}, state {spath}"]
           + ([] if stored is None else ["cosignature stored in the ledger"]))


def _store(s: Session, tstate: TournamentState, cosigned: bytes) -> bool:
    """Issue 21 item 7: keep the cosignature in the ledger beside the checkpoint, so a
    copied ``.db`` or a PostgreSQL ledger audited elsewhere carries it.  A witness without
    write access says so; the head judge attaches the note later."""
    from cli.common import note
    from ledger.errors import StorageError
    from ledger.proofs.cosignature_store import store_cosignatures

    try:
        with s.ledger() as led:
            store_cosignatures(led, tstate, cosigned)
        return True
    except StorageError as exc:
        note(f"the cosigned note was written, but the ledger could not store it "
             f"({exc.message}): run 'tourney witness attach NOTE' with write access")
        return False


@app.command("attach")
def witness_attach(
    ctx: typer.Context,
    notes: Annotated[list[Path], typer.Argument(metavar="NOTE...", help=(
        "Cosigned checkpoint notes (e.g. returned by a witness that worked from a "
        "bundle)."))],
    json: JsonOpt = False,
) -> None:
    """Store the witness cosignatures of cosigned notes in the ledger, beside the
    checkpoint of the same size and root (only valid cosignatures of the log's witnesses).

    A copied .db file or a PostgreSQL ledger then audits with them: the genesis witness
    quorum needs no note files.

    Example: tourney witness attach pub/checkpoints/40.note
    """
    from cli.common import read_file_bytes
    from ledger.proofs.checkpoint import CheckpointError
    from ledger.proofs.cosignature_store import store_cosignatures

    s = Session(ctx, json=json)
    datas = [(p, read_file_bytes(p, "checkpoint note")) for p in notes]
    added = 0
    with s.ledger() as led:
        log = s.tournament(led)
        tstate = led.load(log).state
        for path, data in datas:
            try:
                added += store_cosignatures(led, tstate, data)
            except CheckpointError as exc:
                raise CheckpointError(f"{path}: {exc.message}",
                                      hint="pass checkpoint notes of this tournament") \
                    from None
    s.emit({"ok": True, "tournament": log, "stored": added},
           [f"{added} new cosignature(s) stored in the ledger of {log}"])


def _bundle_leaves(directory: Path) -> list[bytes]:
    """The leaves of an exported bundle's ``log.jsonl``, one per line."""
    from ledger.errors import UsageError

    lines = read_file_bytes(directory / "log.jsonl", "bundle log").split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    if not lines:
        raise UsageError(f"{directory}/log.jsonl is empty")
    return lines


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

    from ledger.proofs.witness import load_state

    s = Session(ctx, key=key, json=json)
    signer = s.signer()
    spath = _state_path(s.key_path(), state)
    wstate = load_state(spath, signer.key_id)
    s.emit(msgspec.to_builtins(wstate),
           [f"witness {wstate.key_id} ({spath})"] +
           [f"  {origin}: size {e.size} root {e.root} at {e.timestamp}"
            for origin, e in sorted(wstate.logs.items())])
