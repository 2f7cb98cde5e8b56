"""Checkpoints and witness cosignatures in the audit (docs/AUDIT.md §4 and §4a).

Owns: ``NoteFile`` (a note's display name and bytes), ``parse_notes`` and ``note_findings``:
every note given (the log's own, a bundle's, and every ``--checkpoints DIR`` of the
auditor) is parsed, its head-judge signature verified against the keys the log declares,
its root compared with the log's root at its size; two verified notes of one size with
different roots are a fork whatever their file names.  Then the witnesses: every
cosignature of a declared witness is verified; a valid cosignature over a tree that is not
the log's prefix is ``cosignature_inconsistent``; the genesis witness policy asks for a
quorum of cosignatures on the end-of-event checkpoint and a fresh newest cosignature.

May import: ``ledger.*``, ``audit.findings``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from audit.findings import Finding, finding
from ledger.core.state import TournamentState
from ledger.proofs.checkpoint import (
    Checkpoint,
    CheckpointError,
    NoteSignature,
    parse_checkpoint_note,
)
from ledger.proofs.checkpoint_store import origin_of, trusted_checkpoint
from ledger.proofs.cosign import cosignatures, witnesses_of
from ledger.wire.clock import parse_time

NoteFile = tuple[str, bytes]  # (display name, note bytes)
ParsedNote = tuple[str, bytes, Checkpoint, list[NoteSignature]]


def parse_notes(notes: list[NoteFile]) -> tuple[list[ParsedNote], list[Finding]]:
    parsed: list[ParsedNote] = []
    out: list[Finding] = []
    for name, note in notes:
        try:
            cp, sigs = parse_checkpoint_note(note)
        except CheckpointError as exc:
            out.append(finding("checkpoint_malformed", None, f"{name}: {exc.message}"))
            continue
        parsed.append((name, note, cp, sigs))
    return parsed, out


def _finished(state: TournamentState) -> bool:
    """The event is over: its format's state names a champion (or says it is finished)."""
    fmt = getattr(state, "fmt", None)
    return getattr(fmt, "champion", None) is not None or bool(getattr(fmt, "finished", False))


def note_findings(notes: list[ParsedNote], roots: dict[int, bytes], state: TournamentState,
                  total: int, log: str | None) -> list[Finding]:
    out: list[Finding] = []
    if not notes:
        out.append(finding("no_checkpoint", None, "no checkpoint covers this log"))
    by_size: dict[int, tuple[str, bytes]] = {}
    witnesses = witnesses_of(state)
    cosigned_full: dict[str, int] = {}  # witness key id -> timestamp, on a size-n note
    newest: int | None = None
    for name, note, cp, sigs in notes:
        if log is not None and cp.origin != origin_of(log):
            out.append(finding("checkpoint_origin_mismatch", cp.size,
                               f"{name}: origin {cp.origin!r} is not {origin_of(log)!r}"))
            continue
        if Path(name).stem.isdigit() and int(Path(name).stem) != cp.size:
            out.append(finding("checkpoint_misnamed", cp.size, f"{name} holds size {cp.size}"))
        try:
            trusted_checkpoint(state, note)
        except CheckpointError as exc:
            out.append(finding("checkpoint_bad_signature", cp.size, f"{name}: {exc.message}"))
            continue
        consistent = True
        seen = by_size.get(cp.size)
        if seen is not None and seen[1] != cp.root:
            consistent = False
            out.append(finding("checkpoint_fork", cp.size, f"{name} and {seen[0]} are both "
                               f"signed for size {cp.size} with different roots"))
        by_size.setdefault(cp.size, (name, cp.root))
        if cp.size > total:
            consistent = False
            out.append(finding("checkpoint_beyond_log", cp.size, f"{name} covers {cp.size} "
                               f"events but the log has {total}: the tail was truncated"))
        elif roots.get(cp.size) != cp.root:
            consistent = False
            out.append(finding("checkpoint_root_mismatch", cp.size, f"{name}: the log's root "
                               f"at size {cp.size} differs from the signed root"))
        text = note[:note.rfind(b"\n\n") + 1]
        for co in cosignatures(text, sigs, witnesses):
            if not co.valid:
                out.append(finding("cosignature_bad", cp.size, f"{name}: the cosignature of "
                                   f"witness {co.key_id} does not verify"))
                continue
            w = next(x for x in witnesses.values() if x.key_id == co.key_id)
            if w.revoked_seq is not None and w.revoked_seq <= cp.size:
                # issue 21 item 5: never counts toward the quorum or freshness
                out.append(finding("cosignature_revoked", cp.size, f"{name}: witness "
                                   f"{co.key_id} was revoked at seq {w.revoked_seq}; its "
                                   f"cosignature of size {cp.size} does not count"))
                continue
            if not consistent:
                out.append(finding("cosignature_inconsistent", cp.size, f"{name}: witness "
                                   f"{co.key_id} cosigned a tree that is not this log's "
                                   f"prefix at size {cp.size}"))
                continue
            newest = co.timestamp if newest is None else max(newest, co.timestamp)
            if cp.size == total:
                cosigned_full[co.key_id] = co.timestamp
    latest = max((cp.size for _n, _b, cp, _s in notes), default=0)
    if 0 < latest < total:
        out.append(finding("unsealed_tail", latest + 1, f"events {latest + 1}..{total} are "
                           "not yet covered by a checkpoint"))
    out.extend(_policy_findings(state, total, cosigned_full, newest))
    return out


def _policy_findings(state: TournamentState, total: int, cosigned_full: dict[str, int],
                     newest: int | None) -> list[Finding]:
    out: list[Finding] = []
    policy = state.ledger_policy
    quorum = policy.witness_quorum
    if quorum > 0 and len(cosigned_full) < quorum:
        have = len(cosigned_full)
        message = (f"the checkpoint at the end of the log (size {total}) has {have} of the "
                   f"{quorum} witness cosignatures the genesis policy asks for")
        code = "witness_quorum_missing" if _finished(state) else "witness_quorum_pending"
        out.append(finding(code, total, message))
    if policy.witness_max_age_s > 0 and state.last_time:
        try:
            last = parse_time(state.last_time)
        except ValueError:
            return out
        if newest is None:
            out.append(finding("cosignature_stale", None, "no valid witness cosignature at "
                               f"all; the policy allows {policy.witness_max_age_s} s"))
        else:
            age = (last - datetime.fromtimestamp(newest, UTC)).total_seconds()
            if age > policy.witness_max_age_s:
                out.append(finding("cosignature_stale", None, f"the newest witness "
                                   f"cosignature is {age:.0f} s older than the last event; "
                                   f"the policy allows {policy.witness_max_age_s} s"))
    return out
