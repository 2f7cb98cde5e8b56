"""``tourney log``, ``checkpoint``, ``proof`` and ``consistency``: reading the log and its
Merkle tree.

Owns: the one-line event summaries of ``log`` and the printing of checkpoints and
proofs.  Trees, notes and proofs are ``ledger.proofs.checkpoint_store``'s; a proof that does not
verify raises ``VerificationError`` there (exit 4), never a second check here.

May import: ``typer``, ``msgspec``, ``cli.common``, ``ledger.*``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import msgspec
import typer

from cli.common import JsonOpt, KeyOpt, Session, read_file_bytes
from ledger.errors import UsageError, write_failure

if TYPE_CHECKING:
    from ledger.core.format_plugin import FormatPlugin


def _summary(kind: str, body: dict[str, Any], plugin: Any = None) -> str:
    """A short human summary of an event body."""
    if kind == "tournament_created":
        fmt = body.get("format") or {}
        hj = body.get("head_judge") or {}
        return (f"{body.get('name')!r} format={fmt.get('id')} cut={fmt.get('cut')} "
                f"head_judge={hj.get('key_id')}")
    if kind == "official_added":
        return f"{body.get('role')} {body.get('name')!r} key={body.get('key_id')}"
    if kind == "official_revoked":
        why = f" reason={body['reason']!r}" if body.get("reason") else ""
        return f"key={body.get('key_id')}{why}"
    if kind == "player_registered":
        return f"#{body.get('number')} {body.get('name')!r}"
    if kind == "registration_closed":
        return f"players={body.get('players')}"
    if kind == "seed_recorded":
        return (f"{body.get('provenance')} source={body.get('source')!r} "
                f"reason={body.get('reason')!r} seed={str(body.get('seed'))[:16]}…")
    if kind == "draw_made":
        result = ",".join(str(i) for i in body.get("result") or [])
        return f"ctx={body.get('ctx')} seed_seq={body.get('seed_seq')} result={result}"
    match = _match_summary(kind, body, plugin)
    if match is not None:
        return match
    text = " ".join(f"{k}={_plain(v)}" for k, v in sorted(body.items()))
    return text if len(text) <= 100 else text[:99] + "…"


def _plugin_of(led: Any, log_id: str) -> FormatPlugin | None:
    """The format plug-in of the log (its words for results), read from the genesis leaf
    alone (no fold); None if unreadable: the log is still listed, event by event."""
    from ledger.core.format_socket import plugin_for

    try:
        raw = led.raw_leaf(log_id, 1)
        body = msgspec.json.decode(raw)["event"]["body"] if raw is not None else {}
        return plugin_for(str(body["format"]["id"]))
    except (msgspec.DecodeError, KeyError, TypeError):
        return None


def _plain(value: Any) -> str:
    """A value as JSON text (never Python's repr of dicts and lists)."""
    if isinstance(value, str):
        return repr(value) if " " in value else value
    return msgspec.json.encode(value).decode("utf-8")


def _nums(values: Any) -> str:
    return ",".join(f"#{n}" for n in values or []) or "-"


def _match_summary(kind: str, body: dict[str, Any], plugin: Any = None) -> str | None:
    """Summaries of the match kinds (round, results in the format's words, drops, cut,
    bracket, champion)."""
    if kind == "round_paired":
        tables = body.get("tables") or []
        bye = f", bye #{body['bye']}" if body.get("bye") is not None else ""
        return f"round {body.get('round')} ({body.get('phase')}): {len(tables)} tables{bye}"
    if kind in ("result_recorded", "result_corrected", "result_amended"):
        words = plugin.views.describe_body(body) if plugin is not None else str(body.get("outcome"))
        fix = (f" corrects seq {body.get('corrects_seq')}: {body.get('reason')!r}"
               if kind != "result_recorded" else "")
        return f"round {body.get('round')} table {body.get('table')}: {words}{fix}"
    if kind == "player_dropped":
        return f"#{body.get('number')} in round {body.get('round')} ({body.get('timing')})"
    if kind == "round_closed":
        return (f"round {body.get('round')} ({body.get('phase')}): {body.get('undefeated')} "
                f"undefeated, eliminated {_nums(body.get('eliminated'))}"
                + ("; Swiss over" if body.get("swiss_over") and body.get("phase") == "swiss"
                   else ""))
    if kind == "cut_made":
        return f"cut {_nums(body.get('cut'))} (drawn {_nums(body.get('drawn'))})"
    if kind == "bracket_seeded":
        return "slots " + ",".join("-" if n is None else f"#{n}"
                                   for n in body.get("slots") or [])
    if kind == "champion_declared":
        return f"champion #{body.get('number')} (round {body.get('round')})"
    if kind in ("player_withdrawn", "player_renamed"):
        new = f" -> {body.get('name')!r}" if kind == "player_renamed" else ""
        why = f" ({body['reason']})" if body.get("reason") else ""
        return f"#{body.get('number')}{new}{why}"
    return None


def log(
    ctx: typer.Context,
    from_seq: Annotated[int, typer.Option("--from", metavar="SEQ", min=1,
                                          help="First seq to show.")] = 1,
    kind: Annotated[str | None, typer.Option("--kind", metavar="KIND",
                                             help="Only events of this kind.")] = None,
    json: JsonOpt = False,
) -> None:
    """Show the events: seq, time, kind, actor and a short summary (JSON: decoded leaves).

    Example: tourney log --from 5 --kind player_registered
    """
    import ledger.formats.registry  # noqa: F401  (the formats' kinds)
    from ledger.storage.snapshots import LedgerCorrupt
    from ledger.wire.events import BODY_TYPES, body_type_of

    s = Session(ctx, json=json)
    if kind is not None and body_type_of(kind) is None:
        raise UsageError(f"unknown event kind {kind!r}",
                         hint=f"kinds: {', '.join(sorted(BODY_TYPES))}")
    leaves: list[Any] = []
    with s.ledger(readonly=True) as led:
        log_id = s.tournament(led)
        for ver, raw in led.raw_leaves(log_id, after=from_seq - 1):
            try:
                leaf = msgspec.json.decode(raw)
                ev = leaf["event"]
                if kind is None or ev["kind"] == kind:
                    leaves.append(leaf)
            except (msgspec.DecodeError, KeyError, TypeError):
                raise LedgerCorrupt(f"event {log_id}#{ver} is unreadable",
                                    hint="run 'tourney audit verify' for the full report"
                                    ) from None
        plugin = _plugin_of(led, log_id)
    lines = []
    for leaf in leaves:
        ev = leaf["event"]
        body = ev.get("body") if isinstance(ev.get("body"), dict) else {}
        lines.append(f"{ev.get('seq'):>6}  {ev.get('time')}  {ev.get('kind'):<20}  "
                     f"{ev.get('actor')}  {_summary(str(ev.get('kind')), body, plugin)}")
    s.emit(leaves, lines)


def checkpoint(ctx: typer.Context, key: KeyOpt = None, json: JsonOpt = False) -> None:
    """Sign the current tree head (head judge) as a checkpoint, stored in the ledger.

    The note is also written as a file in the checkpoint directory (--checkpoints DIR or
    the default <ledger>.checkpoints/<id>-<genesis hash>/), where publishing and witnesses
    read it.

    Example: tourney checkpoint --key hj.pem
    """
    from ledger.proofs.checkpoint_store import write_checkpoint

    s = Session(ctx, key=key, json=json)
    signer = s.signer()
    with s.ledger() as led:
        log_id = s.tournament(led)
        path, cp = write_checkpoint(led, log_id, signer, s.checkpoint_dir(led, log_id))
    s.emit({"ok": True, "tournament": log_id, "path": None if path is None else str(path),
            "stored": "ledger", "origin": cp.origin, "size": cp.size, "root": cp.root.hex()},
           [f"checkpoint: {'in the ledger' + (f' and {path}' if path else '')}",
            f"size:       {cp.size}", f"root:       {cp.root.hex()}"])


def _latest_note(s: Session, led: Any, log_id: str) -> tuple[str, bytes]:
    from ledger.proofs.checkpoint_store import latest_note

    found = latest_note(led, log_id, s.checkpoint_dir(led, log_id))
    if found is None:
        raise UsageError(f"no checkpoint of {log_id} in the ledger or "
                         f"{s.checkpoint_dir(led, log_id)}",
                         hint="write one with 'tourney checkpoint' or pass --checkpoint NOTE")
    return found


def proof(
    ctx: typer.Context,
    seq: Annotated[int, typer.Argument(metavar="SEQ", min=1, help="Event seq to prove.")],
    note_file: Annotated[Path | None, typer.Option(
        "--checkpoint", metavar="NOTE",
        help="Checkpoint note file (default: the latest checkpoint).")] = None,
    out: Annotated[Path | None, typer.Option(
        "--out", metavar="FILE",
        help="Write a self-contained appeal proof file (checked without the ledger by "
             "'tourney audit proof FILE' or docs/verify_proof.py).")] = None,
    json: JsonOpt = False,
) -> None:
    """Inclusion proof of event SEQ against a signed checkpoint (exit 4 if it fails).

    With --out FILE: a self-contained proof file (the event, its inclusion proof, the
    signed checkpoint and the key events that make the signatures checkable).

    Example: tourney proof 12 --out appeal-12.json
    """
    if out is not None:
        _proof_file(ctx, seq, note_file, out, json)
        return
    from ledger.proofs.checkpoint_store import inclusion

    s = Session(ctx, json=json)
    with s.ledger(readonly=True) as led:
        log_id = s.tournament(led)
        if note_file is not None:
            path, data = str(note_file), read_file_bytes(note_file, "checkpoint note")
        else:
            path, data = _latest_note(s, led, log_id)
        res = inclusion(led, log_id, seq, data)
    hashes = [h.hex() for h in res.proof]
    s.emit({"ok": True, "verified": True, "tournament": log_id, "checkpoint": str(path),
            "seq": res.seq, "leaf_hash": res.leaf_hash.hex(), "index": res.index,
            "size": res.size, "root": res.root.hex(), "proof": hashes},
           [f"checkpoint: {path}", f"seq:        {res.seq}",
            f"leaf hash:  {res.leaf_hash.hex()}", f"index:      {res.index}",
            f"size:       {res.size}", f"root:       {res.root.hex()}",
            f"proof:      {len(hashes)} hashes", *(f"  {h}" for h in hashes),
            "verified"])


def consistency(
    ctx: typer.Context,
    old: Annotated[str, typer.Argument(
        metavar="OLD", help="Older checkpoint: a note file, or a size stored in the ledger.")],
    new: Annotated[str, typer.Argument(
        metavar="NEW", help="Newer checkpoint: a note file, or a size stored in the ledger.")],
    json: JsonOpt = False,
) -> None:
    """Consistency proof between two signed checkpoints (exit 4 if it fails).

    Example: tourney consistency 12 bundle/checkpoints/40.note
    """
    from ledger.proofs.checkpoint_store import consistency as prove

    s = Session(ctx, json=json)
    with s.ledger(readonly=True) as led:
        log_id = s.tournament(led)
        stored = dict(led.checkpoints.notes(log_id))

        def note_of(arg: str) -> bytes:
            if arg.isdigit() and not Path(arg).exists():
                if int(arg) not in stored:
                    raise UsageError(f"the ledger holds no checkpoint of size {arg}",
                                     hint="sizes stored: " + (", ".join(
                                         map(str, sorted(stored))) or "none"))
                return stored[int(arg)]
            return read_file_bytes(Path(arg), "checkpoint note")

        res = prove(led, log_id, note_of(old), note_of(new))
    hashes = [h.hex() for h in res.proof]
    s.emit({"ok": True, "verified": True, "tournament": log_id, "size1": res.size1,
            "size2": res.size2, "root1": res.root1.hex(), "root2": res.root2.hex(),
            "proof": hashes},
           [f"old: size {res.size1} root {res.root1.hex()}",
            f"new: size {res.size2} root {res.root2.hex()}",
            f"proof: {len(hashes)} hashes", *(f"  {h}" for h in hashes), "verified"])


def _proof_file(ctx: typer.Context, seq: int, note_file: Path | None, out: Path,
                json: bool) -> None:
    from ledger.proofs.proof_file import build_proof_file

    s = Session(ctx, json=json)
    if out.exists():
        raise UsageError(f"{out} exists", hint="choose a new --out file")
    with s.ledger(readonly=True) as led:
        log_id = s.tournament(led)
        if note_file is not None:
            path, data = str(note_file), read_file_bytes(note_file, "checkpoint note")
        else:
            path, data = _latest_note(s, led, log_id)
        doc = build_proof_file(led, log_id, seq, data)
    try:
        out.write_bytes(msgspec.json.format(msgspec.json.encode(doc), indent=1) + b"\n")
    except OSError as exc:
        raise write_failure(exc, f"cannot write {out}") from None
    s.emit({"ok": True, "tournament": log_id, "seq": seq, "file": str(out),
            "checkpoint": str(path)},
           [f"proof of seq {seq} against {path} written to {out}",
            f"check it with: tourney audit proof {out}  (or python docs/verify_proof.py {out})"])
